/* MPI-IO and one-sided communication in the interactive views of prognoz's HTML report
 * (analyzer/report_html_io_rma.c writes this script only on the page of a run that made
 * such calls, so that the other pages are as they were): each bar's other MPI time split
 * into I/O, one-sided and the rest, their entries in the legend, and below the chosen
 * interval's values a table of I/O and one-sided time with their bytes (the JSON
 * report's io_time, io_bytes_read, ...; a row per process too when the page has them).
 * report_html.js draws the views and knows nothing of this script: it watches #app and
 * adds to what is drawn whenever the page's script draws again (an interval chosen,
 * another run shown on the page of several machines).  window.prognozIoRma exposes what
 * was added, read-only, for the tests. */
(function () {
    'use strict';

    var IO_COLOUR = '#795548', RMA_COLOUR = '#00897b';
    var FIGURES = [['io_time', 'I/O time'], ['io_bytes_read', 'I/O bytes read'],
                   ['io_bytes_written', 'I/O bytes written'], ['rma_time', 'one-sided time'],
                   ['rma_bytes_put', 'one-sided bytes put'], ['rma_bytes_got', 'one-sided bytes got']];
    var app = document.getElementById('app');
    var intervals = [], threaded = false;
    var stats = { bars: 0, tables: 0, chosen: -1 };

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

    /* Bar of values v, drawn by report_html.js: its other MPI part ('other MPI', a share
     * of the sum of the six parts it draws) split into I/O, one-sided and the rest. */
    function split(bar, v) {
        var other = bar.querySelector('span[title="other MPI"]'), sync, total, rest;
        if (!other || v.io_time === undefined) return;
        sync = Math.max(0, Math.min(v.synchronization, v.communication_time));
        total = [v.productive_time, v.insufficient_parallelism, v.communication_time - sync, sync,
                 Math.max(0, v.mpi_time - v.communication_time), v.idle_time]
            .reduce(function (a, b) { return a + b; }, 0) || 1;
        rest = Math.max(0, v.mpi_time - v.communication_time) - v.io_time - v.rma_time;
        [['I/O', IO_COLOUR, v.io_time], ['one-sided', RMA_COLOUR, v.rma_time]].forEach(function (p) {
            var s = el('span', { title: p[0], 'data-io-part': p[0] });
            s.style.width = (100 * Math.max(0, p[2]) / total).toFixed(2) + '%';
            s.style.background = p[1];
            bar.insertBefore(s, other);
        });
        other.style.width = (100 * Math.max(0, rest) / total).toFixed(2) + '%';
        stats.bars++;
    }

    function legend(box) {
        var other = null;
        Array.prototype.forEach.call(box.children, function (s) {
            if (s.textContent === 'other MPI') other = s;
        });
        [['I/O', IO_COLOUR], ['one-sided', RMA_COLOUR]].forEach(function (p) {
            var s = el('span', {}, p[0]);
            s.style.borderLeft = '12px solid ' + p[1];
            box.insertBefore(s, other);
        });
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
        var iv = intervals[i], bar = box.querySelector(':scope > .bar');
        var views = box.querySelector(':scope > .views'), mark = el('div', { 'class': 'io-rma' });
        box.appendChild(mark);
        if (!iv || iv.main.io_time === undefined) return;
        if (bar) split(bar, iv.main);
        if (box.querySelector(':scope > .legend')) legend(box.querySelector(':scope > .legend'));
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
            tree.querySelectorAll('.node[data-interval]').forEach(function (node) {
                var iv = intervals[Number(node.getAttribute('data-interval'))], bar = node.querySelector('.bar');
                if (iv && bar) split(bar, iv.main);
            });
        }
        chosen = tree.querySelector('.node.chosen');
        if (box && chosen && box.firstChild && !box.querySelector(':scope > .io-rma'))
            details(box, Number(chosen.getAttribute('data-interval')));
    }

    extend();
    new MutationObserver(extend).observe(app, { childList: true, subtree: true });
    window.prognozIoRma = stats;
}());
