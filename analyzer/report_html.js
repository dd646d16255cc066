/* The interactive views of prognoz's HTML report (analyzer/report_html.h): the tree of
 * intervals, the chosen interval's values, comparative table, wait states, advice and
 * per-process chart, and the timeline of every thread, drawn from the JSON the page
 * embeds (element #pz-data; docs/report.md gives its members).  Plain ES5, nothing
 * fetched.  window.prognozStats exposes what was drawn, read-only, for the tests. */
(function () {
    'use strict';

    var data = JSON.parse(document.getElementById('pz-data').textContent);
    var report = data.report, intervals = report.intervals, tl = data.timeline;
    var CLASSES = ['collective', 'blocking send', 'nonblocking send',
                   'blocking receive, wait or probe', 'nonblocking receive or test', 'other MPI'];
    /* 003's appendix 2: black; dark and light green; dark and light blue; light grey */
    var CLASS_COLOURS = ['#000000', '#006400', '#7ccd7c', '#00008b', '#87ceeb', '#d3d3d3'];
    /* a run with MPI-IO or one-sided calls: their classes and parts (pz_html_script_lines) */ // io-rma
    CLASSES.push('I/O', 'one-sided'); // io-rma
    CLASS_COLOURS.push('#795548', '#00897b'); // io-rma
    var USER_COLOUR = '#ffd6e0';   /* user code: light pink */
    var PARTS = [['productive', '#4caf50'], ['insufficient parallelism', '#9c27b0'],
                 ['communication', '#f44336'], ['synchronization', '#ffc107'],
                 ['other MPI', '#ff9800'], ['idle', '#9e9e9e']];
    PARTS.splice(4, 0, ['I/O', '#795548'], ['one-sided', '#00897b']); // io-rma
    var MAIN = ['execution_time', 'processors', 'exe_count', 'total_time', 'productive_time',
                'efficiency', 'lost_time', 'insufficient_parallelism', 'mpi_time', 'cpu_time',
                'idle_time', 'communication_time', 'sendrecv_time', 'collective_time',
                'alltoall_time', 'time_of_start', 'overlap', 'load_imbalance',
                'synchronization', 'real_synchronization', 'time_variation'];
    var WAITS = ['late_sender', 'late_sender_wrong_order', 'late_receiver', 'wait_at_barrier',
                 'barrier_completion', 'wait_at_nxn', 'nxn_completion', 'early_reduce',
                 'late_broadcast'];
    var stats = { mode: tl.mode, perClass: [0, 0, 0, 0, 0, 0], drawnPerClass: [0, 0, 0, 0, 0, 0], // no io-rma
    var stats = { mode: tl.mode, perClass: [0, 0, 0, 0, 0, 0, 0, 0], drawnPerClass: [0, 0, 0, 0, 0, 0, 0, 0], // io-rma
                  lanes: tl.lanes ? tl.lanes.length : 0, chosen: 0, renders: 0 };
    var app = document.getElementById('app');
    var treeNodes = [], chosen = 0, redrawTimeline = function () {};

    function el(tag, attrs, children) {
        var e = document.createElement(tag), k;
        for (k in attrs || {})
            if (k === 'text') e.textContent = attrs[k];
            else if (k === 'className') e.className = attrs[k];
            else e.setAttribute(k, attrs[k]);
        (children || []).forEach(function (c) { if (c) e.appendChild(c); });
        return e;
    }

    function base(path) { return path.slice(path.lastIndexOf('/') + 1); }

    function nameOf(i) {
        var iv = intervals[i];
        if (iv.parent === null) return 'whole run';
        return (iv.sequential ? 'sequential ' : '') + 'interval ' + iv.id + ' at ' +
            base(iv.file) + ':' + iv.line;
    }

    function label(key) {
        var s = key.replace(/_/g, ' ');
        return s.charAt(0).toUpperCase() + s.slice(1);
    }

    function format(key, v) {
        if (key === 'processors' || key === 'exe_count') return String(v);
        if (key === 'efficiency') return v.toFixed(3);
        return v.toFixed(6);
    }

    function seconds(ns) {
        var s = ns / 1e9;
        if (Math.abs(s) >= 1) return s.toFixed(6) + ' s';
        if (Math.abs(s) >= 1e-3) return (s * 1e3).toFixed(3) + ' ms';
        return (s * 1e6).toFixed(3) + ' us';
    }

    /* An interval's time split as the bars show it. */
    function parts(v) {
        var sync = Math.max(0, Math.min(v.synchronization, v.communication_time));
        return [v.productive_time, v.insufficient_parallelism, v.communication_time - sync,
                sync, Math.max(0, v.mpi_time - v.communication_time), v.idle_time]; // no io-rma
                sync, v.io_time || 0, v.rma_time || 0, // io-rma
                Math.max(0, v.mpi_time - v.communication_time - (v.io_time || 0) - (v.rma_time || 0)), // io-rma
                v.idle_time]; // io-rma
    }

    function bar(values) {
        var total = values.reduce(function (a, b) { return a + b; }, 0) || 1;
        return el('div', { className: 'bar' }, values.map(function (v, k) {
            var s = el('span', { title: PARTS[k][0] });
            s.style.width = (100 * Math.max(0, v) / total).toFixed(2) + '%';
            s.style.background = PARTS[k][1];
            return s;
        }));
    }

    function processName(rank, thread) {
        return report.threads > report.processes ? rank + '.' + thread : String(rank);
    }

    /* --- the tree */

    function buildTree() {
        var lists = intervals.map(function () { return null; }), root = el('ul');
        intervals.forEach(function (iv, i) {
            var toggle = el('span', { className: 'toggle', text: '' });
            var node = el('div', { className: 'node', 'data-interval': String(i),
                                   title: iv.file || 'the whole run' },
                          [toggle, el('span', { className: 'eff', text: iv.main.efficiency.toFixed(3),
                                                title: 'efficiency' }),
                           bar(parts(iv.main)), el('span', { text: nameOf(i) })]);
            var li = el('li', {}, [node]);
            treeNodes[i] = { li: li, node: node, toggle: toggle };
            node.addEventListener('click', function (ev) {
                if (ev.target === toggle) setOpen(i, li.className.indexOf('closed') >= 0);
                else choose(i);
            });
            (iv.parent === null ? root : (lists[iv.parent] || addList(iv.parent))).appendChild(li);
        });
        function addList(p) {
            lists[p] = el('ul');
            treeNodes[p].li.appendChild(lists[p]);
            treeNodes[p].toggle.textContent = '\u25be';
            return lists[p];
        }
        return el('div', { className: 'tree' }, [root]);
    }

    function setOpen(i, open) {
        var t = treeNodes[i];
        if (!t.toggle.textContent) return;
        t.li.className = open ? '' : 'closed';
        t.toggle.textContent = open ? '\u25be' : '\u25b8';
    }

    /* --- the chosen interval */

    var details = el('div', { className: 'details' });

    function valuesTable(title, keys, v) {
        return el('table', { className: title }, [el('tr', {}, [
            el('th', { className: 'name', text: title }), el('th', { text: 'value' })])]
            .concat(keys.map(function (k) {
                return el('tr', {}, [el('td', { className: 'name', text: label(k) }),
                                     el('td', { 'data-key': k, text: format(k, v[k]) })]);
            })));
    }

    function comparativeTable(cmp) {
        var head = el('tr', {}, ['characteristic', 'min', 'process', 'max', 'process', 'mean']
            .map(function (h, k) { return el('th', { className: k ? '' : 'name', text: h }); }));
        return el('table', { className: 'comparative' }, [head].concat(Object.keys(cmp).map(function (k) {
            var c = cmp[k];
            return el('tr', { 'data-key': k }, [
                el('td', { className: 'name', text: label(k) }),
                el('td', { 'data-what': 'min', text: c.min.toFixed(6) }),
                el('td', { text: c.min_rank < 0 ? '' : processName(c.min_rank, c.min_thread) }),
                el('td', { 'data-what': 'max', text: c.max.toFixed(6) }),
                el('td', { text: c.max_rank < 0 ? '' : processName(c.max_rank, c.max_thread) }),
                el('td', { 'data-what': 'mean', text: c.mean.toFixed(6) })]);
        })));
    }

    function choose(i) {
        var iv = intervals[i], p = iv.parent;
        treeNodes[chosen].node.className = 'node';
        chosen = stats.chosen = i;
        treeNodes[i].node.className = 'node chosen';
        for (; p !== null; p = intervals[p].parent) setOpen(p, true);
        if (treeNodes[i].node.scrollIntoView) treeNodes[i].node.scrollIntoView({ block: 'nearest' });
        details.textContent = '';
        details.appendChild(el('h3', { text: iv.parent === null ? 'Whole run' :
            (iv.sequential ? 'Sequential interval ' : 'Interval ') + iv.id + ' at ' + iv.file + ':' + iv.line }));
        details.appendChild(el('div', { className: 'legend' }, PARTS.map(function (pt) {
            var s = el('span', { text: pt[0] });
            s.style.borderLeft = '12px solid ' + pt[1];
            return s;
        })));
        details.appendChild(bar(parts(iv.main)));
        (iv.advice.length ? iv.advice : []).forEach(function (a) {
            details.appendChild(el('p', { className: 'advice', text: a }));
        });
        details.appendChild(el('div', { className: 'views' }, [
            valuesTable('main characteristics', MAIN, iv.main),
            el('div', {}, [comparativeTable(iv.comparative), valuesTable('wait states', WAITS, iv.main)])]));
        details.appendChild(processChart(i));
        redrawTimeline();
    }

    /* One bar per process (or group of processes when they do not fit), in rank order or
     * sorted by lost time. */
    function processChart(i) {
        var groups = data.processes.values[i], k = data.processes.group;
        var wrap = el('div', {}), sortBox = el('input', { type: 'checkbox' });
        var canvas = el('canvas', { className: 'chart', width: '720', height: '160' });
        var caption = el('div', {});
        function draw() {
            var ctx = canvas.getContext('2d'), w = canvas.width, h = canvas.height - 14;
            var order = groups.map(function (g, j) { return j; });
            var per, bins = [], max = 0, j, b;
            if (sortBox.checked)
                order.sort(function (a, b) {
                    return (groups[b][6] - groups[b][0]) - (groups[a][6] - groups[a][0]); // no io-rma
                    return (groups[b][8] - groups[b][0]) - (groups[a][8] - groups[a][0]); // io-rma
                });
            per = Math.max(1, Math.ceil(order.length / w));
            for (j = 0; j < order.length; j += per) {
                var sum = [0, 0, 0, 0, 0, 0], n = 0; // no io-rma
                var sum = [0, 0, 0, 0, 0, 0, 0, 0], n = 0; // io-rma
                for (b = j; b < j + per && b < order.length; b++, n++)
                    for (var c = 0; c < 6; c++) sum[c] += Math.max(0, groups[order[b]][c]); // no io-rma
                    for (var c = 0; c < 8; c++) sum[c] += Math.max(0, groups[order[b]][c]); // io-rma
                bins.push(sum.map(function (v) { return v / n; }));
            }
            bins.forEach(function (s) { max = Math.max(max, s.reduce(function (a, v) { return a + v; }, 0)); });
            ctx.clearRect(0, 0, w, canvas.height);
            var bw = w / bins.length;
            bins.forEach(function (s, x) {
                var y = h;
                s.forEach(function (v, c) {
                    var bh = max > 0 ? v / max * h : 0;
                    ctx.fillStyle = PARTS[c][1];
                    ctx.fillRect(x * bw, y - bh, Math.max(bw - (bw > 3 ? 1 : 0), 0.5), bh);
                    y -= bh;
                });
            });
            ctx.fillStyle = '#333';
            ctx.font = '11px sans-serif';
            ctx.fillText(sortBox.checked ? 'most lost time first' : 'rank order', 2, canvas.height - 2);
            caption.textContent = data.run.threads + ' processes' + (k > 1 ? ' in groups of ' + k : '') +
                (per > 1 ? ', ' + per + ' per bar' : '') + '; the tallest bar is ' +
                max.toFixed(6) + ' s';
        }
        sortBox.addEventListener('change', draw);
        wrap.appendChild(el('h4', { text: 'Per process' }));
        wrap.appendChild(el('label', {}, [sortBox, document.createTextNode(' sorted by lost time')]));
        wrap.appendChild(canvas);
        wrap.appendChild(caption);
        draw();
        return wrap;
    }

    /* --- the timeline */

    function buildTimeline() {
        var box = el('div', { className: 'timeline' });
        var lanes = tl.lanes || [], nl = lanes.length, end = Math.max(tl.end || 0, 1);
        var view = { t0: 0, t1: end };
        var msgBox = el('input', { type: 'checkbox' });
        var canvas = el('canvas', { tabindex: '0' }), tip = el('div', { className: 'tip' });
        var LABEL = 60, AXIS = 18, laneH, messages = null, drag = null;

        box.appendChild(el('h2', { text: 'Timeline' }));
        if (tl.mode === 'none') {
            box.appendChild(el('p', { className: 'note', text: 'No timeline: ' + tl.why + '.' }));
            return box;
        }
        if (tl.mode === 'exact')
            tl.events.forEach(function (lane) {
                lane.forEach(function (e) { stats.perClass[e[3]]++; });
            });
        else
            stats.perClass = tl.per_class.slice();
        box.appendChild(el('div', { className: 'classes' }, CLASSES.map(function (c, k) {
            var s = el('span', { text: c });
            s.style.background = CLASS_COLOURS[k];
            s.style.color = k === 0 || k === 1 || k === 3 ? '#fff' : '#000'; // no io-rma
            s.style.color = k === 0 || k === 1 || k === 3 || k >= 6 ? '#fff' : '#000'; // io-rma
            return s;
        }).concat([(function () { var s = el('span', { text: 'user code' }); s.style.background = USER_COLOUR; return s; }())])));
        var tools = el('div', { className: 'tools' }, [
            el('label', {}, [msgBox, document.createTextNode(' messages')]),
            el('span', { text: 'wheel or +/-: zoom; drag or arrows: pan; 0: all; click a call: its interval' })]);
        if (tl.mode === 'exact') tools.appendChild(el('span', { text: tl.calls + ' calls' }));
        else tools.appendChild(el('span', { className: 'note', text: 'Reduced: ' + tl.why + ' (' +
            Math.round(tl.limit / 1048576) + ' MiB); each of the ' + tl.calls + ' calls is counted in one of ' +
            tl.buckets.columns + ' columns of ' + seconds(tl.buckets.column_ns) +
            ' per thread, drawn as the share of each class; zooming in shows no finer detail, and no messages.' }));
        if (tl.bands === null)
            tools.appendChild(el('span', { className: 'note', text: 'Interval bands left out: they do not fit in the size limit.' }));
        box.appendChild(tools);
        box.appendChild(canvas);
        document.body.appendChild(tip);
        laneH = Math.max(0.25, Math.min(22, 520 / Math.max(nl, 1)));

        function size() {
            canvas.width = Math.max(400, (box.clientWidth || 900) - 4);
            canvas.height = Math.ceil(AXIS + laneH * nl + 4);
        }
        function px(t) { return LABEL + (t - view.t0) / (view.t1 - view.t0) * (canvas.width - LABEL); }
        function timeAt(x) { return view.t0 + (x - LABEL) / (canvas.width - LABEL) * (view.t1 - view.t0); }
        function laneY(l) { return AXIS + l * laneH; }

        function bandColour(node, strong) {
            var hue = (node * 67) % 360;
            return 'hsla(' + hue + ',70%,45%,' + (strong ? 0.9 : 0.35) + ')';
        }

        /* The first call of a lane that ends at or after t. */
        function firstFrom(events, t) {
            var lo = 0, hi = events.length;
            while (lo < hi) {
                var mid = (lo + hi) >> 1;
                if (events[mid][0] + events[mid][1] < t) lo = mid + 1; else hi = mid;
            }
            return lo;
        }

        function drawExact(ctx, l, y, h) {
            var events = tl.events[l], i = firstFrom(events, view.t0), lastX = -1, lastC = -1;
            for (; i < events.length && events[i][0] <= view.t1; i++) {
                var e = events[i], x0 = px(e[0]), x1 = px(e[0] + e[1]);
                stats.drawnPerClass[e[3]]++;
                if (x1 - x0 < 1 && Math.floor(x0) === lastX && e[3] === lastC) continue;
                lastX = Math.floor(x0);
                lastC = e[3];
                ctx.fillStyle = CLASS_COLOURS[e[3]];
                ctx.fillRect(x0, y, Math.max(1, x1 - x0), h);
            }
        }

        /* Per pixel: the mean share of each class over the columns in it. */
        function drawReduced(ctx, l, y, h) {
            var b = tl.buckets, rows = b.lanes[l], w = b.column_ns, i;
            var acc = [0, 0, 0, 0, 0, 0], accX = -1, accN = 0; // no io-rma
            var acc = [0, 0, 0, 0, 0, 0, 0, 0], accX = -1, accN = 0; // io-rma
            function flush() {
                if (accX < 0) return;
                var yy = y + h, cw = Math.max(1, px(w) - px(0));
                for (var c = 0; c < 6; c++) { // no io-rma
                for (var c = 0; c < 8; c++) { // io-rma
                    var hh = acc[c] / 10000 / accN * h;
                    if (acc[c] > 0 && hh < 0.5) hh = 0.5;
                    ctx.fillStyle = CLASS_COLOURS[c];
                    ctx.fillRect(accX, yy - hh, cw < 1 ? 1 : cw, hh);
                    yy -= hh;
                }
                acc = [0, 0, 0, 0, 0, 0]; // no io-rma
                acc = [0, 0, 0, 0, 0, 0, 0, 0]; // io-rma
            }
            var perPixel = Math.max(1, (view.t1 - view.t0) / (canvas.width - LABEL) / w);
            for (i = 0; i < rows.length; i++) {
                var r = rows[i], t = r[0] * w;
                if (t + w < view.t0 || t > view.t1) continue;
                var x = Math.floor(px(t));
                if (x !== accX) { flush(); accX = x; accN = perPixel; }
                for (var c = 0; c < 6; c++) { // no io-rma
                for (var c = 0; c < 8; c++) { // io-rma
                    acc[c] += r[c + 1];
                    if (r[c + 1] > 0) stats.drawnPerClass[c]++;
                }
            }
            flush();
        }

        function drawMessages(ctx) {
            var count = 0;
            if (!messages) messages = matchMessages();
            ctx.strokeStyle = 'rgba(200,0,0,0.7)';
            ctx.lineWidth = 1;
            ctx.beginPath();
            messages.forEach(function (m) {
                if (count > 20000 || Math.max(m[0], m[2]) < view.t0 || Math.min(m[0], m[2]) > view.t1) return;
                ctx.moveTo(px(m[0]), laneY(m[1]) + laneH / 2);
                ctx.lineTo(px(m[2]), laneY(m[3]) + laneH / 2);
                count++;
            });
            ctx.stroke();
        }

        /* Sends and receives paired as MPI pairs them: in order, per communicator,
         * processes and tag.  [send time, send lane, receive end, receive lane]. */
        function matchMessages() {
            var sends = {}, recvs = {}, out = [];
            tl.events.forEach(function (events, l) {
                events.forEach(function (e) {
                    if (e.length < 10 || (e[5] !== 1 && e[5] !== 2) || e[6] < 0) return;
                    var send = e[5] === 1, me = lanes[l].rank;
                    var key = e[9] + ':' + (send ? me : e[6]) + ':' + (send ? e[6] : me) + ':' + e[7];
                    var to = send ? sends : recvs;
                    (to[key] = to[key] || []).push([send ? e[0] : e[0] + e[1], l]);
                });
            });
            Object.keys(sends).forEach(function (k) {
                var s = sends[k].sort(function (a, b) { return a[0] - b[0]; });
                var r = (recvs[k] || []).sort(function (a, b) { return a[0] - b[0]; });
                for (var i = 0; i < s.length && i < r.length; i++) out.push([s[i][0], s[i][1], r[i][0], r[i][1]]);
            });
            return out;
        }

        function draw() {
            var ctx = canvas.getContext('2d'), l, h = Math.max(laneH - (laneH > 4 ? 2 : 0), 0.25);
            stats.drawnPerClass = [0, 0, 0, 0, 0, 0]; // no io-rma
            stats.drawnPerClass = [0, 0, 0, 0, 0, 0, 0, 0]; // io-rma
            ctx.clearRect(0, 0, canvas.width, canvas.height);
            ctx.font = '11px sans-serif';
            for (l = 0; l < nl; l++) {
                var y = laneY(l), a = Math.max(view.t0, lanes[l].from), z = Math.min(view.t1, lanes[l].to);
                if (z > a) {
                    ctx.fillStyle = USER_COLOUR;
                    ctx.fillRect(px(a), y, px(z) - px(a), h);
                }
                if (tl.bands) tl.bands[l].forEach(function (b) {
                    if (b[1] < view.t0 || b[0] > view.t1) return;
                    ctx.fillStyle = bandColour(b[2], b[2] === chosen);
                    ctx.fillRect(px(b[0]), y, Math.max(1, px(b[1]) - px(b[0])), Math.max(1, h / 4));
                    if (laneH > 4) {
                        ctx.fillRect(px(b[0]), y, 1, h);
                        ctx.fillRect(px(b[1]), y, 1, h);
                    }
                });
                if (tl.mode === 'exact') drawExact(ctx, l, y + (laneH > 4 ? h / 4 : 0), laneH > 4 ? h * 3 / 4 : h);
                else drawReduced(ctx, l, y, h);
            }
            if (msgBox.checked && tl.mode === 'exact') drawMessages(ctx);
            ctx.clearRect(0, 0, LABEL, canvas.height);
            ctx.fillStyle = '#333';
            if (laneH >= 9)
                for (l = 0; l < nl; l++)
                    ctx.fillText(processName(lanes[l].rank, lanes[l].thread), 2, laneY(l) + laneH / 2 + 4);
            else
                ctx.fillText(nl + ' threads', 2, AXIS + 10);
            for (var k = 0; k <= 5; k++) {
                var t = view.t0 + (view.t1 - view.t0) * k / 5, x = px(t);
                ctx.fillRect(x, AXIS - 4, 1, 4);
                ctx.fillText(seconds(t), Math.min(x, canvas.width - 70), 11);
            }
            stats.renders++;
            stats.view = [view.t0, view.t1];
        }

        function zoom(factor, at) {
            var t = timeAt(at), span = Math.min(end, Math.max(1, (view.t1 - view.t0) * factor));
            view.t0 = Math.max(0, t - (t - view.t0) * span / (view.t1 - view.t0));
            view.t1 = Math.min(end, view.t0 + span);
            view.t0 = Math.max(0, view.t1 - span);
            draw();
        }
        function pan(dt) {
            var span = view.t1 - view.t0;
            view.t0 = Math.min(Math.max(0, view.t0 + dt), end - span);
            view.t1 = view.t0 + span;
            draw();
        }

        /* The call (exact) or the column (reduced) under the point (x, y) of the canvas. */
        function hit(x, y) {
            var l = Math.floor((y - AXIS) / laneH), t = timeAt(x), slack;
            if (l < 0 || l >= nl || x < LABEL) return null;
            slack = 2 * (view.t1 - view.t0) / (canvas.width - LABEL);
            if (tl.mode === 'exact') {
                var ev = tl.events[l], i = firstFrom(ev, t - slack), best = null;
                for (; i < ev.length && ev[i][0] <= t + slack; i++)
                    if (!best || Math.abs(ev[i][0] + ev[i][1] / 2 - t) < Math.abs(best[0] + best[1] / 2 - t))
                        best = ev[i];
                return best ? { lane: l, call: best } : null;
            }
            var col = Math.floor(t / tl.buckets.column_ns), rows = tl.buckets.lanes[l];
            for (var j = 0; j < rows.length; j++) if (rows[j][0] === col) return { lane: l, column: rows[j] };
            return null;
        }

        function describe(h) {
            var ln = lanes[h.lane], who = 'thread ' + processName(ln.rank, ln.thread), e = h.call;
            if (!e)
                return who + ', ' + seconds(h.column[0] * tl.buckets.column_ns) + ' +' +
                    seconds(tl.buckets.column_ns) + '\n' + CLASSES.map(function (c, k) {
                        return c + ': ' + (h.column[k + 1] / 100).toFixed(2) + '%';
                    }).join('\n');
            var s = tl.functions[e[2]] + '  (' + CLASSES[e[3]] + ')\n' + who +
                '\nstart ' + seconds(e[0]) + ', duration ' + seconds(e[1]);
            if (e.length >= 10) {
                s += '\n' + (e[5] === 0 ? 'root ' + (e[6] < 0 ? 'none' : e[6]) :
                             (e[5] === 1 ? 'to ' : 'from ') + e[6] + ', tag ' + e[7]) +
                    ', bytes ' + e[8] + ', communicator ' + e[9];
            }
            return s + '\ninterval: ' + nameOf(e[4]);
        }

        canvas.addEventListener('wheel', function (ev) {
            ev.preventDefault();
            zoom(ev.deltaY > 0 ? 1.25 : 0.8, ev.offsetX);
        });
        canvas.addEventListener('mousedown', function (ev) { drag = { x: ev.offsetX, moved: false }; });
        window.addEventListener('mouseup', function () { setTimeout(function () { drag = null; }, 0); });
        canvas.addEventListener('mousemove', function (ev) {
            var h;
            if (drag && ev.buttons) {
                if (Math.abs(ev.offsetX - drag.x) > 2) drag.moved = true;
                if (drag.moved) {
                    pan((drag.x - ev.offsetX) / (canvas.width - LABEL) * (view.t1 - view.t0));
                    drag.x = ev.offsetX;
                    tip.style.display = 'none';
                    return;
                }
            }
            h = hit(ev.offsetX, ev.offsetY);
            if (!h) { tip.style.display = 'none'; return; }
            tip.textContent = describe(h);
            tip.style.left = (ev.clientX + 12) + 'px';
            tip.style.top = (ev.clientY + 12) + 'px';
            tip.style.display = 'block';
        });
        canvas.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
        canvas.addEventListener('click', function (ev) {
            var h = hit(ev.offsetX, ev.offsetY);
            if (drag && drag.moved) return;
            if (h && h.call) choose(h.call[4]);
        });
        canvas.addEventListener('keydown', function (ev) {
            var span = view.t1 - view.t0, mid = (canvas.width + LABEL) / 2;
            if (ev.key === '+' || ev.key === '=') zoom(0.5, mid);
            else if (ev.key === '-') zoom(2, mid);
            else if (ev.key === 'ArrowLeft') pan(-span / 5);
            else if (ev.key === 'ArrowRight') pan(span / 5);
            else if (ev.key === '0' || ev.key === 'Home') { view.t0 = 0; view.t1 = end; draw(); }
            else return;
            ev.preventDefault();
        });
        msgBox.addEventListener('change', draw);
        window.addEventListener('resize', function () { size(); draw(); });

        /* Where call i of lane l is, in the page's coordinates, for the tests. */
        stats.callAt = function (l, i) {
            var e = tl.events[l][i], r = canvas.getBoundingClientRect();
            var x = (px(e[0]) + Math.max(px(e[0] + e[1]), px(e[0]) + 1)) / 2;
            return { x: r.left + x, y: r.top + laneY(l) + laneH / 2 + (laneH > 4 ? laneH / 8 : 0),
                     name: tl.functions[e[2]], cls: e[3], node: e[4] };
        };
        stats.tooltip = function () { return tip.style.display === 'block' ? tip.textContent : ''; };
        stats.zoomTo = function (t0, t1) { view.t0 = Math.max(0, t0); view.t1 = Math.min(end, t1); draw(); };
        redrawTimeline = draw;
        setTimeout(function () { size(); draw(); }, 0);
        return box;
    }

    function run() {
        var views = el('div', { className: 'views' }, [buildTree(), details]);
        app.appendChild(buildTimeline());
        app.appendChild(views);
        app.className = 'ready';
        choose(0);
        window.prognozStats = stats;
    }

    run();
}());
