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
from ..problem import heuristic_of
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
    h = heuristic_of(problem) or (lambda _s: 0)
    start = problem.initial_state()
    parents: dict[Hashable, Hashable | None] = {start: None}
    g_of: dict[Hashable, float] = {start: 0}
    layer: list[Hashable] = [start]
    expanded = generated = duplicates = max_frontier = 0
    status, goal = NO_SOLUTION, None
    if problem.is_goal(start):
        status, goal, layer = SOLVED, start, []
    use_g = order == "f"
    while layer and goal is None:
        candidates: dict[Hashable, tuple[float, float, Hashable]] = {}  # child -> (key, g, parent)
        for state in layer:
            if expanded >= run.next_check and run.limit_reached(expanded, generated, len(parents)):
                status = LIMIT
                break
            expanded += 1
            g = g_of[state]
            if observer is not None:
                observer.expand(state, g, h(state))
            for action, child, cost in problem.successors(state):
                generated += 1
                cg = g + cost
                if child in parents or (child in candidates and candidates[child][1] <= cg):
                    duplicates += 1
                    if observer is not None:
                        observer.generate(state, action, child, cg, None, "duplicate")
                    continue
                ch = h(child)
                if observer is not None:
                    observer.generate(state, action, child, cg, ch, "new" if child not in candidates else "improved")
                if problem.is_goal(child):
                    parents[child], g_of[child], goal = state, cg, child
                    break
                candidates[child] = ((cg if use_g else 0) + ch, cg, state)
            if goal is not None or status == LIMIT:
                break
        if goal is not None or status == LIMIT:
            break
        kept = heapq.nsmallest(width, candidates.items(), key=lambda item: (item[1][0], item[1][1]))
        layer = []
        for child, (key, cg, parent) in kept:
            if key == float("inf"):
                continue
            parents[child], g_of[child] = parent, cg
            layer.append(child)
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
