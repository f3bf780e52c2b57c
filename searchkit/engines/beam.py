"""Beam search: breadth-first by layers, keeping only the best ``width`` states of each.

The standard fast and incomplete engine of planners and games: memory and time per layer
are bounded by ``width``, and a state once kept is never kept again (duplicates are
detected across layers), so a search that drops the only way to a goal ends with
``no-solution`` that proves nothing (the registry says it is not complete).  States are
ranked by ``h`` (``order="h"``) or by ``g + h`` (``order="f"``); the goal is tested when a
state is generated.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from typing import Any

from ..limits import Limits
from ..observer import Observer
from ..problem import heuristic_of, successors_with_h
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .paths import path_from_parents
from .run import Run

ORDERS = ("h", "f")


def beam(
    problem: Any,
    *,
    width: int = 100,
    order: str = "f",
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """Layered beam search of ``width`` states per layer ranked by ``order`` (h or g + h)."""
    if not isinstance(width, int) or isinstance(width, bool) or width < 1:
        raise ValueError(f"beam width must be a positive whole number (got {width!r})")
    if order not in ORDERS:
        raise ValueError(f"beam order must be one of {', '.join(ORDERS)} (got {order!r})")
    run = Run("beam", limits, observer)
    h_fn = heuristic_of(problem)
    succ = successors_with_h(problem)  # the problem's incremental h when it has one
    start = problem.initial_state()
    parents: dict[Hashable, Hashable | None] = {start: None}
    run.tables = lambda: (parents,)  # under a memory limit
    layer: list[tuple[Hashable, float, float]] = [(start, 0, h_fn(start) if h_fn is not None else 0)]  # (state, g, h)
    expanded = generated = duplicates = max_frontier = 0
    status, goal = NO_SOLUTION, None
    if problem.is_goal(start):
        status, goal, layer = SOLVED, start, []
    use_g = order == "f"
    while layer and goal is None:
        # child -> (key, g, h, parent)
        candidates: dict[Hashable, tuple[float, float, float, Hashable]] = {}
        for state, g, hs in layer:
            if expanded >= run.next_check and run.limit_reached(expanded, generated, len(parents)):
                status = LIMIT
                break
            expanded += 1
            if observer is not None:
                observer.expand(state, g, hs)
            for action, child, cost, ch in succ(state, hs):
                generated += 1
                cg = g + cost
                if child in parents or (child in candidates and candidates[child][1] <= cg):
                    duplicates += 1
                    if observer is not None:
                        observer.generate(state, action, child, cg, None, "duplicate")
                    continue
                if observer is not None:
                    observer.generate(state, action, child, cg, ch, "new" if child not in candidates else "improved")
                if problem.is_goal(child):
                    parents[child], goal = state, child
                    break
                candidates[child] = ((cg if use_g else 0) + ch, cg, ch, state)
            if goal is not None or status == LIMIT:
                break
        if goal is not None or status == LIMIT:
            break
        kept = heapq.nsmallest(width, candidates.items(), key=lambda item: (item[1][0], item[1][1]))
        layer = []
        for child, (key, cg, ch, parent) in kept:
            if key == float("inf"):
                continue
            parents[child] = parent
            layer.append((child, cg, ch))
        max_frontier = max(max_frontier, len(candidates))
    if goal is not None:
        status = SOLVED
    path = path_from_parents(problem, parents, goal) if status == SOLVED else None
    return run.result(
        status,
        path,
        expanded=expanded,
        generated=generated,
        duplicates=duplicates,
        max_frontier=max_frontier,
        stored=len(parents),
    )
