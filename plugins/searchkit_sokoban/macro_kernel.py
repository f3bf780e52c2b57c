"""Compiled macro moves (numba): each box's breadth-first walk over the squares it reaches alone.

Why: FESS's children are macro moves (one box to any square it reaches, `fess.MacroMoves`),
and making them was the largest part of the aimed searches' time: py-spy put the Python
walk at 45 % of ``fess-aim``'s time on Sasquatch II 7 (its own loop 16 %, the player's
region after each push 18 %).  Here the walk runs over byte arrays - the boxes, the floor -
and floods the player's region square by square, natively.

`walk` lists the nodes of every box's walk in the order the Python walk meets them: the box's
square, the square it came from, the direction, the node it came from (-1: the box's own
square), the box's index among those asked for, the lowest square of the player's region
there and that region as 64-bit words.  It prunes only with the dead squares seen from the
player's side (the other detectors stay in Python, `fess.MacroMoves`, and drop a node with
everything reached through it: a position reached from a dead one is dead).
"""

from __future__ import annotations

import numpy as np
from numba import njit

ONE = np.uint64(1)
FULL = -1  # `walk`'s answer when its node arrays are full (the caller grows them and asks again)


@njit(cache=True, inline="always")
def _has(words, x):
    return (words[x >> 6] >> np.uint64(x & 63)) & ONE


@njit(cache=True)
def _flood(start, occ, floor, offs, words, stack):
    """The squares of ``floor`` without ``occ`` joined to ``start`` into ``words`` (cleared
    first); returns the lowest of them."""
    words[:] = 0
    words[start >> 6] |= ONE << np.uint64(start & 63)
    stack[0] = start
    top, low = 1, start
    while top:
        top -= 1
        x = stack[top]
        for d in range(4):
            y = x + offs[d]
            if floor[y] and not occ[y] and not _has(words, y):
                words[y >> 6] |= ONE << np.uint64(y & 63)
                if y < low:
                    low = y
                stack[top] = y
                top += 1
    return low


@njit(cache=True)
def _step(src, si, stamp, pos, region, parent, n, occ, pull, level, work):
    """The new nodes one move of the box from ``pos`` (the player's region ``region``)
    makes, appended from ``n``; returns the new count, or `FULL`.  ``level``, ``work``:
    `walk`'s arrays."""
    floor, offs, deadside, side_comp, near = level
    nodes, regions, seen, stack = work
    for k in range(4):
        o = offs[k]
        dst = pos + o
        if dst == src or not floor[dst] or occ[dst]:
            continue
        if pull:  # the player on dst steps back to dst + o, the box follows
            if not _has(region, dst) or not floor[dst + o] or occ[dst + o] or near[dst] < 0:
                continue
            player = dst + o
        else:  # the player on pos - o pushes the box to dst, stepping onto pos
            if not _has(region, pos - o) or deadside[dst, side_comp[dst, k ^ 1]]:
                continue
            player = pos
        known = False  # the box on dst with the player in a region met before
        for d in range(4):
            e = dst * 4 + d
            if seen[e, 0] == stamp and _has(regions[seen[e, 1]], player):
                known = True
                break
        if known:
            continue
        if n >= nodes.shape[0]:
            return FULL
        occ[dst] = 1
        low = _flood(player, occ, floor, offs, regions[n], stack)
        occ[dst] = 0
        slot = 0  # the region's slot: the first side of dst it holds
        while not _has(regions[n], dst + offs[slot]):
            slot += 1
        e = dst * 4 + slot
        seen[e, 0] = stamp
        seen[e, 1] = n
        nodes[n, 0] = dst
        nodes[n, 1] = pos
        nodes[n, 2] = k
        nodes[n, 3] = parent
        nodes[n, 4] = si
        nodes[n, 5] = low
        n += 1
    return n


@njit(cache=True)
def walk(occ, srcs, reach, pull, stamp, level, work):
    """The nodes of the walks of the boxes on ``srcs`` (module docstring), pushed or, with
    ``pull``, pulled (``near[x]`` < 0: a box pulled onto ``x`` is dead).  ``occ``: 1 on the
    boxes' squares (restored on return); ``reach``: the player's region as words; ``level``:
    the floor (1 on its squares), the four steps, per square and side whether a box there is
    dead, per square the side of each direction, and ``near``; ``work``: ``nodes`` [n, 6]
    (square, from, direction, parent, box index, lowest region square), their ``regions``
    [n, words], ``seen`` [size * 4, 2] (per square and slot of its region, the stamp of the
    walk that met it, ``stamp`` + the box index, which the caller moves on past them, and
    the node) and a ``stack`` a square each.  Returns the count of nodes, or `FULL`."""
    nodes, regions = work[0], work[1]
    n = 0
    for si in range(srcs.shape[0]):
        src = srcs[si]
        occ[src] = 0
        first = n
        n = _step(src, si, stamp + si, src, reach, -1, n, occ, pull, level, work)
        q = first
        while n != FULL and q < n:
            n = _step(src, si, stamp + si, nodes[q, 0], regions[q], q, n, occ, pull, level, work)
            q += 1
        occ[src] = 1
        if n == FULL:
            return FULL
    return n
