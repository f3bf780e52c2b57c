"""``searchkit serve`` in a real browser: headless Chromium from the Debian packages, driven
by Playwright.  Skipped (one line) where /usr/bin/chromium or Playwright is missing."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from processes import run_with_plugin  # noqa: E402
from typer.testing import CliRunner

from searchkit.cli import build_app as build_cli

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("browser tests need /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright (pip install playwright)")
uvicorn = pytest.importorskip("uvicorn")

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    from searchkit.serve.app import build_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(build_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(5)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, url: str) -> Iterator[Any]:
    page = browser.new_page()
    page.goto(url)
    page.wait_for_function("() => typeof game !== 'undefined' && game !== null")
    yield page
    page.close()


def board_state(page: Any) -> dict:
    return page.evaluate("() => game")


def start_new_game(page: Any, depth: int) -> None:
    """Click New game and wait for the new game (not the one the page opened with)."""
    old = board_state(page)["id"]
    page.fill("#depth", str(depth))
    page.click("#new")
    page.wait_for_function(f"() => game.id !== {json.dumps(old)}")


def test_solve_a_3x3_by_clicks_and_see_the_win(page: Any) -> None:
    start_new_game(page, 6)
    gid = board_state(page)["id"]
    plan = page.evaluate(f"() => fetch('/api/games/{gid}/hint', {{method: 'POST'}}).then(r => r.json())")["plan"]
    box = page.locator("#board").bounding_box()
    for move in plan["moves"]:
        state = board_state(page)
        blank = state["board"].index(0)
        r, c = divmod(blank, 3)
        dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[move]
        r, c = r + dr, c + dc
        before = state["moves"]
        page.mouse.click(box["x"] + (c + 0.5) * box["width"] / 3, box["y"] + (r + 0.5) * box["height"] / 3)
        page.wait_for_function(f"() => game.moves === {before + 1}")
    page.wait_for_selector("#win", state="visible")
    assert page.inner_text("#win") == "Solved!"


def test_a_new_game_during_an_auto_solve_starts_cleanly(page: Any) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.fill("#solve-speed", "2")  # a move every half second: a new game comes between two
    for _ in range(5):
        start_new_game(page, 30)
        page.click("#solve")
        page.wait_for_function("() => game.moves >= 1", timeout=20_000)
        start_new_game(page, 30)
        page.wait_for_timeout(700)  # the old solve's next move would be due by now
        assert page.is_hidden("#message"), page.inner_text("#message")
        assert board_state(page)["moves"] == 0 and page.inner_text("#solve") == "Auto-solve"
    assert not errors


# a hint is a blank move: the arrow key that slides a tile into the gap from that side
KEY_FOR_BLANK_MOVE = {"U": "ArrowDown", "D": "ArrowUp", "L": "ArrowRight", "R": "ArrowLeft"}


def test_the_hint_names_the_key_that_plays_it(page: Any) -> None:
    start_new_game(page, 12)
    page.click("#hint")
    page.wait_for_function("() => $('hint-text').textContent.startsWith('hint: ')")
    gid = board_state(page)["id"]
    plan = page.evaluate(f"() => fetch('/api/games/{gid}/hint', {{method: 'POST'}}).then(r => r.json())")["plan"]
    key = KEY_FOR_BLANK_MOVE[plan["moves"][0]]
    arrow = {"ArrowDown": "↓", "ArrowUp": "↑", "ArrowRight": "→", "ArrowLeft": "←"}[key]
    assert page.inner_text("#hint-text").startswith(f"hint: press {arrow}: slide the tile ")
    before = board_state(page)
    page.keyboard.press(key)
    page.wait_for_function("() => game.moves === 1")
    blank = before["board"].index(0)
    step = {"U": -3, "D": 3, "L": -1, "R": 1}[plan["moves"][0]]
    assert board_state(page)["board"].index(0) == blank + step  # the blank went where the hint said


def test_the_goal_picture_is_shown_beside_the_board(page: Any) -> None:
    drawn = page.evaluate(
        """() => { const c = $('goal'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let lit = 0; for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] > 0) lit++;
        return [lit, c.width * c.height]; }"""
    )
    assert drawn[0] > 0.9 * drawn[1]  # the whole picture, not a blank canvas
    board, goal = page.locator("#board").bounding_box(), page.locator("#goal").bounding_box()
    assert goal["x"] > board["x"] + board["width"] and goal["width"] <= board["width"] / 3


def test_plans_say_one_move_and_an_unfinished_solve_no_guarantee(page: Any) -> None:
    line = "(p) => statsLine(p)"
    one = {"found": True, "quality": "optimal", "moves": ["U"], "status": "solved", "detail": "", "stats": {}}
    assert page.evaluate(line, one).startswith("optimal · 1 move · expanded")
    stopped = {**one, "found": False, "quality": None, "moves": [], "status": "limit", "detail": "interrupted"}
    assert page.evaluate(line, stopped).startswith("cancelled · expanded")
    timed_out = {**stopped, "detail": "time"}
    assert page.evaluate(line, timed_out).startswith("limit (time) · expanded")


# the final canvas against the picture drawn whole on a canvas of the same size, in the page
SAME_AS_PICTURE = """() => {
  const c = $('board'), other = document.createElement('canvas');
  other.width = c.width; other.height = c.height;
  other.getContext('2d').drawImage(picture, 0, 0, c.width, c.height);
  const a = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const b = other.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let differ = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
  return [differ, a.length];
}"""


def test_auto_solve_ends_on_the_solved_picture(page: Any) -> None:
    page.fill("#solve-speed", "20")
    start_new_game(page, 8)
    page.click("#solve")
    page.wait_for_selector("#win", state="visible", timeout=20_000)
    differ, total = page.evaluate(SAME_AS_PICTURE)
    assert total == 480 * 480 * 4 and differ == 0
    assert "expanded" in page.inner_text("#stats")


def test_a_bad_upload_shows_a_message(page: Any, tmp_path: Path) -> None:
    bad = tmp_path / "notes.png"
    bad.write_text("not a picture")
    page.set_input_files("#picture", str(bad))
    page.wait_for_selector("#message", state="visible")
    assert "not a picture" in page.inner_text("#message")


def watch(
    page: Any,
    domain: str,
    engines: list[str],
    board: str | None = None,
    instance: str | None = None,
    options: dict[str, str] | None = None,
) -> None:
    """Start a watched search, one engine per pane, at full speed; wait for every pane's end."""
    page.click("#tab-watch")
    page.wait_for_function("() => watchInfo !== null")
    page.select_option("#domain", domain)
    if instance is not None:
        page.select_option("#instance", label=instance)
    for name, value in ({"board": board} if board else {}).items() | (options or {}).items():
        page.fill(f"#domain-options input[name={name}]", value)
    for pane, engine in zip(("a", "b"), engines):
        page.select_option(f"#pane-{pane} [data-role=engine]", engine)
    page.fill("#speed", "2000")
    page.click("#start")
    for pane in ("a", "b")[: len(engines)]:
        page.wait_for_selector(f"#pane-{pane} [data-role=status][data-done]", timeout=60_000)


