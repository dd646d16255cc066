/* Drives a browser over prognoz's HTML page of a prediction on several machines of a
 * run with MPI-IO and one-sided calls (tests/browser/io_rma_machines.sh gives the
 * arguments): node io_rma_machines.js BROWSER ARTIFACTS PAGE JSON RUN...,
 * BROWSER as launch.js takes it, JSON `prognoz predict --format json` of the page's
 * command, then for each run in the page's order (the recorded one, then each machine)
 * its report with --per-process --format json (`prognoz report` of the recording,
 * `prognoz predict` on that machine alone).
 * The page loads without a console error; for each run chosen with the selector: the
 * timeline is exact, its legend names I/O and one-sided calls, it counts as many of
 * them as the JSON's profile of that run has calls of MPI_File_* and of MPI_Win_* and
 * MPI_Put, it draws MPI_File_write_all and the first one-sided call that takes time in
 * their colours, and names them and MPI_Put so in their tooltips; for every interval,
 * its bar in the tree and in the details have an I/O and a one-sided part of the JSON's
 * share of the bar, the details' legend names them, the per-process chart has as many
 * pixels of their colours as each process's I/O and one-sided time are of the tallest
 * bar, the table of I/O and one-sided figures and the table beside the details give
 * the JSON's values of every run (bytes as integers in both).  The I/O time the page
 * shows for a machine of io_scale 2 (named by IO_SCALED, default slow-io) is twice the
 * recorded run's, in every interval's figures and for the first MPI_File_write_all of
 * the timeline.  Screenshots: ARTIFACTS/io_rma_machines-K.png. */
'use strict';
const fs = require('fs');
const path = require('path');
const { launch } = require('./launch');
const { FIGURES, COLOURS, LEGEND, FAMILY, barChecks, installPageTools } = require('./io_rma_page');

const [spec, artifacts, file, jsonFile, ...perProcess] = process.argv.slice(2);
const TAG = 'io_rma_machines.js: ' + spec.slice(0, spec.indexOf(':')) + ': ';
const SCALED = process.env.IO_SCALED || 'slow-io';
const CLASSES = ['collective', 'blocking send', 'nonblocking send', 'blocking receive, wait or probe',
                 'nonblocking receive or test', 'other MPI', 'I/O', 'one-sided', 'user code'];
const problems = [];

function check(ok, what) {
    if (!ok) problems.push(what);
    return ok;
}
const { checkBar, checkChart } = barChecks(check);

/* A figure as shown: six decimals for a time, an integer for bytes. */
function near(shown, value, key) {
    const decimals = /_time$/.test(key) ? 6 : 0;
    return shown !== undefined && shown !== '' &&
        Math.abs(Number(shown) - value) <= 0.51 * Math.pow(10, -decimals);
}

/* The calls of a family in a report's profile. */
function calls(report, family) {
    return report.functions.filter((fn) => FAMILY[family].test(fn.name))
        .reduce((s, fn) => s + fn.calls, 0);
}

/* Interval i of the run shown, chosen: its bars, legend, chart pixels, the I/O and
 * one-sided table and the table beside the details. */
async function interval(page, i) {
    return page.evaluate(async (i, colours) => {
        const node = document.querySelector('.node[data-interval="' + i + '"]');
        const tree = window.pzIoRma.parts(node.querySelector('.bar'));
        node.querySelector('span.eff').click();
        await new Promise((resolve) => setTimeout(resolve, 0));
        const chart = window.pzIoRma.chart(i, colours);
        const out = { tree: tree, details: window.pzIoRma.parts(document.querySelector('.details > .bar')),
                      legend: Array.from(document.querySelectorAll('.details > .legend span'), (s) => s.textContent),
                      chart: chart, figures: {}, side: {},
                      chosen: window.prognozIoRma ? window.prognozIoRma.chosen : -1 };
        document.querySelectorAll('.details td[data-io-key]').forEach((td) => {
            if (td.getAttribute('data-io-process') === null) out.figures[td.getAttribute('data-io-key')] = td.textContent;
        });
        document.querySelectorAll('.side-by-side td[data-run]').forEach((td) => {
            const key = td.getAttribute('data-key');
            (out.side[key] = out.side[key] || [])[Number(td.getAttribute('data-run'))] = td.textContent;
        });
        return out;
    }, i, [COLOURS['I/O'], COLOURS['one-sided']]);
}

