/* The page of a prediction on several machines (analyzer/report_html.h,
 * pz_report_html_compare): the recorded run and each predicted run side by side.
 * Element #pz-runs holds every run's data, each as the page of one run embeds it in
 * #pz-data; #pz-page holds the script of that page (report_html.js).  A selector
 * chooses the run the page shows: its data is written into #pz-data and the page's
 * script run again, so that its tree, details, per-process chart and timeline behave
 * as on the page of one run.  Around them, every run's values in columns: its time in
 * the tree, its characteristics beside the details.  Intervals are matched between
 * runs by file, line, id and level, as the text comparison matches them.
 * window.prognozMachines exposes what is shown, read-only, for the tests. */
(function () {
    'use strict';

    var all = JSON.parse(document.getElementById('pz-runs').textContent);
    var names = all.names, runs = all.runs;
    var pageScript = document.getElementById('pz-page').textContent;
    var dataElement = document.getElementById('pz-data'), app = document.getElementById('app');
    var WIDTH = '8em';
    var byKey = runs.map(function (r) {
        var index = {};
        r.report.intervals.forEach(function (iv, i) { index[keyOf(iv)] = i; });
        return index;
    });
    var state = { shown: -1, names: names, switches: 0 };

    function keyOf(iv) { return iv.file + ':' + iv.line + ':' + iv.id + ':' + iv.level; }

    function el(tag, attrs, text) {
        var e = document.createElement(tag), k;
        for (k in attrs || {}) e.setAttribute(k, attrs[k]);
        if (text !== undefined) e.textContent = text;
        return e;
    }

    function format(key, v) {
        if (typeof v !== 'number') return '';
        if (key === 'processors' || key === 'exe_count') return String(v);
        if (key === 'efficiency') return v.toFixed(3);
        if (/_bytes_/.test(key)) return String(v); // io-rma
        return v.toFixed(6);
    }

    /* Interval i of the run shown, in run r: its values, or null if r lacks it. */
    function valuesIn(r, i) {
        var j = byKey[r][keyOf(runs[state.shown].report.intervals[i])];
        return j === undefined ? null : runs[r].report.intervals[j].main;
    }

    /* A cell per run, each WIDTH wide, pushed to the right of its row. */
    function columns(cell) {
        var box = el('span', { 'class': 'runs' });
        box.style.marginLeft = 'auto';
        box.style.display = 'flex';
        runs.forEach(function (r, k) {
            var c = cell(k);
            c.style.width = WIDTH;
            c.style.textAlign = 'right';
            c.style.fontVariantNumeric = 'tabular-nums';
            if (k === state.shown) c.style.fontWeight = 'bold';
            box.appendChild(c);
        });
        return box;
    }

    /* Each run's time of each interval, in columns after the tree's rows. */
    function treeColumns() {
        var tree = app.querySelector('.tree'), head = el('div', { 'class': 'runs-head' });
        head.style.display = 'flex';
        head.style.padding = '1px 4px';
        head.appendChild(el('span', {}, 'time (s)'));
        head.appendChild(columns(function (k) { return el('span', { title: names[k] }, names[k]); }));
        tree.insertBefore(head, tree.firstChild);
        tree.querySelectorAll('.node').forEach(function (node) {
            var i = Number(node.getAttribute('data-interval'));
            node.appendChild(columns(function (k) {
                var v = valuesIn(k, i);
                return el('span', { 'data-run': String(k) }, v ? format('execution_time', v.execution_time) : '');
            }));
        });
    }

    /* Every run's characteristics of the chosen interval, beside its details. */
    function sideBySide() {
        var details = app.querySelector('.details'), i = window.prognozStats.chosen;
        var main = runs[state.shown].report.intervals[i].main;
        var table = el('table', { 'class': 'side-by-side' }), head = el('tr');
        head.appendChild(el('th', { 'class': 'name' }, 'side by side'));
        names.forEach(function (n, k) {
            var th = el('th', {}, n);
            if (k === state.shown) th.style.fontWeight = 'bold';
            head.appendChild(th);
        });
        table.appendChild(head);
        Object.keys(main).forEach(function (key) {
            var row = el('tr', { 'data-key': key });
            row.appendChild(el('td', { 'class': 'name' }, key.replace(/_/g, ' ')));
            runs.forEach(function (r, k) {
                var v = valuesIn(k, i);
                row.appendChild(el('td', { 'data-run': String(k), 'data-key': key }, v ? format(key, v[key]) : ''));
            });
            table.appendChild(row);
        });
        details.insertBefore(table, details.querySelector('h3').nextSibling);
    }

    /* The details are written anew at each choice of an interval: the table follows. */
    function followChoices() {
        var details = app.querySelector('.details');
        new MutationObserver(function () {
            if (details.querySelector('h3') && !details.querySelector('.side-by-side')) sideBySide();
        }).observe(details, { childList: true });
        sideBySide();
    }

    /* Shows run k, the interval chosen before chosen again if run k has it. */
    function show(k) {
        var before = state.shown >= 0 && window.prognozStats ?
            keyOf(runs[state.shown].report.intervals[window.prognozStats.chosen]) : null;
        var again = before === null ? undefined : byKey[k][before];
        document.querySelectorAll('.tip').forEach(function (tip) { tip.parentNode.removeChild(tip); });
        app.textContent = '';
        app.className = '';
        dataElement.textContent = JSON.stringify(runs[k]);
        state.shown = k;
        state.switches++;
        (new Function(pageScript))();
        treeColumns();
        followChoices();
        if (again !== undefined && again !== 0)
            app.querySelector('.node[data-interval="' + again + '"] span.eff').click();
    }

    function selector() {
        var box = el('p', { 'class': 'machines' }), select = el('select', { id: 'pz-machine' });
        names.forEach(function (n, k) {
            select.appendChild(el('option', { value: String(k) }, k ? n : 'recorded run'));
        });
        select.value = '1';
        select.addEventListener('change', function () { show(Number(select.value)); });
        box.appendChild(el('label', { 'for': 'pz-machine' }, 'Run shown in the tree, details, per-process chart and timeline: '));
        box.appendChild(select);
        app.parentNode.insertBefore(box, app);
    }

    selector();
    show(1);
    window.prognozMachines = state;
}());
