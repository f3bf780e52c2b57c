"""Jump point search (Harabor and Grastien, 2011) for 8-connected grids without corner cutting.

A* over "jump points" only: from a node, each direction worth trying is scanned in a
straight line until something interesting happens (the goal, or a cell where a shortest
path may have to turn), and only that cell enters the open list.  The scanned cells in
between are symmetric alternatives A* would otherwise store and expand one by one.

The engine has no search loop of its own.  `JumpPoints` is a view of the grid problem whose
successors are the jump points a cell's scans reach (action: the direction, cost: the
octile length of the jump, h: the octile distance to the goal), and the core's steppable
`searchkit.BestFirstSearch` searches it in A* order, bringing the limits, observer events,
statistics and `Result` with it.

The scans.  With no corner cutting a diagonal step needs both cells beside it free, so only
straight moves have forced neighbours.  A cell ``x`` reached going east scans on east; if
its north cell is free while the cell behind that one (north-west) is blocked, the north
cell is forced - no path around ``x`` reaches it as cheaply - and ``x`` also scans north
and north-east (likewise south).  A straight scan stops at such a cell.  A cell reached
diagonally (north-east) scans north-east, north and east; a diagonal scan stops at a cell
from which the north or east scan would stop.  The start scans all eight directions.
Every neighbour left out can be reached at least as cheaply from the cell just behind
``x`` on the path that arrived, without passing ``x``: that is why pruning loses no
shortest path.

States are cells; the arrival direction comes from the search.  What a cell scans depends
on the direction it was reached from, which a plain cell does not say.  Putting the
direction into the state (``(cell, direction)`` pairs) would make a view whose successors
depend on the state alone, but a cell reached from two directions would then be stored
and expanded twice: on random 200x200 maps with 10% and 25% obstacles that doubled both
the expansions and the time.  So the states stay cells and the view reads the
direction from the search's parent map, as JPS is defined.  That is sound because the
search sets a cell's parent together with its ``g`` and expands a cell only with the
``g`` it has stored: the scans are always those of the path the search keeps for the cell
(the argument above holds for any path that arrived, so it does not matter which of
several equally short ones that is).  The view is tied to its search by that parent map,
which is why `jps` builds it privately rather than offering it to other engines; the
search keeps one because the view offers no ``predecessors``.

Jump costs use `DIAGONAL`, sqrt(2) rounded to a multiple of 2**-32: sums of such numbers
are exact, so two equally long paths tie instead of differing in the last bit (which
would make the search queue cells again for nothing).  The answer's path is unrolled
cell by cell with the grid's own actions and sqrt(2), so searchkit replays and verifies it
like any other.
"""

from __future__ import annotations

from functools import lru_cache

from searchkit import SOLVED, BestFirstSearch, InputError, Limits, Observer, Result

from .domain import step_action
from .problem import SQRT2

NAME = "jps"
DIAGONAL = round(SQRT2 * 2**32) / 2**32  # exact sums (see the module docstring)


def astar_order(g: float, h: float, _cell: int) -> tuple[float, float]:
    """A*'s order: f, then the lower h.  A heap of these beats the default bucket queue,
    which pays off on integer costs; float costs give almost every node its own f."""
    return (g + h, h)


class JumpPoints:
    """An 8-connected `GridProblem` seen as jump points: a cell's successors are
    ``(direction, jump point, octile distance, octile h)`` for each scan that stops.
    ``parents`` must be the parent map of the search that runs on it (see `jps`)."""

    heuristic_admissible = True

    def __init__(self, problem):
        self.start, self.goal = problem.start, problem.goal
        self.describe = problem.describe
        self.parents: dict = {}
        self.successors_with_h, self.heuristic = jumps(self, problem.free, problem.stride, problem.goal)

    def initial_state(self) -> int:
        return self.start

    def is_goal(self, cell: int) -> bool:
        return cell == self.goal

    def successors(self, cell: int) -> list:
        return [(a, j, c) for a, j, c, _h in self.successors_with_h(cell, 0)]