/* The first call on lane 0 of a function that test accepts (of non-zero duration if
 * timed), zoomed to fill the middle fifth of the timeline: its function, duration
 * (ns), the colour of the pixel at its middle, its tooltip. */
async function timelineCall(page, test, timed) {
    const at = await page.evaluate((source, flags, timed) => {
        const tl = JSON.parse(document.getElementById('pz-data').textContent).timeline;
        const accepts = new RegExp(source, flags);
        const i = tl.events[0].findIndex((e) => accepts.test(tl.functions[e[2]]) && (!timed || e[1] > 0));
        if (i < 0) return null;
        const e = tl.events[0][i], span = Math.max(e[1], 1);
        window.prognozStats.zoomTo(e[0] - 2 * span, e[0] + 3 * span);
        const call = window.prognozStats.callAt(0, i);
        const canvas = document.querySelector('.timeline canvas'), r = canvas.getBoundingClientRect();
        const px = canvas.getContext('2d').getImageData(Math.round(call.x - r.left), Math.round(call.y - r.top), 1, 1).data;
        return { name: call.name, x: call.x, y: call.y, duration: e[1], colour: [px[0], px[1], px[2]] };
    }, test.source, test.flags, timed);
    if (!at) return null;
    /* from elsewhere: the calls zoomed so are all at the same place */
    await page.mouse.move(0, 0);
    await page.mouse.move(at.x, at.y);
    at.tooltip = await page.evaluate(() => window.prognozStats.tooltip());
    await page.evaluate(() => window.prognozStats.zoomTo(0, Infinity));
    return at;
}

/* The timeline of the run shown (report: its JSON report): classes, counts, colours,
 * tooltips; returns the duration of its first MPI_File_write_all on lane 0. */
async function timeline(page, name, report) {
    const shown = await page.evaluate(() => ({
        legend: Array.from(document.querySelectorAll('.timeline .classes span'), (s) => s.textContent),
        perClass: window.prognozStats.perClass.slice(), mode: window.prognozStats.mode }));
    let duration;
    check(shown.mode === 'exact', name + ': the timeline is ' + shown.mode + ', not exact');
    check(JSON.stringify(shown.legend) === JSON.stringify(CLASSES),
          name + ': the timeline\'s legend is ' + JSON.stringify(shown.legend));
    check(shown.perClass.length === 8 && shown.perClass[6] === calls(report, 'I/O') &&
          shown.perClass[7] === calls(report, 'one-sided'),
          name + ': the timeline counts ' + JSON.stringify(shown.perClass) + ' calls per class, the JSON ' +
          calls(report, 'I/O') + ' of I/O and ' + calls(report, 'one-sided') + ' one-sided');
    /* The colour of a call that takes no time, drawn one pixel wide at a fraction of a
     * pixel, is blended with the lane's (a predicted MPI_Put): it is read on the first
     * one-sided call that takes some. */
    for (const [test, family, timed] of [[/^MPI_File_write_all$/, 'I/O', true], [/^MPI_Put$/, 'one-sided', false],
                                         [FAMILY['one-sided'], 'one-sided', true]]) {
        const at = await timelineCall(page, test, timed);
        if (!check(at, name + ': the timeline has no call of ' + test.source + (timed ? ' that takes time' : '') +
                   ' on lane 0')) continue;
        check(!timed || JSON.stringify(at.colour) === JSON.stringify(COLOURS[family]), name + ': the timeline draws ' +
              at.name + ' in ' + JSON.stringify(at.colour) + ', not ' + family + '\'s colour');
        check(at.tooltip.indexOf(at.name + '  (' + family + ')') === 0,
              name + ': the tooltip of ' + at.name + ' is ' + JSON.stringify(at.tooltip));
        if (family === 'I/O') duration = at.duration;
    }
    return duration;
}

/* Run k shown: everything above, against its JSON report (values of every run for the
 * table beside the details) and its per-process report.  Returns the I/O time shown
 * per interval and the first MPI_File_write_all's duration. */
