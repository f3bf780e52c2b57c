"""The Sokoban game: moves, pushes, undo, deadlock notices, saves, then the app headless."""

from __future__ import annotations

import asyncio

import pytest

from searchkit import InputError, Limits
from searchkit.play import ProgressObserver, SaveData, autosave_path, read_save, write_save
from searchkit_sokoban.game import SokobanGame
from searchkit_sokoban.levels import load_level, parse_level, parse_levels

ROOM = """\
#######
#     #
# $ . #
#  @  #
#     #
#######
"""
TWO = ROOM + "\n" + """\
#####
#@$.#
#####
"""


@pytest.fixture(autouse=True)
def play_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("SEARCHKIT_PLAY_DIR", str(tmp_path / "autosaves"))


def room() -> SokobanGame:
    return SokobanGame(parse_level(ROOM), "room", 1)


def test_walk_push_block_and_undo():
    g = room()
    assert g.play("u") and g.history == ["u"]  # player (2,3) now; the box is at (2,2)
    assert g.play("l") and g.history[-1] == "L" and (2, 1) in g.boxes and g.pushes == 1
    assert not g.play("l")  # box against the wall: blocked
    assert g.undo() and (2, 2) in g.boxes and g.player == (2, 3)
    assert g.redo() and (2, 1) in g.boxes
    assert g.rows()[2] == "#$@ . #"


def test_win_by_pushing_right():
    g = room()
    for m in "llur":  # round to the box's west side, then push it right
        assert g.play(m), m
    assert not g.solved and g.history == ["l", "l", "u", "R"]
    assert g.play("r") and g.solved and g.pushes == 2 and not g.play("l")


def test_deadlock_notices_name_the_detector():
    g = room()
    for m in "uL":  # the box to (2,1): against the west wall, with no goal on that wall
        g.play(m)
    assert "no push reaches a goal" in g.deadlock()
    g.undo()
    assert g.deadlock() is None
    frozen = SokobanGame(parse_level("######\n#.  .#\n# $$ #\n# @  #\n######\n"))
    for m in "udr":  # one box up against the top wall: it can still slide to a goal
        frozen.play(m)
    assert frozen.deadlock() is None
    frozen.play("u")  # the second box beside it: neither can ever move again
    assert "frozen" in frozen.deadlock()


def test_save_round_trip_and_refusals(tmp_path):
    g = room()
    for m in "ul":
        g.play(m)
    g.undo()
    path = write_save(tmp_path / "s.json", g.to_save())
    back = SokobanGame.from_save(read_save(path, "sokoban"))
    assert back.rows() == g.rows() and back.history == ["u"] and back.future == ["L"]
    assert back.redo() and back.pushes == 1
    data = g.to_save()
    for change, message in [({"start": ["#####", "#@  #", "#####"]}, "no boxes"),
                            ({"history": ["u", "u", "u"]}, "not legal"),
                            ({"start": "###"}, "not a list")]:
        with pytest.raises(InputError, match=message):
            SokobanGame.from_save(SaveData(**dict(vars(data), **change)))
    with pytest.raises(InputError, match="is a sokoban game, not a npuzzle one"):
        read_save(path, "npuzzle")


def test_solver_plan_from_the_current_position():
    g = SokobanGame(load_level("microban", "3"), "microban", 155)
    g.play("l") or g.play("r") or g.play("u") or g.play("d")
    plan = g.solve_task()(Limits(timeout_s=30), ProgressObserver())
    assert plan.found and plan.quality != "optimal" and plan.key == g.position_key()
    for m in plan.moves:
        assert g.play(m), m
    assert g.solved


# -- the app, headless ---------------------------------------------------------------------------
async def until(pilot, condition, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        assert loop.time() < end, "timed out"
        await pilot.pause(0.05)


def make_app(text: str = TWO):
    from searchkit_sokoban.play_app import SokobanApp

    levels = parse_levels(text, "two")
    return SokobanApp(SokobanGame(levels[0], "two", len(levels)), levels)


def test_app_moves_deadlock_message_undo_and_levels():
    async def go():
        app = make_app()
        async with app.run_test() as pilot:
            await pilot.press("k", "left")  # walk up, push the box west onto the wall
            assert app.session.pushes == 1 and app.message.startswith("Deadlock:")
            await pilot.press("u")
            assert app.session.pushes == 0 and app.message == ""
            await pilot.press("right_square_bracket")
            assert app.session.level.number == 2 and app.session.moves == 0
            await pilot.press("right")
            assert app.session.solved and "Solved in 1 moves" in app.message and "1 pushes" in app.message
            await pilot.press("left_square_bracket")
            assert app.session.level.number == 1

    asyncio.run(go())


def test_app_hint_give_up_save_and_autosave(tmp_path):
    async def go():
        app = make_app()
        async with app.run_test() as pilot:
            await pilot.press("question_mark")
            await until(pilot, lambda: "Hint" in app.message)
            assert "good, not optimal" in app.message
            await pilot.press("up")
            assert app.save_to(tmp_path / "s.json")
            await pilot.press("q")
        assert autosave_path("sokoban").exists()
        app2 = make_app()
        async with app2.run_test() as pilot:
            assert app2.load_from(tmp_path / "s.json") and app2.session.moves == 1
            await pilot.press("plus", "plus", "plus", "g")
            await until(pilot, lambda: app2.session.solved)
            assert "The solver finished the game" in app2.message
            await pilot.press("q")
        assert not autosave_path("sokoban").exists()  # a finished game leaves no autosave

    asyncio.run(go())
