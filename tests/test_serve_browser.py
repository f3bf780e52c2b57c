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


def test_watch_an_astar_search_to_its_end_with_the_clis_counters(page: Any) -> None:
    board = "8 6 7 2 5 4 3 0 1"
    page.click("#tab-watch")
    page.select_option("#domain", "npuzzle")
    page.fill("#domain-options input[name=board]", board)
    page.select_option("#engine", "astar")
    page.fill("#speed", "2000")
    page.click("#start")
    page.wait_for_selector("#w-status[data-done]", timeout=60_000)
    cli = CliRunner().invoke(build_cli(), ["solve", "npuzzle", "--board", board, "--engine", "astar", "--json"])
    stats = json.loads(cli.stdout)["stats"]
    assert int(page.inner_text("#w-expanded")) == stats["expanded"]
    assert int(page.inner_text("#w-generated")) == stats["generated"]
    assert int(page.inner_text("#w-frontier")) == stats["max_frontier"]
    assert page.inner_text("#w-f") == f"{json.loads(cli.stdout)['cost']:g}"
