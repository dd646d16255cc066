/* Drives a browser over the HTML report of a run with MPI-IO and one-sided calls
 * (tests/browser/io_rma.sh gives the arguments): node io_rma.js BROWSER ARTIFACTS PAGE
 * JSON, BROWSER as launch.js takes it, JSON the page's run reported with --format json
 * --per-process.  The page opens without a console error; for every interval, its bar
 * in the tree and, once chosen, its bar in the details have an I/O and a one-sided part
 * of the JSON report's share of the bar, and the details show the JSON report's six
 * figures for the interval and each process; in the tables without script, every
 * interval's rows and columns of them, and the MPI functions by family: the calls and
 * time of the program's I/O (MPI_File_*) and one-sided (MPI_Win_*, MPI_Put) functions of
 * the JSON report's profile, and the whole run's bytes.  Screenshot: ARTIFACTS/io_rma.png. */
'use strict';
const path = require('path');
const { launch } = require('./launch');

const [spec, artifacts, file, json] = process.argv.slice(2);
const TAG = 'io_rma.js: ' + spec.slice(0, spec.indexOf(':')) + ': ';
const report = require(path.resolve(json));
const FIGURES = ['io_time', 'io_bytes_read', 'io_bytes_written', 'rma_time', 'rma_bytes_put',
                 'rma_bytes_got'];
const LABELS = ['I/O Time', 'I/O Bytes Read', 'I/O Bytes Written', 'One-Sided Time',
                'One-Sided Bytes Put', 'One-Sided Bytes Got'];
const problems = [];

function check(ok, what) {
    if (!ok) problems.push(what);
    return ok;
}

/* A figure as shown: six decimals for a time, an integer for bytes. */
function near(shown, value, key) {
    const decimals = /_time$/.test(key) ? 6 : 0;
    return Math.abs(Number(shown) - value) <= 0.51 * Math.pow(10, -decimals);
}

/* The shares (%) of I/O and one-sided time in the bar of values v, as report_html.js
 * sums its six parts. */
function shares(v) {
    const sync = Math.max(0, Math.min(v.synchronization, v.communication_time));
    const total = (v.productive_time + v.insufficient_parallelism + v.communication_time - sync +
                   sync + Math.max(0, v.mpi_time - v.communication_time) + v.idle_time) || 1;
    return [100 * v.io_time / total, 100 * v.rma_time / total];
}

function checkBar(where, parts, v) {
    const want = shares(v);
    check(parts.length === 2, where + ': ' + parts.length + ' I/O and one-sided parts');
    parts.forEach((shown, k) => check(Math.abs(shown - want[k]) <= 0.006,
                                      where + ': part ' + k + ' is ' + shown + '%, expected ' + want[k]));
}

async function interactive(page) {
    for (let i = 0; i < report.intervals.length; i++) {
        const iv = report.intervals[i];
        const shown = await page.evaluate(async (i) => {
            const parts = (bar) => Array.from(bar.querySelectorAll('span[data-io-part]'))
                .map((s) => parseFloat(s.style.width));
            const node = document.querySelector('.node[data-interval="' + i + '"]');
            const tree = parts(node.querySelector('.bar'));
            node.querySelector('span:last-child').click();
            await new Promise((resolve) => setTimeout(resolve, 0));
            const out = { tree: tree, details: parts(document.querySelector('.details > .bar')),
                          main: {}, processes: {}, chosen: window.prognozIoRma.chosen };
            document.querySelectorAll('.details td[data-io-key]').forEach((td) => {
                const key = td.getAttribute('data-io-key'), p = td.getAttribute('data-io-process');
                if (p === null) out.main[key] = td.textContent;
                else (out.processes[p] = out.processes[p] || {})[key] = td.textContent;
            });
            return out;
        }, i);
        const name = 'interval ' + i;
        check(shown.chosen === i, name + ': not chosen');
        checkBar(name + ' in the tree', shown.tree, iv.main);
        checkBar(name + ' in the details', shown.details, iv.main);
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
    const family = { 'I/O': /^MPI_File_/, 'one-sided': /^MPI_(Win_|Put$)/ };
    const bytes = { 'I/O': 'read ' + run.io_bytes_read + ' B, written ' + run.io_bytes_written + ' B',
                    'one-sided': 'put ' + run.rma_bytes_put + ' B, got ' + run.rma_bytes_got + ' B' };
    Object.keys(family).forEach((f) => {
        const functions = report.functions.filter((fn) => family[f].test(fn.name));
        const calls = functions.reduce((s, fn) => s + fn.calls, 0);
        const time = functions.reduce((s, fn) => s + fn.time, 0);
        const row = shown.families[f] || [];
        check(Number(row[0]) === calls, 'families: ' + f + ' calls ' + row[0] + ', the JSON report ' + calls);
        check(Math.abs(Number(row[1]) - time) <= 1e-6, 'families: ' + f + ' time ' + row[1] + ', the JSON report ' + time);
        check(row[3] === bytes[f], 'families: ' + f + ' bytes "' + row[3] + '", expected "' + bytes[f] + '"');
    });
    /* the functions of neither family are the program's others */
    check(Number((shown.families.other || [])[0]) === report.functions.filter((fn) =>
        !family['I/O'].test(fn.name) && !family['one-sided'].test(fn.name)).reduce((s, fn) => s + fn.calls, 0),
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
        await page.waitForFunction(() => window.prognozStats && window.prognozIoRma &&
                                   window.prognozIoRma.tables > 0);
        await interactive(page);
        await tables(page);
        await page.screenshot({ path: path.join(artifacts, 'io_rma.png'), fullPage: true });
        check(errors.length === 0, 'console errors: ' + errors.join('; '));
    } finally {
        await browser.close();
    }
    problems.forEach((p) => console.error(TAG + p));
    if (!problems.length) console.log(TAG + 'the page shows the JSON report\'s I/O and one-sided figures');
    process.exit(problems.length ? 1 : 0);
})().catch((e) => {
    console.error(TAG + (e.stack || e));
    process.exit(1);
});
