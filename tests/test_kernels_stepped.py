"""The compiled best-first search stepped (`searchkit.kernels.bestfirst.BestFirst.step`), as a
portfolio steps its members: the same answers in steps as in one run, meeting other searches
through the fingerprints of the states they asked about, what a cheaper path does
(``reopen``), a cap on its table, and idastar left to Python on rules without ``undo``.
The oracles: Dijkstra's exact distances on random grids (`compiled_domains`) and the states
the search itself stores.
"""

from __future__ import annotations

import random

import pytest
from compiled_domains import Grid, grid_distances, manhattan_table, random_grid

from searchkit import InputError, idastar
from searchkit.kernels.bestfirst import BestFirst
from searchkit.kernels.codes import ASKED, IMPROVE_OPEN, KEEP_FIRST, REOPEN_ALL
from searchkit.kernels.search import driver_for
from searchkit.result import LIMIT, NO_SOLUTION, SOLVED

pytest.importorskip("numba")


def grid(seed: int, width: int = 16, height: int = 12, walls: float = 0.25, reopening: bool = False) -> Grid:
    costs, start, goal = random_grid(width, height, random.Random(seed), walls)
    hv = manhattan_table(width, height, costs, goal)
    if reopening:  # an inconsistent estimate: cheaper paths to expanded states turn up
        hv = [v if c % 3 == 0 else 0 for c, v in enumerate(hv)]
    return Grid(width, height, costs, start, goal, hv)


def search(problem: Grid, wg: int = 1, wh: int = 1, **options) -> BestFirst:
    return BestFirst(driver_for(problem, problem.compiled_rules(), "astar"), wg, wh, **options)


@pytest.mark.parametrize("budget", [1, 7, 100])
@pytest.mark.parametrize("seed", range(6))
def test_steps_reach_the_answer_of_one_run(seed, budget):
    problem = grid(seed)
    best = grid_distances(problem.width, problem.height, problem.costs, problem.goal)[problem.start]
    whole = search(problem).solve()
    stepped = search(problem)
    steps = 0
    while not stepped.step(budget):
        steps += 1
        assert stepped.status is None and stepped.expanded == steps * budget
    answer = stepped.result()
    assert answer.status == whole.status == (NO_SOLUTION if best == float("inf") else SOLVED)
    assert (answer.cost, answer.actions, answer.stats.expanded) == (whole.cost, whole.actions, whole.stats.expanded)
    if answer.solved:
        assert answer.cost == best and stepped.path()[2] == best


@pytest.mark.parametrize("seed", range(6))
def test_a_stored_state_asked_about_is_listed_fresh_and_joins_a_path(seed):
    """The states on a walk far from the start are asked about before the search reaches
    them: each one it lists in ``fresh`` was asked about, is stored, and has a path from
    the start ending there; none is listed while ``fresh`` is None."""
    problem = grid(seed, 20, 20, walls=0.1)
    full = search(problem)
    full.solve()
    stored = [full._decode(i) for i in range(full.stored)]
    far = stored[len(stored) // 2 :]
    meeting = search(problem)
    assert meeting.knows_any(far) == -1
    meeting.fresh = []
    listed = []
    while not meeting.step(5):
        listed += meeting.fresh
        meeting.fresh = []
    listed += meeting.fresh
    assert listed and set(listed) <= set(far)
    for state in listed:
        assert meeting.knows(state)
        actions, states, cost = meeting.path_to(state)
        assert states[0] == problem.start and states[-1] == state and len(actions) == len(states) - 1
    quiet = search(problem)
    quiet.knows_any(far)
    quiet.step(10**6)
    assert quiet.fresh is None and quiet.done


def test_the_set_of_asked_states_grows_and_keeps_them():
    problem = grid(3, 30, 30, walls=0.05)
    first = search(problem)
    cells = [c for c in range(30 * 30) if problem.costs[c] and c != problem.start]
    assert first.knows_any(cells) == -1
    assert first.asked.shape[0] >= 2 * len(cells) and int(first.sc[ASKED]) == len(cells)
    first.fresh = []
    first.step(1)
    assert first.fresh  # the start's first child was asked about


def test_improve_open_never_reopens_and_keeps_the_weight():
    reopened = {REOPEN_ALL: 0, IMPROVE_OPEN: 0}
    for seed in range(8):
        problem = grid(seed, 14, 11, reopening=True)
        best = grid_distances(14, 11, problem.costs, problem.goal)[problem.start]
        for mode in reopened:
            answer = search(problem, 1, 2, reopen=mode).solve()
            reopened[mode] += answer.stats.reopened
            if best < float("inf"):
                assert answer.solved and best <= answer.cost
    assert reopened[REOPEN_ALL] > 0 and reopened[IMPROVE_OPEN] == 0


def test_keep_first_keeps_the_first_path():
    problem = grid(1)
    answer = search(problem, 0, 1, reopen=KEEP_FIRST).solve()
    assert answer.stats.reopened == 0


def test_a_cap_stops_the_table_from_growing():
    problem = grid(0, 400, 400, walls=0.0)
    problem.goal = -1  # never reached: the search fills its table
    capped = search(problem, cap=1000)
    capped.step()
    assert capped.status == LIMIT and capped.driver.run.reason == "memory"
    assert 1000 <= capped.stored <= capped.table.capacity == 1536  # the first table sized for the cap, never grown
    assert capped.growth_ahead(10**9) == 0  # full for good: a memory limit foresees no growth


def test_idastar_runs_in_python_on_rules_without_undo(tmp_path, monkeypatch):
    (tmp_path / "no_undo_rules_2.py").write_text("from compiled_grid_rules import apply, h, is_goal, moves\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    problem = grid(2, 8, 6)
    rules = problem.compiled_rules()
    import dataclasses

    problem.compiled_rules = lambda: dataclasses.replace(rules, module="no_undo_rules_2")  # type: ignore[method-assign]
    best = grid_distances(8, 6, problem.costs, problem.goal)[problem.start]
    answer = idastar(problem)
    assert not answer.compiled and (answer.cost == best if answer.solved else best == float("inf"))
    with pytest.raises(InputError, match="undo"):
        idastar(problem, compiled="on")
