"""``searchkit serve``'s Sokoban in a real browser (headless Chromium from the Debian
packages, driven by Playwright): the server, the browser and the skip when either is
missing are test_serve_browser's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_serve_browser import browser, url  # noqa: F401  (the fixtures, and the skip without Chromium)

KEYS = {"u": "ArrowUp", "d": "ArrowDown", "l": "ArrowLeft", "r": "ArrowRight"}


@pytest.fixture
def page(browser: Any, url: str) -> Iterator[Any]:  # noqa: F811  (the fixtures above)
    page = browser.new_page()
    page.goto(url)
    page.click("#tab-sokoban")
    page.wait_for_function("() => sokoban.state !== null")
    yield page
    page.close()


def state(page: Any) -> dict:
    return page.evaluate("() => sokoban.state")


def open_level(page: Any, collection: str, level: int) -> None:
    """Choose a bundled level in the page's selects and wait for its game."""
    old = state(page)["id"]
    page.select_option("#sk-collection", collection)
    page.wait_for_function(f"() => sokoban.state.id !== {json.dumps(old)}")
    if level != 1:
        old = state(page)["id"]
        page.select_option("#sk-level", str(level))
        page.wait_for_function(f"() => sokoban.state.id !== {json.dumps(old)} && sokoban.state.level === {level}")


def test_solve_a_small_microban_level_by_key_presses(page: Any) -> None:
    open_level(page, "microban", 1)
    page.click("#sk-hint")
    page.wait_for_function("() => $('sk-hint-text').textContent.startsWith('hint: ')")
    gid = state(page)["id"]
    plan = page.evaluate(f"() => fetch('/api/games/{gid}/hint', {{method: 'POST'}}).then(r => r.json())")["plan"]
    assert plan["found"]
    for move in plan["moves"]:
        before = state(page)["moves"]
        page.keyboard.press(KEYS[move.lower()])
        page.wait_for_function(f"() => sokoban.state.moves === {before + 1}")
    page.wait_for_selector("#sk-win", state="visible")
    assert page.inner_text("#sk-win").startswith("Solved in ") and page.is_enabled("#sk-undo")
    assert page.input_value("#sk-solution") == "".join(plan["moves"])
    assert int(page.inner_text("#sk-pushes")) == sum(m.isupper() for m in plan["moves"])


def test_auto_solve_animates_to_the_win_and_its_lurd_replays(page: Any) -> None:
    page.fill("#sk-speed", "50")
    open_level(page, "microban", 3)
    page.click("#sk-solve")
    page.wait_for_selector("#sk-win", state="visible", timeout=30_000)
    assert "expanded" in page.inner_text("#sk-stats")
    assert page.inner_text("#sk-solution-label") == "Solution (LURD)"
    solution = page.input_value("#sk-solution")
    assert solution == state(page)["lurd"] and len(solution) == state(page)["moves"]
    page.fill("#sk-paste", solution)
    page.click("#sk-replay")
    page.wait_for_function("() => !sokoban.state.solved")
    page.wait_for_selector("#sk-win", state="visible", timeout=30_000)
    assert state(page)["lurd"] == solution


def test_a_wrong_lurd_is_refused_naming_the_move(page: Any) -> None:
    open_level(page, "microban", 1)
    page.keyboard.press("ArrowDown")
    page.wait_for_function("() => sokoban.state.moves === 1")
    page.fill("#sk-paste", "uu u")
    page.click("#sk-replay")
    page.wait_for_selector("#message", state="visible")
    assert "move 3 (u): walks into a wall" in page.inner_text("#message")
    assert state(page)["moves"] == 1  # the game is as it was


def test_a_bad_level_file_shows_a_message_and_the_game_goes_on(page: Any, tmp_path: Path) -> None:
    before = state(page)
    bad = tmp_path / "levels.sok"
    bad.write_text("#####\n#@$ #\n#####\n")
    page.set_input_files("#sk-file", str(bad))
    page.wait_for_selector("#message", state="visible")
    assert "levels.sok: the level has 1 boxes but 0 goals" in page.inner_text("#message")
    assert state(page)["id"] == before["id"]
    good = tmp_path / "mine.txt"
    good.write_text("#####\n#.  #\n#$  #\n#@  #\n#####\n")
    page.set_input_files("#sk-file", str(good))
    page.wait_for_function(f"() => sokoban.state.id !== {json.dumps(before['id'])}")
    assert page.locator("#message").is_hidden() and "mine.txt" in page.inner_text("#sk-name")
    page.keyboard.press("ArrowUp")
    page.wait_for_selector("#sk-win", state="visible")


