// dsbench's comparison: the summary (frontier, the clickable
// cost-against-turnaround plot, the wins), one sortable table per metric
// and the runs without a result. It runs before the timelines' data is
// even parsed, so the browser can paint the tables while the rest of the
// page loads; a click reaches the timelines through window.dsview, which
// viewer.js defines after it. Tables are built as HTML strings in one
// assignment each: thirty strategies × thirty configs is a few thousand
// cells, which the browser lays out at once.
(function () {
  'use strict';
  var src = document.getElementById('dsview-compare-data');
  if (!src) return;
  var data = JSON.parse(src.textContent);
  function dsview() { return window.dsview; }
  var SVGNS = 'http://www.w3.org/2000/svg';
  var runCol = {}, selection = [];

  // mark sets a performance mark and, at the next frame after it (the
  // page painted), NAME-frame: what pageshot -time reads.
  function mark(name) {
    if (!window.performance || !performance.mark) return;
    performance.mark(name);
    requestAnimationFrame(function () { requestAnimationFrame(function () { performance.mark(name + '-frame'); }); });
  }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function el(tag, cls, parent, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  // The column of every run with a timeline, from the cells' links.
  data.tables.forEach(function (t) {
    t.rows.forEach(function (row) {
      row.cells.forEach(function (c, j) { if (c.r) runCol[c.r - 1] = t.columns[j]; });
    });
  });
  function runsOf(col) {
    var out = [];
    for (var r in runCol) if (runCol[r] === col) out.push(+r);
    return out.sort(function (a, b) { return a - b; });
  }

  function summary(root) {
    el('h2', '', root, 'Summary');
    var p = el('p', 'frontier', root);
    if (data.frontier && data.frontier.length) {
      p.appendChild(document.createTextNode('On the cost–turnaround frontier of this run: '));
      data.frontier.forEach(function (col, i) {
        if (i) p.appendChild(document.createTextNode(', '));
        var a = el('a', 'col', p, col);
        a.href = '#'; a.dataset.col = col;
      });
      p.appendChild(document.createTextNode(' (no other strategy has a lower average turnaround and a lower average cost' +
        (data.plot.note ? '; ' + data.plot.note : '') + ').'));
    } else p.textContent = 'No strategy has both averages: no frontier.';
    var row = el('div', 'summary-row', root);
    var plotBox = el('div', 'plotbox', row);
    el('h3', '', plotBox, 'Cost against turnaround');
    plot(plotBox);
    el('p', 'hint', plotBox, 'Click a point for that strategy\'s timelines; a second point puts two strategies on each config\'s time axis.');
    if (data.wins) {
      var wb = el('div', 'winsbox', row);
      wb.innerHTML = tableHTML(data.wins, -1);
    }
    var lg = el('p', 'cmp-legend', root);
    lg.innerHTML = 'In the tables: <span class="best">best of the config</span> · against the baselines (' +
      esc((data.baselines || []).join(', ') || 'none') + '): <span class="win">beats every one</span> ' +
      '<span class="some">beats some</span> <span class="lose">beats none</span> · click a column heading to sort, ' +
      'a number to open its run\'s timeline, a config for its timelines.';
  }

  function niceStep(span, n) {
    var raw = Math.max(span / n, 1e-9), p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
  }

  // scale maps values to pixels from a to b: logarithmic when the
  // values span more than a factor of 4 (a baselines' average pulled up
  // by a slow baseline leaves the others crowded near 0 on a linear
  // axis), linear otherwise; ticks says where its labelled lines go.
  function scale(vals, a, b) {
    var lo = Math.min.apply(null, vals), hi = Math.max.apply(null, vals);
    if (lo > 0 && hi / lo > 4) {
      var l0 = Math.log10(lo) - 0.06 * Math.log10(hi / lo), l1 = Math.log10(hi) + 0.06 * Math.log10(hi / lo);
      return { log: true, at: function (v) { return a + (Math.log10(v) - l0) / (l1 - l0) * (b - a); }, ticks: function () {
        var out = [];
        for (var e = Math.floor(l0); e <= Math.ceil(l1); e++) {
          [1, 2, 5].forEach(function (m) { var v = m * Math.pow(10, e), lv = Math.log10(v); if (lv >= l0 && lv <= l1) out.push(v); });
        }
        return out;
      } };
    }
    var d = Math.max(hi - lo, Math.abs(hi) * 0.05, 1e-6);
    lo -= d * 0.08; hi += d * 0.08;
    return { log: false, at: function (v) { return a + (v - lo) / (hi - lo) * (b - a); }, ticks: function () {
      var out = [], st = niceStep(hi - lo, 6);
      for (var t = Math.ceil(lo / st) * st; t <= hi; t += st) out.push(+t.toPrecision(6));
      return out;
    } };
  }

  // placeLabels puts each point's label beside it where it overlaps no
  // label placed before (right, left, above, below, then further down or
  // up on the right with a leader line); a label with no free place goes
  // right of its point anyway.
  function placeLabels(pts, X, Y, box) {
    var placed = [], out = [];
    function free(r) {
      if (r.x0 < box.x0 || r.x1 > box.x1 || r.y0 < box.y0 || r.y1 > box.y1) return false;
      for (var i = 0; i < placed.length; i++) {
        var q = placed[i];
        if (r.x0 < q.x1 && r.x1 > q.x0 && r.y0 < q.y1 && r.y1 > q.y0) return false;
      }
      pts.forEach(function (p) { var px = X(p.x), py = Y(p.y); if (px > r.x0 - 4 && px < r.x1 + 4 && py > r.y0 - 4 && py < r.y1 + 4) r.hitsPoint = true; });
      return !r.hitsPoint;
    }
    var order = pts.map(function (p, i) { return i; }).sort(function (a, b) { return (pts[b].frontier ? 1 : 0) - (pts[a].frontier ? 1 : 0) || a - b; });
    order.forEach(function (i) {
      var p = pts[i], px = X(p.x), py = Y(p.y), w = p.column.length * 6.2 + 2, h = 12, tries = [[7, 4], [-7 - w, 4], [-w / 2, -8], [-w / 2, 16]];
      for (var k = 1; k <= 6; k++) tries.push([12, 4 + 13 * k], [12, 4 - 13 * k]);
      var pos = null;
      for (var t = 0; t < tries.length && !pos; t++) {
        var x = px + tries[t][0], y = py + tries[t][1], r = { x0: x, x1: x + w, y0: y - 10, y1: y - 10 + h };
        if (free(r)) pos = { x: x, y: y, lead: t >= 4, r: r };
      }
      if (!pos) pos = { x: px + 7, y: py + 4, lead: false, r: { x0: px + 7, x1: px + 7 + w, y0: py - 6, y1: py + 6 } };
      placed.push(pos.r);
      out[i] = pos;
    });
    return out;
  }

  // plot: one circle per column, labelled, frontier points joined; a
  // point carries its column (data-col) for the click.
  function plot(parent) {
    var pts = data.plot.points, W = 660, H = 440, L = 64, R = 12, T = 12, B = 46;
    var svg = document.createElementNS(SVGNS, 'svg');
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    svg.setAttribute('class', 'tradeoff');
    parent.appendChild(svg);
    if (!pts.length) return;
    var sx = scale(pts.map(function (p) { return p.x; }), L + 8, W - R - 90), sy = scale(pts.map(function (p) { return p.y; }), H - B - 8, T + 8);
    var X = sx.at, Y = sy.at, h = [];
    sx.ticks().forEach(function (t) {
      h.push('<line class="grid" x1="' + X(t) + '" x2="' + X(t) + '" y1="' + T + '" y2="' + (H - B) + '"/>',
        '<text class="tick" x="' + X(t) + '" y="' + (H - B + 14) + '" text-anchor="middle">' + t + '</text>');
    });
    sy.ticks().forEach(function (t) {
      h.push('<line class="grid" y1="' + Y(t) + '" y2="' + Y(t) + '" x1="' + L + '" x2="' + (W - R) + '"/>',
        '<text class="tick" x="' + (L - 4) + '" y="' + (Y(t) + 4) + '" text-anchor="end">' + t + '</text>');
    });
    var xl = data.plot.xLabel + (sx.log ? ', log scale' : ''), yl = data.plot.yLabel + (sy.log ? ', log scale' : '');
    h.push('<rect class="frame" x="' + L + '" y="' + T + '" width="' + (W - L - R) + '" height="' + (H - T - B) + '"/>',
      '<text class="axis" x="' + (L + (W - L - R) / 2) + '" y="' + (H - 8) + '" text-anchor="middle">' + esc(xl) + '</text>',
      '<text class="axis" transform="translate(14,' + (T + (H - T - B) / 2) + ') rotate(-90)" text-anchor="middle">' + esc(yl) + '</text>');
    var fr = pts.filter(function (p) { return p.frontier; }).sort(function (a, b) { return a.x - b.x; });
    if (fr.length > 1) h.push('<polyline class="frontier-line" points="' + fr.map(function (p) { return X(p.x) + ',' + Y(p.y); }).join(' ') + '"/>');
    var pos = placeLabels(pts, X, Y, { x0: L + 1, x1: W - R - 1, y0: T + 1, y1: H - B - 1 });
    pts.forEach(function (p, i) {
      var c = esc(p.column), q = pos[i], px = X(p.x), py = Y(p.y);
      h.push('<g class="pt' + (p.frontier ? ' fr' : '') + '" data-col="' + c + '"><title>' + c + ': ' + esc(data.plot.xLabel) + ' ' + p.xText +
        ', ' + esc(data.plot.yLabel) + ' ' + p.yText + (p.frontier ? ' (on the frontier)' : '') + '</title>' +
        (q.lead ? '<line class="lead" x1="' + px + '" y1="' + py + '" x2="' + q.x + '" y2="' + (q.y - 4) + '"/>' : '') +
        '<circle cx="' + px + '" cy="' + py + '" r="5"/>' +
        '<text x="' + q.x + '" y="' + q.y + '">' + c + '</text></g>');
    });
    svg.innerHTML = h.join('');
  }

  // tableHTML: a table's markup; ti is its index in data.tables (-1: the
  // wins, not linked to runs).
  function tableHTML(t, ti) {
    var base = {}, h = ['<table class="cmp" data-table="' + esc(t.id) + '" data-ti="' + ti + '"><thead><tr>'];
    (data.baselines || []).forEach(function (b) { base[b] = true; });
    h.push('<th class="lab sortable" tabindex="0" data-j="-1">' + esc(t.corner) + '</th>');
    t.columns.forEach(function (c, j) {
      h.push('<th class="sortable' + (base[c] ? ' base' : '') + '" tabindex="0" data-j="' + j + '" title="' + (base[c] ? 'baseline; ' : '') + 'sort by ' + esc(c) + '">' + esc(c) + '</th>');
    });
    h.push('</tr></thead><tbody>');
    t.rows.forEach(function (row, i) { h.push(rowHTML(row, i, ti >= 0)); });
    h.push('</tbody>');
    if (t.footer && t.footer.length) {
      h.push('<tfoot>');
      t.footer.forEach(function (row) { h.push(rowHTML(row, -1, false)); });
      h.push('</tfoot>');
    }
    h.push('</table>');
    return h.join('');
  }
  function rowHTML(row, i, linked) {
    var h = ['<tr' + (i >= 0 ? ' data-i="' + i + '"' : '') + '><th class="lab' + (linked ? ' cfg' : '') + '">' + esc(row.label) + '</th>'];
    row.cells.forEach(function (c) {
      var cls = 'num' + (c.c ? ' ' + c.c : '') + (c.r ? ' run' : '') + (c.v === null ? ' none' : '');
      h.push('<td class="' + cls + '"' + (c.r ? ' data-r="' + (c.r - 1) + '"' : '') + '>' + esc(c.t) + '</td>');
    });
    h.push('</tr>');
    return h.join('');
  }

  // tables: the measures and bound ratios open; the strategies' own
  // metrics (one table per name: dozens with every strategy) folded, and
  // built when first unfolded.
  function tables(root) {
    el('h2', '', root, 'Comparison');
    var metrics = [];
    data.tables.forEach(function (t, ti) {
      if (t.kind === 'metric') metrics.push(ti);
      else tableBox(root, t, ti);
    });
    var zero = data.zeroMetrics || [];
    if (!metrics.length && !zero.length) return;
    var d = el('details', 'metrics', root);
    d.id = 'dsview-metrics';
    el('summary', '', d, 'Strategy metrics: ' + metrics.length + (metrics.length === 1 ? ' table' : ' tables') +
      ' of what the strategies report of their own (only the strategies that report each)');
    if (zero.length) el('p', 'tnote', d, 'Strategy metrics that are 0 in every run, not shown as tables: ' + zero.join(', ') + '.');
    d.addEventListener('toggle', function () {
      if (!d.open || d.dataset.built) return;
      d.dataset.built = '1';
      metrics.forEach(function (ti) { tableBox(d, data.tables[ti], ti); });
    });
  }
  function tableBox(parent, t, ti) {
    var box = el('div', 'cmp-table', parent);
    box.id = 'table-' + t.id;
    el('h3', '', box, t.heading);
    var sc = el('div', 'scroll', box);
    sc.innerHTML = tableHTML(t, ti);
    (t.notes || []).forEach(function (n) { el('p', 'tnote', box, n); });
  }

  function missing(root) {
    if (!data.missing.length) return;
    var d = el('details', 'missing', root);
    d.id = 'dsview-missing';
    var expected = data.missing.filter(function (m) { return m.status === 'expected'; }).length;
    el('summary', '', d, data.missing.length + (data.missing.length === 1 ? ' run' : ' runs') + ' without a result' +
      (expected ? ' (' + (expected === data.missing.length ? 'all' : expected) + ' expected: server failures, and a strategy that never takes jobs back from the global queue)' : '') +
      '; no timeline, the tables show their status');
    var h = ['<table class="cmp"><thead><tr><th class="lab">Config</th><th class="lab">Strategy</th><th class="lab">Status</th><th class="lab">Reason</th></tr></thead><tbody>'];
    data.missing.forEach(function (m) {
      h.push('<tr><td>' + esc(m.config) + '</td><td>' + esc(m.column) + '</td><td>' + esc(m.status) + '</td><td class="reason">' + esc(m.reason) + '</td></tr>');
    });
    el('div', 'scroll', d).innerHTML = h.join('') + '</tbody></table>';
  }

  // sortBy orders table ti's body rows by column j (-1: the label); a
  // second click on the same heading reverses. Rows without a value go
  // last either way; ties keep the configs' order.
  function sortBy(table, j) {
    var ti = +table.dataset.ti, t = ti >= 0 ? data.tables[ti] : data.wins;
    var th = table.querySelector('th[data-j="' + j + '"]');
    var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    table.querySelectorAll('th[aria-sort]').forEach(function (e) { e.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
    var body = table.tBodies[0], trs = Array.prototype.slice.call(body.rows);
    trs.sort(function (a, b) {
      var ia = +a.dataset.i, ib = +b.dataset.i;
      if (j < 0) return dir * t.rows[ia].label.localeCompare(t.rows[ib].label) || ia - ib;
      var va = t.rows[ia].cells[j].v, vb = t.rows[ib].cells[j].v;
      if (va === null || vb === null) return (va === null) - (vb === null) || ia - ib;
      return dir * (va - vb) || ia - ib;
    });
    var f = document.createDocumentFragment();
    trs.forEach(function (tr) { f.appendChild(tr); });
    body.appendChild(f);
  }

  // select toggles a strategy in the selection (at most two: a third
  // drops the oldest), shows only the selection's timelines and opens the
  // first of them.
  function select(col) {
    var k = selection.indexOf(col);
    if (k >= 0) selection.splice(k, 1);
    else { selection.push(col); if (selection.length > 2) selection.shift(); }
    return applySelection(k < 0 ? col : selection[0]);
  }
  function applySelection(first) {
    document.querySelectorAll('svg.tradeoff .pt').forEach(function (g) {
      g.classList.toggle('selected', selection.indexOf(g.dataset.col) >= 0);
    });
    var bar = document.getElementById('dsview-selection');
    if (!selection.length) {
      dsview().only(null);
      bar.hidden = true;
      return -1;
    }
    dsview().only(function (r) { return selection.indexOf(runCol[r]) >= 0; });
    bar.hidden = false;
    var runs = first ? runsOf(first) : [];
    bar.firstChild.textContent = 'Timelines of ' + selection.join(' and ') + (runs.length ? '' : ' — none on this page: ' + first +
      ' has no run with a timeline here (see the note above the timelines)') + ' ';
    if (runs.length) dsview().open(runs[0]);
    return runs.length ? runs[0] : -1;
  }

  function wire(root) {
    root.addEventListener('click', function (e) {
      var t = e.target, pt = t.closest('.pt'), a = t.closest('a.col'), th = t.closest('th.sortable'), td = t.closest('td.run'), cfg = t.closest('th.cfg');
      if (pt || a) { e.preventDefault(); select((pt || a).dataset.col); return; }
      if (th) { sortBy(th.closest('table'), +th.dataset.j); return; }
      if (td) { openRun(+td.dataset.r); return; }
      if (cfg) openConfig(cfg.closest('table'), +cfg.parentNode.dataset.i);
    });
    // A heading sorts from the keyboard too (Tab to it, Enter or Space).
    root.addEventListener('keydown', function (e) {
      var th = e.target.closest && e.target.closest('th.sortable');
      if (th && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); sortBy(th.closest('table'), +th.dataset.j); }
    });
  }
  function openRun(r) {
    if (selection.length && selection.indexOf(runCol[r]) < 0) { selection = []; applySelection(null); }
    dsview().open(r);
  }
  // openConfig opens the config's first timeline (all its strategies).
  function openConfig(table, i) {
    var t = data.tables[+table.dataset.ti], first = -1;
    t.rows[i].cells.forEach(function (c) { if (c.r && (first < 0 || c.r - 1 < first)) first = c.r - 1; });
    if (first < 0) return;
    selection = []; applySelection(null);
    dsview().open(first);
  }

  var root = document.getElementById('dsview-compare');
  var sum = el('section', 'summary', root), tbl = el('section', 'tables', root);
  summary(sum);
  tables(tbl);
  missing(tbl);
  wire(root);
  var bar = document.getElementById('dsview-selection');
  el('span', '', bar);
  var all = el('button', '', bar, 'show every strategy');
  all.onclick = function () { selection = []; applySelection(null); };
  bar.hidden = true;

  // For the browser test and scripts.
  window.dsviewCompare = {
    select: select,
    selection: function () { return selection.slice(); },
    runsOf: runsOf,
    column: function (r) { return runCol[r]; }
  };
  mark('dsview-tables');
})();
