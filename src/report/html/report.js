(function () {
  var all = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  var findings = all('details.finding');
  var groups = all('.stage-group');
  var cards = all('#summary li.stage');
  var ns = document.getElementById('f-ns');
  var text = document.getElementById('f-text');
  var stages = all('#f-stage input'), sevs = all('#f-severity input');
  var SEVERITIES = ['error', 'warning', 'info'];
  function checked(list) { var s = {}; list.forEach(function (b) { if (b.checked) s[b.value] = true; }); return s; }
  // Counts by stage and severity of the findings that pass `keep`.
  function counts(keep) {
    var c = {};
    findings.forEach(function (f) {
      if (!keep(f)) return;
      var s = c[f.dataset.stage] || (c[f.dataset.stage] = {all: 0, error: 0, warning: 0, info: 0});
      s.all++; s[f.dataset.severity]++;
    });
    return c;
  }
  var totals = counts(function () { return true; });
  var none = {all: 0, error: 0, warning: 0, info: 0};
  // The stage cards and headings count what the filters show, and say "of N" when that
  // is not everything.
  function recount() {
    var shown = counts(function (f) { return !f.hidden; });
    cards.forEach(function (card) {
      var st = card.dataset.stage, s = shown[st] || none, t = totals[st] || none;
      var worst = SEVERITIES.filter(function (v) { return s[v] > 0; })[0] || 'none';
      card.className = 'stage ' + worst + (s.all < t.all ? ' filtered' : '');
      card.querySelector('.count').textContent = s.all < t.all ? s.all + ' of ' + t.all : String(s.all);
      card.querySelector('.split').textContent = SEVERITIES.map(function (v) { return s[v] + ' ' + v; }).join(' · ');
    });
    // A cause's members' box hides with the last member the filters hide.
    all('.members').forEach(function (m) {
      m.hidden = all('details.finding', m).every(function (f) { return f.hidden; });
    });
    groups.forEach(function (g) {
      var st = g.dataset.stage, s = shown[st] || none, t = totals[st] || none;
      g.hidden = s.all === 0;
      g.querySelector('h3 .count').textContent = '(' + (s.all < t.all ? s.all + ' of ' + t.all : t.all) + ')';
    });
  }
  function apply() {
    var st = checked(stages), sv = checked(sevs), q = text.value.trim().toLowerCase(), shown = 0;
    findings.forEach(function (f) {
      var ok = (!ns.value || f.dataset.ns === ns.value) && st[f.dataset.stage] && sv[f.dataset.severity] &&
        (!q || f.textContent.toLowerCase().indexOf(q) >= 0);
      f.hidden = !ok;
      if (ok) shown++;
    });
    recount();
    document.getElementById('shown').textContent = shown + ' of ' + findings.length + ' findings shown';
  }
  function reset() {
    ns.value = ''; text.value = '';
    stages.concat(sevs).forEach(function (b) { b.checked = true; });
  }
  // A namespace from a link that no finding has is still the filter: it shows nothing.
  function selectNamespace(v) {
    var known = all('option', ns).some(function (o) { return o.value === v; });
    if (!known) {
      var o = document.createElement('option');
      o.value = v; o.textContent = v + ' (0)';
      ns.appendChild(o);
    }
    ns.value = v;
  }
  // A finding scrolled to stops below the sticky filter bar, not under it.
  var bar = document.getElementById('filters');
  function fitBar() { document.documentElement.style.setProperty('--bar', bar.offsetHeight + 'px'); }
  fitBar();
  window.addEventListener('resize', fitBar);
  // Opens a finding by its id (`finding-3`) or short form (`f-3`) and scrolls to it.
  function openFinding(id) {
    var m = /^(?:f|finding)-(\d+)$/.exec(id || '');
    var d = m && document.getElementById('finding-' + m[1]);
    if (!d) return false;
    if (d.hidden) { reset(); apply(); }
    // A member folded under its cause: unfold it first.
    for (var p = d.parentElement; p; p = p.parentElement) if (p.matches('details.folded')) p.open = true;
    d.open = true;
    d.scrollIntoView();
    return true;
  }
  ns.addEventListener('change', apply);
  text.addEventListener('input', apply);
  stages.concat(sevs).forEach(function (b) { b.addEventListener('change', apply); });
  document.getElementById('expand-all').addEventListener('click', function () { findings.forEach(function (f) { if (!f.hidden) f.open = true; }); });
  document.getElementById('collapse-all').addEventListener('click', function () { findings.forEach(function (f) { f.open = false; }); });
  // Links into the report: #f-3 (one finding, opened), or
  // #ns=demo&stage=node,runtime&severity=error&q=text&open=finding-2&click=f-stage-traffic
  function fromHash() {
    var hash = location.hash.replace(/^#/, '');
    if (openFinding(decodeURIComponent(hash))) return;
    var p = {};
    hash.split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) p[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));
    });
    if ('ns' in p) selectNamespace(p.ns);
    if ('q' in p) text.value = p.q;
    function only(list, v) { if (v === undefined) return; var want = v.split(','); list.forEach(function (b) { b.checked = want.indexOf(b.value) >= 0; }); }
    only(stages, p.stage);
    only(sevs, p.severity);
    apply();
    (p.open || '').split(',').forEach(function (id) { var d = id && document.getElementById(id); if (d) d.open = true; });
    (p.click || '').split(',').forEach(function (id) { var el = id && document.getElementById(id); if (el) el.click(); });
  }
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
