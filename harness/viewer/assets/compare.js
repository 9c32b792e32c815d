// dsbench's comparison: the summary (frontier, the clickable
// cost-against-turnaround plot, the wins), one sortable table per metric
// and the runs without a result, drawn from the page's data after the
// timelines (window.dsview) exist. Tables are built as HTML strings in one
// assignment each: thirty strategies × thirty configs is a few thousand
// cells, which the browser lays out at once.
(function () {
  'use strict';
  var src = document.getElementById('dsview-compare-data');
  if (!src) return;
  var data = JSON.parse(src.textContent);
  var dsview = window.dsview;
  var SVGNS = 'http://www.w3.org/2000/svg';
  var runCol = {}, selection = [];

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

  // plot: one circle per column, labelled, frontier points joined; a
  // circle carries its column (data-col) for the click.
  function plot(parent) {
    var pts = data.plot.points, W = 640, H = 420, L = 64, R = 16, T = 12, B = 46;
    var svg = document.createElementNS(SVGNS, 'svg');
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    svg.setAttribute('class', 'tradeoff');
    parent.appendChild(svg);
    if (!pts.length) return;
    var x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    pts.forEach(function (p) { x0 = Math.min(x0, p.x); x1 = Math.max(x1, p.x); y0 = Math.min(y0, p.y); y1 = Math.max(y1, p.y); });
    var dx = Math.max(x1 - x0, Math.abs(x1) * 0.05, 1e-6), dy = Math.max(y1 - y0, Math.abs(y1) * 0.05, 1e-6);
    x0 -= dx * 0.06; x1 += dx * 0.22; y0 -= dy * 0.08; y1 += dy * 0.08;
    function X(v) { return L + (v - x0) / (x1 - x0) * (W - L - R); }
    function Y(v) { return H - B - (v - y0) / (y1 - y0) * (H - T - B); }
    var h = [];
    var sx = niceStep(x1 - x0, 6), sy = niceStep(y1 - y0, 6);
    for (var t = Math.ceil(x0 / sx) * sx; t <= x1; t += sx) {
      h.push('<line class="grid" x1="' + X(t) + '" x2="' + X(t) + '" y1="' + T + '" y2="' + (H - B) + '"/>',
        '<text class="tick" x="' + X(t) + '" y="' + (H - B + 14) + '" text-anchor="middle">' + +t.toPrecision(6) + '</text>');
    }
    for (t = Math.ceil(y0 / sy) * sy; t <= y1; t += sy) {
      h.push('<line class="grid" y1="' + Y(t) + '" y2="' + Y(t) + '" x1="' + L + '" x2="' + (W - R) + '"/>',
        '<text class="tick" x="' + (L - 4) + '" y="' + (Y(t) + 4) + '" text-anchor="end">' + +t.toPrecision(6) + '</text>');
    }
    h.push('<rect class="frame" x="' + L + '" y="' + T + '" width="' + (W - L - R) + '" height="' + (H - T - B) + '"/>',
      '<text class="axis" x="' + (L + (W - L - R) / 2) + '" y="' + (H - 8) + '" text-anchor="middle">' + esc(data.plot.xLabel) + '</text>',
      '<text class="axis" transform="translate(14,' + (T + (H - T - B) / 2) + ') rotate(-90)" text-anchor="middle">' + esc(data.plot.yLabel) + '</text>');
    var fr = pts.filter(function (p) { return p.frontier; }).sort(function (a, b) { return a.x - b.x; });
    if (fr.length > 1) h.push('<polyline class="frontier-line" points="' + fr.map(function (p) { return X(p.x) + ',' + Y(p.y); }).join(' ') + '"/>');
    pts.forEach(function (p) {
      var c = esc(p.column);
      h.push('<g class="pt' + (p.frontier ? ' fr' : '') + '" data-col="' + c + '"><title>' + c + ': ' + esc(data.plot.xLabel) + ' ' + p.xText +
        ', ' + esc(data.plot.yLabel) + ' ' + p.yText + (p.frontier ? ' (on the frontier)' : '') + '</title>' +
        '<circle cx="' + X(p.x) + '" cy="' + Y(p.y) + '" r="5"/>' +
        '<text x="' + (X(p.x) + 7) + '" y="' + (Y(p.y) + 4) + '">' + c + '</text></g>');
    });
    svg.innerHTML = h.join('');
  }

  // tableHTML: a table's markup; ti is its index in data.tables (-1: the
  // wins, not linked to runs).
  function tableHTML(t, ti) {
    var base = {}, h = ['<table class="cmp" data-table="' + esc(t.id) + '" data-ti="' + ti + '"><thead><tr>'];
    (data.baselines || []).forEach(function (b) { base[b] = true; });
    h.push('<th class="lab sortable" data-j="-1">' + esc(t.corner) + '</th>');
    t.columns.forEach(function (c, j) {
      h.push('<th class="sortable' + (base[c] ? ' base' : '') + '" data-j="' + j + '" title="' + (base[c] ? 'baseline; ' : '') + 'sort by ' + esc(c) + '">' + esc(c) + '</th>');
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

  function tables(root) {
    el('h2', '', root, 'Comparison');
    data.tables.forEach(function (t, ti) {
      var box = el('div', 'cmp-table', root);
      box.id = 'table-' + t.id;
      el('h3', '', box, t.heading);
      var sc = el('div', 'scroll', box);
      sc.innerHTML = tableHTML(t, ti);
      (t.notes || []).forEach(function (n) { el('p', 'tnote', box, n); });
    });
  }

  function missing(root) {
    if (!data.missing.length) return;
    var d = el('details', 'missing', root);
    d.id = 'dsview-missing';
    el('summary', '', d, data.missing.length + (data.missing.length === 1 ? ' run' : ' runs') + ' without a result (no timeline; the tables show their status)');
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
      dsview.only(null);
      bar.hidden = true;
      return -1;
    }
    dsview.only(function (r) { return selection.indexOf(runCol[r]) >= 0; });
    bar.hidden = false;
    var runs = first ? runsOf(first) : [];
    bar.firstChild.textContent = 'Timelines of ' + selection.join(' and ') + (runs.length ? '' : ' — none on this page: ' + first +
      ' has no run with a timeline here (see the note above the timelines)') + ' ';
    if (runs.length) dsview.open(runs[0]);
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
  }
  function openRun(r) {
    if (selection.length && selection.indexOf(runCol[r]) < 0) { selection = []; applySelection(null); }
    dsview.open(r);
  }
  // openConfig opens the config's first timeline (all its strategies).
  function openConfig(table, i) {
    var t = data.tables[+table.dataset.ti], first = -1;
    t.rows[i].cells.forEach(function (c) { if (c.r && (first < 0 || c.r - 1 < first)) first = c.r - 1; });
    if (first < 0) return;
    selection = []; applySelection(null);
    dsview.open(first);
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
  dsview.compare = {
    select: select,
    selection: function () { return selection.slice(); },
    runsOf: runsOf,
    column: function (r) { return runCol[r]; }
  };
  dsview.markReady();
})();
