/* page.js — the import report's script (cimport's own; embedded in every report by report/embed.cmake).
 *
 * Draws everything from the results document in the cimport-data element: the summary, the graph
 * of resources, the resource list and each resource's details, the program diff. No network: the
 * page's Content-Security-Policy forbids every fetch.
 *
 * The graph lays itself out here, not with a library: what is visible changes as the reader expands
 * groups, so positions must be computed in the page anyway, and the graph shown is small by design
 * (groups, plus the members of the groups the reader opened, at most a few hundred nodes). The layout
 * is layered: a node sits one layer below the nodes it depends on (its parent, its provider, the
 * resources it refers to; cycles broken where a DFS meets a back edge), nodes within a layer are
 * ordered by the mean position of their predecessors (two sweeps), and long layers wrap into rows.
 *
 * URL hash options: #all shows every resource's details at once (for printing and review tools);
 * #r=NAME opens one resource; #paint records first-paint timing in the DOM (bench). */
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('cimport-data').textContent);
  var run = D.run || {};
  var OUT = ['verified', 'offline', 'residual', 'imported', 'failed', 'skipped', 'unmapped'];
  var OUT_LABEL = {
    verified: 'verified by provider', offline: 'consistent with schema (offline)', residual: 'residual diff',
    imported: 'imported, not checked', failed: 'failed', skipped: 'skipped', unmapped: 'unmapped'
  };
  var OUT_COLOR = {
    verified: '#2e7d32', offline: '#1565c0', residual: '#e39b00', imported: '#78909c', failed: '#c62828',
    skipped: '#8e6c8a', unmapped: '#4e342e'
  };
  var PROV_LABEL = {
    required: 'required by schema', diff: 'differed in Diff', read: 'read', spec: 'from import file'
  };

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'cls') e.className = attrs[k];
      else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    if (kids) for (var i = 0; i < kids.length; i++) if (kids[i] != null)
      e.appendChild(typeof kids[i] === 'string' ? document.createTextNode(kids[i]) : kids[i]);
    return e;
  }
  var SVGNS = 'http://www.w3.org/2000/svg';
  function sv(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }

  /* --- the model ------------------------------------------------------------------------------ */

  /* How a resource was checked: issue 12's per-resource field when the document has it, else the run:
   * an offline run's Check and Diff are cimport's reading of the schema, never the provider's. */
  function verificationKind(r) {
    var v = r.verification || r.verifiedBy;
    if (typeof v === 'string') {
      if (/offline|schema/i.test(v)) return 'offline';
      if (/provider/i.test(v)) return 'provider';
    }
    return run.offlineState ? 'offline' : 'provider';
  }
  function outcomeOf(r) {
    if (r.status === 'failed') return 'failed';
    if (r.status === 'skipped') return 'skipped';
    if (r.residual && r.residual.length) return 'residual';
    /* Components and explicit providers are planned with no Read: nothing was checked. */
    if (r.kind === 'component' || r.kind === 'provider') return 'imported';
    /* Offline results have verified: false and verification "offline-schema" (issue 12). */
    var checked = r.verified || r.verification === 'provider' || r.verification === 'offline-schema';
    if (checked) return verificationKind(r) === 'offline' ? 'offline' : 'verified';
    return 'imported';
  }
  function pkgOf(t) { var i = t.indexOf(':'); return i < 0 ? t : t.slice(0, i); }
  function moduleOf(t) {
    var p = t.split(':');
    if (p.length < 3) return p[0];
    var m = p[1].split('/')[0];
    return p[0] + ':' + m;
  }

  var R = [];
  var byName = {};
  (D.resources || []).forEach(function (r, i) {
    var x = {
      i: i, name: r.name, type: r.type, id: r.id, urn: r.urn, raw: r, outcome: outcomeOf(r),
      parent: r.parent || null, provider: r.provider || null, refs: r.references || []
    };
    R.push(x);
    byName[r.name] = x;
  });
  (D.unmapped || []).forEach(function (u) {
    var x = {
      i: R.length, name: u.address, type: u.sourceType || '(unknown type)', id: u.id, raw: u,
      outcome: 'unmapped', parent: null, provider: null, refs: [], unmapped: true
    };
    R.push(x);
  });
  var counts = {};
  OUT.forEach(function (o) { counts[o] = 0; });
  R.forEach(function (r) { counts[r.outcome]++; });
  var nImported = counts.verified + counts.offline + counts.residual + counts.imported;

  /* --- summary ------------------------------------------------------------------------------ */

  var state = { filter: null, query: '', group: 'type', expanded: {}, sel: null, shown: 200 };
  var app = document.getElementById('app');
  var head = el('header', { cls: 'top' }, [
    el('h1', { text: 'Import report' }),
    el('span', { cls: 'sub', text: [run.project, run.stack].filter(Boolean).join(' / ') }),
    el('span', { cls: 'sub', text: R.length + ' resources · ' + (D.language ? 'code in ' + D.language : '') +
      (run.offlineState ? ' · offline (no provider was called)' : '') })
  ]);
  app.appendChild(head);
  var main = el('main');
  app.appendChild(main);

  function card(key, n, label) {
    var c = el('button', {
      cls: 'card o-' + key, id: 'count-' + key, 'data-count': String(n), type: 'button',
      onclick: function () { state.filter = state.filter === key ? null : key; state.shown = 200; refresh(); }
    }, [el('span', { cls: 'n', text: String(n) }), el('span', { cls: 'l', text: label })]);
    return c;
  }
  /* summary.written false: the run wrote nothing (--diff, --preview-only, or an output that could not
   * be written, so none was); what it counts was read, not imported. A document from before the
   * field has none and says nothing. */
  var flags = run.flags || [];
  var unwritten = (D.summary || {}).written === false;
  /* run.target: where the import went — a stack, a stack export, or none (the code imports them
   * with the `import` option, or has none); a document from before the field has none. */
  var target = run.target || {};
  var tk = target.kind;
  /* Into a stack, each resource read says whether the stack held it already ("stack": "already":
   * nothing imported) or the run's write added it (version 2; a document without it counts every
   * resource read as imported). */
  var byStack = (tk === 'stack' || tk === 'stackState') && typeof (D.summary || {}).alreadyInStack === 'number';
  var where = tk === 'stack' ? 'the stack' : 'the stack export'; /* --stack-state: an export, merged into */
  function inStack(r, how) { return !r.unmapped && r.raw.stack === how; }
  var nAlready = byStack ? R.filter(function (r) { return inStack(r, 'already'); }).length : 0;
  var nAdded = byStack ? R.filter(function (r) { return inStack(r, 'added'); }).length : nImported;
  /* every resource read was in the stack already: there was nothing to import */
  var allAlready = byStack && nAlready > 0 && nAlready === nImported;
  var countAdded = byStack && !unwritten; /* the imported card counts what the stack write added */
  /* nothing was imported: no outcome label says so */
  if (unwritten || (byStack && !nAdded)) OUT_LABEL.imported = 'not checked';
  var cards = el('div', { cls: 'cards', id: 'summary' }, [
    card('total', R.length, 'resources in the report'),
    card('imported-all', countAdded ? nAdded : nImported, unwritten ? 'read, not written'
      : tk === 'importOption' ? 'read, not in a stack yet'
        : tk === 'codeOnly' ? 'read, in no stack'
          : tk === 'stackState' ? 'merged into the stack export' : 'imported'),
    byStack ? card('already', nAlready, 'already in ' + where + ', nothing ' + (tk === 'stack' ? 'imported' : 'merged'))
      : null,
    card('verified', counts.verified, OUT_LABEL.verified),
    card('offline', counts.offline, OUT_LABEL.offline),
    card('residual', counts.residual, OUT_LABEL.imported === 'not checked' ? 'with residual diff'
      : 'imported with residual diff'),
    card('imported', counts.imported, OUT_LABEL.imported),
    card('failed', counts.failed, OUT_LABEL.failed),
    card('skipped', counts.skipped, 'skipped (parent failed)'),
    card('unmapped', counts.unmapped, 'unmapped (no Pulumi type)')
  ]);
  /* the run's errors, which a note may send the reader to */
  var nErrors = (D.diagnostics || []).filter(function (d) { return d.severity === 'error'; }).length +
    R.reduce(function (n, r) {
      return n + (r.diagnostics || []).filter(function (d) { return d.severity === 'error'; }).length;
    }, 0);
  var why = target.why ? ' (' + target.why + ')' : ''; /* why no stack was written */
  var targetNote = allAlready && tk === 'stack' ? 'Already in stack ' + target.stack + ', nothing imported: the ' +
    'stack held every resource read, with the same ID, before this run.'
    : allAlready ? 'Already in the stack export ' + target.file + ', nothing merged: it recorded every resource ' +
      'read, with the same ID, before this run.'
    : unwritten || !nImported ? null
    : tk === 'stack' && nAlready ? 'Imported ' + nAdded + ' into stack ' + target.stack + '; ' + nAlready +
      (nAlready === 1 ? ' was' : ' were') + ' already in it, nothing imported for ' +
      (nAlready === 1 ? 'it.' : 'them.')
    : tk === 'stack' ? 'Imported into stack ' + target.stack + '.'
      : tk === 'stackState' ? 'Merged ' + (nAlready ? nAdded + ' ' : '') + 'into the stack export ' + target.file +
        (nAlready ? ' (' + nAlready + (nAlready === 1 ? ' was' : ' were') + ' in it already)' : '') +
        ', not into a stack: `pulumi stack ' +
        'import --file ' + target.file + '` puts them there (it replaces the stack\'s state with that file).'
        : tk === 'importOption' ? 'Code written, not recorded in any stack' + why + ': the code imports these ' +
          'resources with the `import` resource option when `pulumi up` runs.'
          : tk === 'codeOnly' ? 'Code written, not recorded in any stack' + why + ', and without the `import` ' +
            'option: `pulumi up` with this code would try to create these resources.' : null;
  main.appendChild(el('section', { id: 'summary-section' }, [el('h2', { text: 'Summary' }), cards,
    unwritten ? el('p', { cls: allAlready ? 'muted' : 'diag-error', id: 'written-note', text: 'Nothing was written: ' +
      (flags.indexOf('--diff') >= 0 ? 'a --diff run shows what would change and writes nothing'
        : flags.indexOf('--preview-only') >= 0 ? 'a --preview-only run writes nothing'
          : (D.summary || {}).declined ? 'the import was declined at the confirmation, so neither the stack ' +
            'nor any file was written'
            : allAlready ? 'every resource read was already in ' + where + ', so there was nothing to write'
            : !nImported ? 'no resource was imported, so there was nothing to write'
              : nErrors ? 'an output could not be written (see the run diagnostics), so none was'
                : 'the run stopped before its outputs were written') +
      '. The resources counted here were read; this run did not import them.' }) : null,
    targetNote ? el('p', { cls: tk === 'codeOnly' ? 'diag-warning' : 'muted', id: 'target-note', text: targetNote })
      : null,
    el('p', { cls: 'muted', id: 'verification-note', text: run.offlineState
      ? 'Offline run: Check and Diff were cimport\'s own reading of the schema, so nothing here is verified by a provider.'
      : 'Verified means the provider\'s own Check and Diff reported no difference with the generated inputs.' })]));

  /* By package and type. */
  function byTypeTable() {
    var rows = {};
    R.forEach(function (r) {
      var t = rows[r.type] || (rows[r.type] = { type: r.type, pkg: r.unmapped ? '(unmapped)' : pkgOf(r.type), n: 0, c: {} });
      t.n++;
      t.c[r.outcome] = (t.c[r.outcome] || 0) + 1;
    });
    var list = Object.keys(rows).map(function (k) { return rows[k]; });
    list.sort(function (a, b) { return a.pkg < b.pkg ? -1 : a.pkg > b.pkg ? 1 : a.type < b.type ? -1 : 1; });
    var cols = ['verified', 'offline', 'residual', 'imported', 'failed', 'skipped', 'unmapped'];
    var tb = el('tbody');
    var pk = null;
    list.forEach(function (t) {
      if (t.pkg !== pk) {
        pk = t.pkg;
        var tot = list.filter(function (x) { return x.pkg === pk; }).reduce(function (s, x) { return s + x.n; }, 0);
        tb.appendChild(el('tr', { cls: 'pkg' }, [el('td', { text: pk }), el('td', { cls: 'num', text: String(tot) }),
          el('td', { colspan: String(cols.length + 1) })]));
      }
      var tds = [el('td', { text: t.type }), el('td', { cls: 'num', text: String(t.n) }), el('td', null, [bar(t.c, t.n)])];
      cols.forEach(function (c) { tds.push(el('td', { cls: 'num', text: t.c[c] ? String(t.c[c]) : '' })); });
      tb.appendChild(el('tr', { 'data-type': t.type }, tds));
    });
    var hr = [el('th', { text: 'package / type' }), el('th', { cls: 'num', text: 'total' }), el('th')];
    cols.forEach(function (c) { hr.push(el('th', { cls: 'num', text: OUT_LABEL[c] })); });
    return el('table', { id: 'by-type' }, [el('thead', null, [el('tr', null, hr)]), tb]);
  }
  function bar(c, n) {
    var b = el('span', { cls: 'bar' });
    OUT.forEach(function (o) {
      if (c[o]) b.appendChild(el('span', { style: 'width:' + (100 * c[o] / n) + '%;background:' + OUT_COLOR[o] }));
    });
    return b;
  }
  var typeSec = el('section', { id: 'type-section' }, [el('h2', { text: 'By package and type' })]);
  main.appendChild(typeSec);
  var typeBox = el('div');
  typeSec.appendChild(typeBox);

  /* The run's inputs. */
  (function () {
    var kv = el('div', { cls: 'kv', id: 'run' });
    function row(k, v) { if (v != null && v !== '' && !(Array.isArray(v) && !v.length)) kv.appendChild(el('span', { text: k })), kv.appendChild(el('span', { text: Array.isArray(v) ? v.join(', ') : String(v) })); }
    row('import file', run.spec);
    row('inline resource', run.inline);
    row('offline state', run.offlineState ? run.offlineState + (run.offlineKind ? ' (' + run.offlineKind + ')' : '') : null);
    row('schemas', run.schemas);
    row('language', D.language);
    row('inputs', run.inputs);
    row('secrets', run.secrets);
    row('insert into', run.insertInto);
    row('output', run.out);
    row('stack state', run.stackState);
    row('imports into', tk === 'stack' ? 'stack ' + target.stack
      : tk === 'stackState' ? 'the stack export ' + target.file
        : tk === 'importOption' ? 'no stack' + why + ': the code has the `import` option'
          : tk === 'codeOnly' ? 'no stack' + why + ', and the code has no `import` option' : null);
    row('flags', run.flags);
    row('cimport', run.cimport);
    main.appendChild(el('section', { id: 'run-section' }, [el('h2', { text: 'Run' }), kv]));
  })();

  /* --- graph ---------------------------------------------------------------------------------- */

  var gsec = el('section', { id: 'graph-section' });
  main.appendChild(gsec);
  var search = el('input', { type: 'search', id: 'search', placeholder: 'search name, type or ID (Enter opens)' });
  var groupSel = el('select', { id: 'group-by' }, [
    el('option', { value: 'type', text: 'group by type' }), el('option', { value: 'module', text: 'group by module' }),
    el('option', { value: 'parent', text: 'group by parent' }), el('option', { value: 'package', text: 'group by package' }),
    el('option', { value: 'none', text: 'no grouping' })
  ]);
  var expandAll = el('button', { type: 'button', text: 'collapse all' });
  gsec.appendChild(el('h2', { text: 'Graph' }));
  gsec.appendChild(el('div', { cls: 'toolbar' }, [search, groupSel, expandAll,
    el('span', { cls: 'muted', id: 'graph-info' })]));
  var legend = el('div', { cls: 'legend' });
  OUT.forEach(function (o) { legend.appendChild(el('span', null, [el('i', { style: 'background:' + OUT_COLOR[o] }), OUT_LABEL[o]])); });
  [['parent', ''], ['provider', '6 4'], ['reference', '2 3']].forEach(function (e) {
    var s = sv('svg', { width: 26, height: 8 });
    s.appendChild(sv('line', { x1: 0, y1: 4, x2: 26, y2: 4, 'class': 'edge ' + e[0], stroke: '#5c6b82', 'stroke-dasharray': e[1] }));
    legend.appendChild(el('span', null, [s, e[0] + ' edge']));
  });
  gsec.appendChild(legend);
  var svg = sv('svg', { id: 'graph', role: 'img', 'aria-label': 'graph of imported resources' });
  gsec.appendChild(svg);
  var view = { x: 0, y: 0, k: 1 };

  function groupKey(r) {
    switch (state.group) {
      case 'module': return r.unmapped ? '(unmapped)' : moduleOf(r.type);
      case 'package': return r.unmapped ? '(unmapped)' : pkgOf(r.type);
      case 'parent': return r.parent ? 'children of ' + r.parent : '(top level)';
      case 'none': return null;
      default: return r.type;
    }
  }
  var MAX_MEMBERS = 300, MAX_GROUPS = 400;

  function buildVisible() {
    var groups = {}, order = [];
    R.forEach(function (r) {
      var k = groupKey(r);
      if (k === null) return;
      var g = groups[k];
      if (!g) { g = groups[k] = { key: k, members: [], c: {} }; order.push(g); }
      g.members.push(r);
      g.c[r.outcome] = (g.c[r.outcome] || 0) + 1;
    });
    order.sort(function (a, b) { return b.members.length - a.members.length || (a.key < b.key ? -1 : 1); });
    var nodes = [], of = new Array(R.length);
    if (state.group === 'none') {
      var lim = Math.min(R.length, 600);
      for (var i = 0; i < lim; i++) { var n0 = { id: 'r' + i, res: R[i] }; nodes.push(n0); of[i] = n0; }
      if (R.length > lim) nodes.push({ id: 'rest', rest: R.length - lim, label: '+' + (R.length - lim) + ' more (group them)' });
      return { nodes: nodes, of: of, nGroups: 0 };
    }
    var other = null;
    order.forEach(function (g, gi) {
      if (gi >= MAX_GROUPS) {
        if (!other) { other = { id: 'g:other', group: { key: 'other groups', members: [], c: {} }, groupCount: 0 }; nodes.push(other); }
        other.groupCount++;
        g.members.forEach(function (r) { other.group.members.push(r); other.group.c[r.outcome] = (other.group.c[r.outcome] || 0) + 1; of[r.i] = other; });
        return;
      }
      var open = state.expanded[g.key] || (R.length <= 60 && !state.collapsedAll);
      if (open) {
        var shown = g.members.slice(0, MAX_MEMBERS);
        shown.forEach(function (r) { var n = { id: 'r' + r.i, res: r, gkey: g.key }; nodes.push(n); of[r.i] = n; });
        if (g.members.length > MAX_MEMBERS) {
          var more = { id: 'g:' + g.key + ':more', group: { key: g.key + ' (more)', members: g.members.slice(MAX_MEMBERS), c: {} }, gkey: g.key };
          more.group.members.forEach(function (r) { more.group.c[r.outcome] = (more.group.c[r.outcome] || 0) + 1; of[r.i] = more; });
          nodes.push(more);
        }
      } else {
        var gn = { id: 'g:' + g.key, group: g };
        nodes.push(gn);
        g.members.forEach(function (r) { of[r.i] = gn; });
      }
    });
    return { nodes: nodes, of: of, nGroups: order.length };
  }

  function buildEdges(vis) {
    var map = {}, edges = [];
    function add(from, to, kind) {
      if (!from || !to || from === to) return;
      var k = from.id + '>' + to.id + '>' + kind;
      var e = map[k];
      if (!e) { e = map[k] = { from: from, to: to, kind: kind, n: 0 }; edges.push(e); }
      e.n++;
    }
    R.forEach(function (r) {
      var me = vis.of[r.i];
      if (!me) return;
      var p = r.parent && byName[r.parent];
      if (p) add(vis.of[p.i], me, 'parent');
      var pv = r.provider && byName[r.provider];
      if (pv) add(vis.of[pv.i], me, 'provider');
      for (var j = 0; j < r.refs.length; j++) {
        var t = byName[r.refs[j].to];
        if (t) add(vis.of[t.i], me, 'reference');
      }
    });
    return edges;
  }

  /* The layered layout described at the top of this file. */
  function layout(nodes, edges) {
    var idx = {};
    nodes.forEach(function (n, i) { idx[n.id] = i; n.preds = []; n.succs = []; n.layer = 0; });
    edges.forEach(function (e) { e.from.succs.push(e.to); e.to.preds.push(e.from); });
    var st = {}, back = {};
    nodes.forEach(function (root) {
      if (st[root.id]) return;
      var stack = [[root, 0]];
      st[root.id] = 1;
      while (stack.length) {
        var top = stack[stack.length - 1], n = top[0];
        if (top[1] < n.succs.length) {
          var m = n.succs[top[1]++];
          if (st[m.id] === 1) back[n.id + '>' + m.id] = true;
          else if (!st[m.id]) { st[m.id] = 1; stack.push([m, 0]); }
        } else { st[n.id] = 2; stack.pop(); }
      }
    });
    /* Longest path from the sources over forward edges, in topological order (Kahn). */
    var indeg = {};
    nodes.forEach(function (n) { indeg[n.id] = 0; });
    edges.forEach(function (e) { if (!back[e.from.id + '>' + e.to.id]) indeg[e.to.id]++; });
    var q = nodes.filter(function (n) { return indeg[n.id] === 0; }), qi = 0;
    while (qi < q.length) {
      var n = q[qi++];
      n.succs.forEach(function (m) {
        if (back[n.id + '>' + m.id]) return;
        if (m.layer < n.layer + 1) m.layer = n.layer + 1;
        if (--indeg[m.id] === 0) q.push(m);
      });
    }
    var layers = [];
    nodes.forEach(function (n) { (layers[n.layer] = layers[n.layer] || []).push(n); });
    layers = layers.filter(Boolean);
    /* Wrap long layers into rows so the picture stays readable. */
    var WRAP = 14, rows = [];
    layers.forEach(function (l) {
      for (var s = 0; s < l.length; s += WRAP) rows.push(l.slice(s, s + WRAP));
    });
    rows.forEach(function (row, ri) { row.forEach(function (n, k) { n.row = ri; n.pos = k; }); });
    for (var sweep = 0; sweep < 2; sweep++) {
      rows.forEach(function (row) {
        row.forEach(function (n) {
          var ps = n.preds.filter(function (p) { return p.row < n.row; });
          n.bc = ps.length ? ps.reduce(function (s, p) { return s + p.pos; }, 0) / ps.length : n.pos;
        });
        row.sort(function (a, b) { return a.bc - b.bc; });
        row.forEach(function (n, k) { n.pos = k; });
      });
    }
    var W = 168, H = 46, GX = 22, GY = 48, width = 0;
    rows.forEach(function (row) { width = Math.max(width, row.length * (W + GX)); });
    rows.forEach(function (row, ri) {
      var off = (width - row.length * (W + GX)) / 2;
      row.forEach(function (n, k) { n.x = off + k * (W + GX) + 10; n.y = ri * (H + GY) + 10; n.w = W; n.h = H; });
    });
    return { width: width + 20, height: rows.length * (H + GY) + 20 };
  }

  var vis, gedges, box, nodeEls = {};
  function matches(r, q) {
    return r.name.toLowerCase().indexOf(q) >= 0 || r.type.toLowerCase().indexOf(q) >= 0 ||
      (r.id && String(r.id).toLowerCase().indexOf(q) >= 0);
  }
  function drawGraph() {
    vis = buildVisible();
    gedges = buildEdges(vis);
    box = layout(vis.nodes, gedges);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var defs = sv('defs', {});
    var mk = sv('marker', { id: 'arrow', viewBox: '0 0 8 8', refX: '8', refY: '4', markerWidth: '9', markerHeight: '9',
      markerUnits: 'userSpaceOnUse', orient: 'auto' });
    mk.appendChild(sv('path', { d: 'M0,0 L8,4 L0,8 z', fill: '#8795ad' }));
    defs.appendChild(mk);
    svg.appendChild(defs);
    var g = sv('g', { id: 'viewport' });
    svg.appendChild(g);
    var eg = sv('g', { 'class': 'edges' }), ng = sv('g', { 'class': 'nodes' });
    g.appendChild(eg);
    g.appendChild(ng);
    var maxN = 1;
    gedges.forEach(function (e) { maxN = Math.max(maxN, e.n); });
    gedges.forEach(function (e) {
      var a = e.from, b = e.to, x1 = a.x + a.w / 2, y1 = a.y + a.h, x2 = b.x + b.w / 2, y2 = b.y;
      if (b.y <= a.y) { y1 = a.y; y2 = b.y + b.h; }
      var my = (y1 + y2) / 2;
      var p = sv('path', {
        d: 'M' + x1 + ',' + y1 + ' C' + x1 + ',' + my + ' ' + x2 + ',' + my + ' ' + x2 + ',' + y2,
        'class': 'edge ' + e.kind, 'stroke-width': String(1 + 3 * Math.log(e.n) / Math.log(maxN + 1)),
        'marker-end': 'url(#arrow)'
      });
      var t = sv('title', {});
      t.textContent = e.kind + ': ' + e.n + (e.n === 1 ? ' edge' : ' edges');
      p.appendChild(t);
      eg.appendChild(p);
    });
    var q = state.query;
    nodeEls = {};
    vis.nodes.forEach(function (n) {
      var gr = sv('g', { 'class': 'gnode', transform: 'translate(' + n.x + ',' + n.y + ')', 'data-id': n.id });
      var frame = sv('rect', { 'class': 'frame', width: n.w, height: n.h, rx: 6, fill: '#fff', stroke: '#c5ccd8' });
      gr.appendChild(frame);
      var label, sub, hit = false;
      if (n.res) {
        gr.setAttribute('data-outcome', n.res.outcome);
        gr.appendChild(sv('rect', { x: 0, y: 0, width: 8, height: n.h, rx: 3, fill: OUT_COLOR[n.res.outcome] }));
        label = n.res.name;
        sub = shortType(n.res.type);
        hit = q && matches(n.res, q);
        if (state.sel === n.res) gr.setAttribute('class', 'gnode sel');
      } else if (n.group) {
        var gm = n.group.members, x = 0;
        OUT.forEach(function (o) {
          var c = n.group.c[o];
          if (!c) return;
          var w = (n.w - 2) * c / gm.length;
          gr.appendChild(sv('rect', { x: 1 + x, y: n.h - 9, width: w, height: 8, fill: OUT_COLOR[o] }));
          x += w;
        });
        label = (state.group === 'type' && !n.groupCount && n.group.key.indexOf(':') > 0 ? shortType(n.group.key) : n.group.key) +
          (n.groupCount ? ' (' + n.groupCount + ')' : '');
        sub = gm.length + (gm.length === 1 ? ' resource' : ' resources') + (n.gkey ? '' : ' · click to open');
        if (q) {
          var nh = 0;
          for (var i = 0; i < gm.length; i++) if (matches(gm[i], q)) nh++;
          if (nh) { hit = true; sub = nh + ' of ' + gm.length + ' match'; }
        }
        gr.setAttribute('data-group', n.group.key);
        gr.setAttribute('data-count', String(gm.length));
      } else {
        label = n.label;
        sub = '';
      }
      if (hit) gr.setAttribute('class', gr.getAttribute('class') + ' hit');
      var t1 = sv('text', { x: 14, y: 18 });
      t1.textContent = clip(label, 24);
      var t2 = sv('text', { x: 14, y: 32, fill: '#5b6475' });
      t2.textContent = clip(sub, 28);
      t2.setAttribute('style', 'fill:#5b6475');
      gr.appendChild(t1);
      gr.appendChild(t2);
      var tt = sv('title', {});
      tt.textContent = n.res ? n.res.name + '\n' + n.res.type + '\n' + OUT_LABEL[n.res.outcome] : (n.group ? n.group.key : label) + '\n' + sub;
      gr.appendChild(tt);
      gr.addEventListener('click', function (ev) { ev.stopPropagation(); onNode(n); });
      ng.appendChild(gr);
      nodeEls[n.id] = gr;
    });
    document.getElementById('graph-info').textContent = vis.nodes.length + ' nodes shown' +
      (vis.nGroups ? ' in ' + vis.nGroups + ' groups' : '') + ', ' + gedges.length + ' edges';
    fit();
  }
  function shortType(t) { var p = t.split(':'); return p[p.length - 1] + (p.length > 1 ? ' (' + p[0] + ')' : ''); }
  function clip(s, n) { s = String(s); return s.length > n ? s.slice(0, n - 1) + '…' : s; }
  function applyView() {
    var vp = document.getElementById('viewport');
    if (vp) vp.setAttribute('transform', 'translate(' + view.x + ',' + view.y + ') scale(' + view.k + ')');
  }
  function fit() {
    var w = svg.clientWidth || 900, h = svg.clientHeight || 520;
    view.k = Math.min(1.2, Math.max(0.05, Math.min(w / box.width, h / box.height)));
    view.x = (w - box.width * view.k) / 2;
    view.y = Math.max(0, (h - box.height * view.k) / 2);
    applyView();
  }
  function centerOn(n) {
    var w = svg.clientWidth || 900, h = svg.clientHeight || 520;
    view.k = Math.max(view.k, 0.8);
    view.x = w / 2 - (n.x + n.w / 2) * view.k;
    view.y = h / 2 - (n.y + n.h / 2) * view.k;
    applyView();
  }
  function onNode(n) {
    if (n.res) { select(n.res); return; }
    if (n.group && !n.gkey && n.id !== 'g:other') { state.expanded[n.group.key] = true; drawGraph(); return; }
    if (n.id === 'g:other' || n.rest) { state.group = 'type'; groupSel.value = 'type'; drawGraph(); }
  }
  svg.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var r = svg.getBoundingClientRect(), mx = ev.clientX - r.left, my = ev.clientY - r.top;
    var k = Math.max(0.03, Math.min(4, view.k * (ev.deltaY < 0 ? 1.15 : 1 / 1.15)));
    view.x = mx - (mx - view.x) * k / view.k;
    view.y = my - (my - view.y) * k / view.k;
    view.k = k;
    applyView();
  }, { passive: false });
  (function () {
    var drag = null;
    svg.addEventListener('mousedown', function (ev) { drag = { x: ev.clientX, y: ev.clientY, vx: view.x, vy: view.y }; });
    window.addEventListener('mousemove', function (ev) {
      if (!drag) return;
      view.x = drag.vx + ev.clientX - drag.x;
      view.y = drag.vy + ev.clientY - drag.y;
      applyView();
    });
    window.addEventListener('mouseup', function () { drag = null; });
  })();
  groupSel.addEventListener('change', function () { state.group = groupSel.value; state.expanded = {}; drawGraph(); });
  expandAll.addEventListener('click', function () { state.expanded = {}; state.collapsedAll = true; drawGraph(); });
  search.addEventListener('input', function () { state.query = search.value.trim().toLowerCase(); state.shown = 200; refresh(); });
  search.addEventListener('keydown', function (ev) {
    if (ev.key !== 'Enter' || !state.query) return;
    for (var i = 0; i < R.length; i++) if (matches(R[i], state.query)) { reveal(R[i]); return; }
  });
  function reveal(r) {
    var k = groupKey(r);
    if (k !== null) state.expanded[k] = true;
    state.collapsedAll = false;
    drawGraph();
    select(r);
    var n = vis.of[r.i];
    var w = svg.clientWidth || 900, h = svg.clientHeight || 520;
    if (n && (view.x + n.x * view.k < 0 || view.x + (n.x + n.w) * view.k > w || view.y + (n.y + n.h) * view.k > h ||
        view.k < 0.5)) centerOn(n);
  }

  /* --- resource list and details ---------------------------------------------------------- */

  var cols = el('div', { cls: 'cols' });
  main.appendChild(el('section', { id: 'resources-section' }, [el('h2', { text: 'Resources' }), cols]));
  var list = el('div', { id: 'list' });
  var detail = el('div', { id: 'detail' }, [el('p', { cls: 'muted', text: 'Pick a resource in the graph or the list.' })]);
  cols.appendChild(list);
  cols.appendChild(detail);

  function filtered() {
    var q = state.query, f = state.filter;
    return R.filter(function (r) {
      if (f && f !== 'total') {
        if (f === 'imported-all' && countAdded) { if (!inStack(r, 'added')) return false; }
        else if (f === 'imported-all') { if (['verified', 'offline', 'residual', 'imported'].indexOf(r.outcome) < 0) return false; }
        else if (f === 'already') { if (!inStack(r, 'already')) return false; }
        else if (r.outcome !== f) return false;
      }
      return !q || matches(r, q);
    });
  }
  function drawList() {
    var rs = filtered();
    while (list.firstChild) list.removeChild(list.firstChild);
    var tb = el('tbody');
    rs.slice(0, state.shown).forEach(function (r) {
      var tr = el('tr', { cls: 'row' + (state.sel === r ? ' sel' : ''), 'data-outcome': r.outcome, 'data-name': r.name,
        onclick: function () { reveal(r); } }, [
        el('td', null, [el('span', { cls: 'badge b-' + r.outcome, text: OUT_LABEL[r.outcome] })]),
        el('td', { text: r.name }), el('td', { cls: 'muted', text: r.type }), el('td', { cls: 'muted', text: r.id || '' })
      ]);
      tb.appendChild(tr);
    });
    list.appendChild(el('p', { cls: 'muted', id: 'list-info', text: rs.length + ' of ' + R.length + ' resources' +
      (state.filter && state.filter !== 'total' ? ' (' + (OUT_LABEL[state.filter] || (state.filter === 'already' ? 'already in ' + where : 'imported')) + ')' : '') +
      (state.query ? ' matching “' + state.query + '”' : '') }));
    list.appendChild(el('table', null, [el('thead', null, [el('tr', null, [el('th', { text: 'outcome' }),
      el('th', { text: 'name' }), el('th', { text: 'type' }), el('th', { text: 'ID' })])]), tb]));
    if (rs.length > state.shown)
      list.appendChild(el('button', { cls: 'more', type: 'button', text: 'show ' + Math.min(200, rs.length - state.shown) + ' more',
        onclick: function () { state.shown += 200; drawList(); } }));
  }
  function select(r) {
    state.sel = r;
    while (detail.firstChild) detail.removeChild(detail.firstChild);
    detail.appendChild(resourceDetail(r));
    drawList();
    Object.keys(nodeEls).forEach(function (id) {
      var c = nodeEls[id].getAttribute('class').replace(/ sel/g, '');
      nodeEls[id].setAttribute('class', c + (id === 'r' + r.i ? ' sel' : ''));
    });
  }

  var SECRET_TEXT = '[secret]';
  function isSecretPath(r, path) { var sp = r.raw.secretPaths || []; return sp.indexOf(path) >= 0; }
  /* Flattens inputs to (path, value) rows: each top-level input, nested objects one row per leaf,
   * with the provenance of the path or of its nearest recorded ancestor. */
  function inputRows(r) {
    var rows = [], prov = r.raw.provenance || {};
    function provFor(path) {
      for (var p = path; p; p = p.replace(/(\.[^.\[]*|\[\d+\])$/, '')) { if (prov[p]) return prov[p]; if (!/[.\[]/.test(p)) break; }
      return null;
    }
    function walk(v, path, depth) {
      var sec = isSecretPath(r, path) || v === SECRET_TEXT;
      if (!sec && v && typeof v === 'object' && depth < 4 && Object.keys(v).length && Object.keys(v).length <= 40) {
        if (Array.isArray(v)) v.forEach(function (x, i) { walk(x, path + '[' + i + ']', depth + 1); });
        else Object.keys(v).forEach(function (k) { walk(v[k], path ? path + '.' + k : k, depth + 1); });
        return;
      }
      rows.push({ path: path, value: v, secret: sec, prov: provFor(path) });
    }
    var inp = r.raw.inputs || {};
    Object.keys(inp).forEach(function (k) { walk(inp[k], k, 0); });
    return rows;
  }
  function valueCell(row) {
    if (row.secret) {
      var kids = [el('span', { cls: 'secret', text: 'secret' })];
      if (row.value !== SECRET_TEXT && D.reportShowSecrets) kids.push(' ', el('code', { text: JSON.stringify(row.value) }));
      return el('td', { cls: 'value' }, kids);
    }
    return el('td', { cls: 'value' }, [el('code', { text: JSON.stringify(row.value) })]);
  }
  function highlight(code, lang) {
    var pre = el('pre', { cls: 'code lang-' + (lang || 'pcl') });
    var kw = /^(import|from|const|let|var|new|resource|package|config|options|func|return|package|def|class|public|private|static|using|namespace|true|false|null|None|True|False|if|else|err|nil)$/;
    var re = /("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\/\/[^\n]*|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|[^"'\/#A-Za-z_]+|.)/g, m;
    var hashComments = lang === 'python' || lang === 'yaml';
    while ((m = re.exec(code))) {
      var t = m[0], cls = null;
      if (t[0] === '"' || t[0] === '\'') cls = 'tok-str';
      else if (t.slice(0, 2) === '//' || (hashComments && t[0] === '#')) cls = 'tok-com';
      else if (kw.test(t)) cls = 'tok-kw';
      pre.appendChild(cls ? el('span', { cls: cls, text: t }) : document.createTextNode(t));
    }
    return pre;
  }
  function diffPre(text) {
    var pre = el('pre', { cls: 'diff', id: 'program-diff' });
    text.split('\n').forEach(function (line) {
      var cls = line.slice(0, 3) === '+++' || line.slice(0, 3) === '---' ? 'file' : line[0] === '+' ? 'add' :
        line[0] === '-' ? 'del' : line.slice(0, 2) === '@@' ? 'hunk' : null;
      pre.appendChild(cls ? el('span', { cls: cls, text: line }) : document.createTextNode(line + '\n'));
    });
    return pre;
  }
  function resourceDetail(r) {
    var raw = r.raw, box = el('div', { cls: 'res', id: 'res-' + r.i, 'data-name': r.name, 'data-outcome': r.outcome });
    box.appendChild(el('h3', null, [r.name + ' ', el('span', { cls: 'badge b-' + r.outcome, text: OUT_LABEL[r.outcome] })]));
    var kv = el('div', { cls: 'kv' });
    function row(k, v) { if (v != null && v !== '') { kv.appendChild(el('span', { text: k })); kv.appendChild(el('span', { text: String(v) })); } }
    row('type', r.type);
    row('ID', r.id);
    row('URN', r.urn);
    row('parent', r.parent);
    row('provider', r.provider);
    if (!r.unmapped) {
      row('checked', raw.status !== 'imported' ? '' : (raw.kind === 'component' || raw.kind === 'provider')
        ? 'not checked: a ' + raw.kind + ' has nothing to read' : raw.verified
        ? (verificationKind(raw) === 'offline' ? 'consistent with the schema (offline: no provider was called)' : 'verified by the provider (Check + Diff: no difference)')
        : raw.residual && raw.residual.length ? 'a difference remained after ' + raw.rounds + ' round(s)' : 'not checked (no Read for this kind of resource)');
      if (raw.resumed) row('carried over', 'from a previous run (--resume)');
      row(tk === 'stack' ? 'stack' : 'stack export', raw.stack === 'already'
        ? 'already in ' + where + ' with this ID: nothing ' + (tk === 'stack' ? 'imported' : 'merged')
        : raw.stack === 'added' ? 'added to ' + where + ' by this run'
          : raw.stack === 'notAdded' ? 'not added: this run wrote nothing'
            : raw.stack === 'notKnown' ? 'not known: whether the import landed was not seen' : null);
    } else {
      row('reason', raw.reason);
    }
    box.appendChild(kv);
    if (r.refs.length) {
      var ul = el('ul', { cls: 'refs' });
      r.refs.forEach(function (x) { ul.appendChild(el('li', null, [el('code', { text: x.path }), ' → ' + x.to])); });
      box.appendChild(el('h3', { text: 'Inferred references' }));
      box.appendChild(ul);
    }
    var rows = r.unmapped ? [] : inputRows(r);
    if (!r.unmapped && (rows.length || raw.status === 'imported')) {
      box.appendChild(el('h3', { text: 'Inputs (' + rows.length + ')' }));
      if (rows.length) {
        var tb = el('tbody');
        rows.forEach(function (x) {
          tb.appendChild(el('tr', { 'data-path': x.path }, [el('td', null, [el('code', { text: x.path })]), valueCell(x),
            el('td', null, [x.prov ? el('span', { cls: 'prov prov-' + x.prov, 'data-provenance': x.prov, text: PROV_LABEL[x.prov] || x.prov }) : null])]));
        });
        box.appendChild(el('table', { cls: 'inputs' }, [el('thead', null, [el('tr', null, [el('th', { text: 'path' }), el('th', { text: 'value' }), el('th', { text: 'came from' })])]), tb]));
      } else box.appendChild(el('p', { cls: 'muted', text: 'none' }));
      if (raw.residual && raw.residual.length) {
        box.appendChild(el('h3', { text: 'Residual differences' }));
        var rl = el('ul', { cls: 'residual' });
        raw.residual.forEach(function (p) {
          var ign = (raw.ignoreChanges || []).indexOf(p) >= 0;
          rl.appendChild(el('li', null, [el('code', { text: p }), ign ? ' (in ignoreChanges)' : '']));
        });
        box.appendChild(rl);
      }
    }
    var ds = raw.diagnostics || [];
    if (ds.length) {
      box.appendChild(el('h3', { text: r.outcome === 'failed' ? 'Why it failed' : 'Diagnostics' }));
      ds.forEach(function (d) {
        box.appendChild(el('div', { cls: 'diag diag-' + d.severity }, [el('strong', { text: d.severity + ': ' }), d.text || d.message]));
        if (d.advice) box.appendChild(el('div', { cls: 'advice', text: d.advice }));
      });
    }
    if (raw.code || raw.pcl) {
      box.appendChild(el('h3', { text: 'Generated code (' + (raw.code ? D.language : 'pcl') + ')' }));
      box.appendChild(highlight(raw.code || raw.pcl, raw.code ? D.language : 'pcl'));
    }
    return box;
  }

  /* --- the rest: unmapped, program diff, run diagnostics ------------------------------------- */

  if (D.programDiff) {
    main.appendChild(el('section', { id: 'diff-section' }, [el('h2', { text: 'Program diff' + (run.insertInto ? ' (' + run.insertInto + ')' : '') }),
      diffPre(D.programDiff)]));
  }
  if ((D.diagnostics || []).length) {
    var dsec = el('section', { id: 'run-diagnostics' }, [el('h2', { text: 'Run diagnostics' })]);
    D.diagnostics.forEach(function (d) { dsec.appendChild(el('div', { cls: 'diag diag-' + d.severity }, [el('strong', { text: d.severity + ': ' }), d.message])); });
    main.appendChild(dsec);
  }
  var allSec = el('section', { id: 'all-resources' });
  main.appendChild(allSec);

  function refresh() {
    Array.prototype.forEach.call(cards.children, function (c) { c.classList.toggle('on', c.id === 'count-' + state.filter); });
    drawGraph();
    drawList();
  }

  /* Reading order: summary, graph, resources, then the tables and the run. */
  ['summary-section', 'graph-section', 'resources-section', 'diff-section', 'type-section', 'run-diagnostics',
    'run-section', 'all-resources'].forEach(function (id) {
    var s = document.getElementById(id);
    if (s) main.appendChild(s);
  });
  while (typeBox.firstChild) typeBox.removeChild(typeBox.firstChild);
  typeBox.appendChild(byTypeTable());
  refresh();
  var hash = decodeURIComponent(location.hash.slice(1));
  if (hash === 'all') {
    allSec.appendChild(el('h2', { text: 'Every resource' }));
    R.forEach(function (r) { allSec.appendChild(resourceDetail(r)); });
  } else if (hash.slice(0, 2) === 'r=' && byName[hash.slice(2)]) {
    reveal(byName[hash.slice(2)]);
  }
  if (hash === 'paint') {
    /* Bench: when the script finished, and when the first frame after it was produced (the frame
     * callback runs just before that frame's paint; the timeout after it, once it is done). */
    var scriptDone = performance.now();
    requestAnimationFrame(function () {
      var ts = performance.now();
      setTimeout(function () {
        var p = performance.getEntriesByType('paint').map(function (e) { return e.name + '=' + Math.round(e.startTime); });
        document.body.setAttribute('data-paint', 'script=' + Math.round(scriptDone) + ' frame=' + Math.round(ts) +
          ' painted=' + Math.round(performance.now()) + (p.length ? ' ' + p.join(' ') : ''));
      }, 0);
    });
  }
  document.body.setAttribute('data-ready', '1');
})();