def counters(page: Any, pane: str) -> dict[str, str]:
    return {k: page.inner_text(f"#pane-{pane} [data-role={k}]") for k in ("expanded", "generated", "frontier", "f")}


def expected_counters(doc: dict) -> dict[str, str]:
    s = doc["stats"]
    return {
        "expanded": str(s["expanded"]),
        "generated": str(s["generated"]),
        "frontier": str(s["max_frontier"]),
        "f": f"{doc['cost']:g}",
    }


def test_two_engines_side_by_side_with_the_clis_counters(page: Any) -> None:
    board = "8 6 7 2 5 4 3 0 1"
    watch(page, "npuzzle", ["astar", "idastar"], board=board)
    for pane, engine in (("a", "astar"), ("b", "idastar")):
        cli = CliRunner().invoke(build_cli(), ["solve", "npuzzle", "--board", board, "--engine", engine, "--json"])
        assert counters(page, pane) == expected_counters(json.loads(cli.stdout)), engine


def test_click_zoom_pan_and_pinch_the_tree(page: Any) -> None:
    watch(page, "npuzzle", ["astar"], board="1 2 3 4 5 6 0 7 8")
    view = "() => [panes[0].viewport.s, panes[0].viewport.tx]"
    page.mouse.click(*page.evaluate("() => panes[0].screenOf(0)"))
    text = page.inner_text("#pane-a [data-role=node]")
    assert text.startswith("state 0 · depth 0 · g 0 · h ") and "expanded" in text
    assert text.split("\n", 1)[1] == page.evaluate("() => panes[0].header.start")  # the domain's text of the state
    box = page.locator("#pane-a [data-role=view]").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 40)
    page.mouse.wheel(0, -400)
    page.wait_for_function("() => panes[0].viewport.s > 1.5")
    scale, tx = page.evaluate(view)
    page.mouse.move(box["x"] + 100, box["y"] + 100)
    page.mouse.down()
    page.mouse.move(box["x"] + 160, box["y"] + 130, steps=5)
    page.mouse.up()
    assert page.evaluate(view)[1] > tx + 30
    page.mouse.click(*page.evaluate("() => panes[0].screenOf(1)"))  # picked through the zoom and the pan
    assert page.inner_text("#pane-a [data-role=node]").startswith("state 1 · depth 1 · g 1")
    assert page.evaluate(PINCH) == pytest.approx(3.0)


