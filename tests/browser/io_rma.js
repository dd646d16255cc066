/* Drives a browser over the HTML report of a run with MPI-IO and one-sided calls
 * (tests/browser/io_rma.sh gives the arguments): node io_rma.js BROWSER ARTIFACTS PAGE
 * JSON PLAIN, BROWSER as launch.js takes it, JSON the page's run reported with --format
 * json --per-process, PLAIN the page of a run without such calls.  The page opens
 * without a console error; for every interval, its bar in the tree and, once chosen, its
 * bar in the details have an I/O and a one-sided part of the JSON report's share of the
 * bar, the legend names them, each process's bar on the per-process chart has as many
 * pixels of their colours as its I/O and one-sided time are of the tallest bar, and the
 * details show the JSON report's six figures for the interval and each process; the
 * timeline's legend names I/O and one-sided calls, it counts as many of them as the JSON
 * report's profile has calls of MPI_File_* and of MPI_Win_* and MPI_Put, and it draws
 * MPI_File_write_all and MPI_Put in their colours, named so in their tooltips; in the
 * tables without script, every
 * interval's rows and columns of them, and the MPI functions by family: the calls and
 * time of the program's I/O (MPI_File_*) and one-sided (MPI_Win_*, MPI_Put) functions of
 * the JSON report's profile, and the whole run's bytes.  The page PLAIN has none of these
 * classes, parts or legend entries.  Screenshot: ARTIFACTS/io_rma.png. */
'use strict';
const path = require('path');
const { launch } = require('./launch');
const { FIGURES, COLOURS, LEGEND, FAMILY, barChecks, installPageTools } = require('./io_rma_page');

const [spec, artifacts, file, json, plain] = process.argv.slice(2);
const TAG = 'io_rma.js: ' + spec.slice(0, spec.indexOf(':')) + ': ';
const report = require(path.resolve(json));
const LABELS = ['I/O Time', 'I/O Bytes Read', 'I/O Bytes Written', 'One-Sided Time',
                'One-Sided Bytes Put', 'One-Sided Bytes Got'];
const CLASSES = ['collective', 'blocking send', 'nonblocking send', 'blocking receive, wait or probe',
                 'nonblocking receive or test', 'other MPI'];
const problems = [];

function check(ok, what) {
    if (!ok) problems.push(what);
    return ok;
}
const { checkBar, checkChart } = barChecks(check);

/* A figure as shown: six decimals for a time, an integer for bytes. */
function near(shown, value, key) {
    const decimals = /_time$/.test(key) ? 6 : 0;
    return Math.abs(Number(shown) - value) <= 0.51 * Math.pow(10, -decimals);
}

async function interactive(page) {
    const drawn = [0, 0];
    for (let i = 0; i < report.intervals.length; i++) {
        const iv = report.intervals[i];
        const shown = await page.evaluate(async (i, colours) => {
            const node = document.querySelector('.node[data-interval="' + i + '"]');
            const tree = window.pzIoRma.parts(node.querySelector('.bar'));
            node.querySelector('span:last-child').click();
            await new Promise((resolve) => setTimeout(resolve, 0));
            const chart = window.pzIoRma.chart(i, colours);
            const out = { tree: tree, details: window.pzIoRma.parts(document.querySelector('.details > .bar')),
                          legend: Array.from(document.querySelectorAll('.details > .legend span'))
                              .map((s) => s.textContent),
                          chart: chart, main: {}, processes: {}, chosen: window.prognozIoRma.chosen };
            document.querySelectorAll('.details td[data-io-key]').forEach((td) => {
                const key = td.getAttribute('data-io-key'), p = td.getAttribute('data-io-process');
                if (p === null) out.main[key] = td.textContent;
                else (out.processes[p] = out.processes[p] || {})[key] = td.textContent;
            });
            return out;
        }, i, [COLOURS['I/O'], COLOURS['one-sided']]);
        const name = 'interval ' + i;
        check(shown.chosen === i, name + ': not chosen');
        checkBar(name + ' in the tree', shown.tree, iv.main);
        checkBar(name + ' in the details', shown.details, iv.main);
        check(JSON.stringify(shown.legend) === JSON.stringify(LEGEND),
              name + ': the legend is ' + JSON.stringify(shown.legend));
        checkChart(name, shown.chart, iv).forEach((n, c) => { drawn[c] += n; });
        FIGURES.forEach((key) => {
            check(near(shown.main[key], iv.main[key], key),
                  name + ': ' + key + ' shows ' + shown.main[key] + ', the JSON report ' + iv.main[key]);
            iv.per_process.forEach((p, k) => {
                const text = shown.processes[k] && shown.processes[k][key];
                check(near(text, p.values[key], key), name + ': process ' + k + ' ' + key +
                      ' shows ' + text + ', the JSON report ' + p.values[key]);
            });
        });
    }
    /* programs/io_rma's I/O and one-sided time are more than a few pixels of some bar */
    check(drawn[0] >= 3 && drawn[1] >= 3, 'the per-process charts draw ' + drawn[0] +
          ' pixels of I/O and ' + drawn[1] + ' of one-sided time in all');
}

