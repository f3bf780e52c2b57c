"""The order among equal keys of the compiled best-first search (``ties``): the bucket queue
against a sorted-list model of both orders (oldest first, newest first), A* optimal with
either order (the oracle: Dijkstra's exact distances on random grids, plateaus of equal
``f`` among them), a hand-made plateau expanded in the order each names, oldest first the
Python engine's expansions, and a bad order refused in one line.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from compiled_domains import Grid, grid_distances, manhattan_table, random_grid

from searchkit import InputError, astar
from searchkit.kernels.bestfirst import BestFirst
from searchkit.kernels.buckets import bq_first, bq_pop, bq_push
from searchkit.kernels.codes import CHUNK, FREE, KEEP_FIRST, KSIZE, NFREE, QS_SIZE, REOPEN_ALL, SEC_BITS, USED
from searchkit.kernels.search import compiled_astar, compiled_greedy, driver_for
from searchkit.verify import replay

pytest.importorskip("numba")

TIES = ("oldest", "newest")


def queue(chunks: int, buckets: int) -> tuple:
    """Empty bucket-queue arrays (`searchkit.kernels.buckets`)."""
    qs = np.zeros(QS_SIZE, dtype=np.int64)
    qs[FREE] = -1
    return (
        np.empty(chunks * CHUNK, dtype=np.int32),
        np.empty(chunks, dtype=np.int32),
        np.empty((buckets, 4), dtype=np.int64),
        np.empty(buckets, dtype=np.int64),
        np.zeros(2 * buckets, dtype=np.int64),
        np.empty(2 * buckets, dtype=np.int64),
        qs,
    )


@pytest.mark.parametrize("ties", TIES)
@pytest.mark.parametrize("seed", range(3))
def test_the_bucket_queue_pops_in_the_order_it_names(ties, seed):
    """Pushes and pops at random, a few keys with buckets of hundreds of entries (chunks
    filled, emptied and reused): each pop is the least key's oldest or newest entry."""
    rng = random.Random(seed)
    newest = ties == "newest"
    pool, links, buckets, kheap, mkeys, mvals, qs = q = queue(64, 8)
    model: list[tuple[int, int, int]] = []  # (key, order of insertion, slot)
    for step in range(6000):
        if model and rng.random() < 0.4:
            key, order, slot = min(model, key=lambda e: (e[0], -e[1] if newest else e[1]))
            assert bq_first(pool, buckets, kheap, newest) == slot
            assert buckets[kheap[0], 0] == key
            bq_pop(links, buckets, kheap, qs, newest)
            model.remove((key, order, slot))
        else:
            key, slot = rng.randrange(2) << SEC_BITS | rng.randrange(2), rng.randrange(1 << 20)
            bq_push(*q, key, slot, newest)
            model.append((key, step, slot))
        assert qs[KSIZE] == len({e[0] for e in model})
    while model:  # drained: every chunk back on the free list
        key, order, slot = min(model, key=lambda e: (e[0], -e[1] if newest else e[1]))
        assert bq_first(pool, buckets, kheap, newest) == slot
        bq_pop(links, buckets, kheap, qs, newest)
        model.remove((key, order, slot))
    assert qs[KSIZE] == 0 and qs[NFREE] == qs[USED] > 8  # a bucket held several chunks at once


@pytest.mark.parametrize("ties", TIES)
@pytest.mark.parametrize("seed", range(8))
def test_astar_is_optimal_with_either_order_against_dijkstra(ties, seed):
    rng = random.Random(300 + seed)
    costs, start, goal = random_grid(16, 12, rng, walls=0.3)
    best = grid_distances(16, 12, costs, goal)[start]
    problem = Grid(16, 12, costs, start, goal, manhattan_table(16, 12, costs, goal))
    result = compiled_astar(problem, problem.compiled_rules(), ties=ties)
    if best == float("inf"):
        assert result.status == "no-solution"
    else:
        assert result.solved and result.cost == best and replay(problem, result) == best


