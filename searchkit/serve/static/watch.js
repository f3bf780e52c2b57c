// searchkit serve: watch searches. Two panes, each one engine on the same instance; a grid
// domain is drawn on its map (closed and open cells, the path), any other as a growing tree.
// The server runs each search at the page's pace: paused, it waits (a step lets one expansion
// through); slowed down, it sends no faster than the speed shown.
// Uses $, api and say from app.js. Plain JavaScript, no build step, no CDN.
"use strict";

const TREE_CAP = 3000;       // tree nodes drawn (the server sends the text of the first 5000 states)
const QUEUE_HIGH = 100000;   // events waiting beyond this are applied as fast as FRAME_BUDGET_MS allows
const FRAME_BUDGET_MS = 40;  // a frame's catch-up stops here, so the page keeps drawing however far behind it is
const OPEN = new Set(["new", "improved", "reopened"]);
const COLORS = {             // PathFinding.js's colours
  wall: [64, 64, 72], free: [255, 255, 255], open: [152, 251, 152], closed: [175, 238, 238],
  start: [0, 200, 0], goal: [228, 64, 0],
};
const FRAME_RATE = 60;      // the speed slider counts events a frame; the server, events a second
const LEGENDS = {            // what the colours mean, on a map and on a tree
  grid: [["wall", "rgb(64,64,72)"], ["not reached", "#fff"], ["open", "rgb(152,251,152)"], ["closed (expanded)", "rgb(175,238,238)"],
    ["start", "rgb(0,200,0)"], ["goal", "rgb(228,64,0)"], ["path found", "#e6c200"]],
  tree: [["expanded", "#c33"], ["open (generated)", "#39c"], ["path found", "#e6a800"]],
};
let watchInfo = null, paused = false;

// the server's pace for the speed chosen: events a second, 0 paused, null at full speed (the slider's end)
function rate() {
  const s = $("speed");
  if (paused) return 0;
  return Number(s.value) >= Number(s.max) ? null : Number(s.value) * FRAME_RATE;
}

function showSpeed() {
  const s = $("speed");
  $("speed-text").textContent = Number(s.value) >= Number(s.max) ? "full speed" : `${Number(s.value) * FRAME_RATE} events/s`;
}

function fmt(x) { return x === null || x === undefined ? "-" : String(+Number(x).toFixed(4)); }

// -- the view transform: wheel or pinch zooms, drag pans, a click picks -----------------------
class Viewport {
  constructor(canvas, onPick) {
    this.canvas = canvas; this.onPick = onPick; this.reset();
    this.pointers = new Map(); this.moved = 0; this.changed = true;
    canvas.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const [x, y] = this.local(ev);
      this.zoom(Math.exp(-ev.deltaY * 0.0015), x, y);
    }, { passive: false });
    canvas.addEventListener("pointerdown", (ev) => {
      try { canvas.setPointerCapture(ev.pointerId); } catch (e) { /* a pointer the browser does not track */ }
      this.pointers.set(ev.pointerId, this.local(ev));
      if (this.pointers.size === 1) this.moved = 0;
    });
    canvas.addEventListener("pointermove", (ev) => {
      const old = this.pointers.get(ev.pointerId);
      if (!old) return;
      const now = this.local(ev);
      if (this.pointers.size === 1) {
        this.tx += now[0] - old[0]; this.ty += now[1] - old[1];
        this.moved += Math.abs(now[0] - old[0]) + Math.abs(now[1] - old[1]);
      } else {  // pinch: scale by the change in distance between the two fingers, about their middle
        const other = [...this.pointers.entries()].find(([id]) => id !== ev.pointerId)[1];
        const before = Math.hypot(old[0] - other[0], old[1] - other[1]);
        const after = Math.hypot(now[0] - other[0], now[1] - other[1]);
        if (before > 0) this.zoom(after / before, (now[0] + other[0]) / 2, (now[1] + other[1]) / 2);
        this.moved += 100;
      }
      this.pointers.set(ev.pointerId, now);
      this.changed = true;
    });
    const up = (ev) => {
      if (!this.pointers.has(ev.pointerId)) return;
      const at = this.pointers.get(ev.pointerId);
      this.pointers.delete(ev.pointerId);
      if (this.pointers.size === 0 && this.moved < 5 && ev.type === "pointerup") this.onPick(this.toWorld(at));
    };
    canvas.addEventListener("pointerup", up);
    canvas.addEventListener("pointercancel", up);
    canvas.addEventListener("dblclick", () => { this.reset(); });
  }
  reset() { this.s = 1; this.tx = 0; this.ty = 0; this.changed = true; }
  local(ev) {  // canvas pixels
    const r = this.canvas.getBoundingClientRect();
    return [((ev.clientX - r.left) / r.width) * this.canvas.width, ((ev.clientY - r.top) / r.height) * this.canvas.height];
  }
  zoom(k, x, y) {
    const s = Math.min(200, Math.max(0.2, this.s * k));
    k = s / this.s;
    this.tx = x - (x - this.tx) * k; this.ty = y - (y - this.ty) * k; this.s = s;
    this.changed = true;
  }
  toWorld([x, y]) { return [(x - this.tx) / this.s, (y - this.ty) / this.s]; }
  toScreen([x, y]) { return [x * this.s + this.tx, y * this.s + this.ty]; }
  apply(ctx) { ctx.setTransform(this.s, 0, 0, this.s, this.tx, this.ty); }
}

