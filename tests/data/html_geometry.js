// Appended to an HTML report by tests/html.rs and run by headless Chromium after the
// report's own script: it measures the page as the reader sees it and writes what it
// found, as JSON, into a pre element (id geometry) for the test to read from the dumped DOM.
(function () {
  var all = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  var rect = function (el) { return el.getBoundingClientRect(); };
  var shows = function (el) { var r = rect(el); return el.getClientRects().length > 0 && r.width > 0 && r.height > 0; };
  var out = {width: innerWidth, height: innerHeight, scrollY: Math.round(scrollY),
    filters_bottom: Math.round(rect(document.getElementById('filters')).bottom)};

  // As loaded: which findings are open, where they and their graphs are.
  out.findings = all('details.finding').map(function (f) {
    var graph = f.querySelector('figure.graph');
    return {
      id: f.id, severity: f.dataset.severity, stage: f.dataset.stage, ns: f.dataset.ns,
      open: f.open, hidden: f.hidden, top: Math.round(rect(f).top),
      graph: graph ? {shows: shows(graph), top: Math.round(rect(graph).top), bottom: Math.round(rect(graph).bottom)} : null
    };
  });
  out.cards = all('#summary li.stage').map(function (c) {
    return {stage: c.dataset.stage, count: c.querySelector('.count').textContent, split: c.querySelector('.split').textContent};
  });
  out.groups = all('.stage-group').map(function (g) {
    return {stage: g.dataset.stage, hidden: g.hidden, heading: g.querySelector('h3').textContent};
  });
  out.shown = document.getElementById('shown').textContent;

  // Then every shown finding opened: no box's text may reach past its box, a cut text
  // must end in an ellipsis with the whole text in the box's tooltip, and no graph may be
  // wider than the space it has.
  all('details.finding').forEach(function (f) { if (!f.hidden) f.open = true; });
  // The part of an element's text the reader sees: its text's extent, clipped by every
  // element up to the box that hides what overflows it.
  function seen(el, box) {
    var r;
    if (el instanceof SVGElement) r = rect(el);
    else { var range = document.createRange(); range.selectNodeContents(el); r = range.getBoundingClientRect(); }
    var e = {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
    for (var a = el; a && a !== box; a = a.parentElement) {
      var cs = getComputedStyle(a), ar = rect(a);
      if (cs.overflowX !== 'visible') { e.left = Math.max(e.left, ar.left); e.right = Math.min(e.right, ar.right); }
      if (cs.overflowY !== 'visible') { e.top = Math.max(e.top, ar.top); e.bottom = Math.min(e.bottom, ar.bottom); }
    }
    return e;
  }
  var boxes = [], spills = [], unmarked = [], untitled = [];
  function check(box, frame, texts, title) {
    var b = rect(frame);
    boxes.push(Math.round(b.width));
    texts.forEach(function (t) {
      var e = seen(t, box);
      if (e.left < b.left - 0.5 || e.right > b.right + 0.5 || e.top < b.top - 0.5 || e.bottom > b.bottom + 0.5) {
        spills.push({text: t.textContent, box: [Math.round(b.left), Math.round(b.right)], text_at: [Math.round(e.left), Math.round(e.right)]});
      }
      if (!(t instanceof SVGElement) && t.scrollWidth > t.clientWidth && getComputedStyle(t).textOverflow !== 'ellipsis') {
        unmarked.push(t.textContent);
      }
      var whole = t.textContent.replace(/^⚠ /, '');
      if (t.classList.contains('name') || t.classList.contains('line') || t.classList.contains('label')) {
        if (title.indexOf(whole) < 0) untitled.push({text: whole, title: title});
      }
    });
  }
  all('details.finding:not([hidden]) .node').forEach(function (n) {
    if (n instanceof SVGElement) {
      var t = n.querySelector('title');
      check(n, n.querySelector('rect'), all('text', n), t ? t.textContent : '');
    } else {
      check(n, n, all('span', n), n.title);
    }
  });
  all('details.finding:not([hidden]) .quota-row').forEach(function (r) {
    if (r instanceof SVGElement) {
      var t = r.querySelector('title');
      check(r, r.querySelector('rect.track'), all('text.label', r), t ? t.textContent : '');
    } else {
      check(r, r.querySelector('.label'), [r.querySelector('.label')], r.title);
    }
  });
  out.boxes = boxes;
  out.spills = spills;
  out.unmarked = unmarked;
  out.untitled = untitled;
  // A graph cut by the page: it scrolls, or a box ends past what its figure shows.
  out.cut = [];
  all('details.finding:not([hidden]) figure.graph').forEach(function (g) {
    var gr = rect(g);
    var past = all('.node', g).filter(function (n) { return rect(n).right > gr.right + 0.5; })
      .map(function (n) { return n.dataset.kind + ' ' + n.dataset.name; });
    if (g.scrollWidth > g.clientWidth + 1 || past.length) {
      out.cut.push({graph: g.querySelector('figcaption').textContent, scroll: g.scrollWidth, client: g.clientWidth, past: past});
    }
  });
  var pre = document.createElement('pre');
  pre.id = 'geometry';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