SWIPE = """([dx, dy]) => {
  const cv = $('sk-board'), r = cv.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const at = (px, py) => [new Touch({identifier: 1, target: cv, clientX: px, clientY: py})];
  const touch = (type, touches, changedTouches) =>
    cv.dispatchEvent(new TouchEvent(type, {touches, changedTouches, bubbles: true, cancelable: true}));
  touch('touchstart', at(x, y), at(x, y));
  touch('touchend', [], at(x + dx, y + dy));
}"""


def test_a_tap_next_to_the_player_and_a_swipe_move_it(page: Any) -> None:
    open_level(page, "microban", 1)  # the player at row 4, column 3; the square below is floor
    st = state(page)
    row, col = next((r, line.index("@")) for r, line in enumerate(st["board"]) if "@" in line)
    box = page.locator("#sk-board").bounding_box()
    side = box["width"] / st["width"]
    page.mouse.click(box["x"] + (col + 0.5) * side, box["y"] + (row + 1.5) * side)  # the square below
    page.wait_for_function("() => sokoban.state.moves === 1")
    page.mouse.click(box["x"] + (col + 2.5) * side, box["y"] + (row + 1.5) * side)  # two squares away: no move
    page.evaluate(SWIPE, [0, -80])  # a swipe up: back where it started
    page.wait_for_function("() => sokoban.state.moves === 2")
    assert state(page)["lurd"] == "du" and state(page)["board"] == st["board"]


def test_a_level_too_hard_for_the_time_limit_says_so(page: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from searchkit.serve import games

    monkeypatch.setattr(games, "SOLVE_TIMEOUT_S", 0.01)  # the server runs in this process
    open_level(page, "sasquatch", 50)
    page.click("#sk-solve")
    page.wait_for_selector("#message", state="visible", timeout=30_000)
    assert "could not solve this position within its 0.01 s limit" in page.inner_text("#message")
    assert state(page)["moves"] == 0 and page.inner_text("#sk-solve") == "Auto-solve"


def test_a_downloaded_save_loads_back_into_the_page(page: Any, tmp_path: Path) -> None:
    open_level(page, "microban", 2)
    for key in ("ArrowRight", "ArrowDown"):
        before = state(page)["moves"]
        page.keyboard.press(key)
        page.wait_for_function(f"() => sokoban.state.moves === {before + 1}")
    with page.expect_download() as download:
        page.click("#sk-save")
    saved = tmp_path / "save.json"
    download.value.save_as(saved)
    before = state(page)
    page.click("#sk-restart")
    page.wait_for_function("() => sokoban.state.moves === 0")
    page.set_input_files("#sk-load", str(saved))
    page.wait_for_function(f"() => sokoban.state.id !== {json.dumps(before['id'])}")
    after = state(page)
    assert (after["board"], after["lurd"], after["level"]) == (before["board"], "rd", 2)
    assert page.input_value("#sk-level") == "2" and page.input_value("#sk-collection") == "microban"


def test_a_hard_solve_stops_at_once_and_says_cancelled(page: Any) -> None:
    from searchkit.serve import games

    open_level(page, "sasquatch", 50)  # not solved within the time limit
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.click("#sk-solve")
    page.wait_for_function("() => $('sk-solve').textContent === 'Stop' && sokoban.asking !== null")
    page.wait_for_timeout(1000)
    page.click("#sk-solve")
    page.wait_for_function("() => $('sk-solve').textContent === 'Auto-solve'", timeout=games.SOLVE_TIMEOUT_S * 1000 / 2)
    stats = page.inner_text("#sk-stats")
    assert stats.startswith("engine statistics: cancelled · expanded ") and "moves" not in stats, stats
    assert page.inner_text("#sk-hint-text") == "stopped" and page.is_hidden("#message") and not errors
    assert state(page)["moves"] == 0