// -- one pane: one engine's search, its counters and its view ---------------------------------
class Pane {
  constructor(root, optional) {
    this.root = root; this.optional = optional;
    this.canvas = this.el("view");
    this.viewport = new Viewport(this.canvas, (p) => this.pick(p));
    this.el("export").addEventListener("click", () => this.exportTree());
    this.clear();
  }
  el(role) { return this.root.querySelector(`[data-role=${role}]`); }

  clear() {
    if (this.source) this.source.close();
    this.source = null; this.sid = null; this.header = null; this.ending = null; this.spec = null; this.over = false; this.stepping = false;
    this.queue = []; this.head = 0;
    this.counters = { x: 0, g: 0, seen: 0, f: null, frontier: null };
    this.labels = new Map(); this.cells = new Map(); this.cellIds = new Map();
    this.nodes = new Map(); this.path = []; this.selected = null;
    this.grid = null; this.image = null;
    this.viewport.reset(); this.dirty = true;
    this.showCounters();
  }

  fillEngines(domain) {
    const engs = watchInfo.engines.filter((e) => !e.domains.length || e.domains.includes(domain));
    const first = this.optional ? [new Option("(off)", "off"), new Option("default", "")] : [new Option("default", "")];
    this.el("engine").replaceChildren(...first, ...engs.map((e) => new Option(e.name, e.name)));
    const dom = watchInfo.domains[domain];
    this.el("heuristic").replaceChildren(new Option("default", ""), ...dom.heuristics.map((h) => new Option(h, h)), new Option("none", "none"));
    this.el("format").replaceChildren(...watchInfo.tree_formats.map((f) => new Option(f, f)));
  }

  get on() { return this.el("engine").value !== "off"; }

  async start(spec) {
    this.clear();
    this.spec = { ...spec, engine: this.el("engine").value, heuristic: this.el("heuristic").value };
    const status = this.el("status");
    status.textContent = "starting"; delete status.dataset.done;
    let started;
    try { started = await api("POST", "/api/searches", { ...this.spec, rate: rate() }); }
    catch (e) { status.textContent = ""; return; }
    this.sid = started.id; this.header = started;
    status.textContent = "searching";
    this.showLegend(started.grid ? "grid" : "tree");
    this.el("node").textContent = `${started.engine} · heuristic ${started.heuristic ?? "none"}\n${started.start}`;
    if (started.grid) this.makeGrid(started.grid);
    this.source = new EventSource(`/api/searches/${started.id}/events`);
    this.source.onmessage = (m) => this.receive(JSON.parse(m.data));
    this.source.onerror = () => { if (this.source) { this.source.close(); this.source = null; } };
  }