# two fingers moving apart over the canvas, from 40 to 120 pixels: the scale triples
PINCH = """() => {
  const c = panes[0].canvas, r = c.getBoundingClientRect(), before = panes[0].viewport.s;
  const at = (id, type, x) => c.dispatchEvent(new PointerEvent(type, {pointerId: id, clientX: r.left + x,
    clientY: r.top + 200, bubbles: true, pointerType: 'touch'}));
  at(11, 'pointerdown', 200); at(12, 'pointerdown', 240);
  at(12, 'pointermove', 280); at(12, 'pointermove', 320);
  at(11, 'pointerup', 200); at(12, 'pointerup', 320);
  return panes[0].viewport.s / before;
}"""


def test_export_the_tree_as_the_tree_command_writes_it(page: Any, tmp_path: Path) -> None:
    board = "1 2 3 4 5 6 0 7 8"
    watch(page, "npuzzle", ["astar"], board=board)
    page.select_option("#pane-a [data-role=format]", "json")
    with page.expect_download() as download:
        page.click("#pane-a [data-role=export]")
    served = tmp_path / "served.json"
    download.value.save_as(served)
    out = tmp_path / "cli.json"
    CliRunner().invoke(build_cli(), ["tree", "npuzzle", "--board", board, "--engine", "astar", "-o", str(out)])
    assert served.read_bytes() == out.read_bytes()
    assert download.value.suggested_filename == "searchkit-tree-npuzzle-astar.json"


# the pane's cells drawn closed and open, the start's colour and a wall's colour on the canvas
MAP = """() => {
  const p = panes[0], g = p.grid, k = p.cellSize(), ctx = p.canvas.getContext('2d');
  const s = (g.start[1] * g.width + g.start[0]) * 4, wall = g.rows.join('').indexOf('#');
  const [wx, wy] = [wall % g.width, Math.floor(wall / g.width)];
  const px = ctx.getImageData(Math.floor((wx + 0.5) * k), Math.floor((wy + 0.5) * k), 1, 1).data;
  return {...p.mapCounts(), start: [...g.data.data.slice(s, s + 3)], wall: [px[0], px[1], px[2]], path: p.path.length};
}"""


