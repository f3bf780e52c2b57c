"""The yardstick: a textbook heapq A* that suites run next to the real engines.

`plain_astar` is the ~30-line A* anyone would write first: a heap of
``(f, h, counter, g, state)`` entries (ties on lower ``h``, then first in first out, the
same order as `searchkit.astar`), a dict of ``g``, a dict of parents, stale entries
skipped when they come off the heap.  It gets its children from the same successor
function as the engines (the problem's incremental ``successors_with_h`` when it has one),
but has no bucket queue, no statistics beyond counters and no limit checks - so a suite
that runs it beside ``astar`` measures what the generic engine's machinery buys (or costs).  Limits are not
honoured: the bench runner's hard kill bounds it.  Suites name it
``engine = "baseline:plain-astar"``.
"""

from __future__ import annotations

import dataclasses
import time
from heapq import heappop, heappush
from typing import TYPE_CHECKING, Any, TypeGuard

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
    """Textbook A* on ``g + h``; optimal with an admissible heuristic.  Ignores ``limits``."""
    t0 = time.perf_counter()
    h = getattr(problem, "heuristic", None) or (lambda s: 0)
    succ = successors_with_h(problem)
    start = problem.initial_state()
    h0 = h(start)
    heap: list[tuple[float, float, int, float, Any]] = [(h0, h0, 0, 0, start)]
    g_of: dict[Any, float] = {start: 0}
    parent: dict[Any, tuple[Any, Any, float] | None] = {start: None}  # state -> (previous state, action, step cost)
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
    name = PREFIX + "plain-astar"
    if goal is None:
        return Result(NO_SOLUTION, stats=stats, engine=name)
    actions, states, cost = path_from_links(parent, {goal: None}, goal)
    return Result(SOLVED, actions, states, cost, stats, name)


BASELINES: dict[str, EngineInfo] = {
    PREFIX + "plain-astar": EngineInfo(
        PREFIX + "plain-astar",
        plain_astar,
        "textbook heapq A* (the speed yardstick)",
        heuristic="required",
        optimal="cost",
    ),
}

# The registered engine whose checks (heuristic required, no backward search) a baseline
# shares, so `prepare` can validate a baseline configuration before it is swapped in.
_TWIN = {PREFIX + "plain-astar": "astar"}


def is_baseline(engine: str | None) -> TypeGuard[str]:
    return engine is not None and engine.startswith(PREFIX)


def prepare_job(
    domain: str, options: dict[str, Any], engine: str | None, heuristic: str | None, params: dict[str, Any] | None
) -> Job:
    """`searchkit.solving.prepare` that also knows the ``baseline:`` engines."""
    from ..solving import prepare

    if not is_baseline(engine):
        return prepare(domain, options, engine, heuristic, params)
    info = BASELINES.get(engine)
    if info is None:
        raise InputError(f"unknown baseline engine {engine!r} (known: {', '.join(BASELINES)})")
    if params:
        raise InputError(f"engine {engine!r} takes no parameter {', '.join(sorted(params))}")
    job = prepare(domain, options, _TWIN[engine], heuristic, None)
    return dataclasses.replace(job, engine=info)