  receive(doc) {
    if (doc.labels) for (const [id, text] of doc.labels) this.labels.set(id, text);
    if (doc.cells) for (const [id, x, y] of doc.cells) { this.cells.set(id, [x, y]); this.cellIds.set(y * this.grid.width + x, id); }
    if (doc.events) { for (const ev of doc.events) this.queue.push(ev); return; }
    this.ending = doc;
    if (this.source) { this.source.close(); this.source = null; }
  }

  showLegend(kind) {
    this.el("legend").replaceChildren(...LEGENDS[kind].map(([text, colour]) => {
      const s = document.createElement("span");
      s.textContent = text; s.style.setProperty("--swatch", colour);
      return s;
    }));
  }

  get running() { return this.sid !== null && !this.ending && !this.over && this.source !== null; }

  // tell the server the pace (rate) or let one more expansion through (steps)
  pace(body) { if (this.running) api("POST", `/api/searches/${this.sid}/pace`, body).catch(() => {}); }

  step() {
    // one expansion: the next one waiting here, or else the server's next
    if (this.queue.slice(this.head).some((ev) => ev[0] === "x")) { this.take(Infinity, true); return; }
    if (this.running && !this.stepping) { this.stepping = true; this.pace({ steps: 1 }); }
  }

  cancel() {
    if (this.source) { this.source.close(); this.source = null; }
    if (this.sid && !this.ending && !this.over) {
      api("DELETE", `/api/searches/${this.sid}`).catch(() => {});
      this.el("status").textContent = "cancelled";
    }
    this.queue = []; this.head = 0;
  }

  // -- events ----------------------------------------------------------------------------------
  pending() { return this.queue.length - this.head; }

  take(n, untilExpansion, deadline = Infinity) {
    let applied = 0;
    while (this.head < this.queue.length && applied < n) {
      const ev = this.queue[this.head++];
      this.apply(ev); applied++;
      if (untilExpansion && ev[0] === "x") break;
      if ((applied & 1023) === 0 && performance.now() > deadline) break;
    }
    if (this.head > 50000) { this.queue = this.queue.slice(this.head); this.head = 0; }
    if (applied) { this.dirty = true; this.showCounters(); }
  }

  apply(ev) {
    const c = this.counters;
    if (ev[0] === "x") {
      const [, id, g, h] = ev;
      c.x += 1; c.seen = Math.max(c.seen, id + 1);
      c.f = h === null ? g : +(g + h).toFixed(4);
      const n = this.node(id, undefined, g, h);
      if (n) { n.expanded = true; n.g = g; n.h = h; }
      this.paint(id, "closed");
    } else if (ev[0] === "g") {
      const [, parent, child, g, h, kind] = ev;
      c.g += 1; c.seen = Math.max(c.seen, child + 1, parent + 1);
      if (!OPEN.has(kind)) return;
      const n = this.node(child, parent, g, h);
      if (n && !n.expanded) { n.g = g; n.h = h; }
      if (!this.grid || this.grid.state[this.cellIndex(child)] !== 2 || kind === "reopened") this.paint(child, "open");
    } else if (ev[0] === "i") {  // a new depth-first iteration: show only this one, as the tree command keeps the last
      this.nodes = new Map();
      if (this.grid) { this.grid.state.fill(0); this.redrawGrid(); }
      this.el("status").textContent = `iteration with bound ${fmt(ev[1])}`;
    }
  }

  node(id, parent, g, h) {
    let n = this.nodes.get(id);
    if (n) return n;
    const cap = this.grid ? Infinity : TREE_CAP;
    if (this.nodes.size >= cap) return null;
    const p = parent === undefined ? undefined : this.nodes.get(parent);
    if (parent !== undefined && !p) return null;  // its parent was not drawn
    n = { id, parent: p ? parent : undefined, depth: p ? p.depth + 1 : 0, g, h, expanded: false };
    this.nodes.set(id, n);
    return n;
  }