/* The calls of each family in the JSON report's profile. */
function calls(family) {
    return report.functions.filter((fn) => FAMILY[family].test(fn.name))
        .reduce((s, fn) => s + fn.calls, 0);
}

/* Function name's first call on lane 0, zoomed to fill the middle fifth of the
 * timeline: the colour of the pixel at its middle, and its tooltip. */
async function timelineCall(page, name) {
    const at = await page.evaluate((name) => {
        const tl = JSON.parse(document.getElementById('pz-data').textContent).timeline;
        const i = tl.events[0].findIndex((e) => tl.functions[e[2]] === name);
        if (i < 0) return null;
        const e = tl.events[0][i], span = Math.max(e[1], 1);
        window.prognozStats.zoomTo(e[0] - 2 * span, e[0] + 3 * span);
        const call = window.prognozStats.callAt(0, i);
        const canvas = document.querySelector('.timeline canvas'), r = canvas.getBoundingClientRect();
        const px = canvas.getContext('2d').getImageData(Math.round(call.x - r.left), Math.round(call.y - r.top), 1, 1).data;
        return { x: call.x, y: call.y, colour: [px[0], px[1], px[2]] };
    }, name);
    if (!at) return null;
    /* from elsewhere: the calls zoomed so are all at the same place */
    await page.mouse.move(0, 0);
    await page.mouse.move(at.x, at.y);
    at.tooltip = await page.evaluate(() => window.prognozStats.tooltip());
    return at;
}

async function timeline(page) {
    const shown = await page.evaluate(() => ({
        legend: Array.from(document.querySelectorAll('.timeline .classes span')).map((s) => s.textContent),
        perClass: window.prognozStats.perClass.slice(), mode: window.prognozStats.mode }));
    check(shown.mode === 'exact', 'the timeline is ' + shown.mode + ', not exact');
    check(JSON.stringify(shown.legend) === JSON.stringify(CLASSES.concat(['I/O', 'one-sided', 'user code'])),
          'the timeline\'s legend is ' + JSON.stringify(shown.legend));
    check(shown.perClass.length === 8 && shown.perClass[6] === calls('I/O') &&
          shown.perClass[7] === calls('one-sided'),
          'the timeline counts ' + JSON.stringify(shown.perClass) + ' calls per class, the JSON report ' +
          calls('I/O') + ' of I/O and ' + calls('one-sided') + ' one-sided');
    for (const [name, family] of [['MPI_File_write_all', 'I/O'], ['MPI_Put', 'one-sided']]) {
        const at = await timelineCall(page, name);
        if (!check(at, 'the timeline has no ' + name + ' on lane 0')) continue;
        check(JSON.stringify(at.colour) === JSON.stringify(COLOURS[family]),
              'the timeline draws ' + name + ' in ' + JSON.stringify(at.colour) + ', not ' + family + '\'s colour');
        check(at.tooltip.indexOf(name + '  (' + family + ')') === 0,
              'the tooltip of ' + name + ' is ' + JSON.stringify(at.tooltip));
    }
    await page.evaluate(() => window.prognozStats.zoomTo(0, Infinity));
}

/* The page of a run without MPI-IO or one-sided calls: none of their parts or classes. */
async function without(browser) {
    const page = await browser.newPage();
    await page.goto('file://' + plain, { waitUntil: 'load' });
    await page.waitForFunction(() => window.prognozStats);
    const shown = await page.evaluate(() => ({
        classes: Array.from(document.querySelectorAll('.timeline .classes span')).map((s) => s.textContent),
        legend: Array.from(document.querySelectorAll('.details > .legend span')).map((s) => s.textContent),
        perClass: window.prognozStats.perClass.length, script: window.prognozIoRma !== undefined,
        values: JSON.parse(document.getElementById('pz-data').textContent).processes.values[0][0].length }));
    check(JSON.stringify(shown.classes) === JSON.stringify(CLASSES.concat(['user code'])),
          'without I/O: the timeline\'s legend is ' + JSON.stringify(shown.classes));
    check(JSON.stringify(shown.legend) === JSON.stringify(LEGEND.filter((p) => !COLOURS[p])),
          'without I/O: the legend is ' + JSON.stringify(shown.legend));
    check(shown.perClass === 6 && shown.values === 7 && !shown.script,
          'without I/O: ' + shown.perClass + ' classes of calls, ' + shown.values +
          ' values per process, the I/O script ' + (shown.script ? 'run' : 'absent'));
    await page.close();
}

