"""The Sokoban game: moves, pushes, undo, deadlock notices, saves, then the app headless."""

from __future__ import annotations

import asyncio
import random

import pytest
from pilots import until
from searchkit_sokoban.board import Board
from searchkit_sokoban.game import SokobanGame
from searchkit_sokoban.levels import load_level, parse_level, parse_levels
from searchkit_sokoban.problem import SokobanProblem
from searchkit_sokoban.rules import step

from searchkit import InputError, Limits
from searchkit.play import ProgressObserver, SaveData, autosave_path, read_save, write_save

ROOM = """\
#######
#     #
# $ . #
#  @  #
#     #
#######
"""
TWO = (
    ROOM
    + "\n"
    + """\
#####
#@$.#
#####
"""
)


pytestmark = pytest.mark.usefixtures("play_dir")


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


def search_prunes(problem: SokobanProblem, before: tuple[int, int], push: str) -> bool | None:
    """Whether the search (matching-guided, pushes mode) prunes the position after ``push``
    from ``before`` (boxes, player square): it does not generate it, or, expanding it, finds
    a corral deadlock.  None when the search would not try the push anyway (corral pruning
    keeps other pushes of that position)."""
    boxes, player = before
    moved = step(problem.board, boxes, player, push)
    state = (boxes, problem._normal(boxes, player))
    barrier = problem.pruning.corral_barrier(boxes, problem.region(state))
    if barrier is not None and not barrier >> moved.player & 1:
        return None
    child = (moved.boxes, problem._normal(moved.boxes, moved.player))
    if child not in [c for _a, c, _cost, _h in problem.successors_with_h(state, 0)]:
        return True
    return problem.pruning.corral_barrier(child[0], problem.region(child)) == 0


# the detector, a level whose start is the position before the push, the push, and the
# detectors to turn off so that nothing fires (a box dead for the side the player is on
# makes the matching bound infinite too; the cluster proofs see most of these as well)
DEADLOCKS = [
    (
        "dead-squares",
        "######\n#.$  #\n#.@$ #\n##   #\n#    #\n######\n",
        "R",
        {"dead-squares", "bipartite", "freeze", "cluster"},
    ),  # against the wall between two dead squares: frozen too
    (
        "dead-squares",
        "  ####\n###  ####\n#  @$   #\n# #  #$ #\n# . .#  #\n#########\n",
        "R",
        {"dead-squares", "bipartite", "corral", "cluster"},
    ),  # the box can still reach goals, but not pushed from the west (the corral proofs see it too)
    ("freeze", "######\n#.$ .#\n#  $ #\n#  @ #\n######\n", "U", {"freeze", "cluster"}),
    (
        "freeze",
        "#######\n#.#####\n#.#####\n# $ $ #\n#.$@  #\n##    #\n#######\n",
        "L",
        {"freeze", "corral", "cluster"},
    ),  # frozen on its goal, but it shuts the goals above it off (so do the corral proofs)
    ("corral", "######\n# *  #\n# $@ #\n#.$  #\n#  . #\n######\n", "L", {"corral", "cluster"}),
    ("bipartite", "####\n# .#\n#$ ###\n#.   #\n# $@ #\n#  ###\n####\n", "L", {"bipartite", "cluster"}),
    (None, "#######\n#     #\n#  $@.#\n#     #\n#######\n", "L", set()),
]


@pytest.mark.parametrize("detector,text,push,silence", DEADLOCKS)
def test_deadlock_notice_fires_exactly_when_the_search_prunes(detector, text, push, silence):
    level = parse_level(text)
    board = Board(level)
    # a corral the search finds shut when it expands the position; the cluster proofs, asked
    # when it is made, see this one first
    plain = frozenset({"cluster"}) if detector == "corral" else frozenset()
    for disabled, fires in ((plain, detector is not None), (frozenset(silence), False)):
        game = SokobanGame(level, "", 1, disabled)
        before = (game.box_bits, game.square)
        assert game.play(push) and game.history == [push]
        why = game.deadlock()
        assert why is None if not fires else why.endswith(f"({detector})"), why
        assert search_prunes(SokobanProblem(board, "matching", disabled, clusters=True), before, push) is fires


@pytest.mark.parametrize("number", [2, 5, 11, 30, 60, 97, 120])
def test_random_play_warns_exactly_when_the_search_prunes(number):
    level = load_level("microban", str(number))
    board = Board(level)
    rng = random.Random(number)
    for disabled in (frozenset(), frozenset({"freeze", "corral"}), frozenset({"dead-squares", "bipartite"})):
        problem = SokobanProblem(board, "matching", disabled, clusters=True)  # as the game's warnings
        game = SokobanGame(level, "", 1, disabled)
        compared = warned = 0
        for _ in range(3000):
            if game.history and rng.random() < 0.05:
                game.undo()  # now and then: out of corners the player walled itself into
                continue
            before = (game.box_bits, game.square)
            if not game.play(rng.choice("udlr")):
                if game.solved:
                    break
                continue
            if game.history[-1].islower():
                continue
            verdict = search_prunes(problem, before, game.history[-1])
            if verdict is None:
                continue
            assert (game.deadlock() is not None) is verdict, (game.rows(), game.deadlock())
            compared += 1
            warned += verdict
            if verdict:
                game.undo()  # back out of the dead end, as the notice says
        assert compared > 10 and warned, (disabled, compared, warned)


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
    for change, message in [
        ({"start": ["#####", "#@  #", "#####"]}, "no boxes"),
        ({"history": ["u", "u", "u"]}, "not legal"),
        ({"start": "###"}, "not a list"),
    ]:
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