  showCounters() {
    const c = this.counters;
    this.el("expanded").textContent = c.x;
    this.el("generated").textContent = c.g;
    this.el("frontier").textContent = c.frontier ?? Math.max(0, c.seen - c.x);
    this.el("f").textContent = fmt(c.f);
  }

  finish() {
    const e = this.ending, status = this.el("status");
    this.ending = null; this.over = true;
    if (e.error) { say(e.error); status.textContent = "failed"; return; }
    const end = e.end, s = end.stats;
    this.counters = { ...this.counters, x: s.expanded, g: s.generated, frontier: s.max_frontier, f: end.cost ?? this.counters.f };
    this.path = end.path.filter((id) => id !== null);
    this.showCounters();
    status.textContent = `${end.status}${end.cost !== null ? `, cost ${fmt(end.cost)}` : ""}${s.limit_reason ? ` (${s.limit_reason})` : ""}${end.guarantee ? ` · ${end.guarantee}` : ""}`;
    status.dataset.done = "1";
    this.dirty = true;
  }

  // -- the map view ----------------------------------------------------------------------------
  makeGrid(g) {
    const height = g.rows.length, width = g.rows[0].length;
    const image = document.createElement("canvas");
    image.width = width; image.height = height;
    this.grid = { ...g, width, height, state: new Uint8Array(width * height), image, data: image.getContext("2d").createImageData(width, height) };
    this.redrawGrid();
  }

  cellIndex(id) { const c = this.cells.get(id); return c ? c[1] * this.grid.width + c[0] : -1; }

  paint(id, what) {
    if (!this.grid) return;
    const i = this.cellIndex(id);
    if (i < 0) return;
    this.grid.state[i] = what === "closed" ? 2 : 1;
    this.setPixel(i);
  }

  setPixel(i) {
    const g = this.grid, x = i % g.width, y = Math.floor(i / g.width);
    let color = g.rows[y][x] === "#" ? COLORS.wall : [COLORS.free, COLORS.open, COLORS.closed][g.state[i]];
    if (x === g.start[0] && y === g.start[1]) color = COLORS.start;
    else if (g.goals.some(([gx, gy]) => gx === x && gy === y)) color = COLORS.goal;
    g.data.data.set([...color, 255], i * 4);
  }

  redrawGrid() { for (let i = 0; i < this.grid.width * this.grid.height; i++) this.setPixel(i); }

  mapCounts() {  // for tests: how many cells are drawn closed and open
    const s = this.grid ? this.grid.state : [];
    let closed = 0, open = 0;
    for (const v of s) { if (v === 2) closed++; else if (v === 1) open++; }
    return { closed, open };
  }

