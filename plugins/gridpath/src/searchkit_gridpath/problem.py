"""Path-finding on a grid map as a `searchkit.Problem` over cell numbers.

A state is one int, the cell's index in a copy of the map with a one-cell blocked border
(``(y + 1) * stride + x + 1``), so a neighbour is an addition and no move needs a bounds
check.  Straight moves cost 1 and diagonal ones sqrt(2); a diagonal move is allowed only
when both cells it passes between are free (no corner cutting), the Moving AI rule.
Moves are symmetric, so the problem also offers goal states and predecessors.  A 4-connected
grid also offers compiled rules (`compiled_rules`, the numba module `searchkit_gridpath.rules`).
"""

from __future__ import annotations

import math

from searchkit import CompiledRules

from .movingai import GridMap

SQRT2 = math.sqrt(2)
STRAIGHT = (("N", 0, -1), ("S", 0, 1), ("W", -1, 0), ("E", 1, 0))
DIAGONAL = (("NW", -1, -1), ("NE", 1, -1), ("SW", -1, 1), ("SE", 1, 1))
OPPOSITE = {"N": "S", "S": "N", "W": "E", "E": "W", "NW": "SE", "SE": "NW", "NE": "SW", "SW": "NE"}
DIRECTION = {name: (dx, dy) for name, dx, dy in STRAIGHT + DIAGONAL}


class GridProblem:
    """From ``start`` to ``goal`` (``(x, y)``) on ``grid`` with 4 or 8 neighbours."""

    min_step_cost = 1  # straight moves cost 1, diagonal ones sqrt(2)

    def __init__(self, grid: GridMap, start: tuple[int, int], goal: tuple[int, int], connectivity: int = 8):
        self.grid = grid
        self.width, self.height = grid.width, grid.height
        self.stride = stride = grid.width + 2
        free = bytearray(stride * (grid.height + 2))
        for y, _row in enumerate(grid.rows):
            base = (y + 1) * stride + 1
            for x in range(grid.width):
                if grid.passable(x, y):
                    free[base + x] = 1
        self.free = free
        self.connectivity = connectivity
        self.start = self.cell(*start)
        self.goal = self.cell(*goal)
        self.goal_xy = goal
        self.start_xy = start
        # (action, offset, cost, side offset 1, side offset 2); sides 0 for straight moves
        moves = [(name, dx + dy * stride, 1, 0, 0) for name, dx, dy in STRAIGHT]
        if connectivity == 8:
            moves += [(name, dx + dy * stride, SQRT2, dx, dy * stride) for name, dx, dy in DIAGONAL]
        self.moves = tuple(moves)
        self.heuristic = None  # set by use_heuristic, with backward_heuristic
        self.backward_heuristic = None
        self.estimate = None  # the make_estimate use_heuristic attached, with its h: (make_estimate, h)

    # -- cells ---------------------------------------------------------------------------------
    def cell(self, x: int, y: int) -> int:
        return (y + 1) * self.stride + x + 1

    def xy(self, cell: int) -> tuple[int, int]:
        y, x = divmod(cell, self.stride)
        return x - 1, y - 1

    # -- the Problem protocol ----------------------------------------------------------------
    def initial_state(self) -> int:
        return self.start

    def is_goal(self, state: int) -> bool:
        return state == self.goal

    def successors(self, state: int) -> list[tuple[str, int, float]]:
        free = self.free
        out = []
        for action, offset, cost, side1, side2 in self.moves:
            t = state + offset
            if free[t] and (not side1 or (free[state + side1] and free[state + side2])):
                out.append((action, t, cost))
        return out

    def goal_states(self) -> list[int]:
        return [self.goal]

    def predecessors(self, state: int) -> list[tuple[str, int, float]]:
        # a move and its opposite need the same cells free, so the graph is undirected
        return [(OPPOSITE[a], s, c) for a, s, c in self.successors(state)]

    def describe(self, state: int) -> str:
        x, y = self.xy(state)
        return f"({x},{y})"

    # -- heuristics ----------------------------------------------------------------------------
    def use_heuristic(self, make_estimate) -> None:
        """Attach ``make_estimate(dx, dy, connectivity) -> float`` as ``h(cell)``, and the same
        estimate to the start cell as ``backward_heuristic`` (moves are symmetric)."""
        stride, (gx, gy), (sx, sy), conn = self.stride, self.goal_xy, self.start_xy, self.connectivity

        def h(cell: int) -> float:
            y, x = divmod(cell, stride)
            return make_estimate(abs(x - 1 - gx), abs(y - 1 - gy), conn)

        def from_start(cell: int) -> float:
            y, x = divmod(cell, stride)
            return make_estimate(abs(x - 1 - sx), abs(y - 1 - sy), conn)

        self.heuristic = h
        self.backward_heuristic = from_start
        self.estimate = (make_estimate, h)

    # -- compiled rules --------------------------------------------------------------------
    def compiled_rules(self) -> CompiledRules | None:
        """The rules of `searchkit_gridpath.rules` for this grid (`searchkit.kernels.rules` is
        the contract), or None where they cannot give the Python problem's numbers exactly.

        Offered on 4-connected grids (unit costs) with no heuristic or with ``octile``
        (Manhattan distance there).  None on 8-connected grids: diagonal moves cost sqrt(2)
        and the kernels take integer costs only, so the engines run in Python there; None with
        ``euclidean`` (not an integer) or a heuristic another plugin attached.  Builds three
        small numpy arrays (a byte per cell); imports neither numba nor the rules module."""
        if self.connectivity != 4:
            return None
        if self.heuristic is None:
            with_h = 0
        elif self.estimate is not None and self.estimate[0] is octile and self.estimate[1] is self.heuristic:
            with_h = 1
        else:
            return None
        import numpy as np

        (gx, gy), stride = self.goal_xy, self.stride
        names = tuple(name for name, *_rest in self.moves)
        return CompiledRules(
            module="searchkit_gridpath.rules",
            width=1,
            context=(
                np.frombuffer(bytes(self.free), dtype=np.uint8),
                np.array([offset for _name, offset, *_rest in self.moves], dtype=np.int64),
                np.array([stride, self.goal, gy + 1, gx + 1, with_h], dtype=np.int64),
            ),
            encode=lambda cell: np.array([cell], dtype=np.uint64),
            decode=lambda words: int(words[0]),
            action=lambda m, _words: names[m],
            max_moves=4,
        )


def octile(dx: int, dy: int, connectivity: int) -> float:
    """The free-space distance of the move set: octile with diagonals, Manhattan without."""
    if connectivity == 4:
        return dx + dy
    return max(dx, dy) + (SQRT2 - 1) * min(dx, dy)


def euclidean(dx: int, dy: int, connectivity: int) -> float:
    return math.hypot(dx, dy)
