"""Bidirectional breadth-first search with a proved stopping rule.

Both sides grow a whole layer at a time (the smaller frontier first).  ``best`` is the
shortest start-to-goal path seen through a state both sides know.  After the forward
side has settled every state within ``df`` steps of the start and the backward side
every state within ``db`` steps of a goal, every path of at most ``df + db`` steps has
been seen, so once ``best <= df + db + 1`` no shorter path can exist.  The path is
shortest in steps; its cost is the sum of its step costs.
"""

from __future__ import annotations

from typing import Any

from ..limits import NO_LIMITS, Limits
from ..observer import Observer
from ..problem import can_search_backward
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result, Stats
from .paths import path_from_links

INF = float("inf")


def bidirectional_bfs(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Meet-in-the-middle breadth-first search; needs ``goal_states`` and ``predecessors``."""
    if not can_search_backward(problem):
        raise ValueError("bidirectional-bfs needs a problem with goal_states() and predecessors()")
    guard = (limits or NO_LIMITS).guard()
    start = problem.initial_state()
    # side maps: state -> (link, depth); link = (neighbour towards the root, action, cost)
    fwd: dict = {start: (None, 0)}
    bwd: dict = {g: (None, 0) for g in problem.goal_states()}
    ffront, bfront = [start], list(bwd)
    df = db = 0
    best, meet = INF, None
    if start in bwd:
        best, meet = 0, start
    expanded = generated = duplicates = max_frontier = 0
    next_check = guard.next_check(0)
    status, reason = NO_SOLUTION, None

    while ffront and bfront and best > df + db + 1:
        forward = len(ffront) <= len(bfront)
        front, mine, other = (ffront, fwd, bwd) if forward else (bfront, bwd, fwd)
        step = problem.successors if forward else problem.predecessors
        depth = (df if forward else db) + 1
        layer = []
        for state in front:
            if expanded >= next_check:
                reason = guard.check(expanded, len(fwd) + len(bwd))
                if observer is not None:
                    observer.progress(expanded, generated, None)
                if reason is not None:
                    break
                next_check = guard.next_check(expanded)
            expanded += 1
            if observer is not None:
                observer.expand(state, depth - 1, None)
            for action, nxt, cost in step(state):
                generated += 1
                if nxt in mine:
                    duplicates += 1
                    if observer is not None:
                        observer.generate(state, action, nxt, depth, None, "duplicate")
                    continue
                mine[nxt] = ((state, action, cost), depth)
                layer.append(nxt)
                if observer is not None:
                    observer.generate(state, action, nxt, depth, None, "new")
                seen = other.get(nxt)
                if seen is not None and depth + seen[1] < best:
                    best, meet = depth + seen[1], nxt
        if reason is not None:
            status = LIMIT
            break
        if forward:
            ffront, df = layer, depth
        else:
            bfront, db = layer, depth
        max_frontier = max(max_frontier, len(ffront) + len(bfront))

    stats = Stats(
        expanded=expanded,
        generated=generated,
        duplicates=duplicates,
        max_frontier=max_frontier,
        stored=len(fwd) + len(bwd),
        elapsed_s=guard.elapsed(),
        peak_rss_bytes=guard.peak_rss,
        limit_reason=reason,
    )
    if meet is None or status == LIMIT:
        return Result(status, stats=stats, engine="bidirectional-bfs")
    actions, states, cost = path_from_links(
        {s: v[0] for s, v in fwd.items()}, {s: v[0] for s, v in bwd.items()}, meet
    )
    return Result(SOLVED, actions, states, cost, stats, "bidirectional-bfs")
