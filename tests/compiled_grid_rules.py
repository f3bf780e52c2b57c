"""The cost grid's compiled rules (`compiled_domains.Grid`): the walker's cell in one word,
moves 0-3 U, D, L, R.  ``ctx = (costs, nbr, hv, goal)``: the cost of entering each cell (0:
a wall), the cell each move reaches (-1: none), the heuristic's value per cell, the goal."""

import numpy as np
from numba import njit


@njit(cache=True)
def moves(s, ctx, out):
    costs, nbr = ctx[0], ctx[1]
    c = np.int64(s[0])
    n = 0
    for d in range(4):
        t = nbr[c * 4 + d]
        if t >= 0 and costs[t] > 0:
            out[n] = d
            n += 1
    return n


@njit(cache=True)
def apply(s, m, ctx):
    t = ctx[1][np.int64(s[0]) * 4 + m]
    s[0] = np.uint64(t)
    return ctx[0][t]


@njit(cache=True)
def undo(s, m, ctx):
    s[0] = np.uint64(ctx[1][np.int64(s[0]) * 4 + (m ^ 1)])


@njit(cache=True)
def h(s, ctx):
    return ctx[2][np.int64(s[0])]


@njit(cache=True)
def is_goal(s, ctx):
    return np.int64(s[0]) == ctx[3][0]
