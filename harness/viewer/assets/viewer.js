// dsview: the run viewer. Canvas, not SVG: a 20,000-job run is 20,000
// bars plus waits, power bands and markers, and the browser would keep a
// DOM node for each; on a canvas a redraw walks typed arrays and paints
// only what is in the visible time range, so zoom and pan stay smooth.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('dsview-data').textContent);
  var OUTCOME = ['completed', 'failed', 'killed', 'migrated', 'unfinished'];
  // Job colours cycle by id so neighbours differ; none is close to the
  // outcome colours (black lost, magenta migrated, grey unfinished).
  var PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#17becf', '#bcbd22', '#8c564b', '#6b8fd6', '#f2b05a'];
  var LOST = '#000', MIGR = '#e020e0', UNFIN = '#999';
  var COLOURS = PALETTE.concat([LOST, MIGR, UNFIN]), C_LOST = PALETTE.length, C_MIGR = C_LOST + 1, C_UNFIN = C_LOST + 2;
  var BOOT = '#cfcfcf', ON = '#f4f1d0', FAIL = 'rgba(214,39,40,0.28)';
  var LABEL_W = 130, AXIS_H = 22, STRIP_H = 58;
  var tip = document.getElementById('dsview-tip');
  var runs = [], groups = [], selected = -1;

  function fmt(n) { return n < 0 ? '—' : String(n); }
  function clamp(v, lo, hi) { return v < lo ? lo : v > hi ? hi : v; }

  // niceStep is a 1-2-5 step giving about n ticks over span.
  function niceStep(span, n) {
    var raw = Math.max(span / n, 1e-9), p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
  }

  function rowHOf(d) { return clamp(Math.floor(900 / Math.max(d.srvType.length, 1)), 2, 16); }

  // prep computes a run's lanes and colours the first time it is drawn
  // or searched: a page of many runs opens without preparing those below
  // the fold.
  function prep(R) {
    if (!R.lane) {
      var p = prepRun(R.d);
      for (var k in p) if (k !== 'drawn') R[k] = p[k];
    }
    return R;
  }

  function prepRun(d) {
    var n = d.srvType.length, s = d.stays, ns = s.job.length;
    var jobIdx = new Map();
    d.jobs.id.forEach(function (id, i) { jobIdx.set(id, i); });
    var perSrv = [];
    for (var i = 0; i < n; i++) perSrv.push([]);
    for (i = 0; i < ns; i++) perSrv[s.server[i]].push(i);
    // Lanes: jobs that overlap on a server are stacked (greedy by start).
    var lane = new Int32Array(ns), lanes = new Int32Array(n);
    perSrv.forEach(function (list, srv) {
      var ends = [];
      list.slice().sort(function (a, b) { return from(a) - from(b); }).forEach(function (k) {
        var l = 0;
        while (l < ends.length && ends[l] > from(k)) l++;
        ends[l] = to(k);
        lane[k] = l;
      });
      lanes[srv] = Math.max(1, ends.length);
    });
    function from(k) { return s.start[k] >= 0 ? s.start[k] : s.placed[k]; }
    function to(k) { return s.end[k] >= 0 ? s.end[k] : d.end; }
    var rowH = rowHOf(d);
    // Each stay's colour (an index into COLOURS) and the stays in colour
    // order, computed once.
    var colour = new Uint8Array(ns), byColour = new Int32Array(ns);
    for (i = 0; i < ns; i++) {
      var o = s.outcome[i];
      colour[i] = s.start[i] < 0 || o === 4 ? C_UNFIN : o === 0 ? s.job[i] % PALETTE.length : o === 3 ? C_MIGR : C_LOST;
      byColour[i] = i;
    }
    byColour.sort(function (a, b) { return colour[a] - colour[b] || a - b; });
    return { d: d, jobIdx: jobIdx, perSrv: perSrv, lane: lane, lanes: lanes, rowH: rowH, from: from, to: to, drawn: 0,
      colour: colour, byColour: byColour };
  }

  function build() {
    var root = document.getElementById('dsview-runs');
    data.groups.forEach(function (g, gi) {
      var end = 1;
      g.runs.forEach(function (d) { end = Math.max(end, d.end); });
      var G = { i: gi, t0: 0, t1: end, end: end, runs: [], seen: false };
      groups.push(G);
      var sec = el('div', 'group', root);
      G.sec = sec;
      sec.dataset.group = gi;
      el('h2', '', sec).textContent = g.title;
      var ctl = el('div', 'controls', sec);
      button(ctl, '−', 'zoom out', function () { zoom(G, 1.6, (G.t0 + G.t1) / 2); });
      button(ctl, '+', 'zoom in', function () { zoom(G, 1 / 1.6, (G.t0 + G.t1) / 2); });
      button(ctl, '←', 'pan left', function () { pan(G, -(G.t1 - G.t0) / 4); });
      button(ctl, '→', 'pan right', function () { pan(G, (G.t1 - G.t0) / 4); });
      button(ctl, 'reset', 'whole run', function () { setRange(G, 0, G.end); });
      G.label = el('span', 'range', ctl);
      el('span', '', ctl).textContent = 'wheel: zoom · drag: pan · double-click: reset';
      legend(sec);
      g.runs.forEach(function (d) {
        if (!d.jobs) d.jobs = g.jobs; // kept once for the group
        var R = { d: d, drawn: 0, rowH: rowHOf(d) };
        R.i = runs.length; R.group = G;
        runs.push(R); G.runs.push(R);
        var box = el('div', 'run', sec);
        R.box = box;
        box.dataset.run = R.i;
        el('h3', '', box).textContent = d.name;
        var cost = d.logCost ? ' (the log\'s summary: $' + d.logCost + ')' : '';
        el('div', 'meta', box).textContent = d.jobs.id.length + ' jobs, ' + d.srvType.length + ' servers, end ' + d.end +
          ' s, total cost $' + d.totalCost.toFixed(2) + cost + ' · from ' + d.source + ' (-v ' + d.level + ')';
        (d.notes || []).forEach(function (t) { el('p', 'note', box).textContent = t; });
        R.canvas = el('canvas', 'timeline', box);
        R.lower = el('canvas', 'series', box);
        // Sized before the first draw, so the page does not jump when a
        // group is drawn as it scrolls into view.
        R.canvas.style.height = (AXIS_H + d.srvType.length * R.rowH + 4) + 'px';
        R.lower.style.height = (3 * STRIP_H + 4) + 'px';
        wire(R);
      });
    });
    window.addEventListener('resize', drawAll);
    // A group is drawn when it first comes near the viewport: a page of
    // many runs opens without drawing the ones below the fold.
    if (window.IntersectionObserver) {
      var io = new IntersectionObserver(function (entries) {
        entries.forEach(function (e) { if (e.isIntersecting) ensure(groups[+e.target.dataset.group]); });
      }, { rootMargin: '400px 0px' });
      groups.forEach(function (G) { io.observe(G.sec); });
    } else groups.forEach(ensure);
    document.getElementById('dsview-find-go').onclick = function () { find(+document.getElementById('dsview-find').value); };
    document.getElementById('dsview-find').onkeydown = function (e) { if (e.key === 'Enter') find(+this.value); };
  }

  function el(tag, cls, parent) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    parent.appendChild(e);
    return e;
  }
  function button(parent, text, title, fn) { var b = el('button', '', parent); b.textContent = text; b.title = title; b.onclick = fn; return b; }

  function legend(parent) {
    var lg = el('div', 'legend', parent);
    [['job running (colour by id)', PALETTE[0]], ['waiting (thin line)', '#7aa6c8'], ['booting', BOOT], ['powered on', ON],
      ['failed / killed job', LOST], ['migrated away', MIGR], ['unfinished', UNFIN], ['server failed', FAIL],
      ['power-off', '#555'], ['recovery', '#2ca02c']].forEach(function (x) {
      var s = el('span', '', lg), i = el('i', '', s);
      i.style.background = x[1];
      s.appendChild(document.createTextNode(x[0]));
    });
  }

  function width(R) { return Math.max(400, R.canvas.parentNode.clientWidth); }
  function xOf(R, t, w) { var G = R.group; return LABEL_W + (t - G.t0) / (G.t1 - G.t0) * (w - LABEL_W - 8); }
  function tOf(R, x, w) { var G = R.group; return G.t0 + (x - LABEL_W) / (w - LABEL_W - 8) * (G.t1 - G.t0); }

  function sizeCanvas(c, w, h) {
    var dpr = window.devicePixelRatio || 1;
    if (c.width !== w * dpr || c.height !== h * dpr) {
      c.width = w * dpr; c.height = h * dpr; c.style.width = w + 'px'; c.style.height = h + 'px';
    }
    var ctx = c.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    return ctx;
  }

  function axis(ctx, R, w, y, h) {
    var G = R.group, step = niceStep(G.t1 - G.t0, Math.max(2, Math.floor((w - LABEL_W) / 90)));
    ctx.fillStyle = '#333'; ctx.strokeStyle = '#e4e4e4'; ctx.font = '11px sans-serif'; ctx.textAlign = 'center';
    for (var t = Math.ceil(G.t0 / step) * step; t <= G.t1; t += step) {
      var x = xOf(R, t, w);
      ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x, y + h); ctx.stroke();
      ctx.textAlign = x > w - 24 ? 'right' : 'center'; // keep the last label inside
      ctx.fillText(String(Math.round(t)), x, y - 6);
    }
    ctx.textAlign = 'left';
  }

  function drawTimeline(R) {
    var d = R.d, n = d.srvType.length, w = width(R), h = AXIS_H + n * R.rowH + 4, s = d.stays;
    var ctx = sizeCanvas(R.canvas, w, h), G = R.group, rh = R.rowH;
    R.w = w;
    ctx.save();
    ctx.beginPath(); ctx.rect(LABEL_W, 0, w - LABEL_W, h); ctx.clip();
    for (var i = 0; i < n; i++) {
      var y = AXIS_H + i * rh;
      if (d.srvType[i] % 2) { ctx.fillStyle = '#f7f9fc'; ctx.fillRect(LABEL_W, y, w, rh); }
      var pw = d.power[i];
      for (var k = 0; k < pw.length; k += 3) {
        var off = pw[k + 2] < 0 ? d.end : pw[k + 2];
        band(ctx, R, w, pw[k], pw[k + 1], y, rh, BOOT);
        band(ctx, R, w, pw[k + 1], off, y, rh, ON);
        if (pw[k + 2] >= 0) { ctx.fillStyle = '#555'; ctx.fillRect(xOf(R, off, w) - 1, y, 2, rh); }
      }
      var fl = d.fails[i];
      for (k = 0; k < fl.length; k += 2) {
        band(ctx, R, w, fl[k], fl[k + 1] < 0 ? d.end : fl[k + 1], y, rh, FAIL);
        ctx.fillStyle = '#d62728'; ctx.fillRect(xOf(R, fl[k], w) - 1, y, 2, rh);
        if (fl[k + 1] >= 0) { ctx.fillStyle = '#2ca02c'; ctx.fillRect(xOf(R, fl[k + 1], w) - 1, y, 2, rh); }
      }
    }
    // Bars in colour order (R.byColour), so the fill style changes a
    // dozen times per redraw instead of once per bar; waits first, under
    // the bars.
    var drawn = 0, order = R.byColour, sel = -1;
    ctx.fillStyle = '#7aa6c8';
    for (i = 0; i < order.length; i++) {
      k = order[i];
      var ready = s.ready[k], a0 = R.from(k);
      if (ready < a0 && a0 >= G.t0 && ready <= G.t1) {
        var g = geom(R, k, rh), xr = xOf(R, ready, w);
        ctx.fillRect(xr, g.y + g.h / 2 - 0.5, xOf(R, a0, w) - xr, 1);
      }
    }
    var colour = -1;
    for (i = 0; i < order.length; i++) {
      k = order[i];
      var a = R.from(k), b = R.to(k);
      if (b < G.t0 || Math.min(a, s.ready[k]) > G.t1) continue;
      var gm = geom(R, k, rh), x0 = xOf(R, a, w), x1 = Math.max(xOf(R, b, w), x0 + 1);
      if (R.colour[k] !== colour) { colour = R.colour[k]; ctx.fillStyle = COLOURS[colour]; }
      ctx.fillRect(x0, gm.y, x1 - x0, Math.max(1, gm.h - (gm.h > 3 ? 1 : 0)));
      if (s.job[k] === selected) sel = k;
      drawn++;
    }
    if (sel >= 0) {
      var gs = geom(R, sel, rh), xs0 = xOf(R, R.from(sel), w), xs1 = Math.max(xOf(R, R.to(sel), w), xs0 + 1);
      ctx.strokeStyle = '#d62728'; ctx.lineWidth = 2; ctx.strokeRect(xs0 - 1, gs.y - 1, xs1 - xs0 + 2, gs.h + 1);
    }
    R.drawn = drawn;
    ctx.restore();
    axis(ctx, R, w, AXIS_H, n * rh);
    labels(ctx, R, rh);
  }

  // geom: the top and height of stay k's bar (its lane in its row).
  function geom(R, k, rh) {
    var srv = R.d.stays.server[k], h = Math.max(1, (rh - 2) / R.lanes[srv]);
    return { y: AXIS_H + srv * rh + 1 + R.lane[k] * h, h: h };
  }

  function band(ctx, R, w, a, b, y, h, colour) {
    if (b <= a) return;
    ctx.fillStyle = colour;
    var x0 = xOf(R, a, w);
    ctx.fillRect(x0, y, Math.max(1, xOf(R, b, w) - x0), h);
  }

  // labels: the type name at each type's first row, server ids when rows
  // are tall enough to read.
  function labels(ctx, R, rh) {
    var d = R.d;
    ctx.font = '11px sans-serif'; ctx.fillStyle = '#222'; ctx.textBaseline = 'middle';
    for (var i = 0; i < d.srvType.length; i++) {
      var y = AXIS_H + i * rh, first = i === 0 || d.srvType[i] !== d.srvType[i - 1];
      if (first) {
        ctx.fillStyle = '#999'; ctx.fillRect(0, y, LABEL_W - 4, 1); ctx.fillStyle = '#222';
        ctx.fillText(d.types[d.srvType[i]].name, 2, y + Math.max(rh, 12) / 2 + 1);
      }
      if (rh >= 11) { ctx.fillStyle = '#666'; ctx.fillText(String(d.srvId[i]), LABEL_W - 28, y + rh / 2); ctx.fillStyle = '#222'; }
    }
    ctx.textBaseline = 'alphabetic';
  }

  // drawSeries: the global-queue length, powered cores and accumulated
  // cost under the timeline, on its time axis.
  function drawSeries(R) {
    var d = R.d, w = R.w, names = [['global queue (jobs)', d.queue, true, '#d62728'],
      ['powered cores', d.powered, true, '#2ca02c'], ['accumulated cost ($)', d.cost, false, '#1f77b4']];
    var ctx = sizeCanvas(R.lower, w, names.length * STRIP_H + 4);
    names.forEach(function (x, i) {
      var sr = x[1], y0 = i * STRIP_H + 4, hh = STRIP_H - 14, maxV = 0;
      for (var k = 0; k < sr.v.length; k++) maxV = Math.max(maxV, sr.v[k]);
      ctx.fillStyle = '#fafafa'; ctx.fillRect(LABEL_W, y0, w - LABEL_W - 8, hh);
      ctx.fillStyle = '#222'; ctx.font = '11px sans-serif';
      ctx.fillText(x[0], 2, y0 + 12);
      ctx.fillStyle = '#666';
      ctx.fillText('max ' + (x[2] ? maxV : maxV.toFixed(2)), 2, y0 + 26);
      ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, y0, w - LABEL_W - 8, hh); ctx.clip();
      ctx.strokeStyle = x[3]; ctx.lineWidth = 1.5; ctx.beginPath();
      var yOf = function (v) { return y0 + hh - (maxV > 0 ? v / maxV * (hh - 2) : 0); };
      ctx.moveTo(xOf(R, 0, w), yOf(0));
      for (k = 0; k < sr.t.length; k++) {
        var xx = xOf(R, sr.t[k], w);
        if (x[2] && k > 0) ctx.lineTo(xx, yOf(sr.v[k - 1]));
        ctx.lineTo(xx, yOf(sr.v[k]));
      }
      ctx.lineTo(xOf(R, d.end, w), yOf(sr.v.length ? sr.v[sr.v.length - 1] : 0));
      ctx.stroke(); ctx.restore();
    });
  }

  function drawGroup(G) {
    G.seen = true;
    G.runs.forEach(function (R) { if (!R.hidden) { prep(R); drawTimeline(R); drawSeries(R); } });
    G.label.textContent = 'visible: ' + Math.round(G.t0) + ' – ' + Math.round(G.t1) + ' s of ' + G.end;
  }
  function drawAll() { groups.forEach(function (G) { if (G.seen) drawGroup(G); }); }
  function ensure(G) { if (!G.seen) drawGroup(G); }

  // only shows the runs for which keep(run index) is true (all when keep
  // is null), hiding groups left empty.
  function only(keep) {
    groups.forEach(function (G) {
      var any = false;
      G.runs.forEach(function (R) {
        R.hidden = !!keep && !keep(R.i);
        R.box.style.display = R.hidden ? 'none' : '';
        any = any || !R.hidden;
      });
      G.sec.style.display = any ? '' : 'none';
      if (G.seen) drawGroup(G);
    });
  }

  // open scrolls run r's timeline into view (showing it if hidden),
  // draws it and marks it as the one opened.
  function open(r) {
    var R = runs[r];
    if (R.hidden) only(null);
    runs.forEach(function (o) { o.box.classList.toggle('opened', o === R); });
    R.group.sec.style.display = '';
    drawGroup(R.group);
    R.box.scrollIntoView({ block: 'start' });
    return R.d.name;
  }

  function setRange(G, t0, t1) {
    var span = clamp(t1 - t0, 1, G.end * 4);
    t0 = clamp(t0, -G.end * 0.05, G.end - span * 0.05);
    G.t0 = t0; G.t1 = t0 + span;
    drawGroup(G);
  }
  function zoom(G, f, at) { setRange(G, at - (at - G.t0) * f, at + (G.t1 - at) * f); }
  function pan(G, dt) { setRange(G, G.t0 + dt, G.t1 + dt); }

  // hit: the stay under canvas point (x, y) of run R, or -1.
  function hit(R, x, y) {
    var d = R.d, srv = Math.floor((y - AXIS_H) / R.rowH);
    if (x < LABEL_W || srv < 0 || srv >= d.srvType.length) return -1;
    var t = tOf(R, x, R.w), slack = (R.group.t1 - R.group.t0) / (R.w - LABEL_W) * 2, best = -1, waiting = -1;
    // A bar (running) wins over a thin waiting line that crosses it.
    R.perSrv[srv].forEach(function (k) {
      var bh = Math.max(1, (R.rowH - 2) / R.lanes[srv]), by = AXIS_H + srv * R.rowH + 1 + R.lane[k] * bh;
      if (R.lanes[srv] > 1 && (y < by - 1 || y > by + bh + 1)) return;
      if (t >= R.from(k) - slack && t <= R.to(k) + slack) best = k;
      else if (t >= d.stays.ready[k] && t < R.from(k)) waiting = k;
    });
    return best >= 0 ? best : waiting;
  }

  function describe(R, k) {
    var d = R.d, s = d.stays, j = R.jobIdx.get(s.job[k]), srv = s.server[k];
    var ran = s.start[k] >= 0 && s.end[k] >= 0 ? s.end[k] - s.start[k] : -1;
    return 'job ' + s.job[k] + ' (' + OUTCOME[s.outcome[k]] + ')\n' +
      'on ' + d.types[d.srvType[srv]].name + ' ' + d.srvId[srv] + '\n' +
      'submit ' + d.jobs.submit[j] + (s.ready[k] !== d.jobs.submit[j] ? ' (back from the queue at ' + s.ready[k] + ')' : '') + '\n' +
      'start ' + fmt(s.start[k]) + '  end ' + fmt(s.end[k]) + '  wait ' + (s.start[k] >= 0 ? s.start[k] - s.ready[k] : '—') + '\n' +
      'cores ' + d.jobs.cores[j] + '  memory ' + d.jobs.mem[j] + '  disk ' + d.jobs.disk[j] + '\n' +
      'estimate ' + d.jobs.est[j] + ' s  actual ' + d.jobs.act[j] + ' s' + (ran >= 0 && ran !== d.jobs.act[j] ? ' (ran ' + ran + ' s here)' : '');
  }

  function showTip(R, k, cx, cy) {
    if (k < 0) { tip.hidden = true; tip.textContent = ''; return; }
    tip.textContent = describe(R, k);
    tip.hidden = false;
    tip.style.left = Math.min(cx + 14, window.innerWidth - 320) + 'px';
    tip.style.top = Math.min(cy + 14, window.innerHeight - 130) + 'px';
  }

  // valueAt: a series' value at t (steps hold, the cost is linear).
  function valueAt(sr, t, linear) {
    var lo = 0, hi = sr.t.length - 1;
    if (hi < 0 || t < sr.t[0]) return 0;
    while (lo < hi) { var m = (lo + hi + 1) >> 1; if (sr.t[m] <= t) lo = m; else hi = m - 1; }
    if (!linear || lo + 1 >= sr.t.length) return sr.v[lo];
    return sr.v[lo] + (sr.v[lo + 1] - sr.v[lo]) * (t - sr.t[lo]) / (sr.t[lo + 1] - sr.t[lo]);
  }

  function wire(R) {
    var c = R.canvas, drag = null;
    R.lower.addEventListener('mousemove', function (e) {
      var x = e.clientX - R.lower.getBoundingClientRect().left, d = R.d;
      if (x < LABEL_W) { tip.hidden = true; return; }
      var t = Math.round(clamp(tOf(R, x, R.w), 0, d.end));
      tip.textContent = 'time ' + t + ' s\nglobal queue ' + valueAt(d.queue, t) + ' jobs\npowered cores ' + valueAt(d.powered, t) +
        '\naccumulated cost $' + valueAt(d.cost, t, true).toFixed(2);
      tip.hidden = false;
      tip.style.left = Math.min(e.clientX + 14, window.innerWidth - 240) + 'px';
      tip.style.top = Math.min(e.clientY + 14, window.innerHeight - 90) + 'px';
    });
    R.lower.addEventListener('mouseleave', function () { tip.hidden = true; });
    c.addEventListener('mousemove', function (e) {
      var r = c.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
      if (drag) {
        var dt = (drag.x - x) / (R.w - LABEL_W - 8) * (drag.t1 - drag.t0);
        setRange(R.group, drag.t0 + dt, drag.t1 + dt);
        return;
      }
      showTip(R, hit(R, x, y), e.clientX, e.clientY);
    });
    c.addEventListener('mouseleave', function () { tip.hidden = true; drag = null; });
    c.addEventListener('mousedown', function (e) { drag = { x: e.clientX - c.getBoundingClientRect().left, t0: R.group.t0, t1: R.group.t1 }; });
    window.addEventListener('mouseup', function () { drag = null; });
    c.addEventListener('dblclick', function () { setRange(R.group, 0, R.group.end); });
    c.addEventListener('wheel', function (e) {
      e.preventDefault();
      var r = c.getBoundingClientRect(), x = e.clientX - r.left;
      zoom(R.group, e.deltaY < 0 ? 1 / 1.25 : 1.25, x < LABEL_W ? (R.group.t0 + R.group.t1) / 2 : tOf(R, x, R.w));
    }, { passive: false });
  }

  // find: zoom every group to where job id ran and outline it.
  function find(id) {
    var found = [];
    selected = id;
    groups.forEach(function (G) {
      var lo = Infinity, hi = -Infinity;
      G.runs.forEach(function (R) {
        var s = prep(R).d.stays;
        for (var k = 0; k < s.job.length; k++) {
          if (s.job[k] !== id) continue;
          lo = Math.min(lo, s.ready[k]); hi = Math.max(hi, R.to(k));
          found.push(R.d.name + ': ' + R.d.types[R.d.srvType[s.server[k]]].name + ' ' + R.d.srvId[s.server[k]]);
        }
      });
      if (lo <= hi) { var pad = Math.max(10, (hi - lo) * 0.5); setRange(G, lo - pad, hi + pad); } else drawGroup(G);
    });
    document.getElementById('dsview-found').textContent = found.length ? 'job ' + id + ' on ' + found.join('; ') : 'no job ' + id;
    return found.length;
  }

  // pointOf: the client coordinates of the middle of job id's last bar in
  // run r (for tests and links), or null.
  function pointOf(r, id) {
    var R = prep(runs[r]), s = R.d.stays, k = -1;
    for (var i = 0; i < s.job.length; i++) if (s.job[i] === id) k = i;
    if (k < 0) return null;
    var srv = s.server[k], bh = Math.max(1, (R.rowH - 2) / R.lanes[srv]);
    var a = Math.max(R.from(k), R.group.t0), b = Math.min(R.to(k), R.group.t1);
    var dy = AXIS_H + srv * R.rowH + 1 + R.lane[k] * bh + bh / 2, rect = R.canvas.getBoundingClientRect();
    if (rect.top + dy < 0 || rect.top + dy > window.innerHeight - 10) { // scroll it into view
      window.scrollBy(0, rect.top + dy - window.innerHeight / 2);
      rect = R.canvas.getBoundingClientRect();
    }
    return { x: rect.left + (xOf(R, a, R.w) + xOf(R, b, R.w)) / 2, y: rect.top + dy };
  }

  // The API the browser test (and anyone scripting the page) uses.
  window.dsview = {
    groups: function () { return groups.length; },
    runs: function () { return runs.length; },
    counts: function (r) {
      ensure(runs[r].group);
      var d = runs[r].d, fails = 0, boots = 0;
      for (var i = 0; i < d.srvType.length; i++) { fails += d.fails[i].length / 2; boots += d.power[i].length / 3; }
      return { jobs: d.jobs.id.length, bars: d.stays.job.length, drawn: runs[r].drawn, servers: d.srvType.length, fails: fails, boots: boots };
    },
    visibleRange: function (g) { return [groups[g].t0, groups[g].t1]; },
    setRange: function (g, t0, t1) { setRange(groups[g], t0, t1); },
    reset: function (g) { setRange(groups[g], 0, groups[g].end); },
    zoom: function (g, f) { var G = groups[g]; zoom(G, f, (G.t0 + G.t1) / 2); },
    pointOf: function (r, id) { ensure(runs[r].group); return pointOf(r, id); },
    open: open,
    only: only,
    // shown: the runs not hidden; opened: the run open() last opened
    // (-1 for none); inView: whether run r's title is in the viewport.
    shown: function () { return runs.filter(function (R) { return !R.hidden; }).map(function (R) { return R.i; }); },
    opened: function () { var o = runs.filter(function (R) { return R.box.classList.contains('opened'); }); return o.length ? o[0].i : -1; },
    inView: function (r) { var b = runs[r].box.getBoundingClientRect(); return b.top >= -1 && b.top < window.innerHeight; },
    runName: function (r) { return runs[r].d.name; },
    hoverAt: function (r, x, y) {
      var R = runs[r], rect = R.canvas.getBoundingClientRect(), k = hit(R, x - rect.left, y - rect.top);
      return k < 0 ? -1 : R.d.stays.job[k];
    },
    tooltip: function () { return tip.hidden ? '' : tip.textContent; },
    // redrawMs: the mean time of n redraws of group g (timelines and
    // strips), for the benchmark.
    redrawMs: function (g, n) {
      ensure(groups[g]);
      var t0 = performance.now();
      for (var i = 0; i < n; i++) drawGroup(groups[g]);
      return (performance.now() - t0) / n;
    },
    find: find
  };
  build();
  // The comparison's script (compare.js) ran before this one: its API
  // joins the page's.
  if (window.dsviewCompare) window.dsview.compare = window.dsviewCompare;
  // The marks pageshot -time reads: the page built, and the next frame
  // after it (painted).
  if (window.performance && performance.mark) {
    performance.mark('dsview-ready');
    requestAnimationFrame(function () { requestAnimationFrame(function () { performance.mark('dsview-ready-frame'); }); });
  }
})();
