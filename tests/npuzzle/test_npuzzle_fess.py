"""``npuzzle-fess``: the core fess engine on big boards, its features and its macro moves."""

from __future__ import annotations

import random

import pytest
from searchkit_npuzzle.features import Pair, SolvingOrder, solving_lines
from searchkit_npuzzle.macros import TileMacros, npuzzle_fess
from searchkit_npuzzle.problem import NPuzzleProblem

from searchkit import InputError, Limits, replay
from searchkit.solving import execute, prepare


def board_problem(width: int, height: int, start: tuple[int, ...]) -> NPuzzleProblem:
    n = width * height
    return NPuzzleProblem(width, height, start, tuple(range(1, n)) + (0,))


def test_lines_are_filled_top_row_or_left_column_first_down_to_2x2():
    assert solving_lines(4, 4) == ([[0, 1, 2, 3], [4, 8, 12], [5, 6, 7], [9, 13]], [10, 11, 14, 15])
    assert solving_lines(3, 2) == ([[0, 3]], [1, 2, 4, 5])  # wider than high: the left column first


def test_a_lines_last_pair_is_three_steps_staged_then_turned_in():
    """On 3x3 the top row's pair (tiles 2, 3): 2 on 3's cell (2) is one step, 3 below it
    (cell 5) the second, both home the third; the features count the steps left and the
    next tile's distance from where it must go (3 on cell 8: one from cell 5)."""
    order = SolvingOrder(board_problem(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0)))
    assert order.steps[1] == Pair(2, 1, 3, 2, 5)
    total = order.total
    goal = order.problem.encode((1, 2, 3, 4, 5, 6, 7, 8, 0))
    assert order.features(goal) == (0, 0)
    first_staged = order.problem.encode((1, 0, 2, 4, 5, 6, 7, 8, 3))
    assert order.progress(first_staged).done == 2 and order.features(first_staged) == (total - 2, 1)
    both_staged = order.problem.encode((1, 0, 2, 4, 5, 3, 7, 8, 6))
    progress = order.progress(both_staged)
    assert progress.done == 3 and progress.turn == order.steps[1] and order.features(both_staged) == (total - 3, 0)
    macros = TileMacros(order.problem)
    turned = [child for path, child, _c in macros.successors(both_staged) if len(path) == 2]
    assert any(order.progress(child).done >= 4 for child in turned)  # turned in: both home


@pytest.mark.parametrize("size", [4, 6])
def test_every_macro_is_its_blank_moves(size):
    """A macro's child is where its blank moves lead through the puzzle's own moves, at a
    cost of one a move."""
    problem = board_problem(size, size, tuple(range(1, size * size)) + (0,))
    macros = TileMacros(problem)
    rng = random.Random(size)
    state = problem.initial_state()
    for _ in range(200):
        state = rng.choice(problem.successors(state))[1]
    for path, child, cost in macros.successors(state):
        at = state
        for a in path:
            at = next(s for b, s, _c in problem.successors(at) if b == a)
        assert at == child and cost == len(path)


@pytest.mark.parametrize("size, seed", [(6, 1), (7, 1), (8, 3)])
def test_npuzzle_fess_solves_big_boards_and_the_answer_replays(size, seed):
    job = prepare("npuzzle", {"size": str(size), "seed": seed}, "npuzzle-fess", None)
    result = execute(job, Limits(timeout_s=60))  # the answer is replayed on the board here
    assert result.solved and result.engine == "npuzzle-fess" and result.guarantee == "suboptimal"
    assert replay(job.problem, result) == result.cost == len(result.actions)
    assert all(a in "UDLR" for a in result.actions)
    assert result.stats.expanded < 2000  # with the pairs turned in (40,000 did not solve 7x7 seed 1 without)


def test_a_limit_stops_npuzzle_fess_with_its_statistics():
    job = prepare("npuzzle", {"size": "6", "seed": 2}, "npuzzle-fess", None)
    result = npuzzle_fess(job.problem, limits=Limits(max_expanded=4))
    assert result.status == "limit" and result.stats.expanded == 4 and result.stats.stored > 4


@pytest.mark.parametrize("engine", ["fess", "beam"])
def test_an_engine_using_a_heuristic_runs_on_a_board_whose_default_takes_none(engine):
    """Beyond 5x5 the default engine takes no heuristic: an engine named that uses one runs
    without (it was refused as "unknown heuristic None"); one that needs one says so."""
    job = prepare("npuzzle", {"size": "6", "seed": 1}, engine, None)
    assert job.heuristic is None
    assert execute(job, Limits(max_expanded=50)).stats.expanded == 50
    with pytest.raises(InputError, match="needs a heuristic"):
        prepare("npuzzle", {"size": "6", "seed": 1}, "astar", None)


def test_the_core_fess_engine_reads_the_boards_features_over_single_moves():
    """The puzzle's own ``features`` are the solving order's, so ``--engine fess`` takes its
    turns over their cells (one cell without them: a 5x5 board takes more than 100 k)."""
    job = prepare("npuzzle", {"size": "5", "seed": 1}, "fess", "manhattan")
    state = job.problem.initial_state()
    assert job.problem.features(state) == SolvingOrder(job.problem).features(state)
    result = execute(job, Limits(max_expanded=100_000))
    assert result.solved and replay(job.problem, result) == result.cost
