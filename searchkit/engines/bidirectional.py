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

from ..limits import Limits
from ..observer import Observer
from ..problem import can_search_backward
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .paths import path_from_links
from .run import Run

INF = float("inf")


def bidirectional_bfs(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Meet-in-the-middle breadth-first search; needs ``goal_states`` and ``predecessors``."""
    if not can_search_backward(problem):
        raise ValueError("bidirectional-bfs needs a problem with goal_states() and predecessors()")
    run = Run("bidirectional-bfs", limits, observer)
    start = problem.initial_state()
    # side maps: state -> (link, depth, path cost from the side's root);
    # link = (neighbour towards the root, action, cost)
    fwd: dict[Any, Any] = {start: (None, 0, 0)}
    bwd: dict[Any, Any] = {g: (None, 0, 0) for g in problem.goal_states()}
    ffront, bfront = [start], list(bwd)
    df = db = 0
    best, meet = INF, None
    if start in bwd:
        best, meet = 0, start
    expanded = generated = duplicates = max_frontier = 0
    status = NO_SOLUTION

    while ffront and bfront and best > df + db + 1:
        forward = len(ffront) <= len(bfront)
        front, mine, other = (ffront, fwd, bwd) if forward else (bfront, bwd, fwd)
        step = problem.successors if forward else problem.predecessors
        depth = (df if forward else db) + 1
        layer = []
        for state in front:
            if expanded >= run.next_check and run.limit_reached(expanded, generated, len(fwd) + len(bwd)):
                status = LIMIT
                break
            expanded += 1
            g = mine[state][2]
            if observer is not None:
                observer.expand(state, g, None)
            for action, nxt, cost in step(state):
                generated += 1
                if nxt in mine:
                    duplicates += 1
                    if observer is not None:
                        observer.generate(state, action, nxt, g + cost, None, "duplicate")
                    continue
                mine[nxt] = ((state, action, cost), depth, g + cost)
                layer.append(nxt)
                if observer is not None:
                    observer.generate(state, action, nxt, g + cost, None, "new")
                seen = other.get(nxt)
                if seen is not None and depth + seen[1] < best:
                    best, meet = depth + seen[1], nxt
        if status == LIMIT:
            break
        if forward:
            ffront, df = layer, depth
        else:
            bfront, db = layer, depth
        max_frontier = max(max_frontier, len(ffront) + len(bfront))

    path = None
    if meet is not None and status != LIMIT:
        status = SOLVED
        path = path_from_links({s: v[0] for s, v in fwd.items()}, {s: v[0] for s, v in bwd.items()}, meet)
    return run.result(
        status,
        path,
        expanded=expanded,
        generated=generated,
        duplicates=duplicates,
        max_frontier=max_frontier,
        stored=len(fwd) + len(bwd),
    )