async function tables(page) {
    const shown = await page.evaluate((labels) => {
        const rows = {}, families = {}, columns = [];
        document.querySelectorAll('#tables tr').forEach((tr) => {
            const cells = Array.from(tr.children).map((c) => c.textContent);
            if (labels.indexOf(cells[0]) >= 0) (rows[cells[0]] = rows[cells[0]] || []).push(cells.slice(1));
        });
        document.querySelectorAll('#families tr').forEach((tr) => {
            const cells = Array.from(tr.children).map((c) => c.textContent);
            families[cells[0]] = cells.slice(1);
        });
        const intervals = document.querySelector('#tables table');
        const heads = Array.from(intervals.rows[0].cells).map((c) => c.textContent);
        Array.from(intervals.rows).slice(1).forEach((r) => columns.push(
            [r.cells[heads.indexOf('I/O')].textContent, r.cells[heads.indexOf('one-sided')].textContent]));
        return { rows: rows, families: families, columns: columns };
    }, LABELS);
    report.intervals.forEach((iv, i) => {
        FIGURES.forEach((key, f) => {
            const cells = shown.rows[LABELS[f]] && shown.rows[LABELS[f]][i];
            check(cells && cells.length === 1 + iv.per_process.length,
                  'tables: interval ' + i + ' ' + LABELS[f] + ': ' + JSON.stringify(cells));
            if (!cells) return;
            check(near(cells[0], iv.main[key], key), 'tables: interval ' + i + ' ' + key +
                  ' shows ' + cells[0] + ', the JSON report ' + iv.main[key]);
            iv.per_process.forEach((p, k) => check(near(cells[1 + k], p.values[key], key),
                'tables: interval ' + i + ' process ' + k + ' ' + key + ' shows ' + cells[1 + k]));
        });
        const columns = shown.columns[i] || [];
        check(near(columns[0], iv.main.io_time, 'io_time') && near(columns[1], iv.main.rma_time, 'rma_time'),
              'tables: interval ' + i + ' columns ' + JSON.stringify(columns));
    });
    const run = report.intervals[0].main;
    const bytes = { 'I/O': 'read ' + run.io_bytes_read + ' B, written ' + run.io_bytes_written + ' B',
                    'one-sided': 'put ' + run.rma_bytes_put + ' B, got ' + run.rma_bytes_got + ' B' };
    Object.keys(FAMILY).forEach((f) => {
        const functions = report.functions.filter((fn) => FAMILY[f].test(fn.name));
        const calls = functions.reduce((s, fn) => s + fn.calls, 0);
        const time = functions.reduce((s, fn) => s + fn.time, 0);
        const row = shown.families[f] || [];
        check(Number(row[0]) === calls, 'families: ' + f + ' calls ' + row[0] + ', the JSON report ' + calls);
        check(Math.abs(Number(row[1]) - time) <= 1e-6, 'families: ' + f + ' time ' + row[1] + ', the JSON report ' + time);
        check(row[3] === bytes[f], 'families: ' + f + ' bytes "' + row[3] + '", expected "' + bytes[f] + '"');
    });
    /* the functions of neither family are the program's others */
    check(Number((shown.families.other || [])[0]) === report.functions.filter((fn) =>
        !FAMILY['I/O'].test(fn.name) && !FAMILY['one-sided'].test(fn.name)).reduce((s, fn) => s + fn.calls, 0),
          'families: other calls ' + JSON.stringify(shown.families.other));
}

(async () => {
    const browser = await launch(spec);
    try {
        const page = await browser.newPage();
        const errors = [];
        page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
        page.on('pageerror', (e) => errors.push(e.message));
        await page.setViewport({ width: 1200, height: 900 });
        await page.goto('file://' + file, { waitUntil: 'load' });
        await installPageTools(page);
        await page.waitForFunction(() => window.prognozStats && window.prognozIoRma &&
                                   window.prognozIoRma.tables > 0);
        await interactive(page);
        await timeline(page);
        await tables(page);
        await page.screenshot({ path: path.join(artifacts, 'io_rma.png'), fullPage: true });
        check(errors.length === 0, 'console errors: ' + errors.join('; '));
        await without(browser);
    } finally {
        await browser.close();
    }
    problems.forEach((p) => console.error(TAG + p));
    if (!problems.length) console.log(TAG + 'the page shows the JSON report\'s I/O and one-sided figures, ' +
                                      'the per-process chart and timeline draw them, the other page does not');
    process.exit(problems.length ? 1 : 0);
})().catch((e) => {
    console.error(TAG + (e.stack || e));
    process.exit(1);
});
