/* Drives a browser over prognoz's HTML page of a prediction on several machines
 * (tests/browser/machines.sh gives the arguments): node machines.js BROWSER ARTIFACTS
 * PAGE JSON, BROWSER as launch.js takes it, JSON being `prognoz predict --format json`
 * of the same command.
 * The page loads without a console error; its selector names the recorded run and
 * each machine; for every interval, the tree's columns show each run's execution time
 * and the table beside the details each run's characteristics as the JSON gives them;
 * choosing another run draws another timeline and another per-process chart.
 * Screenshots of each run shown go to ARTIFACTS (machines-K.png). */
'use strict';
const fs = require('fs');
const path = require('path');
const { launch } = require('./launch');

const [spec, artifacts, file, jsonFile] = process.argv.slice(2);
/* What every message begins with: the script and the browser. */
const TAG = 'machines.js: ' + spec.slice(0, spec.indexOf(':')) + ': ';
const problems = [];

function check(ok, what) {
    if (!ok) problems.push(what);
    return ok;
}

/* The numbers on the page are rounded as the page rounds them. */
function near(shown, value, key) {
    const decimals = key === 'efficiency' ? 3 : key === 'processors' || key === 'exe_count' ? 0 : 6;
    return shown !== '' && Math.abs(Number(shown) - value) <= 0.51 * Math.pow(10, -decimals);
}

const keyOf = (iv) => iv.file + ':' + iv.line + ':' + iv.id + ':' + iv.level;

/* The JSON's runs in the page's order: the recording, then each machine. */
function runsOf(json) {
    return [{ name: 'recorded', intervals: json.recorded.intervals }].concat(
        json.predictions.map((p) => ({ name: p.machine.name, intervals: p.report.intervals })));
}

/* What the page shows now: the run shown, its intervals' keys, the tree's columns and,
 * for every interval chosen in turn, the table beside the details. */
async function shown(page) {
    return page.evaluate(async () => {
        const data = JSON.parse(document.getElementById('pz-data').textContent);
        const out = { shown: window.prognozMachines.shown, keys: [], tree: [], side: [] };
        for (const [i, iv] of data.report.intervals.entries()) {
            out.keys.push(iv.file + ':' + iv.line + ':' + iv.id + ':' + iv.level);
            const node = document.querySelector('.node[data-interval="' + i + '"]');
            out.tree.push(Array.from(node.querySelectorAll('.runs span[data-run]'), (s) => s.textContent));
            node.querySelector('span.eff').click();
            await new Promise((done) => setTimeout(done, 0));   /* the table follows the details */
            const side = {};
            document.querySelectorAll('.side-by-side td[data-run]').forEach((td) => {
                side[td.getAttribute('data-key')] = side[td.getAttribute('data-key')] || [];
                side[td.getAttribute('data-key')][Number(td.getAttribute('data-run'))] = td.textContent;
            });
            out.side.push(side);
        }
        return out;
    });
}

function compare(page, runs) {
    const name = 'run ' + page.shown;
    page.keys.forEach((key, i) => {
        runs.forEach((run, r) => {
            const iv = run.intervals.find((v) => keyOf(v) === key);
            if (!check(iv, name + ': ' + run.name + ' lacks interval ' + key)) return;
            check(near(page.tree[i][r], iv.main.execution_time, 'execution_time'),
                  name + ': tree ' + key + ' ' + run.name + ' shows ' + page.tree[i][r] +
                  ', the JSON ' + iv.main.execution_time);
            for (const [k, v] of Object.entries(iv.main))
                check(page.side[i][k] && near(page.side[i][k][r], v, k),
                      name + ': ' + key + ' ' + run.name + ' ' + k + ' shows ' +
                      (page.side[i][k] && page.side[i][k][r]) + ', the JSON ' + v);
        });
    });
}

/* The pixels of the timeline and of the per-process chart. */
async function charts(page) {
    return page.evaluate(() => {
        const canvases = document.querySelectorAll('#app canvas');
        return { timeline: canvases[0].toDataURL(), processes: document.querySelector('.chart').toDataURL(),
                 renders: window.prognozStats.renders };
    });
}

(async () => {
    const runs = runsOf(JSON.parse(fs.readFileSync(jsonFile, 'utf8')));
    const browser = await launch(spec);
    const errors = [];
    try {
        const page = await browser.newPage();
        page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
        page.on('pageerror', (e) => errors.push(e.message));
        await page.setViewport({ width: 1400, height: 1000 });
        await page.goto('file://' + file, { waitUntil: 'load' });
        const options = await page.$$eval('#pz-machine option', (o) => o.map((x) => x.value + ' ' + x.textContent));
        check(JSON.stringify(options) === JSON.stringify(runs.map((r, k) => k + ' ' + (k ? r.name : 'recorded run'))),
              'the selector offers ' + JSON.stringify(options));
        const seen = [];
        for (const k of [1, 2, 0]) {
            await page.select('#pz-machine', String(k));
            await page.waitForFunction((k) => window.prognozMachines.shown === k && window.prognozStats &&
                                       window.prognozStats.renders >= 2, { timeout: 20000 }, k);
            await page.evaluate(() => document.querySelector('.node[data-interval="0"] span.eff').click());
            const mode = await page.evaluate(() => window.prognozStats.mode);
            check(mode === 'exact', 'run ' + k + ': timeline mode ' + mode);
            seen[k] = await charts(page);
            const now = await shown(page);
            check(now.shown === k, 'the selector shows run ' + now.shown + ', not ' + k);
            compare(now, runs);
            await page.screenshot({ path: path.join(artifacts, 'machines-' + k + '.png') });
        }
        for (const [a, b] of [[0, 1], [1, 2], [0, 2]]) {
            check(seen[a].timeline !== seen[b].timeline, 'runs ' + a + ' and ' + b + ' draw the same timeline');
            check(seen[a].processes !== seen[b].processes, 'runs ' + a + ' and ' + b + ' draw the same per-process chart');
        }
    } finally {
        await browser.close();
    }
    check(errors.length === 0, 'console errors: ' + errors.join('; '));
    problems.slice(0, 40).forEach((p) => console.error(TAG + p));
    if (problems.length > 40) console.error('machines.js: ... and ' + (problems.length - 40) + ' more');
    if (!problems.length)
        console.log(TAG + runs.length + ' runs, values, selector and charts checked');
    process.exit(problems.length ? 1 : 0);
})().catch((e) => {
    console.error(TAG + (e.stack || e));
    process.exit(1);
});
