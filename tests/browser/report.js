/* Drives a browser over prognoz's HTML report (tests/browser/report.sh gives the
 * arguments): node report.js BROWSER ARTIFACTS [PAGE JSON CLASSES]..., BROWSER as
 * launch.js takes it.
 * For each page: no console error; the timeline's calls per class are CLASSES (a JSON
 * list, from otf2-print).  On the first page also: the tree opens and closes; the
 * chosen interval shows the JSON report's numbers; a tooltip names the call under the
 * mouse, whose click chooses its interval.  Screenshots go to ARTIFACTS (report-small.png:
 * the one docs/report-html.png is made of). */
'use strict';
const fs = require('fs');
const path = require('path');
const { launch } = require('./launch');

const [spec, artifacts, ...rest] = process.argv.slice(2);
/* What every message begins with: the script and the browser. */
const TAG = 'report.js: ' + spec.slice(0, spec.indexOf(':')) + ': ';
const problems = [];

function check(ok, what) {
    if (!ok) problems.push(what);
    return ok;
}

/* The numbers on the page are rounded as the page rounds them. */
function near(shown, value, decimals) {
    return Math.abs(Number(shown) - value) <= 0.51 * Math.pow(10, -decimals);
}

async function tree(page, name) {
    const toggled = await page.evaluate(() => {
        const toggle = document.querySelector('.tree .node .toggle');
        const li = toggle.closest('li'), child = li.querySelector('ul');
        const seen = [];
        toggle.click();
        seen.push(li.className === 'closed' && child.offsetParent === null);
        toggle.click();
        seen.push(li.className !== 'closed' && child.offsetParent !== null);
        return seen;
    });
    check(toggled[0], name + ': the tree does not close');
    check(toggled[1], name + ': the tree does not open again');
}

/* Every interval chosen in turn shows the JSON report's values. */
async function values(page, name, report) {
    for (let i = 0; i < report.intervals.length; i++) {
        const shown = await page.evaluate((i) => {
            document.querySelector('.node[data-interval="' + i + '"] span:last-child').click();
            const out = { main: {}, comparative: {} };
            document.querySelectorAll('.details td[data-key]').forEach((td) => {
                out.main[td.getAttribute('data-key')] = td.textContent;
            });
            document.querySelectorAll('.details tr[data-key]').forEach((tr) => {
                const c = {};
                tr.querySelectorAll('td[data-what]').forEach((td) => {
                    c[td.getAttribute('data-what')] = td.textContent;
                });
                out.comparative[tr.getAttribute('data-key')] = c;
            });
            out.chosen = window.prognozStats.chosen;
            return out;
        }, i);
        const iv = report.intervals[i];
        check(shown.chosen === i, name + ': interval ' + i + ' not chosen');
        check(Object.keys(shown.main).length >= 25, name + ': interval ' + i + ' shows ' +
              Object.keys(shown.main).length + ' values');
        for (const [key, text] of Object.entries(shown.main)) {
            const decimals = key === 'efficiency' ? 3 : key === 'processors' || key === 'exe_count' ? 0 : 6;
            check(key in iv.main && near(text, iv.main[key], decimals),
                  name + ': interval ' + i + ' ' + key + ' shows ' + text + ', the JSON report ' + iv.main[key]);
        }
        for (const [key, c] of Object.entries(iv.comparative))
            for (const what of ['min', 'max', 'mean'])
                check(shown.comparative[key] && near(shown.comparative[key][what], c[what], 6),
                      name + ': interval ' + i + ' comparative ' + key + ' ' + what);
    }
}

