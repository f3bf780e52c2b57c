// searchkit serve: the page. Plain JavaScript, no build step, no CDN.
"use strict";
const $ = (id) => document.getElementById(id);

// "1 move", "2 moves"
function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function say(text) {
  const m = $("message");
  m.textContent = text || "";
  m.hidden = !text;
}

async function api(method, url, body, raw) {
  const init = { method };
  if (raw !== undefined) init.body = raw;
  else if (body !== undefined) { init.body = JSON.stringify(body); init.headers = { "Content-Type": "application/json" }; }
  const r = await fetch(url, init);
  const doc = await r.json().catch(() => ({ error: `the server answered ${r.status}` }));
  if (!r.ok || doc.error) { say(doc.error || `the server answered ${r.status}`); throw new Error(doc.error); }
  say("");
  return doc;
}

// -- tabs ------------------------------------------------------------------------------
for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => {
    for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t === tab);
    for (const p of document.querySelectorAll(".panel")) p.hidden = p.id !== tab.dataset.panel;
  });
}

// -- play: the picture puzzle -----------------------------------------------------------
let game = null, picture = null, solver = null, clockBase = 0, clockAt = 0;
// a hint is a blank move; the player moves tiles: the key to press, and the tile it slides
const HINTS = {
  U: "press ↓: slide the tile above the gap down", D: "press ↑: slide the tile below the gap up",
  L: "press →: slide the tile left of the gap right", R: "press ←: slide the tile right of the gap left",
};

function loadPicture(id) {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => { picture = img; resolve(); };
    img.onerror = () => { say("the picture did not load"); resolve(); };
    img.src = `/api/games/${id}/picture?t=${Date.now()}`;
  });
}

function show(state) {
  game = state;
  $("moves").textContent = state.moves;
  $("win").hidden = !state.solved;
  $("undo").disabled = !state.can_undo;
  $("redo").disabled = !state.can_redo;
  $("save").href = `/api/games/${state.id}/save`;
  clockBase = state.elapsed_s; clockAt = performance.now();
  draw();
}

function draw() {
  const cv = $("board"), ctx = cv.getContext("2d"), goal = $("goal");
  ctx.fillStyle = "#0c0c0e"; ctx.fillRect(0, 0, cv.width, cv.height);
  if (!game || !picture) return;
  goal.getContext("2d").drawImage(picture, 0, 0, goal.width, goal.height);  // the solved picture, small
  if (game.solved) { ctx.drawImage(picture, 0, 0, cv.width, cv.height); return; }
  const w = game.width, h = game.height, tw = cv.width / w, th = cv.height / h;
  const pw = picture.width / w, ph = picture.height / h;
  const home = new Map(game.goal.map((t, p) => [t, p]));
  game.board.forEach((t, cell) => {
    if (t === 0) return;
    const p = home.get(t), x = (cell % w) * tw, y = Math.floor(cell / w) * th;
    ctx.drawImage(picture, (p % w) * pw, Math.floor(p / w) * ph, pw, ph, x + 1, y + 1, tw - 2, th - 2);
  });
}