def test_a_grid_map_shows_closed_and_open_cells_and_the_path(installed: Path, gridpath, page: Any) -> None:  # noqa: F811
    page.reload()
    page.wait_for_function("() => typeof game !== 'undefined' && game !== null")
    watch(page, "gridpath", ["astar"], instance="scen=gridpath:rooms index=2")
    shown = page.evaluate(MAP)
    cli = run_with_plugin(
        installed, "solve", "gridpath", "--scen", "gridpath:rooms", "--index", "2", "--engine", "astar", "--json"
    )
    doc = json.loads(cli.stdout)
    assert shown["closed"] == doc["stats"]["expanded"] - doc["stats"]["reopened"]  # a reopened cell is closed again
    assert (
        shown["open"] > 0
        and shown["start"] == [0, 200, 0]
        and shown["wall"] == [64, 64, 72]
        and shown["path"] == len(doc["path"])
    )
    assert counters(page, "a") == {**expected_counters(doc), "f": page.inner_text("#pane-a [data-role=f]")}
    legend = page.inner_text("#pane-a [data-role=legend]").split("\n")
    assert legend[:4] == ["wall", "not reached", "open", "closed (expanded)"] and "path found" in legend
    assert abs(float(page.inner_text("#pane-a [data-role=f]")) - doc["cost"]) < 1e-3
    page.mouse.click(*page.evaluate("() => panes[0].screenOf(0)"))
    assert page.inner_text("#pane-a [data-role=node]").startswith("state 0 · g 0")


# the longest wait between two animation frames since it was installed, in ms
FRAMES = """() => { window.frameGaps = [0]; let last = performance.now();
  const f = () => { const t = performance.now(); frameGaps.push(t - last); last = t; requestAnimationFrame(f); };
  requestAnimationFrame(f); }"""


