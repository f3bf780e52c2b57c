"""The yardsticks: textbook heapq A*s that suites run next to the real engines.

Both are the ~30-line A* anyone would write first: a heap of ``(f, h, counter, g, state)``
entries (ties on lower ``h``, then first in first out, the same order as
`searchkit.astar`), a dict of ``g``, a dict of parents, stale entries skipped when they
come off the heap.  They differ only in where a child's ``h`` comes from:

- ``baseline:textbook-astar`` calls ``successors`` and then ``heuristic`` on every child,
  as simpleai and aima-python do: what the engines' machinery is measured against;
- ``baseline:plain-astar`` takes its children from the same successor function as the
  engines (the problem's incremental ``successors_with_h`` when it has one), so beside
  ``astar`` it isolates the cost of the loop itself: the open list, statistics, limit
  checks and observer tests.

Neither honours limits (the bench runner's hard kill bounds them).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from heapq import heappop, heappush
from typing import TYPE_CHECKING, Any

from ..engines import EngineInfo
from ..engines.paths import path_from_links
from ..errors import InputError
from ..limits import Limits
from ..observer import Observer
from ..problem import successors_with_h
from ..result import NO_SOLUTION, SOLVED, Result, Stats

if TYPE_CHECKING:
    from ..solving import Job

PREFIX = "baseline:"


def plain_astar(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Heap A* on ``g + h`` over the engines' successor function.  Ignores ``limits``."""
    return _heap_astar(problem, successors_with_h(problem), PREFIX + "plain-astar")


def textbook_astar(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Heap A* on ``g + h`` calling ``heuristic`` on every child.  Ignores ``limits``."""
    h = getattr(problem, "heuristic", None) or (lambda s: 0)
    successors = problem.successors

    def succ(state: Any, _h: Any) -> list[Any]:
        return [(action, child, cost, h(child)) for action, child, cost in successors(state)]

    return _heap_astar(problem, succ, PREFIX + "textbook-astar")


def _heap_astar(problem: Any, succ: Callable[[Any, Any], Iterable[Any]], name: str) -> Result:
    """The shared loop: ``succ(state, h)`` gives ``(action, child, cost, child's h)``."""
    t0 = time.perf_counter()
    h = getattr(problem, "heuristic", None) or (lambda s: 0)
    start = problem.initial_state()
    h0 = h(start)
    heap = [(h0, h0, 0, 0, start)]
    g_of = {start: 0}
    parent: dict[Any, tuple[Any, Any, Any] | None] = {start: None}  # state -> (previous state, action, step cost)
    counter = expanded = generated = duplicates = 0
    max_frontier = 1
    goal = None
    while heap:
        _, hs, _, g, state = heappop(heap)
        if g != g_of[state]:
            continue  # stale: a cheaper path to this state was pushed later
        if problem.is_goal(state):
            goal = state
            break
        expanded += 1
        for action, child, cost, ch in succ(state, hs):
            generated += 1
            cg = g + cost
            old = g_of.get(child)
            if old is not None and cg >= old:
                duplicates += 1
                continue
            g_of[child] = cg
            parent[child] = (state, action, cost)
            counter += 1
            heappush(heap, (cg + ch, ch, counter, cg, child))
        if len(heap) > max_frontier:
            max_frontier = len(heap)
    stats = Stats(
        expanded=expanded,
        generated=generated,
        duplicates=duplicates,
        max_frontier=max_frontier,
        stored=len(g_of),
        elapsed_s=time.perf_counter() - t0,
    )
    if goal is None:
        return Result(NO_SOLUTION, stats=stats, engine=name)
    actions, states, cost = path_from_links(parent, {goal: None}, goal)
    return Result(SOLVED, actions, states, cost, stats, name)


BASELINES: dict[str, EngineInfo] = {
    PREFIX + "plain-astar": EngineInfo(
        PREFIX + "plain-astar",
        plain_astar,
        "heapq A* over the engines' successor function (what the loop itself costs)",
        heuristic="required",
        optimal="cost",
    ),
    PREFIX + "textbook-astar": EngineInfo(
        PREFIX + "textbook-astar",
        textbook_astar,
        "textbook heapq A*, h computed afresh for every child (the simpleai/aima way)",
        heuristic="required",
        optimal="cost",
    ),
}

# The registered engine whose checks (heuristic required, no backward search) a baseline
# shares, so `prepare` can validate a baseline configuration before it is swapped in.
_TWIN = {PREFIX + "plain-astar": "astar", PREFIX + "textbook-astar": "astar"}


def is_baseline(engine: str | None) -> bool:
    return engine is not None and engine.startswith(PREFIX)


def prepare_job(
    domain: str, options: dict[str, Any], engine: str | None, heuristic: str | None, params: dict[str, Any] | None
) -> Job:
    """`searchkit.solving.prepare` that also knows the ``baseline:`` engines."""
    from ..solving import prepare

    if engine is None or not is_baseline(engine):
        return prepare(domain, options, engine, heuristic, params)
    info = BASELINES.get(engine)
    if info is None:
        raise InputError(f"unknown baseline engine {engine!r} (known: {', '.join(BASELINES)})")
    if params:
        names = ", ".join(n if n.isprintable() else repr(n) for n in sorted(params))
        raise InputError(f"engine {engine!r} takes no parameter {names}")
    job = prepare(domain, options, _TWIN[engine], heuristic, None)
    return dataclasses.replace(job, engine=info)