/* The longest call of a function with a peer, widened by zooming, under the mouse. */
async function tooltip(page, name) {
    const target = await page.evaluate(() => {
        const tl = JSON.parse(document.getElementById('pz-data').textContent).timeline;
        let best = null;
        tl.events.forEach((lane, l) => lane.forEach((e, i) => {
            if (e.length >= 10 && e[5] !== 0 && (!best || e[1] > best.e[1])) best = { l, i, e };
        }));
        if (!best) return null;
        window.prognozStats.zoomTo(best.e[0] - best.e[1], best.e[0] + 2 * best.e[1]);
        return { lane: best.l, index: best.i, call: best.e, name: tl.functions[best.e[2]],
                 at: window.prognozStats.callAt(best.l, best.i) };
    });
    if (!check(target, name + ': no call with a peer on the timeline')) return;
    await page.mouse.move(target.at.x, target.at.y);
    const text = await page.evaluate(() => window.prognozStats.tooltip());
    const e = target.call;
    check(text.startsWith(target.name + ' '), name + ': the tooltip at ' + target.name + ' says ' + JSON.stringify(text));
    check(text.includes((e[5] === 1 ? 'to ' : 'from ') + e[6] + ', tag ' + e[7]) &&
          text.includes('bytes ' + e[8] + ', communicator ' + e[9]),
          name + ': the tooltip lacks peer, tag, bytes or communicator: ' + JSON.stringify(text));
    await page.mouse.click(target.at.x, target.at.y);
    const chosen = await page.evaluate(() => ({
        stats: window.prognozStats.chosen,
        tree: document.querySelector('.node.chosen').getAttribute('data-interval'),
    }));
    check(chosen.stats === e[4] && chosen.tree === String(e[4]),
          name + ': a click on the call chose ' + JSON.stringify(chosen) + ', not interval ' + e[4]);
    await page.evaluate(() => window.prognozStats.zoomTo(0, Infinity));
}

async function one(browser, n, file, jsonFile, classes) {
    const name = path.basename(file);
    const page = await browser.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.setViewport({ width: 1200, height: 900 });
    await page.goto('file://' + file, { waitUntil: 'load' });
    await page.waitForFunction(() => window.prognozStats && window.prognozStats.renders >= 2,
                               { timeout: 20000 });
    const stats = await page.evaluate(() => ({
        mode: window.prognozStats.mode, perClass: window.prognozStats.perClass,
        drawn: window.prognozStats.drawnPerClass }));
    const expected = JSON.parse(classes);
    check(stats.mode === 'exact', name + ': timeline mode ' + stats.mode);
    check(JSON.stringify(stats.perClass) === JSON.stringify(expected),
          name + ': calls per class ' + JSON.stringify(stats.perClass) + ', otf2-print ' + classes);
    check(JSON.stringify(stats.drawn) === JSON.stringify(expected),
          name + ': calls drawn per class ' + JSON.stringify(stats.drawn) + ', otf2-print ' + classes);
    if (n === 0) {
        const report = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
        await tree(page, name);
        await values(page, name, report);
        await tooltip(page, name);
        await page.evaluate(() => {
            const tl = JSON.parse(document.getElementById('pz-data').textContent).timeline;
            let from = tl.end;
            tl.bands.forEach((lane) => lane.forEach((b) => { from = Math.min(from, b[0]); }));
            document.querySelector('.node[data-interval="1"] span:last-child').click();
            window.prognozStats.zoomTo(from - (tl.end - from) / 20, tl.end);
        });
        await page.mouse.move(1, 1);
    }
    await page.screenshot({ path: path.join(artifacts, n === 0 ? 'report.png' : 'report' + n + '.png') });
    if (n === 0)   /* the timeline and the tree, small enough for docs/report-html.png */
        await page.screenshot({ path: path.join(artifacts, 'report-small.png'),
                                clip: { x: 0, y: 110, width: 1200, height: 360 } });
    check(errors.length === 0, name + ': console errors: ' + errors.join('; '));
    console.log(TAG + name + ': calls per class ' + JSON.stringify(stats.perClass) +
                (n === 0 ? ', tree, values, tooltip and click checked' : ''));
    await page.close();
}

(async () => {
    const browser = await launch(spec);
    try {
        for (let n = 0; n * 3 < rest.length; n++)
            await one(browser, n, rest[3 * n], rest[3 * n + 1], rest[3 * n + 2]);
    } finally {
        await browser.close();
    }
    problems.forEach((p) => console.error(TAG + p));
    process.exit(problems.length ? 1 : 0);
})().catch((e) => {
    console.error(TAG + (e.stack || e));
    process.exit(1);
});
