/* What the two browser tests of a run with MPI-IO and one-sided calls (io_rma.js and
 * io_rma_machines.js) share: the classes' figures, colours and legend as
 * report_html.js shows them, and the measures they take inside the page. */
'use strict';

const FIGURES = ['io_time', 'io_bytes_read', 'io_bytes_written', 'rma_time', 'rma_bytes_put',
                 'rma_bytes_got'];
/* The colours of I/O and one-sided time and calls, as report_html.js draws them. */
const COLOURS = { 'I/O': [0x79, 0x55, 0x48], 'one-sided': [0x00, 0x89, 0x7b] };
const LEGEND = ['productive', 'insufficient parallelism', 'communication', 'synchronization',
                'I/O', 'one-sided', 'other MPI', 'idle'];
/* The functions of each family (trace/call_family.h) that programs/io_rma calls. */
const FAMILY = { 'I/O': /^MPI_File_/, 'one-sided': /^MPI_(Win_|Put$)/ };
/* The height of the per-process chart's bars at most: its canvas less the caption. */
const CHART_HEIGHT = 160 - 14;

/* The bar of the JSON report's values v as report_html.js sums its parts. */
function height(v) {
    const sync = Math.max(0, Math.min(v.synchronization, v.communication_time));
    return v.productive_time + v.insufficient_parallelism + v.communication_time - sync + sync +
        Math.max(0, v.mpi_time - v.communication_time) + v.idle_time;
}

/* The checks of the bars and of the per-process chart, reporting through check(ok,
 * what):
 * checkBar(where, parts, v): the I/O and one-sided parts (%) shown of a bar of values v;
 * checkChart(name, counted, iv): the pixels of I/O and one-sided colour in each
 * process's bar of interval iv's chart (counted down the middle of each bar, one bar
 * per process) against their share of the tallest bar's height; returns how many
 * pixels of each it found in all. */
function barChecks(check) {
    function checkBar(where, parts, v) {
        const total = height(v) || 1, want = [100 * v.io_time / total, 100 * v.rma_time / total];
        check(parts.length === 2, where + ': ' + parts.length + ' I/O and one-sided parts');
        parts.forEach((shown, k) => check(Math.abs(shown - want[k]) <= 0.006,
                                          where + ': part ' + k + ' is ' + shown + '%, expected ' + want[k]));
    }
    function checkChart(name, counted, iv) {
        const max = Math.max.apply(null, iv.per_process.map((p) => height(p.values)));
        const found = [0, 0];
        check(counted.length === iv.per_process.length,
              name + ': ' + counted.length + ' bars on the per-process chart');
        iv.per_process.forEach((p, k) => ['io_time', 'rma_time'].forEach((key, c) => {
            const want = max > 0 ? p.values[key] / max * CHART_HEIGHT : 0, got = (counted[k] || [])[c];
            check(Math.abs(got - want) <= 2, name + ': process ' + k + ' has ' + got + ' pixels of ' +
                  key + ' on the per-process chart, expected ' + want.toFixed(1));
            found[c] += got || 0;
        }));
        return found;
    }
    return { checkBar, checkChart };
}

/* Runs in the page: window.pzIoRma.parts(bar), the widths (%) of a bar's I/O and
 * one-sided parts (none without a bar); window.pzIoRma.chart(i, colours), for each
 * process of interval i's per-process chart, how many pixels of each colour [r, g, b]
 * the middle column of its bar has. */
function pageTools() {
    window.pzIoRma = {
        parts(bar) {
            return Array.from(bar ? bar.querySelectorAll('span[title="I/O"], span[title="one-sided"]') : [])
                .map((s) => parseFloat(s.style.width));
        },
        chart(i, colours) {
            const canvas = document.querySelector('.details canvas.chart'), chart = [];
            const bars = JSON.parse(document.getElementById('pz-data').textContent).processes.values[i].length;
            for (let k = 0; k < bars; k++) {
                const x = Math.floor((k + 0.5) * canvas.width / bars);
                const px = canvas.getContext('2d').getImageData(x, 0, 1, canvas.height).data;
                chart.push(colours.map((c) => {
                    let n = 0;
                    for (let y = 0; y < px.length; y += 4)
                        if (px[y] === c[0] && px[y + 1] === c[1] && px[y + 2] === c[2] && px[y + 3] === 255) n++;
                    return n;
                }));
            }
            return chart;
        },
    };
}

/* Gives the page loaded in page its window.pzIoRma (again after every load). */
async function installPageTools(page) {
    await page.evaluate(pageTools);
}

module.exports = { FIGURES, COLOURS, LEGEND, FAMILY, barChecks, installPageTools };
