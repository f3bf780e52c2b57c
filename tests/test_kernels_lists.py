"""The compiled best-first search (`searchkit.kernels.bestfirst.BestFirst`) from several
starts, with several open lists taking turns, greedy on ``h`` alone and dead states dropped.

Oracles: a plain Python greedy search written here (one heap per list, keyed as the
documented order says, the lists in turns, a list with nothing open ending the search), and
networkx's multi-source Dijkstra for A* from several starts.
"""

from __future__ import annotations

import dataclasses
import heapq
import random

import numpy as np
import pytest
from compiled_domains import Grid, manhattan_table, random_grid

from searchkit import InputError
from searchkit.kernels.bestfirst import BestFirst
from searchkit.kernels.codes import KEEP_FIRST
from searchkit.kernels.search import driver_for
from searchkit.result import NO_SOLUTION, SOLVED

pytest.importorskip("numba")


def lists_grid(seed: int, lists: int, dead: float = 0.1) -> tuple[Grid, list[list[int]], list[int]]:
    """A random grid, ``lists`` random estimates per cell (a share ``dead`` of them dead, the
    goal never), and three open cells to start from."""
    rng = random.Random(seed)
    width, height = 14, 10
    costs, _start, goal = random_grid(width, height, rng, 0.2)
    cells = width * height

    def estimate(c: int) -> int:
        return -1 if rng.random() < dead and c != goal else rng.randint(0, 12)

    hvs = [[estimate(c) for c in range(cells)] for _ in range(lists)]
    open_cells = [c for c in range(cells) if costs[c]]
    starts = rng.sample(open_cells, min(3, len(open_cells)))
    return Grid(width, height, costs, starts[0], goal), hvs, starts


def search(problem: Grid, hvs: list[list[int]], starts: list[int], **options) -> BestFirst:
    rules = problem.compiled_rules()
    rules = dataclasses.replace(
        rules,
        module="compiled_grid_lists_rules",
        context=(*rules.context, np.array(hvs, dtype=np.int64)),
        lists=len(hvs),
    )
    return BestFirst(driver_for(problem, rules, "greedy"), 0, 1, reopen=KEEP_FIRST, starts=starts, **options)


def reference(problem: Grid, hvs: list[list[int]], starts: list[int], newest: bool, by_g: bool, on_generation: bool):
    """Greedy search as documented: every live state in each list at its estimate (then
    ``g`` with ``by_g``, then its insertion, newest or oldest first), the lists in turns
    (passing on with each expansion), a dead state dropped, the first path kept.
    ``(status, expanded, stored, path cells)``."""
    lists = len(hvs)
    parent: dict[int, tuple[int, int | None]] = {}  # cell -> (g, parent)
    heaps: list[list] = [[] for _ in range(lists)]
    seq = 0

    def dead(cell: int) -> bool:
        return any(hv[cell] < 0 for hv in hvs)

    def push(cell: int, g: int) -> None:
        nonlocal seq
        for q in range(lists):
            heapq.heappush(heaps[q], ((hvs[q][cell], g if by_g else 0, -seq if newest else seq), cell))
        seq += 1

    def path(cell: int | None) -> list[int]:
        out = []
        while cell is not None:
            out.append(cell)
            cell = parent[cell][1]
        return out[::-1]

    for s in starts:
        if s in parent or dead(s):
            continue
        parent[s] = (0, None)
        if on_generation and problem.is_goal(s):
            return SOLVED, 0, len(parent), [s]
        push(s, 0)
    closed: set[int] = set()
    expanded = turn = 0
    while True:
        heap = heaps[turn]
        while heap and heap[0][1] in closed:
            heapq.heappop(heap)
        if not heap:
            return NO_SOLUTION, expanded, len(parent), None
        cell = heapq.heappop(heap)[1]
        if not on_generation and problem.is_goal(cell):
            return SOLVED, expanded, len(parent), path(cell)
        closed.add(cell)
        expanded += 1
        turn = (turn + 1) % lists
        g = parent[cell][0]
        for _action, child, cost in problem.successors(cell):
            if child in parent or dead(child):
                continue
            parent[child] = (g + cost, cell)
            if on_generation and problem.is_goal(child):
                return SOLVED, expanded, len(parent), path(child)
            push(child, g + cost)


@pytest.mark.parametrize("on_generation", [True, False])
@pytest.mark.parametrize("by_g", [True, False])
@pytest.mark.parametrize("ties", ["oldest", "newest"])
@pytest.mark.parametrize("lists", [1, 2, 3])
@pytest.mark.parametrize("seed", range(8))
def test_lists_in_turns_expand_as_the_reference(seed, lists, ties, by_g, on_generation):
    problem, hvs, starts = lists_grid(seed, lists)
    found = search(problem, hvs, starts, ties=ties, by_g=by_g, store_dead=False, on_generation=on_generation)
    found.step()
    status, expanded, stored, cells = reference(problem, hvs, starts, ties == "newest", by_g, on_generation)
    assert (found.status, found.expanded, found.stored) == (status, expanded, stored)
    if status == SOLVED:
        actions, states, cost = found.path()
        assert states == cells and states[0] in starts and problem.is_goal(states[-1])
        steps = [dict((a, c) for a, c, _ in problem.successors(u)) for u in states[:-1]]
        assert [step[a] for step, a in zip(steps, actions)] == states[1:]
        assert cost == sum(problem.costs[c] for c in states[1:])


