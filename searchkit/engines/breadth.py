"""Breadth-first search: fewest steps, goal tested when a state is generated."""

from __future__ import annotations

from collections import deque
from typing import Any

from ..limits import NO_LIMITS, Limits
from ..observer import Observer
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result, Stats
from .paths import path_from_parents


def bfs(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Breadth-first search; optimal when every step costs the same."""
    guard = (limits or NO_LIMITS).guard()
    is_goal = problem.is_goal
    successors = problem.successors
    start = problem.initial_state()
    parents: dict = {start: None}
    queue = deque((start,))
    path_g: dict = {}  # path cost of each state, kept only for an observer
    expanded = generated = duplicates = max_frontier = 0
    next_check = guard.next_check(0)
    status, goal, reason = NO_SOLUTION, None, None
    if is_goal(start):
        status, goal = SOLVED, start
        queue.clear()
    while queue:
        if expanded >= next_check:
            reason = guard.check(expanded, len(parents))
            if observer is not None:
                observer.progress(expanded, generated, None)
            if reason is not None:
                status = LIMIT
                break
            next_check = guard.next_check(expanded)
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
    stats = Stats(
        expanded=expanded,
        generated=generated,
        duplicates=duplicates,
        max_frontier=max(max_frontier, len(queue)),
        stored=len(parents),
        elapsed_s=guard.elapsed(),
        peak_rss_bytes=guard.peak_rss,
        limit_reason=reason,
    )
    if status != SOLVED:
        return Result(status, stats=stats, engine="bfs")
    actions, states, cost = path_from_parents(problem, parents, goal)
    return Result(SOLVED, actions, states, cost, stats, "bfs")
