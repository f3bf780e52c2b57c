"""One best-first loop; Dijkstra, (weighted) A* and greedy differ only by their ordering.

An open node's priority is ``(g_weight * g + h_weight * h, h, g)``: the first number is
the ordering, ties go to the lower ``h`` and then first-in-first-out.  The open list is a
bucket queue: a heap of distinct priorities, each with a FIFO of states.  On the integer
costs of puzzles there are few distinct priorities, so a push is a dictionary lookup and
a deque append, and a frontier entry costs one pointer.

A stored state costs one dictionary entry ``state -> g`` (``-1 - g`` once expanded, so a
cheaper path found later counts as a reopening): when the problem offers
``predecessors`` the path is rebuilt from the stored costs, otherwise a second dictionary
keeps the parent.  An entry whose ``g`` is no longer the state's best is stale and is
skipped when it comes off the queue, never searched for.  Emptied FIFOs are recycled
for new priorities rather than allocated afresh.
"""

from __future__ import annotations

from collections import deque
from heapq import heappop, heappush
from typing import Any

from ..limits import NO_LIMITS, Limits
from ..observer import Observer
from ..problem import can_search_backward, heuristic_of, successors_with_h
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result, Stats
from .paths import path_from_costs, path_from_parents


def best_first(
    problem: Any,
    *,
    g_weight: float = 1,
    h_weight: float = 1,
    reopen: bool = True,
    name: str = "best-first",
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """Search ``problem`` best-first on ``g_weight * g + h_weight * h``.

    ``reopen=False`` keeps the first path found to each state (greedy search);
    otherwise a cheaper path re-inserts the state.
    """
    guard = (limits or NO_LIMITS).guard()
    uses_h = h_weight != 0 and heuristic_of(problem) is not None
    if uses_h:
        succ = successors_with_h(problem)
        h_fn = heuristic_of(problem)
    else:
        plain = problem.successors
        succ = lambda state, _h: [(a, s, c, 0) for a, s, c in plain(state)]  # noqa: E731
        h_fn = None
    is_goal = problem.is_goal
    g_weight = _tidy(g_weight)
    h_weight = _tidy(h_weight)

    start = problem.initial_state()
    h0 = h_fn(start) if h_fn is not None else 0
    g_of: dict = {start: 0}
    parents: dict | None = None if can_search_backward(problem) else {start: None}
    key = (h_weight * h0, h0, 0)
    buckets: dict = {key: deque((start,))}
    keys: list = [key]
    spare: list = []  # emptied FIFOs, reused for new priorities

    expanded = generated = duplicates = reopened = 0
    frontier = max_frontier = 1
    next_check = guard.next_check(0)
    status, goal, reason = NO_SOLUTION, None, None

    while keys:
        key = keys[0]
        bucket = buckets[key]
        state = bucket.popleft()
        if not bucket:  # recycle the emptied FIFO: allocating deques costs more than reusing
            heappop(keys)
            del buckets[key]
            if len(spare) < 256:
                spare.append(bucket)
        frontier -= 1
        g = key[2]
        if g_of[state] != g:  # stale: a cheaper entry for this state came first
            continue
        if is_goal(state):
            status, goal = SOLVED, state
            break
        if expanded >= next_check:
            reason = guard.check(expanded, len(g_of))
            if observer is not None:
                observer.progress(expanded, generated, key[0])
            if reason is not None:
                status = LIMIT
                frontier += 1
                break
            next_check = guard.next_check(expanded)
        expanded += 1
        g_of[state] = -1 - g  # expanded: negative, so a later cheaper path is known to reopen it
        h = key[1]
        if observer is not None:
            observer.expand(state, g, h if uses_h else None)
        for action, child, cost, ch in succ(state, h):
            generated += 1
            cg = g + cost
            old = g_of.get(child)
            if old is not None:
                closed = old < 0
                if closed:
                    old = -1 - old
                if not reopen or cg >= old:
                    duplicates += 1
                    if observer is not None:
                        observer.generate(state, action, child, cg, ch if uses_h else None, "duplicate")
                    continue
                if closed:
                    reopened += 1
                if observer is not None:
                    observer.generate(state, action, child, cg, ch if uses_h else None, "reopened")
            elif observer is not None:
                observer.generate(state, action, child, cg, ch if uses_h else None, "new")
            g_of[child] = cg
            if parents is not None:
                parents[child] = state
            ckey = (g_weight * cg + h_weight * ch, ch, cg)
            b = buckets.get(ckey)
            if b is None:
                b = buckets[ckey] = spare.pop() if spare else deque()
                heappush(keys, ckey)
            b.append(child)
            frontier += 1
        if frontier > max_frontier:
            max_frontier = frontier

    stats = Stats(
        expanded=expanded,
        generated=generated,
        duplicates=duplicates,
        reopened=reopened,
        max_frontier=max_frontier,
        stored=len(g_of),
        elapsed_s=guard.elapsed(),
        peak_rss_bytes=guard.peak_rss,
        limit_reason=reason,
    )
    if status != SOLVED:
        return Result(status, stats=stats, engine=name)
    if parents is not None:
        actions, states, cost = path_from_parents(problem, parents, goal)
    else:
        actions, states, cost = path_from_costs(problem, g_of, start, goal)
    return Result(SOLVED, actions, states, cost, stats, name)


def _tidy(weight: float) -> float:
    """Whole-number weights as ints, so integer costs keep integer priorities."""
    return int(weight) if float(weight).is_integer() else float(weight)


def astar(problem: Any, *, weight: float = 1, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """A* on ``g + weight * h``; optimal with an admissible heuristic and ``weight == 1``."""
    if not weight >= 1:  # also refuses NaN
        raise ValueError(f"weight must be at least 1 (got {weight})")
    return best_first(problem, h_weight=weight, name="astar", limits=limits, observer=observer)


def dijkstra(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Uniform-cost search on ``g``: optimal for non-negative step costs, ignores ``h``."""
    return best_first(problem, h_weight=0, name="dijkstra", limits=limits, observer=observer)


def greedy(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Greedy best-first on ``h`` alone, keeping the first path to each state."""
    return best_first(problem, g_weight=0, h_weight=1, reopen=False, name="greedy", limits=limits, observer=observer)