@pytest.mark.parametrize("seed", range(6))
def test_dead_states_are_stored_or_dropped_with_the_same_expansions(seed):
    problem, hvs, starts = lists_grid(seed, 2, dead=0.3)
    kept = search(problem, hvs, starts, store_dead=True)
    dropped = search(problem, hvs, starts, store_dead=False)
    kept.step()
    dropped.step()
    assert kept.status == dropped.status and kept.expanded == dropped.expanded
    stored = {int(k) for k in dropped.table.keys[: dropped.stored, 0]}
    assert not any(min(hv[c] for hv in hvs) < 0 for c in stored)
    assert kept.stored >= dropped.stored
    if any(min(hv[c] for hv in hvs) < 0 for c in {int(k) for k in kept.table.keys[: kept.stored, 0]}):
        assert kept.stored > dropped.stored


@pytest.mark.parametrize("seed", range(10))
def test_astar_from_several_starts_is_the_multi_source_optimum(seed):
    nx = pytest.importorskip("networkx")
    rng = random.Random(seed)
    width, height = 16, 12
    costs, _start, goal = random_grid(width, height, rng, 0.25)
    open_cells = [c for c in range(width * height) if costs[c]]
    starts = rng.sample(open_cells, min(4, len(open_cells)))
    problem = Grid(width, height, costs, starts[0], goal, manhattan_table(width, height, costs, goal))
    graph = nx.DiGraph()
    graph.add_nodes_from(open_cells)
    for u in open_cells:
        for _a, v, c in problem.successors(u):
            graph.add_edge(u, v, weight=c)
    best = nx.multi_source_dijkstra_path_length(graph, set(starts)).get(goal)
    found = BestFirst(driver_for(problem, problem.compiled_rules(), "astar"), 1, 1, starts=starts)
    answer = found.solve()
    if best is None:
        assert answer.status == NO_SOLUTION
        return
    assert answer.status == SOLVED and answer.cost == best
    assert answer.states[0] in starts and answer.states[-1] == goal  # replay-verified by the Result


def test_a_path_to_a_stored_state_leads_from_its_own_start():
    problem, hvs, starts = lists_grid(3, 2, dead=0.0)
    found = search(problem, hvs, starts)
    found.step(20)
    roots = 0
    for slot in range(found.stored):
        state = int(found.table.keys[slot, 0])
        _actions, states, _cost = found.path_to(state)
        assert states[-1] == state and states[0] in starts
        roots += found.table.parent[slot] < 0
    assert roots == len(set(starts))


def test_a_start_that_is_a_goal_is_the_answer():
    problem, hvs, starts = lists_grid(1, 2, dead=0.0)
    starts = [starts[0], problem.goal]
    found = search(problem, hvs, starts, on_generation=True)
    assert found.status == SOLVED and found.path() == ([], [problem.goal], 0)


def test_every_start_dead_is_no_solution():
    problem, hvs, starts = lists_grid(2, 2, dead=0.0)
    for c in starts:
        hvs[1][c] = -1
    found = search(problem, hvs, starts, store_dead=False)
    assert found.status == NO_SOLUTION and found.stored == 0


def test_lists_without_hs_or_out_of_range_are_refused_in_one_line():
    problem = Grid(3, 1, [1, 1, 1], 0, 2)
    rules = problem.compiled_rules()
    with pytest.raises(InputError, match="no hs"):
        driver_for(problem, dataclasses.replace(rules, lists=2), "greedy")
    with pytest.raises(InputError, match="open lists"):
        dataclasses.replace(rules, lists=0).check()


def test_searchkit_check_holds_hs_after_to_hs():
    """`searchkit.testing` checks ``hs_after`` against ``hs`` of the child: rules whose
    ``hs_after`` gives the parent's estimates fail, naming the move."""
    from searchkit.testing import _compiled_agree

    problem, hvs, starts = lists_grid(4, 2, dead=0.0)
    rules = problem.compiled_rules()
    context = (*rules.context, np.array(hvs, dtype=np.int64))
    good = dataclasses.replace(rules, module="compiled_grid_lists_rules", context=context, lists=2)
    assert _compiled_agree("grid", problem, good, starts) == len(starts)
    broken = dataclasses.replace(good, module="compiled_grid_lists_broken_rules")
    with pytest.raises(AssertionError, match="hs_after of move"):
        _compiled_agree("grid", problem, broken, starts)