  // -- drawing ---------------------------------------------------------------------------------
  draw() {
    if (!this.dirty && !this.viewport.changed) return;
    this.dirty = false; this.viewport.changed = false;
    const cv = this.canvas, ctx = cv.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, cv.width, cv.height);
    this.viewport.apply(ctx);
    if (this.grid) this.drawGrid(ctx); else this.drawTree(ctx);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
  }

  cellSize() { return Math.min(this.canvas.width / this.grid.width, this.canvas.height / this.grid.height); }

  drawGrid(ctx) {
    const g = this.grid, k = this.cellSize();
    g.image.getContext("2d").putImageData(g.data, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(g.image, 0, 0, g.width * k, g.height * k);
    if (this.path.length > 1) {
      ctx.strokeStyle = "#e6c200"; ctx.lineWidth = Math.max(1.5, k / 3); ctx.lineJoin = "round";
      ctx.beginPath();
      this.path.forEach((id, i) => {
        const [x, y] = this.cells.get(id) || [0, 0];
        if (i === 0) ctx.moveTo((x + 0.5) * k, (y + 0.5) * k); else ctx.lineTo((x + 0.5) * k, (y + 0.5) * k);
      });
      ctx.stroke();
    }
  }

  layoutTree() {  // one row per depth, each row in its parents' order, so no two edges cross
    const rows = [];
    for (const n of this.nodes.values()) (rows[n.depth] ||= []).push(n);
    const cv = this.canvas, dy = cv.height / Math.max(2, rows.length + 1);
    rows.forEach((row, d) => {
      if (d > 0) row.sort((a, b) => this.nodes.get(a.parent).rank - this.nodes.get(b.parent).rank || a.id - b.id);
      row.forEach((n, i) => { n.rank = i; n.x = ((i + 0.5) / row.length) * cv.width; n.y = (d + 0.5) * dy; });
    });
  }

  drawTree(ctx) {
    this.layoutTree();
    const r = 2.5 / Math.sqrt(this.viewport.s) + 0.5, onPath = new Set(this.path);
    ctx.lineWidth = 0.6 / this.viewport.s; ctx.strokeStyle = "#bbb";
    ctx.beginPath();
    for (const n of this.nodes.values()) {
      if (n.parent === undefined) continue;
      const p = this.nodes.get(n.parent);
      ctx.moveTo(p.x, p.y); ctx.lineTo(n.x, n.y);
    }
    ctx.stroke();
    for (const n of this.nodes.values()) {
      ctx.fillStyle = onPath.has(n.id) ? "#e6a800" : n.expanded ? "#c33" : "#39c";
      ctx.fillRect(n.x - r, n.y - r, 2 * r, 2 * r);
    }
    if (this.selected !== null && this.nodes.has(this.selected)) {
      const n = this.nodes.get(this.selected);
      ctx.strokeStyle = "#000"; ctx.lineWidth = 1.5 / this.viewport.s;
      ctx.strokeRect(n.x - 3 * r, n.y - 3 * r, 6 * r, 6 * r);
    }
  }

  // -- picking a node or a cell ----------------------------------------------------------------
  pick([wx, wy]) {
    let id = null;
    if (this.grid) {
      const k = this.cellSize(), x = Math.floor(wx / k), y = Math.floor(wy / k);
      if (x >= 0 && y >= 0 && x < this.grid.width && y < this.grid.height) id = this.cellIds.get(y * this.grid.width + x) ?? null;
      if (id === null) { this.el("node").textContent = `cell ${x},${y}: not reached`; return; }
    } else {
      let best = (12 / this.viewport.s) ** 2;
      for (const n of this.nodes.values()) {
        const d = (n.x - wx) ** 2 + (n.y - wy) ** 2;
        if (d < best) { best = d; id = n.id; }
      }
      if (id === null) return;
    }
    this.selected = id; this.dirty = true;
    this.el("node").textContent = this.describe(id);
  }

  describe(id) {
    const n = this.nodes.get(id) || {};
    const h = n.h ?? null, f = n.g === undefined ? null : h === null ? n.g : n.g + h;
    const where = n.depth !== undefined && !this.grid ? ` · depth ${n.depth}` : "";
    const state = this.labels.get(id) ?? "(the text of the first 5,000 states is kept)";
    return `state ${id}${where} · g ${fmt(n.g)} · h ${fmt(h)} · f ${fmt(f)} · ${n.expanded ? "expanded" : "open"}\n${state}`;
  }

  screenOf(id) {  // for tests: where a node or cell is, in page pixels
    this.layoutTree();
    let world;
    if (this.grid) { const [x, y] = this.cells.get(id), k = this.cellSize(); world = [(x + 0.5) * k, (y + 0.5) * k]; }
    else { const n = this.nodes.get(id); world = [n.x, n.y]; }
    const [sx, sy] = this.viewport.toScreen(world), r = this.canvas.getBoundingClientRect();
    return [r.left + (sx / this.canvas.width) * r.width, r.top + (sy / this.canvas.height) * r.height];
  }

  // -- export ----------------------------------------------------------------------------------
  async exportTree() {
    const spec = { ...(this.spec || formSpec()), engine: this.el("engine").value, heuristic: this.el("heuristic").value };
    if (spec.engine === "off") { say("pick an engine for this pane first"); return; }
    const format = this.el("format").value, button = this.el("export");
    button.disabled = true;
    try {
      const r = await fetch("/api/trees", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ...spec, format }) });
      if (!r.ok) { const doc = await r.json().catch(() => ({})); say(doc.error || `the server answered ${r.status}`); return; }
      say("");
      const a = document.createElement("a");
      a.href = URL.createObjectURL(await r.blob());
      a.download = `searchkit-tree-${spec.domain}-${spec.engine || "default"}.${format}`;
      document.body.append(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    } finally { button.disabled = false; }
  }
}

