"""Jump point search (Harabor and Grastien, 2011) for 8-connected grids without corner cutting.

A* over "jump points" only: from a node, each allowed direction is scanned in a straight
line until something interesting happens (the goal, a wall, or a cell where a shortest
path may have to turn), and only that cell enters the open list.  The scanned cells
between are symmetric alternatives A* would otherwise store and expand one by one.

With no corner cutting a diagonal step needs both cells beside it free, so only straight
scans have forced neighbours: a scan east stops at a cell whose north (south) neighbour is
free while the cell behind that one is blocked.  A diagonal scan stops where a straight
scan from it finds something.  From a jump point reached straight, the scan goes on and
also turns to both sides (and diagonally forward) where free; reached diagonally, it goes
on diagonally and straight along both components.

The result is an ordinary `searchkit.Result` whose path lists every cell (the segments
between jump points unrolled), so searchkit replays and verifies it like any other.
"""

from __future__ import annotations

from heapq import heappop, heappush

from searchkit import LIMIT, NO_SOLUTION, SOLVED, InputError, Limits, Observer, Result, Stats

from .domain import step_action
from .problem import SQRT2, octile

NAME = "jps"


def jps(problem, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Optimal 8-connected path-finding on a ``gridpath`` problem."""
    free = getattr(problem, "free", None)
    if free is None or not hasattr(problem, "stride"):
        raise InputError("engine 'jps' works on gridpath problems only")
    if problem.connectivity != 8:
        raise InputError("engine 'jps' needs --connectivity 8 (it prunes diagonal symmetries)")
    guard = (limits or Limits()).guard()
    stride, start, goal = problem.stride, problem.start, problem.goal
    gx, gy = problem.xy(goal)

    def h(cell: int) -> float:
        y, x = divmod(cell, stride)
        return octile(abs(x - 1 - gx), abs(y - 1 - gy), 8)

    def scan_straight(c: int, d: int, side: int) -> int | None:
        """From c step by d (±1 or ±stride); ``side`` is the perpendicular unit offset."""
        while True:
            c += d
            if not free[c]:
                return None
            if c == goal:
                return c
            if (free[c + side] and not free[c + side - d]) or (free[c - side] and not free[c - side - d]):
                return c

    def scan_diagonal(c: int, dx: int, dys: int) -> int | None:
        while True:
            if not (free[c + dx] and free[c + dys] and free[c + dx + dys]):
                return None
            c += dx + dys
            if c == goal:
                return c
            if scan_straight(c, dx, stride) is not None or scan_straight(c, dys, 1) is not None:
                return c

    def directions(c: int, parent: int | None) -> list[tuple[int, int]]:
        """``(dx, dy * stride)`` of the scans to start from c."""
        if parent is None:
            return [(dx, dy * stride) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
        py, px = divmod(parent, stride)
        cy, cx = divmod(c, stride)
        dx = (cx > px) - (cx < px)
        dys = ((cy > py) - (cy < py)) * stride
        if dx and dys:
            return [(dx, dys), (dx, 0), (0, dys)]
        if dx:
            return [(dx, 0), (0, stride), (0, -stride), (dx, stride), (dx, -stride)]
        return [(0, dys), (1, 0), (-1, 0), (1, dys), (-1, dys)]

    def scan(c: int, dx: int, dys: int) -> int | None:
        if dx and dys:
            return scan_diagonal(c, dx, dys)
        if dx:
            return scan_straight(c, dx, stride)
        return scan_straight(c, dys, 1)

    h0 = h(start)
    g_of = {start: 0.0}
    parent: dict[int, int | None] = {start: None}
    heap = [(h0, h0, 0, 0.0, start)]
    counter = expanded = generated = duplicates = reopened = 0
    max_frontier = 1
    next_check = guard.next_check(0)
    status, reason = NO_SOLUTION, None
    while heap:
        _f, hc, _n, g, c = heappop(heap)
        if g != g_of[c]:
            continue
        if c == goal:
            status = SOLVED
            break
        if expanded >= next_check:
            reason = guard.check(expanded, len(g_of))
            if observer is not None:
                observer.progress(expanded, generated, _f)
            if reason is not None:
                status = LIMIT
                break
            next_check = guard.next_check(expanded)
        expanded += 1
        if observer is not None:
            observer.expand(c, g, hc)
        for dx, dys in directions(c, parent[c]):
            j = scan(c, dx, dys)
            if j is None:
                continue
            generated += 1
            jy, jx = divmod(j, stride)
            cy, cx = divmod(c, stride)
            ax, ay = abs(jx - cx), abs(jy - cy)
            cg = g + (ax * SQRT2 if ax and ay else ax + ay)
            old = g_of.get(j)
            if old is not None and cg >= old - 1e-12:
                duplicates += 1
                if observer is not None:
                    observer.generate(c, None, j, cg, h(j), "duplicate")
                continue
            if old is not None:
                reopened += 1
            g_of[j] = cg
            parent[j] = c
            hj = h(j)
            if observer is not None:
                observer.generate(c, None, j, cg, hj, "new" if old is None else "reopened")
            counter += 1
            heappush(heap, (cg + hj, hj, counter, cg, j))
        if len(heap) > max_frontier:
            max_frontier = len(heap)
    stats = Stats(expanded=expanded, generated=generated, duplicates=duplicates, reopened=reopened,
                  max_frontier=max_frontier, stored=len(g_of), elapsed_s=guard.elapsed(),
                  peak_rss_bytes=guard.peak_rss, limit_reason=reason)
    if status != SOLVED:
        return Result(status, stats=stats, engine=NAME)
    actions, states, cost = unroll(problem, parent, goal)
    return Result(SOLVED, actions, states, cost, stats, NAME)


def unroll(problem, parent: dict, goal: int) -> tuple[list[str], list[int], float]:
    """The cell-by-cell path through the jump points (each segment is one direction)."""
    points = [goal]
    while parent[points[-1]] is not None:
        points.append(parent[points[-1]])
    points.reverse()
    stride = problem.stride
    actions, states, cost = [], [points[0]], 0.0
    for a, b in zip(points, points[1:]):
        (ax, ay), (bx, by) = problem.xy(a), problem.xy(b)
        dx, dy = (bx > ax) - (bx < ax), (by > ay) - (by < ay)
        action, step = step_action(dx, dy), dx + dy * stride
        unit = SQRT2 if dx and dy else 1
        c = a
        while c != b:
            c += step
            actions.append(action)
            states.append(c)
            cost += unit
    return actions, states, cost
