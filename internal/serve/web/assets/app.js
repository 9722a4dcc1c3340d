// codectx web page: search, file view, symbol graph, context and index
// status over this server's /api routes. Plain JavaScript, no libraries,
// nothing loaded from elsewhere.
"use strict";

(function () {
  const state = { projects: [], project: "", allowWrites: false, selected: -1, hits: [], statusTimer: 0, firstRender: false };
  const main = document.getElementById("main");
  const qInput = document.getElementById("q");
  const modeSel = document.getElementById("mode");
  const projSel = document.getElementById("project");

  // ---- helpers ----

  // h builds an element: h("a", {href: "#"}, "text", child…). Strings are
  // text nodes, never HTML.
  function h(tag, attrs, ...kids) {
    const el = tag.startsWith("svg:") ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4)) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") el.setAttribute("class", v);
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (k === "style") el.style.cssText = v; // CSSOM: allowed by the page's CSP
      else el.setAttribute(k, v === true ? "" : String(v));
    }
    for (const kid of kids.flat(Infinity)) {
      if (kid === undefined || kid === null || kid === false) continue;
      el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }

  function show(...kids) {
    main.replaceChildren(...kids.flat(Infinity).filter(Boolean));
  }

  function errorBox(err) {
    const box = h("div", { class: "error", role: "alert" }, err.message || String(err));
    if (err.suggestions && err.suggestions.length) {
      box.append(h("div", {}, "Closest names: ", ...err.suggestions.map((s, i) => [i ? ", " : "", h("a", { href: route("graph", { name: s }) }, s)])));
    }
    return box;
  }

  // api calls /api/NAME with params for the current project.
  async function api(name, params, method) {
    const usp = new URLSearchParams();
    if (state.project) usp.set("project", state.project);
    for (const [k, v] of Object.entries(params || {})) {
      if (v === undefined || v === null || v === "") continue;
      if (Array.isArray(v)) v.forEach((x) => usp.append(k, x));
      else usp.set(k, String(v));
    }
    const opts = { credentials: "same-origin", headers: { Accept: "application/json" } };
    let url = "api/" + name;
    if (method === "POST") {
      opts.method = "POST";
      opts.headers["Content-Type"] = "application/x-www-form-urlencoded";
      opts.body = usp.toString();
    } else {
      url += "?" + usp.toString();
    }
    const res = await fetch(url, opts);
    let body;
    try { body = await res.json(); } catch (e) { body = { error: res.status + " " + res.statusText }; }
    if (!res.ok) {
      const err = new Error(body.error || res.statusText);
      err.status = res.status;
      err.suggestions = body.suggestions;
      throw err;
    }
    return body;
  }

  // route builds a hash address: #/view?k=v.
  function route(view, params) {
    const usp = new URLSearchParams();
    for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null && v !== "") usp.set(k, v);
    const qs = usp.toString();
    return "#/" + view + (qs ? "?" + qs : "");
  }

  function parseRoute() {
    const hash = location.hash.replace(/^#\/?/, "");
    const i = hash.indexOf("?");
    const view = (i < 0 ? hash : hash.slice(0, i)) || "";
    const params = new URLSearchParams(i < 0 ? "" : hash.slice(i + 1));
    return { view, params };
  }

  // highlight returns nodes of text with the words marked (case-insensitive).
  function highlight(text, words) {
    const ws = [...new Set((words || []).map((w) => String(w).trim()).filter((w) => w.length > 1 || /[^\x00-\x7f]/.test(w)))]
      .sort((a, b) => b.length - a.length)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    if (!ws.length) return [text];
    const re = new RegExp("(" + ws.join("|") + ")", "gi");
    const out = [];
    let last = 0;
    for (const m of text.matchAll(re)) {
      if (m.index > last) out.push(text.slice(last, m.index));
      out.push(h("mark", {}, m[0]));
      last = m.index + m[0].length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }

  // queryWords are the words of a query worth marking: identifiers, words,
  // and runs of Chinese characters.
  function queryWords(q) {
    return (q.match(/[A-Za-z_][A-Za-z0-9_]*|[\u3400-\u9fff]+/g) || []).filter((w) => !/^(the|and|for|how|what|where|who|does|are|is|of|to|in|a|an)$/i.test(w));
  }

  function fileHref(path, start, end) {
    return route("file", { path, line: start || "", end: end && end !== start ? end : "" });
  }

  function markFirstRender() {
    if (state.firstRender) return;
    state.firstRender = true;
    document.body.dataset.firstRender = String(Math.round(performance.now()));
    document.body.dataset.ready = "1";
  }

  // ---- views ----

  async function home() {
    document.title = "codectx";
    const pr = state.projects.find((p) => p.id === state.project);
    show(h("h1", {}, "Ask the code"),
      h("p", { class: "muted" }, "Type a question or an identifier in the box above (English or Chinese) and press Enter. ",
        "Open a result to read it at the right lines, or its graph to see callers, callees, implementations and containment."),
      pr ? h("p", {}, "Project: ", h("code", {}, pr.root)) : null,
      h("ul", {},
        h("li", {}, h("a", { href: route("context") }, "Context"), " — what an agent is given for a question, within a token budget"),
        h("li", {}, h("a", { href: route("status") }, "Index status"), " — files, chunks, staleness and indexing progress")));
  }

  async function searchView(params) {
    const q = params.get("q") || "";
    const mode = params.get("mode") || "hybrid";
    qInput.value = q;
    modeSel.value = mode;
    if (!q.trim()) return home();
    document.title = q + " — codectx";
    show(h("p", { class: "muted" }, "Searching…"));
    let res;
    try {
      res = await api("search", { query: q, mode, top_k: params.get("k") || 15, explain: true });
    } catch (e) {
      return show(h("h1", {}, "Search"), errorBox(e));
    }
    const words = [...(res.keywords || []), ...queryWords(q)];
    state.hits = res.results || [];
    state.selected = state.hits.length ? 0 : -1;
    const list = h("ol", { class: "results", id: "results", role: "listbox", "aria-label": "Search results" },
      state.hits.map((hit, i) => h("li", {
        role: "option", tabindex: "-1", id: "hit-" + i, class: "hit",
        dataset: { file: hit.file, start: hit.start_line, end: hit.end_line, name: hit.name },
        onclick: (ev) => { if (ev.target.tagName !== "A") location.hash = fileHref(hit.file, hit.start_line, hit.end_line); },
      },
      h("div", { class: "hit-head" },
        h("span", { class: "rank" }, (i + 1) + "."),
        h("span", { class: "kind" }, hit.kind),
        h("a", { class: "name", href: fileHref(hit.file, hit.start_line, hit.end_line) }, ...highlight(hit.name, words)),
        h("span", { class: "score" }, hit.score.toFixed(3)),
        h("a", { class: "loc mono", href: fileHref(hit.file, hit.start_line, hit.end_line) }, `${hit.file}:${hit.start_line}-${hit.end_line}`)),
      h("pre", { class: "snippet" }, ...highlight(hit.snippet || "", words)),
      hit.explain ? whyRank(hit.explain) : null,
      h("div", { class: "actions" },
        h("a", { href: fileHref(hit.file, hit.start_line, hit.end_line) }, "open"),
        h("a", { href: route("graph", { name: symbolOf(hit) }) }, "graph"),
        h("a", { href: route("context", { q }) }, "context for this question"))))
    );
    show(h("h1", {}, "Results for ", h("q", {}, q)),
      h("p", { class: "summary", id: "summary" }, res.summary || ""),
      (res.warnings || []).map((w) => h("p", { class: "warn" }, "warning: " + w)),
      state.hits.length ? list : h("p", { class: "muted" }, "No results."));
    select(state.selected);
  }

  // whyRank lists the parts a hit's score adds up to (the API's explain),
  // largest first, the demotions last.
  const partLabels = {
    keyword: "keyword match (BM25)", coverage: "share of the keywords matched", semantic: "meaning (embedding)",
    kind: "kind of chunk", name: "query words in its name", length: "length of its code", file: "its file's other matches",
    direct: "named by the query", area: "area prefix of the request",
  };
  function whyRank(x) {
    const rows = Object.keys(partLabels).filter((k) => x[k]).map((k) => [partLabels[k], x[k]]);
    rows.sort((a, b) => b[1] - a[1]);
    if (x.demotion) rows.push(["demoted: " + (x.demotions || []).join(", "), x.demotion]);
    // A click inside stays here: elsewhere on a result it opens the file.
    return h("details", { class: "why", onclick: (ev) => ev.stopPropagation() }, h("summary", {}, "why this rank"),
      h("table", {}, rows.map(([label, v]) => h("tr", {}, h("td", {}, label), h("td", { class: "num mono" }, (v > 0 ? "+" : "") + v.toFixed(3))))));
  }

  // symbolOf is the name a graph asks for: the chunk name without parameters.
  function symbolOf(hit) {
    const n = hit.name || "";
    const i = n.indexOf("(");
    return (i > 0 ? n.slice(0, i) : n).trim() || hit.file;
  }

  function select(i) {
    const items = main.querySelectorAll("li.hit");
    if (!items.length) return;
    i = Math.max(0, Math.min(items.length - 1, i));
    items.forEach((el, j) => { el.classList.toggle("selected", j === i); el.setAttribute("aria-selected", j === i ? "true" : "false"); });
    state.selected = i;
    if (document.activeElement !== qInput) items[i].focus({ preventScroll: true });
    items[i].scrollIntoView({ block: "nearest" });
  }

  async function fileView(params) {
    const path = params.get("path") || "";
    const line = parseInt(params.get("line") || "0", 10) || 0;
    const end = parseInt(params.get("end") || "0", 10) || line;
    const offset = parseInt(params.get("offset") || "0", 10) || Math.max(1, line - 40);
    document.title = path + " — codectx";
    if (!path) return show(h("h1", {}, "File"), h("p", { class: "muted" }, "No file given."));
    let res;
    try {
      res = await api("read", { file: path, offset, limit: 600 });
    } catch (e) {
      return show(h("h1", {}, path), errorBox(e));
    }
    const rows = res.lines.map((l) => h("tr", { id: "L" + l.number, class: l.number >= line && l.number <= end && line ? "hl" : null },
      h("td", { class: "ln" }, h("a", { href: route("file", { path, line: l.number }) }, l.number)),
      h("td", { class: "src" }, l.text)));
    const above = res.offset > 1 ? h("a", { class: "more", href: route("file", { path, line: line || "", end: end !== line ? end : "", offset: Math.max(1, res.offset - 600) }) }, "↑ lines before " + res.offset) : null;
    const below = res.more ? h("a", { class: "more", href: route("file", { path, line: line || "", end: end !== line ? end : "", offset: res.end + 1 }) }, "↓ lines after " + res.end) : null;
    show(h("div", { class: "file-head" },
      h("h1", { class: "mono", id: "file-path" }, path),
      h("span", { class: "muted" }, `lines ${res.offset}–${res.end} of ${res.total_lines}`),
      line ? h("span", { class: "muted" }, `showing ${line}${end !== line ? "–" + end : ""}`) : null),
    above,
    h("div", { class: "code-wrap" }, h("table", { class: "code", id: "code" }, h("tbody", {}, rows))),
    below);
    if (line) {
      const target = document.getElementById("L" + line);
      if (target) target.scrollIntoView({ block: "center" });
    }
  }

  // ---- graph ----

  const edgeColor = { calls: "var(--calls)", dispatch: "var(--dispatch)", contains: "var(--contains)", extends: "var(--extends)", implements: "var(--implements)", imports: "var(--imports)" };

  async function graphView(params) {
    const name = params.get("name") || "";
    const depth = params.get("depth") || "1";
    const dir = params.get("direction") || "both";
    document.title = (name || "Graph") + " — codectx";
    const form = h("form", { class: "controls", id: "graph-form", onsubmit: (ev) => {
      ev.preventDefault();
      const f = ev.target;
      location.hash = route("graph", { name: f.gname.value.trim(), depth: f.depth.value, direction: f.direction.value });
    } },
    h("label", {}, "Symbol ", h("input", { type: "text", name: "gname", value: name, placeholder: "Type, Type.method, function or file", size: 34 })),
    h("label", {}, "Depth ", h("select", { name: "depth" }, ["1", "2", "3"].map((d) => h("option", { value: d, selected: d === depth }, d)))),
    h("label", {}, "Direction ", h("select", { name: "direction" }, ["both", "out", "in"].map((d) => h("option", { value: d, selected: d === dir }, d)))),
    h("button", { type: "submit" }, "Draw"));
    if (!name) return show(h("h1", {}, "Graph"), form, h("p", { class: "muted" }, "Name a type, a method (Type.method), a function or a file."));
    show(h("h1", {}, "Graph of ", h("code", {}, name)), form, h("p", { class: "muted" }, "Loading…"));
    let g;
    try {
      g = await api("graph", { name, depth, direction: dir });
    } catch (e) {
      return show(h("h1", {}, "Graph of ", h("code", {}, name)), form, errorBox(e));
    }
    const box = h("div", { class: "graph-box", id: "graph-box" });
    const side = graphSide(g);
    show(h("h1", {}, "Graph of ", h("code", {}, name)), form,
      h("div", { class: "legend" },
        Object.entries(edgeColor).map(([k, c]) => h("span", { style: "--c:" + c }, k)),
        h("span", { class: "dashed" }, "unresolved"),
        h("span", { class: "muted nobar" }, "drag to pan · wheel to zoom · click a node to follow it · double-click to open its source")),
      g.note ? h("p", { class: "warn" }, g.note) : null,
      h("div", { class: "graph-layout" }, box, side));
    drawGraph(box, g);
  }

  function nodeLabel(n) {
    return n.name || n.signature || n.key;
  }

  function graphSide(g) {
    const byKey = Object.fromEntries(g.nodes.map((n) => [n.key, n]));
    const roots = g.nodes.filter((n) => n.root);
    const groups = {};
    for (const e of g.edges) {
      for (const r of roots) {
        let label, other;
        if (e.from === r.key) { label = { contains: "contains", calls: "calls (callees)", dispatch: "dispatches to (implementations)", extends: "extends", implements: "implements", imports: "imports" }[e.kind] || e.kind; other = byKey[e.to]; }
        else if (e.to === r.key) { label = { contains: "contained in", calls: "called by (callers)", dispatch: "dispatched from (interface callers)", extends: "extended by", implements: "implemented by", imports: "imported by" }[e.kind] || e.kind; other = byKey[e.from]; }
        else continue;
        (groups[label] = groups[label] || []).push({ e, other });
      }
    }
    return h("aside", { class: "side", id: "graph-side" },
      roots.map((r) => h("p", {}, h("b", {}, r.signature || r.name), " ", h("span", { class: "kind" }, r.kind || ""), h("br"),
        r.path ? h("a", { class: "mono", href: fileHref(r.path, r.start_line, r.end_line) }, `${r.path}:${r.start_line}-${r.end_line}`) : null)),
      Object.keys(groups).sort().map((label) => [h("h2", {}, label + " (" + groups[label].length + ")"),
        h("ul", {}, groups[label].map(({ e, other }) => h("li", {},
          other && other.resolved && other.path
            ? h("a", { href: route("graph", { name: nodeLabel(other) }) }, nodeLabel(other))
            : h("span", { class: "muted" }, other ? nodeLabel(other) : "?"),
          " ", h("a", { class: "muted mono", href: fileHref(e.path, e.line) }, `${e.path}:${e.line}`),
          e.resolution ? h("span", { class: "kind" }, e.resolution) : (!e.resolved ? h("span", { class: "kind" }, "unresolved") : null))))]),
      g.truncated ? h("p", { class: "warn" }, "The graph was cut at its node limit.") : null);
  }

  // layout places the roots in column 0, what they point at to the right
  // (callees, members, supertypes) and what points at them to the left
  // (callers, containers, subtypes), breadth first.
  function layout(g) {
    const col = {};
    const queue = [];
    for (const n of g.nodes) if (n.root) { col[n.key] = 0; queue.push(n.key); }
    if (!queue.length && g.nodes.length) { col[g.nodes[0].key] = 0; queue.push(g.nodes[0].key); }
    const out = {}, inn = {};
    for (const e of g.edges) { (out[e.from] = out[e.from] || []).push(e.to); (inn[e.to] = inn[e.to] || []).push(e.from); }
    while (queue.length) {
      const k = queue.shift();
      for (const t of out[k] || []) if (!(t in col)) { col[t] = col[k] + 1; queue.push(t); }
      for (const f of inn[k] || []) if (!(f in col)) { col[f] = col[k] - 1; queue.push(f); }
    }
    for (const n of g.nodes) if (!(n.key in col)) col[n.key] = 1;
    const cols = {};
    for (const n of g.nodes) (cols[col[n.key]] = cols[col[n.key]] || []).push(n);
    const W = 230, H = 44, GX = 110, GY = 16;
    const pos = {};
    const keys = Object.keys(cols).map(Number).sort((a, b) => a - b);
    const tallest = Math.max(...keys.map((c) => cols[c].length));
    for (const c of keys) {
      const list = cols[c].sort((a, b) => (a.resolved === b.resolved ? 0 : a.resolved ? -1 : 1) || (a.path || "").localeCompare(b.path || "") || nodeLabel(a).localeCompare(nodeLabel(b)));
      const top = ((tallest - list.length) * (H + GY)) / 2;
      list.forEach((n, i) => { pos[n.key] = { x: (c - keys[0]) * (W + GX), y: top + i * (H + GY), w: W, h: H }; });
    }
    return { pos, width: keys.length * (W + GX) - GX, height: tallest * (H + GY) - GY };
  }

  function clip(s, n) { return s.length > n ? s.slice(0, n - 1) + "…" : s; }

  function drawGraph(box, g) {
    const { pos, width, height } = layout(g);
    const svg = h("svg:svg", { id: "graph", role: "img", "aria-label": "Relations of " + g.name, tabindex: "0" });
    const defs = h("svg:defs", {}, Object.entries(edgeColor).map(([k, c]) =>
      h("svg:marker", { id: "arrow-" + k, viewBox: "0 0 10 10", refX: "10", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" },
        h("svg:path", { d: "M0,0 L10,5 L0,10 z", style: "fill:" + c }))));
    const view = h("svg:g", { id: "viewport" });
    svg.append(defs, view);
    const byKey = Object.fromEntries(g.nodes.map((n) => [n.key, n]));
    for (const e of g.edges) {
      const a = pos[e.from], b = pos[e.to];
      if (!a || !b) continue;
      let d, mx, my;
      if (Math.abs(a.x - b.x) < 1) {
        const x = a.x + a.w, y1 = a.y + a.h / 2, y2 = b.y + b.h / 2;
        d = `M${x},${y1} C${x + 60},${y1} ${x + 60},${y2} ${x},${y2}`;
        mx = x + 45; my = (y1 + y2) / 2;
      } else {
        const fwd = a.x < b.x;
        const x1 = fwd ? a.x + a.w : a.x, x2 = fwd ? b.x : b.x + b.w;
        const y1 = a.y + a.h / 2, y2 = b.y + b.h / 2, dx = (x2 - x1) / 2;
        d = `M${x1},${y1} C${x1 + dx},${y1} ${x2 - dx},${y2} ${x2},${y2}`;
        mx = (x1 + x2) / 2; my = (y1 + y2) / 2;
      }
      const color = edgeColor[e.kind] || "var(--muted)";
      const res = e.resolution || (e.resolved ? "" : "unresolved");
      const title = `${nodeLabel(byKey[e.from] || {})} ${e.kind} ${nodeLabel(byKey[e.to] || {})}\n${e.path}:${e.line}${res ? "\nresolution: " + res : ""}${e.detail ? " (" + e.detail + ")" : ""}`;
      view.append(h("svg:path", { class: "edge " + e.kind + (e.resolved ? "" : " unresolved"), d, style: "stroke:" + color, "marker-end": `url(#arrow-${edgeColor[e.kind] ? e.kind : "calls"})`, dataset: { kind: e.kind, resolution: res } },
        h("svg:title", {}, title)));
      view.append(h("svg:text", { class: "elabel", x: mx, y: my - 4, "text-anchor": "middle" }, e.kind + (e.resolution ? " · " + e.resolution : "")));
    }
    for (const n of g.nodes) {
      const p = pos[n.key];
      const label = nodeLabel(n);
      const node = h("svg:g", {
        class: "node" + (n.root ? " root" : "") + (n.resolved ? "" : " unresolved"), transform: `translate(${p.x},${p.y})`, tabindex: "0",
        role: "link", "aria-label": label, dataset: { key: n.key, name: label },
      },
      h("svg:rect", { width: p.w, height: p.h, rx: 6 }),
      h("svg:text", { class: "k", x: 8, y: 15 }, (n.kind || (n.resolved ? "" : "unresolved")).toUpperCase() + (n.path ? "  " + clip(n.path, 26) : "")),
      h("svg:text", { x: 8, y: 33 }, clip(label, 30)),
      h("svg:title", {}, (n.signature || label) + (n.path ? `\n${n.path}:${n.start_line}-${n.end_line}` : "\n(not in the index)")));
      const follow = () => {
        if (n.root) return;
        location.hash = n.resolved ? route("graph", { name: label }) : route("search", { q: label });
      };
      const open = () => { if (n.path) location.hash = fileHref(n.path, n.start_line, n.end_line); };
      let clickTimer = 0;
      node.addEventListener("click", (ev) => { ev.stopPropagation(); if (moved) return; clearTimeout(clickTimer); clickTimer = setTimeout(follow, 250); });
      node.addEventListener("dblclick", (ev) => { ev.stopPropagation(); clearTimeout(clickTimer); open(); });
      node.addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.shiftKey ? open() : follow(); } });
      view.append(node);
    }
    box.append(svg, h("div", { class: "graph-tools" },
      h("button", { class: "plain", type: "button", title: "Zoom in", onclick: () => zoomBy(1.25) }, "+"),
      h("button", { class: "plain", type: "button", title: "Zoom out", onclick: () => zoomBy(0.8) }, "−"),
      h("button", { class: "plain", type: "button", title: "Fit", onclick: () => fit() }, "fit")));

    // pan and zoom: one transform on the viewport group.
    let tx = 0, ty = 0, k = 1, moved = false;
    const apply = () => view.setAttribute("transform", `translate(${tx},${ty}) scale(${k})`);
    function fit() {
      const bw = box.clientWidth || 800, bh = box.clientHeight || 500, pad = 30;
      k = Math.min(1.4, (bw - 2 * pad) / Math.max(width, 1), (bh - 2 * pad) / Math.max(height, 1));
      tx = (bw - width * k) / 2; ty = (bh - height * k) / 2;
      apply();
    }
    function zoomBy(f, cx, cy) {
      const bw = box.clientWidth, bh = box.clientHeight;
      cx = cx === undefined ? bw / 2 : cx; cy = cy === undefined ? bh / 2 : cy;
      const nk = Math.max(0.15, Math.min(4, k * f));
      tx = cx - ((cx - tx) * nk) / k; ty = cy - ((cy - ty) * nk) / k; k = nk;
      apply();
    }
    svg.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const r = svg.getBoundingClientRect();
      zoomBy(ev.deltaY < 0 ? 1.15 : 1 / 1.15, ev.clientX - r.left, ev.clientY - r.top);
    }, { passive: false });
    let drag = null;
    svg.addEventListener("pointerdown", (ev) => { drag = { x: ev.clientX, y: ev.clientY, tx, ty }; moved = false; });
    svg.addEventListener("pointermove", (ev) => {
      if (!drag) return;
      const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (!moved && Math.hypot(dx, dy) < 4) return;
      if (!moved) { moved = true; svg.classList.add("dragging"); svg.setPointerCapture(ev.pointerId); }
      tx = drag.tx + dx; ty = drag.ty + dy; apply();
    });
    const end = () => { drag = null; svg.classList.remove("dragging"); setTimeout(() => { moved = false; }, 0); };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    svg.addEventListener("keydown", (ev) => {
      const step = 40;
      if (ev.target !== svg) return;
      if (ev.key === "+" || ev.key === "=") zoomBy(1.25);
      else if (ev.key === "-") zoomBy(0.8);
      else if (ev.key === "ArrowLeft") { tx += step; apply(); }
      else if (ev.key === "ArrowRight") { tx -= step; apply(); }
      else if (ev.key === "ArrowUp") { ty += step; apply(); }
      else if (ev.key === "ArrowDown") { ty -= step; apply(); }
      else if (ev.key === "0") fit();
      else return;
      ev.preventDefault();
    });
    fit();
  }

  // ---- context ----

  async function contextView(params) {
    const q = params.get("q") || "";
    const budget = params.get("budget") || "8000";
    const depth = params.get("depth") || "auto";
    document.title = "Context — codectx";
    const form = h("form", { class: "controls", id: "context-form", onsubmit: (ev) => {
      ev.preventDefault();
      const f = ev.target;
      location.hash = route("context", { q: f.cq.value.trim(), budget: f.budget.value, depth: f.depth.value });
    } },
    h("label", {}, "Question ", h("input", { type: "text", name: "cq", value: q, size: 48, placeholder: "how are call targets resolved?" })),
    h("label", {}, "Budget ", h("input", { type: "number", name: "budget", value: budget, min: 100, step: 500, style: "width:7rem" })),
    h("label", {}, "Depth ", h("select", { name: "depth" }, ["auto", "0", "1", "2"].map((d) => h("option", { value: d, selected: d === depth }, d)))),
    h("button", { type: "submit" }, "Assemble"));
    if (!q.trim()) return show(h("h1", {}, "Context for an agent"), form, h("p", { class: "muted" }, "Ask a question: the page shows the Markdown an agent would be given, its token count and what did not fit."));
    show(h("h1", {}, "Context for an agent"), form, h("p", { class: "muted" }, "Assembling…"));
    let c;
    try {
      c = await api("context", { query: q, budget, depth });
    } catch (e) {
      return show(h("h1", {}, "Context for an agent"), form, errorBox(e));
    }
    const chunks = (c.files || []).flatMap((f) => f.chunks);
    const shortened = chunks.filter((x) => x.shortened);
    const pct = c.budget ? Math.min(100, Math.round((100 * c.tokens) / c.budget)) : 0;
    show(h("h1", {}, "Context for an agent"), form,
      h("div", { class: "ctx-meta", id: "context-meta" },
        h("span", {}, h("b", { id: "ctx-tokens" }, c.tokens), " / ", c.budget, " tokens"),
        h("div", { class: "meter", title: pct + "% of the budget" }, h("div", { style: `width:${pct}%` })),
        h("span", {}, "intent ", h("b", {}, (c.intent && c.intent.kind) || "—"), ", depth ", h("b", {}, c.depth)),
        h("span", {}, chunks.length, " chunks in ", (c.files || []).length, " files"),
        h("span", { class: c.dropped ? "elided" : "muted", id: "ctx-elided" }, `elided: ${c.dropped} of ${c.candidates} candidates did not fit, ${shortened.length} shortened`)),
      (c.warnings || []).map((w) => h("p", { class: "warn" }, "warning: " + w)),
      (c.files || []).map((f) => h("section", { class: "ctx-file" },
        h("h3", { class: "mono" }, h("a", { href: fileHref(f.path) }, f.path)),
        f.chunks.map((ch) => h("div", { class: "ctx-chunk" },
          h("div", { class: "hit-head" }, h("span", { class: "kind" }, ch.kind), h("a", { class: "name", href: fileHref(ch.file, ch.start_line, ch.end_line) }, ch.name),
            h("span", { class: "muted" }, ch.reason), h("span", { class: "loc mono muted" }, `${ch.start_line}-${ch.end_line}`)),
          ch.shortened ? h("div", { class: "elided" }, "shortened: " + (ch.omitted || "the rest did not fit")) : null,
          h("pre", {}, ch.content))))),
      h("details", {}, h("summary", {}, "The Markdown as the agent receives it"), h("pre", { class: "snippet", id: "ctx-markdown" }, c.markdown)));
  }

  // ---- status ----

  async function statusView() {
    document.title = "Status — codectx";
    clearTimeout(state.statusTimer);
    let st;
    try {
      st = await api("status");
    } catch (e) {
      return show(h("h1", {}, "Index status"), errorBox(e));
    }
    const ix = st.indexing || {};
    updateDot(st);
    const reindex = state.allowWrites ? h("button", { type: "button", id: "reindex", onclick: async (ev) => {
      ev.target.disabled = true;
      try { await api("reindex", { background: "true" }, "POST"); } catch (e) { main.prepend(errorBox(e)); }
      statusView();
    } }, "Re-index now") : h("p", { class: "muted" }, "Re-indexing from the page needs a server started with --allow-writes.");
    const stale = st.stale || {};
    show(h("h1", {}, "Index status"),
      h("dl", { class: "status-grid", id: "status" },
        h("dt", {}, "root"), h("dd", { class: "mono" }, st.root),
        h("dt", {}, "indexed"), h("dd", {}, st.indexed ? "yes" + (st.indexed_at ? ", " + new Date(st.indexed_at).toLocaleString() : "") : "not yet"),
        h("dt", {}, "files"), h("dd", { id: "st-files" }, st.files),
        h("dt", {}, "chunks"), h("dd", {}, st.chunks),
        h("dt", {}, "relations"), h("dd", {}, st.relations),
        h("dt", {}, "embedding model"), h("dd", {}, st.embedding_model || "—", st.configured_model && st.configured_model !== st.embedding_model ? ` (configured: ${st.configured_model})` : ""),
        h("dt", {}, "stale files"), h("dd", {}, `${stale.changed || 0} changed, ${stale.added || 0} added, ${stale.removed || 0} removed`, (stale.paths || []).length ? h("div", { class: "mono muted" }, stale.paths.join(", ")) : null),
        h("dt", {}, "watching"), h("dd", {}, st.watching ? `yes, ${st.watched_dirs} directories` : "no" + (st.watch_note ? ` (${st.watch_note})` : "")),
        h("dt", {}, "indexing"), h("dd", { id: "st-indexing" }, ix.running
          ? [h("div", {}, `${ix.phase || "running"}: ${ix.done}/${ix.total} files, ${ix.chunks} chunks (${ix.percent}%)`), h("div", { class: "progress" }, h("div", { style: `width:${ix.percent}%` }))]
          : "idle" + (ix.last_error ? "; last pass failed: " + ix.last_error : "")),
        ix.last_summary ? [h("dt", {}, "last pass"), h("dd", {}, `${ix.last_summary.scanned} scanned, ${ix.last_summary.changed} changed, ${ix.last_summary.removed} removed in ${ix.last_summary.elapsed_seconds.toFixed(2)} s`)] : null),
      h("div", { class: "more" }, reindex));
    // Live progress: poll while a pass runs.
    if (ix.running || ix.queued) state.statusTimer = setTimeout(() => { if (parseRoute().view === "status") statusView(); }, 1000);
  }

  function updateDot(st) {
    const dot = document.getElementById("status-dot");
    const ix = st.indexing || {};
    dot.className = "dot " + (ix.running ? "busy" : ix.last_error ? "bad" : st.indexed ? "ok" : "busy");
    dot.title = ix.running ? `indexing ${ix.percent}%` : st.indexed ? "indexed" : "not indexed";
  }

  // ---- router and keys ----

  async function render() {
    const { view, params } = parseRoute();
    clearTimeout(state.statusTimer);
    for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", a.getAttribute("href") === "#/" + view);
    try {
      switch (view) {
        case "search": await searchView(params); break;
        case "file": await fileView(params); break;
        case "graph": await graphView(params); break;
        case "context": await contextView(params); break;
        case "status": await statusView(); break;
        default: await home();
      }
    } catch (e) {
      show(errorBox(e));
    }
    markFirstRender();
  }

  document.getElementById("search-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const q = qInput.value.trim();
    if (!q) return;
    const target = route("search", { q, mode: modeSel.value !== "hybrid" ? modeSel.value : "" });
    if (location.hash === target) render(); else location.hash = target;
    qInput.blur();
  });

  projSel.addEventListener("change", () => {
    state.project = projSel.value;
    const pr = state.projects.find((p) => p.id === state.project);
    document.getElementById("foot-root").textContent = pr ? pr.root : "";
    render();
  });

  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    const typing = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement;
    if (ev.key === "/" && !typing) { ev.preventDefault(); qInput.focus(); qInput.select(); return; }
    if (ev.key === "Escape" && typing) { t.blur(); return; }
    if (parseRoute().view !== "search" || !state.hits.length) return;
    if (typing && t !== qInput) return;
    if (ev.key === "ArrowDown") { ev.preventDefault(); if (t === qInput) qInput.blur(); select(state.selected + (t === qInput ? 0 : 1)); }
    else if (ev.key === "ArrowUp" && !typing) { ev.preventDefault(); select(state.selected - 1); }
    else if (ev.key === "Enter" && !typing && state.selected >= 0) { ev.preventDefault(); const hit = state.hits[state.selected]; location.hash = fileHref(hit.file, hit.start_line, hit.end_line); }
    else if (ev.key === "g" && !typing && state.selected >= 0) { ev.preventDefault(); location.hash = route("graph", { name: symbolOf(state.hits[state.selected]) }); }
  });

  window.addEventListener("hashchange", render);

  async function start() {
    try {
      const res = await fetch("api/projects", { credentials: "same-origin" });
      const body = await res.json();
      if (!res.ok) throw new Error(body.error || res.statusText);
      state.projects = body.projects;
      state.allowWrites = body.allow_writes;
      const want = new URLSearchParams(location.search).get("project");
      state.project = (state.projects.find((p) => p.id === want) || state.projects[0] || {}).id || "";
      projSel.replaceChildren(...state.projects.map((p) => h("option", { value: p.id, title: p.root, selected: p.id === state.project }, p.id)));
      projSel.hidden = state.projects.length < 2;
      const pr = state.projects.find((p) => p.id === state.project);
      document.getElementById("foot-root").textContent = pr ? pr.root : "";
    } catch (e) {
      show(errorBox(e));
      markFirstRender();
      return;
    }
    await render();
    api("status").then(updateDot).catch(() => {});
  }
  start();
})();