setInterval(() => {
  if (!game) return;
  const s = game.solved || game.moves === 0 ? clockBase : clockBase + (performance.now() - clockAt) / 1000;
  const t = Math.floor(s);
  $("timer").textContent = `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
}, 250);

async function newGame(ev) {
  if (ev) ev.preventDefault();
  await stopSolve();  // its last move is answered before the old game is dropped
  const st = await api("POST", "/api/games", { game: "npuzzle", size: $("size").value, blank: $("blank").value, depth: $("depth").value });
  if (game) api("DELETE", `/api/games/${game.id}`).catch(() => {});  // the old game is left: the server forgets it
  $("stats").textContent = ""; $("hint-text").textContent = "";
  await loadPicture(st.id); show(st);
}

async function move(body) {
  if (!game || solver) return;
  show(await api("POST", `/api/games/${game.id}/move`, body));
}

$("new-game").addEventListener("submit", newGame);
$("board").addEventListener("click", (ev) => {
  if (!game) return;
  const r = $("board").getBoundingClientRect();
  const c = Math.floor(((ev.clientX - r.left) / r.width) * game.width);
  const row = Math.floor(((ev.clientY - r.top) / r.height) * game.height);
  move({ cell: row * game.width + c });
});
document.addEventListener("keydown", (ev) => {
  const dir = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" }[ev.key];
  if (!dir || $("play").hidden || ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
  ev.preventDefault();
  move({ direction: dir });
});
// a swipe on ``el`` calls ``go(direction)`` ("up", "down", "left", "right"); a tap is left to the click handler
function onSwipe(el, go) {
  let touch = null;
  el.addEventListener("touchstart", (ev) => { const t = ev.touches[0]; touch = [t.clientX, t.clientY]; }, { passive: true });
  el.addEventListener("touchend", (ev) => {
    if (!touch) return;
    const t = ev.changedTouches[0], dx = t.clientX - touch[0], dy = t.clientY - touch[1];
    touch = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 20) return;
    ev.preventDefault();
    go(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up"));
  });
}
onSwipe($("board"), (direction) => move({ direction }));
for (const name of ["undo", "redo", "restart"]) {
  $(name).addEventListener("click", async () => { if (game && !solver) show(await api("POST", `/api/games/${game.id}/${name}`)); });
}

// a solve's outcome and the engine's statistics; an unfinished solve guarantees nothing
function statsLine(plan) {
  const s = plan.stats || {};
  const outcome = plan.found ? `${plan.quality} · ${plural(plan.moves.length, "move")}`
    : plan.detail === "interrupted" ? "cancelled" : `${plan.status}${plan.detail ? ` (${plan.detail})` : ""}`;
  return `${outcome} · expanded ${s.expanded} · generated ${s.generated} · max frontier ${s.max_frontier} · ${(s.elapsed_s || 0).toFixed(3)} s`;
}

$("hint").addEventListener("click", async () => {
  if (!game || solver) return;
  const st = await api("POST", `/api/games/${game.id}/hint`);
  $("hint-text").textContent = st.hint ? `hint: ${HINTS[st.hint] ?? st.hint}` : "no hint";
  $("stats").textContent = statsLine(st.plan);
  show(st);
});

// the auto-solve under way ({id, stopped, asking, done}): the solver asked, then its moves
// played one at a time; stopped, it plays no further move (and the server stops the solver)
function stopSolve() {
  if (!solver) return Promise.resolve();
  solver.stopped = true;
  if (solver.asking) api("POST", `/api/games/${solver.id}/cancel`).catch(() => {});
  return solver.done;
}

async function autoSolve() {
  const run = { id: game.id, stopped: false, asking: true };
  solver = run;
  $("solve").textContent = "Stop";
  run.done = (async () => {
    try {
      const st = await api("POST", `/api/games/${run.id}/solve`);
      run.asking = false;
      $("stats").textContent = statsLine(st.plan);
      if (!st.plan.found) {
        if (st.plan.detail !== "interrupted") say(`no solution: ${st.plan.status} ${st.plan.detail}`);
        return;
      }
      for (const m of st.plan.moves) {
        await new Promise((r) => setTimeout(r, 1000 / Number($("solve-speed").value)));
        if (run.stopped) return;
        show(await api("POST", `/api/games/${run.id}/move`, { move: m }));
      }
    } catch (e) { /* the message is on the page */ }
    finally { if (solver === run) { solver = null; $("solve").textContent = "Auto-solve"; } }
  })();
  return run.done;
}

$("solve").addEventListener("click", () => { if (solver) stopSolve(); else if (game) autoSolve(); });

$("picture").addEventListener("change", async () => {
  const f = $("picture").files[0];
  if (!f || !game) return;
  try { show(await api("POST", `/api/games/${game.id}/picture`, undefined, f)); await loadPicture(game.id); draw(); }
  catch (e) { /* the message is on the page */ }
  $("picture").value = "";
});

$("load").addEventListener("change", async () => {
  const f = $("load").files[0];
  if (!f) return;
  try { await stopSolve(); const st = await api("POST", "/api/games/load?game=npuzzle", undefined, f); await loadPicture(st.id); show(st); }
  catch (e) { /* the message is on the page */ }
  $("load").value = "";
});

newGame().catch(() => {});
