"""The sliding-tile puzzle's compiled rules (`compiled_puzzle_rules`) with one fault each, for
the check that compares compiled rules with the Python problem (`test_check_compiled`).

Each function below is one rule wrong; each rules module ``compiled_puzzle_broken_apply``,
``_h``, ``_undo`` and ``_moves`` is the good rules with one of them in place, without the
optional functions that would disagree first somewhere else (``h_after`` beside a wrong
``h``, ``inverse`` beside a missing move), so that the fault is what the check reports.
Where each shows:

* ``apply_wrong``: move R (3) makes move D (1) instead wherever D is legal too (a blank
  neither in the bottom row nor in the right column);
* ``h_wrong``: ``h`` one too high where the blank is on cell 0;
* ``undo_wrong``: ``undo`` of move U (0) leaves the state as it is (a blank not in the top row);
* ``moves_wrong``: ``moves`` drops move R (3) where the blank is on cell 4.
"""

import numpy as np
from compiled_puzzle_rules import apply, blank, h, undo
from numba import njit


@njit(cache=True)
def apply_wrong(s, m, ctx):
    b = blank(s[0])
    if m == 3 and ctx[0][b * 4 + 1] >= 0:
        return apply(s, 1, ctx)
    return apply(s, m, ctx)


@njit(cache=True)
def h_wrong(s, ctx):
    return h(s, ctx) + (1 if blank(s[0]) == 0 else 0)


@njit(cache=True)
def undo_wrong(s, m, ctx):
    if m != 0:
        undo(s, m, ctx)


@njit(cache=True)
def moves_wrong(s, ctx, out):
    nbr = ctx[0]
    b = blank(s[0])
    n = 0
    for d in range(4):
        if nbr[b * 4 + d] >= 0 and not (d == 3 and b == 4):
            out[n] = np.int64(d)
            n += 1
    return n