@pytest.mark.parametrize("ties", TIES)
@pytest.mark.parametrize("seed", range(3))
def test_a_plateau_of_thousands_of_ties_stays_optimal(ties, seed):
    """Unit costs and no estimate on an open 70 x 70 grid: every ``f`` a bucket of up to
    hundreds of entries (several chunks), the search Dijkstra's by another name."""
    rng = random.Random(seed)
    width = height = 70
    costs = [0 if rng.random() < 0.1 else 1 for _ in range(width * height)]
    start, goal = rng.randrange(width * height), rng.randrange(width * height)
    costs[start] = costs[goal] = 1
    problem = Grid(width, height, costs, start, goal)
    best = grid_distances(width, height, costs, goal)[start]
    result = compiled_astar(problem, problem.compiled_rules(), ties=ties)
    assert result.solved and result.cost == best and replay(problem, result) == best


def corridor() -> Grid:
    """A row of five cells, the start in the middle, the goal at the left end, no estimate:
    the start's children (left, then right: the moves' order) tie at ``f = 1``."""
    return Grid(5, 1, [1] * 5, 2, 0)


@pytest.mark.parametrize(("ties", "first"), [("oldest", 1), ("newest", 3)])
@pytest.mark.parametrize(("wg", "reopen"), [(1, REOPEN_ALL), (0, KEEP_FIRST)])  # A*, greedy
def test_a_plateau_is_expanded_in_the_order_named(ties, first, wg, reopen):
    problem = corridor()
    search = BestFirst(driver_for(problem, problem.compiled_rules(), "astar"), wg, 1, reopen=reopen, ties=ties)
    search.step(2)  # the start, then one of its children
    closed = [cell for cell in range(5) if search._slot(cell) >= 0 and search.table.g[search._slot(cell)] < 0]
    assert closed == sorted([2, first])


@pytest.mark.parametrize(
    "search",
    [
        lambda problem, ties: compiled_astar(problem, problem.compiled_rules(), weight=3, ties=ties),
        lambda problem, ties: compiled_greedy(problem, problem.compiled_rules(), ties=ties),
    ],
    ids=["weighted-astar", "greedy"],
)
def test_weighted_and_greedy_answers_replay_with_either_order_and_the_orders_differ(search):
    """On random grids of unit costs weighted A*'s and greedy search's plateaus are met in
    another order: other counts, answers that replay either way."""
    differ = 0
    for seed in range(6):
        costs, start, goal = random_grid(20, 20, random.Random(seed), walls=0.15)
        costs = [min(c, 1) for c in costs]
        problem = Grid(20, 20, costs, start, goal, manhattan_table(20, 20, costs, goal))
        runs = [search(problem, t) for t in TIES]
        for run in runs:
            assert run.status == runs[0].status and (not run.solved or replay(problem, run) == run.cost)
        differ += runs[0].stats.expanded != runs[1].stats.expanded
    assert differ > 0


@pytest.mark.parametrize("seed", range(4))
def test_oldest_first_expands_as_the_python_engine(seed):
    costs, start, goal = random_grid(14, 11, random.Random(seed))
    problem = Grid(14, 11, costs, start, goal, manhattan_table(14, 11, costs, goal))
    fast = compiled_astar(problem, problem.compiled_rules(), weight=3, ties="oldest")
    slow = astar(problem, weight=3, compiled="off")
    assert (fast.status, fast.cost, fast.actions) == (slow.status, slow.cost, slow.actions)
    assert (fast.stats.expanded, fast.stats.generated) == (slow.stats.expanded, slow.stats.generated)


def test_an_unknown_order_is_refused_in_one_line():
    problem = corridor()
    with pytest.raises(InputError, match="ties must be one of oldest, newest"):
        BestFirst(driver_for(problem, problem.compiled_rules(), "astar"), 0, 1, reopen=KEEP_FIRST, ties="random")
