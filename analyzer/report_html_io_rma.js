/* MPI-IO and one-sided communication in the interactive views of prognoz's HTML report
 * (analyzer/report_html_io_rma.c writes this script only on the page of a run that made
 * such calls, so that the other pages are as they were): below the chosen interval's
 * values, a table of I/O and one-sided time with their bytes (the JSON report's io_time,
 * io_bytes_read, ...; a row per process too when the page has them).  The page's script
 * (report_html.js, its lines marked io-rma) draws their parts of the bars, the
 * per-process chart and the timeline itself, and knows nothing of this script: it
 * watches #app and adds its table whenever the page's script draws again (an interval
 * chosen, another run shown on the page of several machines).  window.prognozIoRma
 * exposes what was added, read-only, for the tests. */
(function () {
    'use strict';

    var FIGURES = [['io_time', 'I/O time'], ['io_bytes_read', 'I/O bytes read'],
                   ['io_bytes_written', 'I/O bytes written'], ['rma_time', 'one-sided time'],
                   ['rma_bytes_put', 'one-sided bytes put'], ['rma_bytes_got', 'one-sided bytes got']];
    var app = document.getElementById('app');
    var intervals = [], threaded = false;
    var stats = { tables: 0, chosen: -1 };

    function el(tag, attrs, text) {
        var e = document.createElement(tag), k;
        for (k in attrs || {}) e.setAttribute(k, attrs[k]);
        if (text !== undefined) e.textContent = text;
        return e;
    }

    function format(key, v) {
        return /_time$/.test(key) ? v.toFixed(6) : String(Math.round(v));
    }

    /* The run the page shows, read again when its script has drawn a new tree. */
    function read() {
        var report = JSON.parse(document.getElementById('pz-data').textContent).report;
        intervals = report.intervals;
        threaded = report.threads > report.processes;
    }

    /* The six figures of interval iv, and of each of its processes when the page has them. */
    function table(iv) {
        var head = el('tr'), t = el('table', { 'class': 'io-rma' });
        head.appendChild(el('th', { 'class': 'name' }, 'I/O and one-sided'));
        head.appendChild(el('th', {}, 'value'));
        (iv.per_process || []).forEach(function (p) {
            head.appendChild(el('th', {}, 'process ' + (threaded ? p.rank + '.' + p.thread : p.rank)));
        });
        t.appendChild(head);
        FIGURES.forEach(function (f) {
            var row = el('tr');
            row.appendChild(el('td', { 'class': 'name' }, f[1]));
            row.appendChild(el('td', { 'data-io-key': f[0] }, format(f[0], iv.main[f[0]])));
            (iv.per_process || []).forEach(function (p, k) {
                row.appendChild(el('td', { 'data-io-key': f[0], 'data-io-process': String(k) },
                                   format(f[0], p.values[f[0]])));
            });
            t.appendChild(row);
        });
        return t;
    }

    function details(box, i) {
        var iv = intervals[i];
        var views = box.querySelector(':scope > .views'), mark = el('div', { 'class': 'io-rma' });
        box.appendChild(mark);
        if (!iv || iv.main.io_time === undefined) return;
        mark.appendChild(table(iv));
        if (views) box.insertBefore(mark, views.nextSibling);
        stats.tables++;
        stats.chosen = i;
    }

    /* Adds to what report_html.js drew and this script has not added to yet. */
    function extend() {
        var tree = app.querySelector('.tree'), box = app.querySelector('.details'), chosen;
        if (!tree) return;
        if (!tree.hasAttribute('data-io-rma')) {
            tree.setAttribute('data-io-rma', '');
            read();
        }
        chosen = tree.querySelector('.node.chosen');
        if (box && chosen && box.firstChild && !box.querySelector(':scope > .io-rma'))
            details(box, Number(chosen.getAttribute('data-interval')));
    }

    extend();
    new MutationObserver(extend).observe(app, { childList: true, subtree: true });
    window.prognozIoRma = stats;
}());
