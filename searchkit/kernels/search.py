"""The compiled engines' entry points: what `astar`, `greedy`, `idastar` and `bfs` call when
`searchkit.kernels.rules.choose` picks a problem's compiled rules, and `warm_up`, which
compiles (or loads from numba's cache) a problem's kernels ahead of a timed run."""

from __future__ import annotations

from typing import Any

from ..compiled import integer_weights
from ..errors import InputError
from ..limits import Limits
from ..observer import Observer
from ..result import Result
from .bestfirst import BestFirst
from .breadth import Breadth
from .codes import KEEP_FIRST
from .generate import loaded
from .idastar import IdaSearch
from .rules import CompiledRules
from .run import Driver
from .table import Table


def driver_for(
    problem: Any, rules: CompiledRules, name: str, limits: Limits | None = None, observer: Observer | None = None
) -> Driver:
    """The `Driver` of a compiled run of ``problem`` over ``rules`` (checked, their kernels loaded)."""
    rules.check()
    return Driver(problem, rules, loaded(rules), name, limits, observer)


def compiled_astar(
    problem: Any,
    rules: CompiledRules,
    *,
    weight: float = 1,
    limits: Limits | None = None,
    observer: Observer | None = None,
    name: str = "astar",
    ties: str = "oldest",
) -> Result:
    """A* on ``g + weight * h`` over ``rules`` (`searchkit.kernels.bestfirst`); ``ties``: the
    order among equal ``f`` and ``h``, ``"oldest"`` (the Python engine's) or ``"newest"`` first."""
    wg, wh = integer_weights(weight)
    return BestFirst(driver_for(problem, rules, name, limits, observer), wg, wh, ties=ties).solve()


def compiled_greedy(
    problem: Any,
    rules: CompiledRules,
    *,
    limits: Limits | None = None,
    observer: Observer | None = None,
    name: str = "greedy",
    ties: str = "oldest",
) -> Result:
    """Greedy best-first on ``h`` (then lower ``g``, then ``ties``: ``"oldest"``, the Python
    engine's order, or ``"newest"`` first), keeping the first path to each state."""
    driver = driver_for(problem, rules, name, limits, observer)
    return BestFirst(driver, 0, 1, reopen=KEEP_FIRST, ties=ties).solve()


def compiled_idastar(
    problem: Any,
    rules: CompiledRules,
    *,
    weight: float = 1,
    limits: Limits | None = None,
    observer: Observer | None = None,
    name: str = "idastar",
    weights: tuple[int, int] | None = None,
    cap: int | None = None,
) -> Result:
    """IDA* (weighted IDA* with ``weight > 1``) over ``rules`` (`searchkit.kernels.idastar`);
    the rules must offer ``undo``.  ``weights``: the integer weights ``(wg, wh)`` of ``g``
    and ``h`` in the bound, in place of ``weight``.  ``cap``: only answers cheaper than it,
    the Result's ``bound`` then a lower bound on any such answer (for anytime searches)."""
    driver = driver_for(problem, rules, name, limits, observer)
    if "undo" not in driver.fns:
        raise InputError(f"compiled rules {rules.module} lack undo, which idastar needs")
    wg, wh = integer_weights(weight) if weights is None else weights
    return IdaSearch(driver, wg, wh, cap).solve()


def compiled_bfs(
    problem: Any,
    rules: CompiledRules,
    *,
    limits: Limits | None = None,
    observer: Observer | None = None,
    name: str = "bfs",
) -> Result:
    """Breadth-first search over ``rules`` (`searchkit.kernels.breadth`)."""
    return Breadth(driver_for(problem, rules, name, limits, observer)).solve()


def warm_up(problem: Any, rules: CompiledRules) -> None:
    """Compile (the first time on this machine) or load from the cache every kernel for
    ``rules``, by running each search for no expansion on ``problem``, the kernels that grow
    the tables, by rehashing none of their rows, and those that rebuild an answer
    (`searchkit.kernels.path`), by tracing and replaying a move of the start.  After it, a
    search in this process (or one forked from it) loads nothing."""
    import numpy as np

    none = Limits(max_expanded=0)
    compiled_astar(problem, rules, limits=none)
    compiled_bfs(problem, rules, limits=none)
    fns = rules.functions()
    if "undo" in fns:
        compiled_idastar(problem, rules, limits=none)
    driver = driver_for(problem, rules, "warm-up", none, None)
    queue = BestFirst(driver, 1, 1)
    driver.kernels.rehash(queue.table.keys, 0, queue.table.index)
    driver.kernels.bq_rehash(queue.buckets[0], 0, queue.mkeys[0], queue.mvals[0])
    queue.knows_any([problem.initial_state()])  # a portfolio's question, the set of those asked grown once
    queue.grow_asked(2 * len(queue.asked))
    words = driver.encode(problem.initial_state())
    out = np.zeros(rules.max_moves, dtype=np.int64)
    if fns["moves"](words, rules.context, out) > 0:
        table = Table(rules.keys, 4, 0)  # its parent and move arrays, the types the searches pass
        table.parent[:2], table.move[:2] = (-1, 0), (0, int(out[0]))
        driver.replay(words, driver.path_to(table.parent, table.move, 1))
        driver.kernels.root_of(table.parent, 1)  # the start a path descends from, in a search from several