async function run(page, k, runs, detailed) {
    const name = runs[k].name, report = runs[k].report, io = { figures: [] };
    await page.select('#pz-machine', String(k));
    await page.waitForFunction((k) => window.prognozMachines.shown === k && window.prognozStats,
                               { timeout: 20000 }, k);
    io.writeAll = await timeline(page, name, report);
    for (let i = 0; i < report.intervals.length; i++) {
        const iv = report.intervals[i], where = name + ': interval ' + i, shown = await interval(page, i);
        check(shown.chosen === i, where + ': no I/O and one-sided table for it');
        checkBar(where + ' in the tree', shown.tree, iv.main);
        checkBar(where + ' in the details', shown.details, iv.main);
        check(JSON.stringify(shown.legend) === JSON.stringify(LEGEND),
              where + ': the legend is ' + JSON.stringify(shown.legend));
        checkChart(where, shown.chart, detailed.intervals[i]);
        FIGURES.forEach((key) => check(near(shown.figures[key], iv.main[key], key),
            where + ': ' + key + ' shows ' + shown.figures[key] + ', the JSON ' + iv.main[key]));
        /* bytes as integers, as the table above gives them */
        runs.forEach((r, j) => FIGURES.forEach((key) => {
            const v = r.report.intervals[i].main[key], cell = shown.side[key] && shown.side[key][j];
            check(/_time$/.test(key) ? near(cell, v, key) : cell === String(v), where + ': beside the details, ' +
                  r.name + ' ' + key + ' shows ' + cell + ', the JSON ' + v);
        }));
        io.figures.push(shown.figures.io_time);
    }
    await page.screenshot({ path: path.join(artifacts, 'io_rma_machines-' + k + '.png'), fullPage: true });
    return io;
}

(async () => {
    const json = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
    const runs = [{ name: 'recorded', report: json.recorded }].concat(
        json.predictions.map((p) => ({ name: p.machine.name, report: p.report })));
    /* a report, or the prediction of one machine */
    const detailed = perProcess.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')))
        .map((d) => d.predictions ? d.predictions[0].report : d);
    const scaled = runs.findIndex((r) => r.name === SCALED), io = [];
    const browser = await launch(spec);
    const errors = [];
    check(detailed.length === runs.length, detailed.length + ' per-process reports for ' + runs.length + ' runs');
    check(scaled > 0, 'no machine named ' + SCALED);
    try {
        const page = await browser.newPage();
        page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
        page.on('pageerror', (e) => errors.push(e.message));
        await page.setViewport({ width: 1400, height: 1000 });
        await page.goto('file://' + file, { waitUntil: 'load' });
        await installPageTools(page);
        await page.waitForFunction(() => window.prognozMachines && window.prognozStats, { timeout: 20000 });
        for (const k of [1, 2, 0].filter((k) => k < runs.length))
            io[k] = await run(page, k, runs, detailed[k] || runs[k].report);
    } catch (e) {
        check(false, 'the page stopped the test: ' + (e.stack || e));
    } finally {
        await browser.close();
    }
    if (scaled > 0 && io[scaled] && io[0]) {
        io[0].figures.forEach((recorded, i) => check(
            Math.abs(Number(io[scaled].figures[i]) - 2 * Number(recorded)) <= 2.1e-6,
            SCALED + ': interval ' + i + ' shows I/O time ' + io[scaled].figures[i] + ', the recorded run ' + recorded));
        check(io[0].writeAll > 0 && Math.abs(io[scaled].writeAll - 2 * io[0].writeAll) <= 2,
              SCALED + ': its first MPI_File_write_all takes ' + io[scaled].writeAll + ' ns on the timeline, ' +
              'the recorded one ' + io[0].writeAll);
    }
    check(errors.length === 0, 'console errors: ' + errors.join('; '));
    problems.slice(0, 40).forEach((p) => console.error(TAG + p));
    if (problems.length > 40) console.error(TAG + '... and ' + (problems.length - 40) + ' more');
    if (!problems.length)
        console.log(TAG + runs.length + ' runs: I/O and one-sided time and calls shown as the JSON gives them, ' +
                    SCALED + '\'s I/O twice the recorded');
    process.exit(problems.length ? 1 : 0);
})().catch((e) => {
    console.error(TAG + (e.stack || e));
    process.exit(1);
});
