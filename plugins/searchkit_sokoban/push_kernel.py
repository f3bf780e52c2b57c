"""The compiled (numba) parts of Sokoban's positions shared by the push rules (`push_rules`) and
the pull rules (`pull_rules`): the player's reach (`_reach`), a position's words unpacked
into its boxes (`unpack`), the mark counter's slot of their ``memo`` and their scratch arrays
(`scratch`).  A position is its boxes as a bit set in 64-bit words and the player's lowest
reachable square.  The deadlock rules and the matching bound are in `freeze_rule`,
`corral_rule` and `matching_rule` (one source for the kernels and the Python searches).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# the rules' memo: the mark counter (`freeze_rule.freeze_dead` advances it) and its size
M_STAMP = 6
META = 10


@njit(cache=True)
def _low_bit(low):
    """The index of the one set bit of ``low`` (a power of two below 2**64)."""
    b = 0
    for shift in (32, 16, 8, 4, 2, 1):
        if low >> np.uint64(shift):
            b += shift
            low >>= np.uint64(shift)
    return b


@njit(cache=True)
def _reach(player, occ, nbr, seen, stamp, stack):
    """Mark the squares the player reaches (``seen == stamp``); the lowest of them."""
    seen[player] = stamp
    stack[0] = player
    top = 1
    low = player
    while top:
        top -= 1
        x = stack[top]
        if x < low:
            low = x
        for k in range(4):
            y = nbr[x, k]
            if y >= 0 and not occ[y] and seen[y] != stamp:
                seen[y] = stamp
                stack[top] = y
                top += 1
    return low


@njit(cache=True)
def unpack(key, width, occ, boxlist):
    """Mark the boxes of ``key`` (its first ``width`` words) in the emptied ``occ`` and list
    their squares in ``boxlist``, lowest first; how many there are."""
    for x in range(occ.shape[0]):
        occ[x] = 0
    n = 0
    for t in range(width):
        word = key[t]
        first = t * 64
        while word:
            low = word & (~word + np.uint64(1))
            b = first + _low_bit(low)
            occ[b] = 1
            boxlist[n] = b
            n += 1
            word ^= low
    return n


def scratch(size: int, nboxes: int) -> tuple:
    """The working arrays the rules reuse from call to call (a board of ``size`` squares)."""
    n = nboxes + 1
    return (
        np.zeros(size, np.uint8),  # occupied squares
        np.zeros((9, 2 * size + 2), np.int64),  # marks x2, stack, areas, union-find, groups, spare, boxes, cluster
        np.zeros((2, n, n), np.int64),  # the assignment's costs: a child's, the parent's
        np.zeros((9, n), np.int64),  # u, v, p, way, minv; the parent's u, v, p; changed rows
        np.zeros(n, np.bool_),
    )