@lru_cache(maxsize=16)
def scan_table(stride: int) -> tuple[list, list]:
    """By arrival direction, at ``3 * (dx + 1) + dy + 1`` (4: none, the start): the scans
    ``(dx, dy * stride, action)`` always made, and for straight arrivals ``(d, sides)``
    with each side's ``(offset, (the scans it forces))``."""
    scans: list = [None] * 9
    forced: list = [None] * 9
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            k = 3 * (dx + 1) + dy + 1
            if not (dx or dy):
                dirs = [(ex, ey) for ex in (-1, 0, 1) for ey in (-1, 0, 1) if ex or ey]
            elif dx and dy:
                dirs = [(dx, dy), (dx, 0), (0, dy)]
            else:
                dirs = [(dx, dy)]
                forced[k] = (
                    dx + dy * stride,
                    tuple(
                        (
                            sx + sy * stride,
                            (
                                (sx, sy * stride, step_action(sx, sy)),
                                (dx + sx, (dy + sy) * stride, step_action(dx + sx, dy + sy)),
                            ),
                        )
                        for sx, sy in ((dy, dx), (-dy, -dx))
                    ),
                )
            scans[k] = tuple((ex, ey * stride, step_action(ex, ey)) for ex, ey in dirs)
    return scans, forced


def jumps(view: JumpPoints, free, stride: int, goal: int):
    """``(successors_with_h, heuristic)`` for the view: closures over the grid, since the
    scans are the inner loop, where attribute lookups would cost."""
    gy, gx = divmod(goal, stride)
    scans, forced = scan_table(stride)

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

    def heuristic(c: int) -> float:
        y, x = divmod(c, stride)
        hx, hy = abs(x - gx), abs(y - gy)
        return hx - hy + hy * DIAGONAL if hx > hy else hy - hx + hx * DIAGONAL  # octile, exact

    def successors_with_h(c: int, _h: float) -> list:
        cy, cx = divmod(c, stride)
        p = view.parents[c]  # the search's parent: where the path it keeps arrived from
        if p is None:
            k = 4
        else:
            py, px = divmod(p, stride)
            k = 3 * ((cx > px) - (cx < px)) + (cy > py) - (cy < py) + 4
        todo = scans[k]
        if forced[k] is not None:
            d, sides = forced[k]
            for side, more in sides:
                if free[c + side] and not free[c + side - d]:
                    todo = todo + more
        out = []
        for dx, dys, action in todo:
            if dx and dys:
                j = diagonal(c, dx, dys)
            elif dx:
                j = straight(c, dx, stride)
            else:
                j = straight(c, dys, 1)
            if j is not None:
                jy, jx = divmod(j, stride)
                ax, ay = abs(jx - cx), abs(jy - cy)
                hx, hy = abs(jx - gx), abs(jy - gy)  # `heuristic`, inline
                out.append(
                    (
                        action,
                        j,
                        ax * DIAGONAL if ax and ay else ax + ay,
                        hx - hy + hy * DIAGONAL if hx > hy else hy - hx + hx * DIAGONAL,
                    )
                )
        return out

    return successors_with_h, heuristic


def jps(problem, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Optimal 8-connected path-finding on a ``gridpath`` problem."""
    if getattr(problem, "free", None) is None or not hasattr(problem, "stride"):
        raise InputError("engine 'jps' works on gridpath problems only")
    if problem.connectivity != 8:
        raise InputError("engine 'jps' needs --connectivity 8 (it prunes diagonal symmetries)")
    points = JumpPoints(problem)
    search = BestFirstSearch(points, order=astar_order, name=NAME, limits=limits, observer=observer)
    points.parents = search.parents
    search.step()
    if search.status != SOLVED:
        return search.result()  # limit or no-solution, with the statistics so far
    # unrolled from the parent map: search.path() would scan again from every jump point
    # to name each jump, and would list jump points, not cells
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
