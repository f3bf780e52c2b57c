"""The n-puzzle game: its logic as a plain class, then the Textual app driven headless."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from pilots import until
from searchkit_npuzzle.board import is_solvable
from searchkit_npuzzle.game import NPuzzleGame, goal_with_blank, parse_blank

from searchkit import InputError, Limits
from searchkit.play import ProgressObserver, SaveData, autosave_path, read_save, write_save

pytestmark = pytest.mark.usefixtures("play_dir")


def near_goal(moves: str, size: int = 3, blank: str = "last") -> NPuzzleGame:
    """A game whose start is ``moves`` of the blank away from the goal."""
    goal = goal_with_blank(size, size, parse_blank(blank, size, size))
    g = NPuzzleGame(size, size, goal, goal)
    for m in moves:
        assert g.apply(m)
    return NPuzzleGame(size, size, tuple(g.board), goal)


# -- logic ------------------------------------------------------------------------------------------
def test_blank_goal_positions():
    assert goal_with_blank(3, 3, parse_blank("last", 3, 3)) == (1, 2, 3, 4, 5, 6, 7, 8, 0)
    assert goal_with_blank(3, 3, parse_blank("first", 3, 3)) == (0, 1, 2, 3, 4, 5, 6, 7, 8)
    assert goal_with_blank(3, 3, parse_blank("center", 3, 3)) == (1, 2, 3, 4, 0, 5, 6, 7, 8)
    assert parse_blank("2,3", 4, 4) == 6 and parse_blank("16", 4, 4) == 15
    for bad in ("0", "17", "5,1", "x"):
        with pytest.raises(InputError):
            parse_blank(bad, 4, 4)


@pytest.mark.parametrize("size", [3, 4, 5])
def test_shuffle_is_a_solvable_random_walk(size):
    a = NPuzzleGame.new(size, "center", random.Random(7))
    b = NPuzzleGame.new(size, "center", random.Random(7))
    assert a.start == b.start != a.goal  # a seed repeats the game
    assert sorted(a.start) == list(range(size * size))
    assert is_solvable(a.start, a.goal, size)
    assert a.moves == 0 and not a.solved


def test_keys_slide_the_tile_into_the_blank_and_only_neighbours_move():
    g = near_goal("L")  # blank in cell 7, tile 8 to its right
    assert not g.play(g.move_for_key("up"))  # nothing below the blank
    assert g.move_for_cell(0) is None  # a far tile does not move
    assert g.move_for_cell(4) == "U" and g.tile_moved_by("U") == 5
    assert g.play(g.move_for_key("left"))  # tile 8 slides left into the blank
    assert g.board[7] == 8 and g.board[8] == 0 and g.solved
    assert g.undo() and not g.solved
    assert g.redo() and g.solved


def test_win_and_save_round_trip(tmp_path):
    g = near_goal("LU")
    g.play("L")
    g.undo()
    path = write_save(tmp_path / "n.json", g.to_save())
    back = NPuzzleGame.from_save(read_save(path, "npuzzle"))
    assert back.board == g.board and back.future == ["L"] and back.start == g.start
    assert back.play("D") and back.play("R") and back.solved


def test_tampered_saves_are_refused(tmp_path):
    g = near_goal("LU")
    g.play("D")
    data = g.to_save()
    unsolvable = list(g.start)
    unsolvable[0], unsolvable[1] = unsolvable[1], unsolvable[0]
    for change, message in [
        ({"current": list(g.goal)}, "does not match"),
        ({"history": ["D", "D", "D"]}, "not legal"),
        ({"start": unsolvable, "history": [], "current": unsolvable}, "cannot reach"),
        ({"params": {"width": 3, "height": 3, "goal": [1, 1, 2, 3, 4, 5, 6, 7, 0]}}, "twice"),
        ({"params": {"width": "3", "height": 3}}, "width"),
    ]:
        with pytest.raises(InputError, match=message):
            NPuzzleGame.from_save(SaveData(**dict(vars(data), **change)))


def test_hints_are_optimal_up_to_4x4_and_good_beyond():
    g = NPuzzleGame.new(3, "first", random.Random(3))
    plan = g.solve_task()(Limits(timeout_s=30), ProgressObserver())
    assert plan.found and plan.quality == "optimal"
    from searchkit_npuzzle.problem import NPuzzleProblem

    from searchkit import bfs

    assert len(plan.moves) == bfs(NPuzzleProblem(3, 3, tuple(g.board), g.goal)).cost
    for m in plan.moves:
        assert g.play(m)
    assert g.solved
    big = near_goal("LLUURDLU", size=5)
    plan = big.solve_task()(Limits(timeout_s=30), ProgressObserver())
    assert plan.found and not plan.quality.startswith("optimal")


# -- the app, headless -------------------------------------------------------------------------------
def run(coro):
    return asyncio.run(coro)


async def answer(pilot, app, text: str) -> None:
    """Type into the open prompt (set at once: a long path typed key by key is slow)."""
    from textual.widgets import Input

    field = app.screen.query_one(Input)
    field.value = text
    await pilot.press("end", "enter")


def make_app(game: NPuzzleGame, **kwargs):
    from searchkit_npuzzle.play_app import NPuzzleApp

    return NPuzzleApp(game, seed=1, **kwargs)


def test_app_moves_undo_hint_and_win_by_hand():
    async def go():
        app = make_app(near_goal("LU"))
        async with app.run_test() as pilot:
            await pilot.press("up")  # the tile below the blank slides up
            await pilot.press("u", "u")
            assert app.session.moves == 0 and not app.session.solved
            await pilot.press("question_mark")
            await until(pilot, lambda: "Hint" in app.message)
            assert "slide tile" in app.message and "2 moves to go, optimal" in app.message
            assert app.board.highlight is not None and app.session.hints == 1
            await pilot.press("k", "h")  # vi keys: up, left
            assert app.session.solved
            assert "Solved in 2 moves" in app.message and "1 hint" in app.message
            assert not autosave_path("npuzzle").exists()

    run(go())


def test_app_click_slides_a_neighbour_only():
    async def go():
        from searchkit_npuzzle.play_app import TileBoard

        app = make_app(near_goal("L"))  # blank in cell 7, tile 8 in cell 8
        async with app.run_test() as pilot:
            board = app.query_one(TileBoard)
            tw, th = board.cell_size
            await pilot.click(TileBoard, offset=(0 * tw + 1, 0 * th + 1))  # tile 1: far away
            assert app.session.moves == 0 and "next to the blank" in app.message
            await pilot.click(TileBoard, offset=(2 * tw + 1, 2 * th + 1))  # tile 8
            assert app.session.solved

    run(go())


def test_app_gives_up_and_animates_the_solution():
    async def go():
        app = make_app(NPuzzleGame.new(3, "last", random.Random(5)))
        async with app.run_test() as pilot:
            await pilot.press("plus", "plus", "plus")  # fastest animation
            await pilot.press("g")
            await until(pilot, lambda: app.session.solved)
            await pilot.pause(0.1)
            assert "The solver finished the game" in app.message and not app.animating
            await pilot.press("g")
            assert app.message.startswith("Already solved")

    run(go())


def test_app_cancel_keeps_the_game(monkeypatch):
    async def go():
        app = make_app(near_goal("LU"))
        gate = []

        def slow_task():
            def task(limits, observer):
                while not limits.interrupt.wait(0.01):
                    pass
                gate.append("stopped")
                from searchkit.play import Plan

                return Plan("", [], "optimal", "limit", "interrupted")

            return task

        monkeypatch.setattr(app.session, "solve_task", slow_task)
        async with app.run_test() as pilot:
            await pilot.press("g")
            assert app.runner.busy
            await pilot.press("g")
            assert "still running" in app.message
            await pilot.press("escape")
            await until(pilot, lambda: not app.runner.busy and not app.runner.done)
            assert gate == ["stopped"] and app.message == "Solver cancelled."
            assert app.session.moves == 0

    run(go())


def test_app_save_quit_resume_and_load(tmp_path):
    save = tmp_path / "game.json"

    async def play_and_save():
        app = make_app(NPuzzleGame.new(3, "last", random.Random(9)))
        async with app.run_test() as pilot:
            await pilot.press("left", "up", "right", "down", "u")
            moves, board = app.session.moves, list(app.session.board)
            await pilot.press("s")
            await answer(pilot, app, str(save))
            assert save.exists() and "Saved" in app.message
            await pilot.press("left")
            await pilot.press("q")
        return moves, board, app

    moves, board, app = run(play_and_save())
    assert json.loads(save.read_text())["redo"]  # the undone move survives
    auto = autosave_path("npuzzle")
    assert auto.exists() and read_save(auto, "npuzzle").history[-1] == app.session.history[-1]

    async def resume():
        from searchkit.play.app import offer_resume

        loaded, offer, note = offer_resume("npuzzle", None, False)
        assert loaded is None and offer is not None and note is None
        app2 = make_app(NPuzzleGame.new(4, "last", random.Random(1)), resume=offer)
        async with app2.run_test() as pilot:
            await pilot.press("y")
            assert app2.session.width == 3 and app2.session.moves == moves + 1
            # a corrupt file: one line, the game untouched
            bad = tmp_path / "bad.json"
            bad.write_text(save.read_text()[:40])
            before = list(app2.session.board)
            assert not app2.load_from(bad)
            assert app2.message.startswith("Error: save file") and "corrupt" in app2.message
            assert app2.session.board == before
            await pilot.press("o")
            await answer(pilot, app2, str(save))
            assert app2.session.board == board and app2.session.moves == moves
            await pilot.press("ctrl+r")  # redo after a reload
            assert app2.session.moves == moves + 1

    run(resume())


def test_app_new_games_sizes_blank_and_picture_modes():
    async def go():
        app = make_app(NPuzzleGame.new(3, "last", random.Random(2)))
        async with app.run_test() as pilot:
            await pilot.press("4")
            assert app.session.width == 4 and app.session.goal[-1] == 0
            await pilot.press("b")
            await answer(pilot, app, "first")
            assert app.session.goal[0] == 0 and app.session.width == 4
            await pilot.press("5")
            assert app.session.width == 5 and app.session.goal[0] == 0
            first = app.session.start
            await pilot.press("n")
            assert app.session.start != first
            modes = []
            for _ in range(3):
                await pilot.press("p")
                modes.append(app.board.mode)
            assert modes == ["picture", "numbers", "picture+numbers"]
            lines = app.board._build()
            assert len(lines) == 5 * app.board.cell_size[1]

    run(go())
