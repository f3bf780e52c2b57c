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

The engine is the core's steppable `searchkit.BestFirstSearch` (A* order, limits,
progress, statistics) over `JumpPoints`, a view of the grid problem whose successors are
the jump points a cell's scans reach.  Which scans start from a cell depends on the
direction it was reached from, so the view reads the cell's parent from the search's
parent map at expansion time (the search keeps parents because the view offers no
predecessors), exactly as the algorithm is defined: states stay cells, each expanded once.
The answer's path is then unrolled cell by cell (the segments between jump points), so
searchkit replays and verifies it like any other.
"""

from __future__ import annotations

from searchkit import SOLVED, BestFirstSearch, InputError, Limits, Observer, Result

from .domain import step_action
from .problem import SQRT2

NAME = "jps"
# sqrt(2) on a grid of 2**-32: a jump's cost and every sum of them are exact in floating
# point, so two paths of the same length compare equal instead of differing in the last
# bit (which would make the search re-queue cells for nothing); the answer's cost is
# summed with SQRT2 when the path is unrolled
DIAGONAL = round(SQRT2 * 2**32) / 2**32


class JumpPoints:
    """An 8-connected `GridProblem` seen as jump points: a cell's successors are where its
    scans stop, at the octile distance; ``heuristic`` is the octile estimate to the goal
    (both with `DIAGONAL`)."""

    heuristic_admissible = True

    def __init__(self, problem):
        self.free, self.stride = problem.free, problem.stride
        self.start, self.goal = problem.start, problem.goal
        self.gx, self.gy = problem.xy(self.goal)
        self.parents: dict = {}  # the search's parent map (`jps` attaches it)
        self._scan = scanner(self.free, self.stride, self.goal)

    def initial_state(self) -> int:
        return self.start

    def is_goal(self, cell: int) -> bool:
        return cell == self.goal

    def heuristic(self, cell: int) -> float:
        y, x = divmod(cell, self.stride)
        dx, dy = abs(x - 1 - self.gx), abs(y - 1 - self.gy)
        return abs(dx - dy) + min(dx, dy) * DIAGONAL  # octile distance, exact

    def successors_with_h(self, cell: int, _h: float) -> list:
        """``(direction, jump point, distance, h)`` for every scan from ``cell`` that stops."""
        out = []
        stride, scan = self.stride, self._scan
        gx, gy = self.gx + 1, self.gy + 1  # in the padded grid's coordinates
        cy, cx = divmod(cell, stride)
        for dx, dys in self._directions(cell, self.parents.get(cell)):
            j = scan(cell, dx, dys)
            if j is not None:
                jy, jx = divmod(j, stride)
                ax, ay = abs(jx - cx), abs(jy - cy)
                hx, hy = abs(jx - gx), abs(jy - gy)  # `heuristic`, inline: this is the inner loop
                h = hx - hy + hy * DIAGONAL if hx > hy else hy - hx + hx * DIAGONAL
                out.append(((dx, dys), j, ax * DIAGONAL if ax and ay else ax + ay, h))
        return out

    def successors(self, cell: int) -> list:
        return [(a, j, c) for a, j, c, _h in self.successors_with_h(cell, 0)]

    def _directions(self, c: int, parent: int | None) -> list[tuple[int, int]]:
        """``(dx, dy * stride)`` of the scans to start from c, reached from ``parent``."""
        stride = self.stride
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


def scanner(free, stride: int, goal: int):
    """``scan(c, dx, dy * stride)``: the jump point the scan from c reaches, or None.  Closures
    over the grid: the scans are the inner loop, where attribute lookups would cost."""

    def straight(c: int, d: int, side: int) -> int | None:
        """From c step by d (±1 or ±stride); ``side`` is the perpendicular unit offset."""
        while True:
            c += d
            if not free[c]:
                return None
            if c == goal:
                return c
            if (free[c + side] and not free[c + side - d]) or (free[c - side] and not free[c - side - d]):
                return c

    def diagonal(c: int, dx: int, dys: int) -> int | None:
        while True:
            if not (free[c + dx] and free[c + dys] and free[c + dx + dys]):
                return None
            c += dx + dys
            if c == goal:
                return c
            if straight(c, dx, stride) is not None or straight(c, dys, 1) is not None:
                return c

    def scan(c: int, dx: int, dys: int) -> int | None:
        if dx and dys:
            return diagonal(c, dx, dys)
        if dx:
            return straight(c, dx, stride)
        return straight(c, dys, 1)

    return scan


def jps(problem, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Optimal 8-connected path-finding on a ``gridpath`` problem."""
    if getattr(problem, "free", None) is None or not hasattr(problem, "stride"):
        raise InputError("engine 'jps' works on gridpath problems only")
    if problem.connectivity != 8:
        raise InputError("engine 'jps' needs --connectivity 8 (it prunes diagonal symmetries)")
    points = JumpPoints(problem)
    search = BestFirstSearch(points, name=NAME, limits=limits, observer=observer)
    points.parents = search.parents
    search.step()
    if search.status != SOLVED:
        return search.result()
    # the jump points from the parent map (a re-expanded cell may scan other directions now,
    # so the path is not rebuilt through successors), then every cell between them
    return search.run.result(SOLVED, unroll(problem, search.parents, search.goal), **search.counters())


def unroll(problem, parents: dict, goal: int) -> tuple[list[str], list[int], float]:
    """The cell-by-cell path through the jump points (each segment is one direction)."""
    points = [goal]
    while parents[points[-1]] is not None:
        points.append(parents[points[-1]])
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
