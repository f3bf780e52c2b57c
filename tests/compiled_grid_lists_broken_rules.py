"""The cost grid's rules with one estimate per list (`compiled_grid_lists_rules`) and a wrong
``hs_after``: the parent's estimates, not the child's."""

from compiled_grid_lists_rules import apply, h, hs, is_goal, moves, undo
from numba import njit

__all__ = ["apply", "h", "hs", "hs_after", "is_goal", "moves", "undo"]


@njit(cache=True)
def hs_after(s, m, ctx, out):
    hs(s, ctx, out)
