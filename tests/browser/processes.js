/* Drives a browser over prognoz's HTML report of many processes (tests/browser/
 * processes.sh gives the arguments): node processes.js BROWSER ARTIFACTS PROCESSES
 * PAGE..., BROWSER as launch.js takes it.  Each page opens without a console error
 * within 60 s; its per-process chart holds PROCESSES processes, one by one or in groups, and is aggregated to its canvas:
 * the rectangles drawn on it (counted by wrapping the canvas's fillRect before the page
 * runs) are at most six per pixel column, in rank order and sorted, and its caption
 * counts PROCESSES processes and says how they were grouped.  Screenshots go to
 * ARTIFACTS (processes-N.png). */
'use strict';
const path = require('path');
const { launch } = require('./launch');

const [spec, artifacts, processes, ...pages] = process.argv.slice(2);
/* What every message begins with: the script and the browser. */
const TAG = 'processes.js: ' + spec.slice(0, spec.indexOf(':')) + ': ';
const OPEN_WITHIN = 60000;
const problems = [];

function check(ok, what) {
    if (!ok) problems.push(what);
    return ok;
}

/* Counts, per canvas of class "chart", the rectangles filled since the last reset. */
function countChartRectangles() {
    const fill = CanvasRenderingContext2D.prototype.fillRect;
    window.chartRectangles = 0;
    CanvasRenderingContext2D.prototype.fillRect = function () {
        if (this.canvas.classList.contains('chart')) window.chartRectangles++;
        return fill.apply(this, arguments);
    };
}

async function chart(page) {
    return page.evaluate(() => {
        const canvas = document.querySelector('.details canvas.chart');
        const data = JSON.parse(document.getElementById('pz-data').textContent);
        return { width: canvas.width, rectangles: window.chartRectangles,
                 caption: canvas.nextSibling.textContent, group: data.processes.group,
                 groups: data.processes.values[window.prognozStats.chosen].length };
    });
}

function bounded(name, what, c) {
    check(c.rectangles > 0 && c.rectangles <= 6 * c.width,
          name + ': ' + what + ': ' + c.rectangles + ' rectangles on a chart ' + c.width +
          ' pixels wide (at most 6 per column)');
    check(/in groups of|per bar/.test(c.caption),
          name + ': ' + what + ': the caption does not say how the processes are grouped: ' +
          JSON.stringify(c.caption));
    check(c.caption.indexOf(processes + ' processes') === 0,
          name + ': ' + what + ': the caption does not count ' + processes + ' processes: ' +
          JSON.stringify(c.caption));
}

async function one(browser, n, file) {
    const name = path.basename(file);
    const page = await browser.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.evaluateOnNewDocument(countChartRectangles);
    await page.setViewport({ width: 1200, height: 900 });
    const start = Date.now();
    await page.goto('file://' + file, { waitUntil: 'load', timeout: OPEN_WITHIN });
    await page.waitForFunction(() => window.prognozStats &&
                               (window.prognozStats.renders >= 2 || window.prognozStats.mode === 'none'),
                               { timeout: Math.max(1000, OPEN_WITHIN - (Date.now() - start)) });
    const seconds = (Date.now() - start) / 1000;
    const first = await chart(page);
    check(Math.ceil(processes / first.group) === first.groups,
          name + ': ' + first.groups + ' groups of ' + first.group + ' for ' + processes + ' processes');
    bounded(name, 'rank order', first);
    const sorted = await page.evaluate(() => {
        window.chartRectangles = 0;
        document.querySelector('.details input[type=checkbox]').click();
    }).then(() => chart(page));
    bounded(name, 'sorted', sorted);
    await page.screenshot({ path: path.join(artifacts, 'processes-' + n + '.png') });
    check(errors.length === 0, name + ': console errors: ' + errors.join('; '));
    console.log(TAG + name + ': open in ' + seconds.toFixed(1) + ' s, ' + first.groups +
                ' groups of ' + first.group + ', ' + first.rectangles + ' rectangles on ' + first.width + ' pixels');
    await page.close();
}

(async () => {
    const browser = await launch(spec);
    try {
        for (let n = 0; n < pages.length; n++)
            await one(browser, n, pages[n]);
    } finally {
        await browser.close();
    }
    problems.forEach((p) => console.error(TAG + p));
    process.exit(problems.length ? 1 : 0);
})().catch((e) => {
    console.error(TAG + (e.stack || e));
    process.exit(1);
});