// -- the form and the controls shared by both panes -------------------------------------------
const panes = ["a", "b"].map((name, i) => {
  const root = $("pane-template").content.firstElementChild.cloneNode(true);
  root.id = `pane-${name}`;
  $("panes").append(root);
  return new Pane(root, i > 0);
});

function fillSearchForm() {
  const name = $("domain").value, dom = watchInfo.domains[name];
  $("instance").replaceChildren(new Option("(the options below)", ""), ...dom.instances.map((label, i) => new Option(label, String(i))));
  $("domain-options").replaceChildren(...dom.params.filter((p) => p.type !== "bool").map((p) => {
    const l = document.createElement("label");
    l.textContent = `${p.name} `;
    const i = document.createElement("input");
    i.name = p.name; i.title = p.help; i.placeholder = p.default ?? "";
    l.append(i);
    return l;
  }));
  for (const p of panes) p.fillEngines(name);
}

function formSpec() {
  const options = {};
  for (const i of $("domain-options").querySelectorAll("input")) if (i.value) options[i.name] = i.value;
  // one seed for both panes: a domain that draws a random instance draws the same one for each
  const spec = { domain: $("domain").value, options, random_seed: Math.floor(Math.random() * 2 ** 31) };
  if ($("instance").value !== "") spec.instance = Number($("instance").value);
  if ($("max-expanded").value) spec.max_expanded = $("max-expanded").value;
  return spec;
}

async function loadWatch() {
  watchInfo = await api("GET", "/api/info");
  $("domain").replaceChildren(...Object.keys(watchInfo.domains).map((d) => new Option(d, d)));
  const cap = watchInfo.max_expanded;
  $("max-expanded").placeholder = cap; $("max-expanded").max = cap;
  $("max-expanded-cap").textContent = `(at most ${cap.toLocaleString("en")})`;
  fillSearchForm();
}
$("domain").addEventListener("change", fillSearchForm);

$("search-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const spec = formSpec();
  for (const p of panes) p.cancel();
  await Promise.all(panes.map((p) => (p.on ? p.start(spec) : p.clear())));
});
function setPaused(now) {
  paused = now; $("pause").textContent = paused ? "Play" : "Pause";
  for (const p of panes) p.pace({ rate: rate() });
}
$("pause").addEventListener("click", () => setPaused(!paused));
$("step").addEventListener("click", () => {
  if (!paused) setPaused(true);
  for (const p of panes) p.step();
});
$("speed").addEventListener("input", showSpeed);
$("speed").addEventListener("change", () => { if (!paused) for (const p of panes) p.pace({ rate: rate() }); });
showSpeed();
$("cancel").addEventListener("click", () => { for (const p of panes) p.cancel(); });

function tick() {
  const deadline = performance.now() + FRAME_BUDGET_MS;
  for (const p of panes) {
    const waiting = p.pending();
    if (p.stepping && p.queue.slice(p.head).some((ev) => ev[0] === "x")) { p.stepping = false; p.take(Infinity, true); }
    else if (waiting && !paused) p.take(Math.max(Number($("speed").value), waiting - QUEUE_HIGH), false, deadline);
    if (!p.pending() && p.ending) p.finish();
    p.draw();
  }
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);

loadWatch().catch(() => {});
