"""Breadth-first search: fewest steps, goal tested when a state is generated."""

from __future__ import annotations

from collections import deque
from typing import Any

from ..limits import Limits
from ..observer import Observer
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .paths import path_from_parents
from .run import Run


def bfs(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Breadth-first search; optimal when every step costs the same."""
    run = Run("bfs", limits, observer)
    is_goal = problem.is_goal
    successors = problem.successors
    start = problem.initial_state()
    parents: dict[Any, Any] = {start: None}
    queue = deque((start,))
    path_g: dict[Any, Any] = {}  # path cost of each state, kept only for an observer
    expanded = generated = duplicates = max_frontier = 0
    status, goal = NO_SOLUTION, None
    if is_goal(start):
        status, goal = SOLVED, start
        queue.clear()
    while queue:
        if expanded >= run.next_check and run.limit_reached(expanded, generated, len(parents)):
            status = LIMIT
            break
        if len(queue) > max_frontier:
            max_frontier = len(queue)
        state = queue.popleft()
        expanded += 1
        if observer is not None:  # path costs only for a listener: no per-node cost otherwise
            g = path_g.get(state, 0)
            observer.expand(state, g, None)
        for action, child, cost in successors(state):
            generated += 1
            if child in parents:
                duplicates += 1
                if observer is not None:
                    observer.generate(state, action, child, g + cost, None, "duplicate")
                continue
            if observer is not None:
                path_g[child] = g + cost
                observer.generate(state, action, child, g + cost, None, "new")
            parents[child] = state
            if is_goal(child):
                status, goal = SOLVED, child
                break
            queue.append(child)
        if goal is not None:
            break
    path = path_from_parents(problem, parents, goal) if status == SOLVED else None
    return run.result(
        status,
        path,
        expanded=expanded,
        generated=generated,
        duplicates=duplicates,
        max_frontier=max(max_frontier, len(queue)),
        stored=len(parents),
    )
