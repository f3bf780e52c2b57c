"""The cost grid's compiled rules (`compiled_grid_rules`) with one estimate per open list
(``hs``): ``ctx = (costs, nbr, hv, goal, hvs)``, ``hvs[j, cell]`` the estimate of list ``j``
(negative: dead)."""

import numpy as np
from compiled_grid_rules import apply, h, is_goal, moves, undo
from numba import njit

__all__ = ["apply", "h", "hs", "is_goal", "moves", "undo"]


@njit(cache=True)
def hs(s, ctx, out):
    hvs = ctx[4]
    c = np.int64(s[0])
    for j in range(out.shape[0]):
        out[j] = hvs[j, c]
