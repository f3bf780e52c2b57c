"""The 4-connected grid's compiled rules (numba): what `GridProblem.compiled_rules` names.

The contract is `searchkit.kernels.rules`.  The state is one ``uint64`` word, the cell
number of `GridProblem` (the map with a one-cell blocked border, so a step is an addition
and needs no bounds check).  Moves 0-3 are N, S, W, E, the order of
`GridProblem.successors`; each costs 1 and ``m ^ 1`` takes ``m`` back.

``ctx = (free, step, geo)``: ``free`` (``uint8`` per cell, 1 where passable), ``step`` (the
four cell offsets, ``int64``) and ``geo`` (``int64``: the row length, the goal cell, the
goal's row and column, and 1 when the heuristic is Manhattan distance, 0 when there is none).
``h`` is then ``|row - goal row| + |column - goal column|``, the value of the Python
heuristic ``octile`` on a 4-connected grid, or 0.

Imports numba: only the kernels import this module, never the plugin's other code.
"""

import numpy as np
from numba import njit

__all__ = ["apply", "cost", "h", "h_after", "inverse", "is_goal", "moves", "undo"]

STRIDE, GOAL, GOAL_ROW, GOAL_COL, WITH_H = 0, 1, 2, 3, 4  # the entries of geo


@njit(cache=True)
def _distance(cell, geo):
    """Manhattan distance from ``cell`` to the goal (0 without a heuristic)."""
    if geo[WITH_H] == 0:
        return 0
    row = cell // geo[STRIDE]
    col = cell - row * geo[STRIDE]
    return abs(row - geo[GOAL_ROW]) + abs(col - geo[GOAL_COL])


@njit(cache=True)
def moves(s, ctx, out):
    free, step = ctx[0], ctx[1]
    c = np.int64(s[0])
    n = 0
    for d in range(4):
        if free[c + step[d]]:
            out[n] = d
            n += 1
    return n


@njit(cache=True)
def apply(s, m, ctx):
    s[0] = np.uint64(np.int64(s[0]) + ctx[1][m])
    return 1


@njit(cache=True)
def undo(s, m, ctx):
    s[0] = np.uint64(np.int64(s[0]) - ctx[1][m])


@njit(cache=True)
def cost(s, m, ctx):
    return 1


@njit(cache=True)
def inverse(m, ctx):
    return m ^ 1


@njit(cache=True)
def h(s, ctx):
    return _distance(np.int64(s[0]), ctx[2])


@njit(cache=True)
def h_after(s, m, hs, ctx):
    return _distance(np.int64(s[0]) + ctx[1][m], ctx[2])


@njit(cache=True)
def is_goal(s, ctx):
    return np.int64(s[0]) == ctx[2][GOAL]
