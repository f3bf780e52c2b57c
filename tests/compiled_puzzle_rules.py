"""The sliding-tile puzzle's compiled rules (`compiled_domains.Puzzle`): a board packed in
one word (cell p in bits 4p..4p+3, 0 the blank), moves 0-3 the blank's U, D, L, R.
``ctx = (nbr, md, goal)``: the cell the blank reaches per cell and move (-1: none), the
Manhattan distance of tile t on cell p at ``md[t * cells + p]``, the goal's word."""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

LOW = np.uint64(0x1111111111111111)
ONE, TWO, NIBBLE = np.uint64(1), np.uint64(2), np.uint64(15)


@njit(cache=True, inline="always")
def blank(w):
    x = ~w
    y = x & (x >> ONE)
    y = y & (y >> TWO) & LOW  # bit 4p set where nibble p is 0; the lowest is the blank's cell
    return np.int64(trailing_zeros(y)) >> 2


@njit(cache=True)
def moves(s, ctx, out):
    nbr = ctx[0]
    b = blank(s[0])
    n = 0
    for d in range(4):
        if nbr[b * 4 + d] >= 0:
            out[n] = d
            n += 1
    return n


@njit(cache=True)
def apply(s, m, ctx):
    w = s[0]
    b = blank(w)
    nb = ctx[0][b * 4 + m]
    t = (w >> np.uint64(4 * nb)) & NIBBLE
    s[0] = (w & ~(NIBBLE << np.uint64(4 * nb))) | (t << np.uint64(4 * b))
    return 1


@njit(cache=True)
def undo(s, m, ctx):
    apply(s, m ^ 1, ctx)


@njit(cache=True)
def h(s, ctx):
    md = ctx[1]
    cells = ctx[0].shape[0] // 4
    w = s[0]
    total = 0
    for p in range(cells):
        t = np.int64((w >> np.uint64(4 * p)) & NIBBLE)
        total += md[t * cells + p]
    return total


@njit(cache=True)
def h_after(s, m, hs, ctx):
    md = ctx[1]
    cells = ctx[0].shape[0] // 4
    w = s[0]
    b = blank(w)
    nb = ctx[0][b * 4 + m]
    t = np.int64((w >> np.uint64(4 * nb)) & NIBBLE)
    return hs + md[t * cells + b] - md[t * cells + nb]


@njit(cache=True)
def cost(s, m, ctx):
    return 1


@njit(cache=True)
def inverse(m, ctx):
    return m ^ 1


@njit(cache=True)
def is_goal(s, ctx):
    return s[0] == ctx[2][0]