def test_a_search_of_100000_expansions_streams_without_freezing_the_page(page: Any) -> None:
    page.click("#tab-watch")
    page.wait_for_function("() => watchInfo !== null")
    page.fill("#max-expanded", "100000")
    page.evaluate(FRAMES)
    watch(page, "npuzzle", ["bfs"], options={"size": "4", "seed": "3"})
    assert page.inner_text("#pane-a [data-role=expanded]") == "100000"
    assert page.inner_text("#pane-a [data-role=status]").startswith("limit (nodes)")
    gaps = sorted(page.evaluate("() => frameGaps.slice(1)"))
    longest, usual = gaps[-1], gaps[len(gaps) // 2]
    # a freeze is a frame ten times as long as this machine's usual one (and over 1 s): a
    # 20-times-slower CPU (Chromium's throttling) makes every frame slower, not a freeze
    assert longest < max(1000, 10 * usual), f"the page froze for {longest:.0f} ms (a frame takes {usual:.0f} ms)"
    assert page.evaluate("() => panes[0].nodes.size") <= 3000  # the drawn tree is capped


def test_pause_step_and_play(page: Any) -> None:
    page.click("#tab-watch")
    page.wait_for_function("() => watchInfo !== null")
    page.click("#pause")
    assert page.inner_text("#pause") == "Play"
    page.select_option("#domain", "npuzzle")
    page.fill("#domain-options input[name=board]", "1 2 3 4 5 6 0 7 8")
    page.select_option("#pane-a [data-role=engine]", "bfs")
    page.click("#start")
    page.wait_for_function("() => panes[0].running")
    page.wait_for_timeout(1000)
    # paused from the start: the server has not searched, so nothing came
    assert page.evaluate("() => panes[0].pending()") == 0 and page.inner_text("#pane-a [data-role=expanded]") == "0"
    for n in ("1", "2"):
        page.click("#step")
        page.wait_for_function(f"() => panes[0].counters.x === {n}")
    page.wait_for_timeout(1000)
    assert page.inner_text("#pane-a [data-role=expanded]") == "2"  # two steps, two expansions
    page.click("#pause")
    page.wait_for_selector("#pane-a [data-role=status][data-done]", timeout=30_000)
    assert page.inner_text("#pause") == "Pause" and int(page.inner_text("#pane-a [data-role=expanded]")) > 2
    done = page.inner_text("#pane-a [data-role=status]")
    page.click("#cancel")  # nothing left to cancel: the result stays
    assert page.inner_text("#pane-a [data-role=status]") == done and done.startswith("solved")


def test_a_bad_watch_request_shows_a_message(page: Any) -> None:
    page.click("#tab-watch")
    page.wait_for_function("() => watchInfo !== null")
    page.select_option("#domain", "npuzzle")
    page.fill("#domain-options input[name=board]", "1 2")
    page.click("#start")
    page.wait_for_selector("#message", state="visible")
    assert "square" in page.inner_text("#message") and page.inner_text("#pane-a [data-role=status]") == ""


# the expansions a pane has had from the server: drawn, and waiting to be drawn
RECEIVED = "() => panes[0].counters.x + panes[0].queue.slice(panes[0].head).filter((e) => e[0] === 'x').length"


def start_long_search(page: Any, speed: str) -> None:
    page.click("#tab-watch")
    page.wait_for_function("() => watchInfo !== null")
    page.select_option("#domain", "npuzzle")
    page.fill("#domain-options input[name=size]", "4")
    page.fill("#domain-options input[name=seed]", "3")
    page.select_option("#pane-a [data-role=engine]", "bfs")
    page.fill("#speed", speed)
    page.click("#start")
    page.wait_for_function("() => panes[0].sid !== null")


@pytest.mark.slow  # over 10 s here: waits out pauses and paces in real time
def test_pause_stops_the_search_itself_and_play_resumes_it(page: Any) -> None:
    start_long_search(page, "2000")
    page.wait_for_function("() => panes[0].counters.x > 500")
    page.click("#pause")
    page.wait_for_timeout(1500)  # what was under way arrives
    paused_at = page.evaluate(RECEIVED)
    page.wait_for_timeout(3000)
    assert page.evaluate(RECEIVED) == paused_at, "the server searched on while paused"
    assert page.inner_text("#pane-a [data-role=expanded]") == str(page.evaluate("() => panes[0].counters.x"))
    page.click("#pause")
    page.wait_for_selector("#pane-a [data-role=status][data-done]", timeout=120_000)
    assert page.inner_text("#pane-a [data-role=expanded]") == "200000"


@pytest.mark.slow  # over 10 s here: waits out pauses and paces in real time
def test_the_speed_slider_slows_the_search_on_the_server(page: Any) -> None:
    start_long_search(page, "1")
    page.wait_for_timeout(3000)
    received = page.evaluate("() => panes[0].counters.x + panes[0].counters.g + panes[0].pending()")
    assert 0 < received <= 60 * 3 * 4, f"{received} events in 3 s at 60 a second"
    assert page.inner_text("#speed-text") == "60 events/s"
    page.fill("#speed", "2000")
    page.dispatch_event("#speed", "change")
    assert page.inner_text("#speed-text") == "full speed"
    page.wait_for_selector("#pane-a [data-role=status][data-done]", timeout=120_000)
    assert page.inner_text("#pane-a [data-role=expanded]") == "200000"


def test_the_tree_has_a_legend_and_the_cap_is_shown_and_kept(page: Any) -> None:
    watch(page, "npuzzle", ["astar"], board="1 2 3 4 5 6 0 7 8")
    assert page.inner_text("#pane-a [data-role=legend]").split("\n") == ["expanded", "open (generated)", "path found"]
    colours = page.evaluate(
        "() => [...document.querySelectorAll('#pane-a [data-role=legend] span')]"
        ".map((s) => s.style.getPropertyValue('--swatch'))"
    )
    assert colours == ["#c33", "#39c", "#e6a800"]  # the colours drawTree uses
    assert page.inner_text("#max-expanded-cap") == "(at most 200,000)"
    page.fill("#max-expanded", "300000")
    page.click("#start")  # the form refuses it: no search starts
    page.wait_for_timeout(500)
    assert page.evaluate("() => $('max-expanded').validity.rangeOverflow")
    assert page.inner_text("#pane-a [data-role=status]").startswith("solved")
