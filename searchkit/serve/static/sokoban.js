// searchkit serve: the Sokoban tab. Plain JavaScript, no build step; api, say, plural and
// statsLine come from app.js. The server keeps the game; this draws it and sends the player's moves.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const S = { state: null, hint: null, catalog: null, file: null, busy: false, stop: false, asking: null, solution: null, clockBase: 0, clockAt: 0 };
  window.sokoban = S;  // for the browser tests
  const WORDS = { u: "up ↑", d: "down ↓", l: "left ←", r: "right →" };
  const COLOURS = { wall: "#5a5a78", floor: "#1c1c22", goal: "#f0c83c", box: "#cd8232", boxGoal: "#46b45a", player: "#78dcff" };

  // -- drawing ---------------------------------------------------------------------------
  function inside(rows) {
    // the squares within the walls: flooded from the player, every box and every goal
    const h = rows.length, w = rows[0].length, seen = new Set(), todo = [];
    rows.forEach((row, r) => [...row].forEach((ch, c) => { if ("@+$*.".includes(ch)) { seen.add(r * w + c); todo.push([r, c]); } }));
    while (todo.length) {
      const [r, c] = todo.pop();
      for (const [nr, nc] of [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]]) {
        const k = nr * w + nc;
        if (nr < 0 || nc < 0 || nr >= h || nc >= w || seen.has(k) || rows[nr][nc] === "#") continue;
        seen.add(k); todo.push([nr, nc]);
      }
    }
    return seen;
  }

  function fit() {
    const st = S.state, cv = $("sk-board");
    if (!st) return 0;
    const room = Math.min(cv.parentElement.clientWidth || 480, 720), tall = Math.min(window.innerHeight * 0.7, 720);
    const side = Math.max(8, Math.min(64, Math.floor(Math.min(room / st.width, tall / st.height))));
    if (cv.width !== side * st.width || cv.height !== side * st.height) { cv.width = side * st.width; cv.height = side * st.height; }
    return side;
  }

  function draw() {
    const st = S.state, cv = $("sk-board"), ctx = cv.getContext("2d"), s = fit();
    if (!st) return;
    ctx.clearRect(0, 0, cv.width, cv.height);
    const within = inside(st.board), w = st.width;
    st.board.forEach((row, r) => [...row].forEach((ch, c) => {
      const x = c * s, y = r * s;
      if (ch === "#") { ctx.fillStyle = COLOURS.wall; ctx.fillRect(x, y, s, s); ctx.strokeStyle = "#3c3c52"; ctx.strokeRect(x + 0.5, y + 0.5, s - 1, s - 1); return; }
      if (!within.has(r * w + c)) return;
      ctx.fillStyle = COLOURS.floor; ctx.fillRect(x, y, s, s);
      if (".+*".includes(ch)) {
        ctx.fillStyle = COLOURS.goal; ctx.beginPath(); ctx.arc(x + s / 2, y + s / 2, s * 0.18, 0, 2 * Math.PI); ctx.fill();
      }
      if (ch === "$" || ch === "*") {
        ctx.fillStyle = ch === "*" ? COLOURS.boxGoal : COLOURS.box;
        ctx.fillRect(x + s * 0.1, y + s * 0.1, s * 0.8, s * 0.8);
        ctx.strokeStyle = "rgba(0,0,0,0.45)"; ctx.lineWidth = Math.max(1, s / 16);
        ctx.strokeRect(x + s * 0.2, y + s * 0.2, s * 0.6, s * 0.6); ctx.lineWidth = 1;
      }
      if (ch === "@" || ch === "+") {
        ctx.fillStyle = COLOURS.player; ctx.beginPath(); ctx.arc(x + s / 2, y + s / 2, s * 0.34, 0, 2 * Math.PI); ctx.fill();
      }
    }));
    if (S.hint) {  // the hinted step, until the player moves
      const r = st.board.findIndex((row) => /[@+]/.test(row)), c = st.board[r].search(/[@+]/);
      const [dr, dc] = { u: [-1, 0], d: [1, 0], l: [0, -1], r: [0, 1] }[S.hint.move.toLowerCase()];
      ctx.strokeStyle = "#fff"; ctx.lineWidth = Math.max(2, s / 10);
      ctx.strokeRect((c + dc) * s + 2, (r + dr) * s + 2, s - 4, s - 4); ctx.lineWidth = 1;
    }
    if (st.solved) {
      ctx.fillStyle = "rgba(40,160,70,0.35)"; ctx.fillRect(0, 0, cv.width, cv.height);
      ctx.fillStyle = "#fff"; ctx.font = `bold ${Math.max(14, Math.min(48, cv.width / 8))}px system-ui`;
      ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.fillText("Solved!", cv.width / 2, cv.height / 2);
    }
  }

  // -- the game's state --------------------------------------------------------------------
  function levelName(st) {
    const title = st.title && st.title !== String(st.level) ? `: ${st.title}` : "";
    const where = st.file || (st.collection ? $("sk-collection").selectedOptions[0]?.text : "saved game");
    return `${where}, level ${st.level} of ${st.count}${title}`;
  }

  function show(st) {
    S.state = st;
    if (S.hint && (S.hint.id !== st.id || S.hint.lurd !== st.lurd)) { S.hint = null; $("sk-hint-text").textContent = ""; }
    $("sk-moves").textContent = st.moves;
    $("sk-pushes").textContent = st.pushes;
    $("sk-name").textContent = levelName(st);
    $("sk-win").hidden = !st.solved;
    $("sk-win").textContent = st.solved ? `Solved in ${plural(st.moves, "move")} and ${plural(st.pushes, "push")}! ▶ for the next level.` : "";
    $("sk-deadlock").hidden = !st.deadlock;
    $("sk-deadlock").textContent = st.deadlock ? `Deadlock: ${st.deadlock}. This level can no longer be solved: undo.` : "";
    for (const name of ["undo", "redo"]) $(`sk-${name}`).disabled = !st[`can_${name}`] || S.busy;
    $("sk-save").href = `/api/games/${st.id}/save`;
    if (S.solution !== null && !S.solution.startsWith(st.lurd)) S.solution = null;  // the player left the solution
    $("sk-solution-label").textContent = S.solution !== null ? "Solution (LURD)" : "Your moves (LURD)";
    $("sk-solution").value = S.solution ?? st.lurd;
    S.clockBase = st.elapsed_s; S.clockAt = performance.now();
    draw();
  }

  setInterval(() => {
    const st = S.state;
    if (!st) return;
    const t = Math.floor(st.solved || st.moves === 0 ? S.clockBase : S.clockBase + (performance.now() - S.clockAt) / 1000);
    $("sk-timer").textContent = `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
  }, 250);

  function fresh(st) {
    S.stop = true; S.solution = null;
    cancelSolve();
    $("sk-stats").textContent = ""; $("sk-hint-text").textContent = "";
    show(st);
  }

  // -- choosing a level ----------------------------------------------------------------------
  function fillLevels(labels, chosen) {
    $("sk-level").replaceChildren(...labels.map((t, i) => new Option(t === String(i + 1) ? t : `${i + 1}: ${t}`, String(i + 1))));
    $("sk-level").value = String(chosen);
  }

  async function openLevel(level) {
    if (S.file) {
      const q = new URLSearchParams({ game: "sokoban", name: S.file.name, level: String(level) });
      fresh(await api("POST", `/api/games/open?${q}`, undefined, S.file));
    } else {
      fresh(await api("POST", "/api/games", { game: "sokoban", collection: $("sk-collection").value, level: String(level) }));
    }
  }

  function chooseCollection() {
    const c = S.catalog.collections.find((x) => x.name === $("sk-collection").value);
    S.file = null;
    for (const o of [...$("sk-collection").options]) if (o.value === "") o.remove();
    $("sk-level").disabled = false;
    fillLevels(c.levels, 1);
  }

  async function start() {
    S.catalog = await api("GET", "/api/catalog/sokoban");
    $("sk-collection").replaceChildren(...S.catalog.collections.map((c) => new Option(c.title, c.name)));
    chooseCollection();
    await openLevel(1);
  }

  function goTo(level) {
    // a level refused (a file's level that cannot be solved): the select shows the game's again
    openLevel(level).catch(() => { if (S.state && S.state.level) $("sk-level").value = String(S.state.level); });
  }

  // a choice made, the arrow keys play again (not change the level)
  $("sk-collection").addEventListener("change", () => { $("sk-collection").blur(); chooseCollection(); goTo(1); });
  $("sk-level").addEventListener("change", () => { $("sk-level").blur(); goTo($("sk-level").value); });
  for (const [id, step] of [["sk-prev", -1], ["sk-next", 1]]) {
    $(id).addEventListener("click", () => {
      const sel = $("sk-level"), i = sel.selectedIndex + step;
      if (sel.disabled || i < 0 || i >= sel.options.length) return;
      sel.selectedIndex = i;
      goTo(sel.value);
    });
  }

  function customSource(text, count, level) {
    // an uploaded file or a save: its own entry in the collection list
    for (const o of [...$("sk-collection").options]) if (o.value === "") o.remove();
    $("sk-collection").prepend(new Option(text, ""));
    $("sk-collection").value = "";
    fillLevels(Array.from({ length: count }, (_, i) => String(i + 1)), level);
  }

  $("sk-file").addEventListener("change", async () => {
    const f = $("sk-file").files[0];
    $("sk-file").value = "";
    if (!f) return;
    const q = new URLSearchParams({ game: "sokoban", name: f.name, level: "1" });
    try {
      const st = await api("POST", `/api/games/open?${q}`, undefined, f);
      S.file = f;
      customSource(`File: ${f.name}`, st.count, st.level);
      $("sk-level").disabled = false;
      fresh(st);
    } catch (e) { /* the message is on the page; the game goes on */ }
  });

  $("sk-load").addEventListener("change", async () => {
    const f = $("sk-load").files[0];
    $("sk-load").value = "";
    if (!f) return;
    try {
      const st = await api("POST", "/api/games/load?game=sokoban", undefined, f);
      S.file = null;
      if (st.collection && S.catalog.collections.some((c) => c.name === st.collection)) {
        $("sk-collection").value = st.collection; chooseCollection(); $("sk-level").value = String(st.level);
      } else {
        customSource("Saved game", st.level, st.level);
        $("sk-level").disabled = true;
      }
      fresh(st);
    } catch (e) { /* the message is on the page */ }
  });

  // -- moving ----------------------------------------------------------------------------------
  async function move(body) {
    if (!S.state || S.busy) return;
    show(await api("POST", `/api/games/${S.state.id}/move`, body));
  }

  const visible = () => !$("sokoban").hidden;
  document.addEventListener("keydown", (ev) => {
    const dir = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" }[ev.key];
    if (!dir || !visible() || ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
    ev.preventDefault();
    move({ direction: dir }).catch(() => {});
  });
  $("sk-board").addEventListener("click", (ev) => {
    const st = S.state, r = $("sk-board").getBoundingClientRect();
    if (!st) return;
    const c = Math.floor(((ev.clientX - r.left) / r.width) * st.width), row = Math.floor(((ev.clientY - r.top) / r.height) * st.height);
    move({ cell: row * st.width + c }).catch(() => {});
  });
  onSwipe($("sk-board"), (direction) => move({ direction }).catch(() => {}));
  for (const name of ["undo", "redo", "restart"]) {
    $(`sk-${name}`).addEventListener("click", async () => {
      if (!S.state || S.busy) return;
      if (name === "restart") S.solution = null;
      show(await api("POST", `/api/games/${S.state.id}/${name}`).catch(() => S.state));
    });
  }
  window.addEventListener("resize", () => { if (visible()) draw(); });
  $("tab-sokoban").addEventListener("click", () => { if (S.state) draw(); else start().catch(() => {}); });

  // -- the solver -------------------------------------------------------------------------------
  function noPlan(plan) {
    if (plan.detail === "interrupted") return "";  // the player stopped it
    if (plan.status === "limit" && plan.detail === "time") return `The solver could not solve this position within its ${plan.limit_s} s limit: it is too hard for a quick solve. Undo to an easier position, or solve it yourself.`;
    if (plan.status === "no-solution" || plan.detail === "incomplete") return "The solver found no solution from this position (a deadlock?): undo or restart.";
    return `The solver stopped (${plan.detail || plan.status}) before it found a solution.`;
  }

  function cancelSolve() {
    // stop the solver thinking (Stop, or another level): it answers at once, unfinished
    if (S.asking) api("POST", `/api/games/${S.asking}/cancel`).catch(() => {});
  }

  async function ask(what) {
    // the board waits while the solver thinks: its answer is for this position; Stop stops it
    if (!S.state || S.busy) return null;
    const id = S.state.id;
    $("sk-hint-text").textContent = "solving…";
    S.busy = true; S.asking = id; $("sk-solve").textContent = "Stop";
    try {
      const st = await api("POST", `/api/games/${id}/${what}`);
      if (!S.state || S.state.id !== id) return null;  // another level by now
      $("sk-stats").textContent = `engine statistics: ${statsLine(st.plan)}`;
      if (!st.plan.found) {
        say(noPlan(st.plan));
        $("sk-hint-text").textContent = st.plan.detail === "interrupted" ? "stopped" : "";
        show(st);
        return null;
      }
      if (what === "solve") S.solution = st.lurd + st.plan.moves.join("");  // a hint gives no spoiler
      $("sk-hint-text").textContent = "";
      show(st);
      return st;
    } catch (e) { $("sk-hint-text").textContent = ""; return null; }
    finally { S.busy = false; S.asking = null; $("sk-solve").textContent = "Auto-solve"; if (S.state) show(S.state); }
  }

  async function animate(moves) {
    // play moves one by one at the chosen speed; Stop (or a new game) ends it
    const id = S.state.id;
    S.busy = true; S.stop = false; $("sk-solve").textContent = "Stop"; show(S.state);
    try {
      for (const m of moves) {
        await new Promise((r) => setTimeout(r, 1000 / Number($("sk-speed").value)));
        if (S.stop || S.state.id !== id) break;
        show(await api("POST", `/api/games/${id}/move`, { move: m }));
      }
    } catch (e) { /* the message is on the page */ }
    S.busy = false; $("sk-solve").textContent = "Auto-solve";
    if (S.state) show(S.state);
  }

  $("sk-hint").addEventListener("click", async () => {
    const st = await ask("hint");
    if (!st || !st.hint) return;
    S.hint = { id: st.id, lurd: st.lurd, move: st.hint };
    $("sk-hint-text").textContent = `hint: ${st.hint === st.hint.toUpperCase() ? "push the box" : "walk"} ${WORDS[st.hint.toLowerCase()]}`;
    draw();
  });
  $("sk-solve").addEventListener("click", async () => {
    if (S.busy) { S.stop = true; cancelSolve(); return; }
    const st = await ask("solve");
    if (st) await animate(st.plan.moves);
  });
  $("sk-copy").addEventListener("click", async () => {
    const text = $("sk-solution").value;
    try { await navigator.clipboard.writeText(text); }
    catch (e) { $("sk-solution").select(); document.execCommand("copy"); }
    $("sk-hint-text").textContent = `copied ${plural(text.length, "move")}`;
  });
  $("sk-replay").addEventListener("click", async () => {
    if (!S.state || S.busy) return;
    try {
      const st = await api("POST", `/api/games/${S.state.id}/replay`, { moves: $("sk-paste").value });
      S.solution = null; show(st);
      await animate(st.replay);
    } catch (e) { /* the message (which move does not replay) is on the page */ }
  });
})();
