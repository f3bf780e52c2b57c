"""The compiled macro-move walk (`macro_kernel`) makes the Python walk's moves, pushes and pulls."""

from __future__ import annotations

import random

import pytest
from markers import needs_numba
from searchkit_sokoban import fess
from searchkit_sokoban.board import INF, Board
from searchkit_sokoban.fess import CompiledWalk, MacroMoves
from searchkit_sokoban.fess_pull import PullFessSearch
from searchkit_sokoban.levels import load_level, parse_level
from searchkit_sokoban.problem import SokobanProblem

pytestmark = needs_numba


def positions(macros: MacroMoves, count: int, rng: random.Random) -> list[tuple[int, int]]:
    """``(boxes, region)`` of positions along random walks of macro moves from the start."""
    board = macros.board
    boxes, player = board.start_boxes, board.player_start
    out = []
    for _ in range(count):
        reach = macros.region(boxes, player)
        out.append((boxes, reach))
        children = macros.moves(boxes, reach, boxes)
        if not children or rng.random() < 0.05:
            boxes, player = board.start_boxes, board.player_start
        else:
            _macro, (boxes, player), _region = rng.choice(children)
    return out


@pytest.mark.parametrize("pull", [False, True])
@pytest.mark.parametrize("level", ["microban:50", "xsokoban:23", "sasquatch:7", "sasquatch:40"])
def test_the_compiled_walk_makes_the_python_walks_moves(level, pull, monkeypatch):
    problem = SokobanProblem(Board(load_level(level)), clusters=level == "sasquatch:7")
    near = PullFessSearch(problem).costs.near if pull else None
    monkeypatch.setattr(fess, "COMPILE_WALK_AFTER", 10**9)  # `moves` stays in Python,
    monkeypatch.setattr(fess, "kernel_loaded", lambda: False)  # loaded kernel or not
    monkeypatch.setattr(fess, "WALK_NODES", 8)  # the node arrays grow many times
    macros = MacroMoves(problem, near)
    walk = CompiledWalk(problem, near)
    rng = random.Random(level)
    for boxes, reach in positions(macros, 40, rng):
        movable = boxes if rng.random() < 0.7 else boxes & ~(boxes & -boxes)
        assert macros._walked(boxes, reach, movable, walk) == macros.moves(boxes, reach, movable)
    assert macros.walk is None  # the answers compared were the Python walk's


@pytest.mark.parametrize("loaded", [False, True])
def test_moves_takes_the_compiled_walk_after_a_count_of_calls_or_once_loaded(loaded, monkeypatch):
    monkeypatch.setattr(fess, "COMPILE_WALK_AFTER", 3)
    monkeypatch.setattr(fess, "kernel_loaded", lambda: loaded)
    problem = SokobanProblem(Board(load_level("microban:50")))
    macros = MacroMoves(problem)
    board = problem.board
    reach = macros.region(board.start_boxes, board.player_start)
    first = [macros.moves(board.start_boxes, reach, board.start_boxes) for _ in range(4)]
    assert first[0] == first[-1] and first[0]
    assert (macros.walk is not None, macros.calls) == (True, -1)
    macros = MacroMoves(problem)
    macros.moves(board.start_boxes, reach, board.start_boxes)
    assert (macros.walk is not None) == loaded


# the box starts against the top wall and so moves only along it: pulled off the wall onto
# the row below, no push from its start square brings it there (``near`` is INF)
ALONG_THE_WALL = """\
#######
#.  $ #
#     #
#  @  #
#######
"""


def test_the_compiled_walk_drops_a_box_pulled_where_no_start_square_leads(monkeypatch):
    monkeypatch.setattr(fess, "kernel_loaded", lambda: False)  # `moves` stays in Python
    problem = SokobanProblem(Board(parse_level(ALONG_THE_WALL)))
    board = problem.board
    near = PullFessSearch(problem).costs.near
    assert any(near[x] >= INF for x in range(board.size) if board.floor >> x & 1)
    for boxes in (board.goals, board.start_boxes):  # pulled from the goal, and from the start
        macros = MacroMoves(problem, near)
        reach = macros.region(boxes, board.player_start)
        every = MacroMoves(problem, [0] * board.size).moves(boxes, reach, boxes)
        kept = macros.moves(boxes, reach, boxes)
        assert macros.walk is None  # the Python walk answered
        assert 0 < len(kept) < len(every)  # some pulls lead off the wall, some along it
        assert macros._walked(boxes, reach, boxes, CompiledWalk(problem, near)) == kept


def test_the_portfolios_warm_up_loads_the_walk_that_searches_then_take_at_once():
    from searchkit_sokoban import engines

    engines.warm_up()  # a benchmark's parent process, before forking its workers
    assert fess.kernel_loaded()
    problem = SokobanProblem(Board(load_level("microban:50")))
    macros = MacroMoves(problem)
    board = problem.board
    macros.moves(board.start_boxes, macros.region(board.start_boxes, board.player_start), board.start_boxes)
    assert macros.walk is not None  # the first call took the compiled walk


def test_each_engine_warms_up_what_it_uses():
    from searchkit_sokoban import engines

    from searchkit.plugins import get_engine

    # FESS walks macros (its bench workers take the loaded walk); the alternation walks none
    assert get_engine("sokoban-fess").warm_up is engines.warm_up
    assert get_engine("sokoban-alternation").warm_up is engines.warm_up_matching
