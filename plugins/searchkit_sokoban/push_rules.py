"""Sokoban's compiled push rules (`searchkit.kernels.rules`): single pushes, the matching bound.

A state is its key words only: the boxes as a bit set, square ``x`` bit ``x % 64`` of word
``x // 64`` (``W`` words), then the player's lowest reachable square (the Python problem's
key).  Move ``4 * i + k`` pushes the ``i``-th box (lowest square first) in direction ``k``
(u, d, l, r), listed direction by direction, boxes in order: the order of
`SokobanProblem.successors`.  Each push costs 1.  ``moves`` leaves out a push onto a dead
square, or onto a square from which, with the player behind it, no goal can be reached
(``DEAD``), a push that freezes a box off its goal (``FREEZE``: `freeze_rule.freeze_dead`),
and, with a PI-corral (``CORRAL``: `corral_rule.pi_corral`), every push but those of its
barrier; ``h`` is the matching bound (`matching_rule.parent_assignment`), negative when no
perfect assignment exists (a bipartite deadlock); ``h_after`` matches again only the rows
a push changed (`matching_rule.child_h`).  No ``undo``: a push cannot be taken back from
the child and its code alone, so IDA* runs in Python.

``ctx = (nbr, floor, dead, goal, alive, dist, comp, geo, goals, occ, buf, costs, ints,
used, memo, key)``: the board (`compiled_search.push_context` builds it), then the scratch
arrays the functions share.  What ``moves``, ``apply`` and ``h_after`` need of a position
(its boxes unpacked, the player's squares, its assignment) is worked out once and kept in
the scratch, keyed by the position's words (``key``): a call on another position works it
out afresh, so the answers never depend on the order of the calls.  The context is one
search's: two searches at once each take their own (`push_context`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# the shared parts of the compiled push search (one block, re-pointed when they move)
from .corral_rule import pi_corral
from .freeze_rule import freeze_dead
from .matching_rule import BIG, child_h, parent_assignment
from .push_kernel import M_STAMP, _reach, unpack

__all__ = ["apply", "h", "h_after", "is_goal", "moves"]

# geo: the board's numbers and the pruning on
WORDS, BOXES, FREEZE, CORRAL, DEAD, IMPOSSIBLE = range(6)
# memo slots (and `push_kernel.M_STAMP`, the mark counter `freeze_dead` advances)
LOADED, PSTAMP, ASSIGNED = 0, 1, 2
MEMO = 10


@njit(cache=True, inline="always")
def _load(s, ctx):
    """Unpack position ``s`` into the scratch (boxes, their list, the player's squares marked
    in ``buf[1]`` with ``memo[PSTAMP]``) unless it is there already; the number of boxes."""
    nbr, geo, occ, buf, memo, key = ctx[0], ctx[7], ctx[9], ctx[10], ctx[14], ctx[15]
    w = geo[WORDS]
    if memo[LOADED]:
        same = True
        for t in range(w + 1):
            if key[t] != s[t]:
                same = False
                break
        if same:
            return geo[BOXES]
    for t in range(w + 1):
        key[t] = s[t]
    unpack(s, w, occ, buf[7])
    memo[M_STAMP] += 1
    memo[PSTAMP] = memo[M_STAMP]
    _reach(np.int64(s[w]), occ, nbr, buf[1], memo[PSTAMP], buf[2])
    memo[LOADED] = 1
    memo[ASSIGNED] = 0
    return geo[BOXES]


@njit(cache=True, inline="always")
def moves(s, ctx, out):
    nbr, floor, dead, goal, alive, comp, geo = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4], ctx[6], ctx[7]
    occ, buf, memo = ctx[9], ctx[10], ctx[14]
    if geo[IMPOSSIBLE]:
        return 0
    n = _load(s, ctx)
    boxlist, reached, pstamp, group = buf[7], buf[1], memo[PSTAMP], buf[5]
    best = -1
    if geo[CORRAL]:
        best = pi_corral(occ, reached, pstamp, nbr, floor, dead, goal, boxlist, n, buf[3], buf[4], group, buf[6])
        if best == -2:
            return 0  # a corral no push can open
    count = 0
    for k in range(4):
        for i in range(n):
            src = boxlist[i]
            if best >= 0 and group[src] != best:
                continue
            dst = nbr[src, k]
            back = nbr[src, k ^ 1]
            if dst < 0 or back < 0 or occ[dst] or dead[dst] or reached[back] != pstamp:
                continue
            if geo[DEAD] and not alive[4 * dst + comp[dst, src]]:
                continue
            if geo[FREEZE]:
                occ[src] = 0
                occ[dst] = 1
                frozen = freeze_dead(dst, occ, nbr, dead, goal, buf[0], memo, buf[8])
                occ[dst] = 0
                occ[src] = 1
                if frozen:
                    continue
            out[count] = 4 * i + k
            count += 1
    return count


@njit(cache=True, inline="always")
def apply(s, m, ctx):
    nbr, buf = ctx[0], ctx[10]
    _load(s, ctx)
    src = buf[7, m >> 2]
    _moved(s, ctx, src, nbr[src, m & 3], src)
    return 1


@njit(cache=True, inline="always")
def _moved(s, ctx, src, dst, player):
    """The loaded position ``s`` with its box on ``src`` moved to ``dst`` and the player's
    region word reached from ``player`` (a push or a pull: the player's square after it);
    the loaded occupancy left as it was."""
    nbr, geo, occ, buf, memo = ctx[0], ctx[7], ctx[9], ctx[10], ctx[14]
    s[src >> 6] ^= np.uint64(1) << np.uint64(src & 63)
    s[dst >> 6] ^= np.uint64(1) << np.uint64(dst & 63)
    occ[src] = 0
    occ[dst] = 1
    memo[M_STAMP] += 1
    s[geo[WORDS]] = np.uint64(_reach(player, occ, nbr, buf[0], memo[M_STAMP], buf[2]))
    occ[dst] = 0
    occ[src] = 1


@njit(cache=True, inline="always")
def _assigned(s, ctx):
    """The matching bound of ``s`` (BIG or more: none), its assignment kept for `h_after`."""
    dist, comp, geo, buf, costs, ints, used, memo = ctx[5], ctx[6], ctx[7], ctx[10], ctx[11], ctx[12], ctx[13], ctx[14]
    n = _load(s, ctx)
    player = np.int64(s[geo[WORDS]])
    total = parent_assignment(n, buf[7], dist, comp, player, costs[0], costs[1], ints, used)
    memo[ASSIGNED] = 1
    return total


@njit(cache=True, inline="always")
def h(s, ctx):
    if ctx[7][IMPOSSIBLE]:
        return -1
    total = _assigned(s, ctx)
    return -1 if total >= BIG else total


@njit(cache=True, inline="always")
def h_after(s, m, hs, ctx):
    nbr, dist, comp, geo, buf, costs, ints, used, memo = (
        ctx[0],
        ctx[5],
        ctx[6],
        ctx[7],
        ctx[10],
        ctx[11],
        ctx[12],
        ctx[13],
        ctx[14],
    )
    n = _load(s, ctx)
    if not memo[ASSIGNED]:
        _assigned(s, ctx)
    boxlist = buf[7]
    i = m >> 2
    src = boxlist[i]
    boxlist[i] = nbr[src, m & 3]
    total = child_h(n, boxlist, i, src, np.int64(s[geo[WORDS]]), dist, comp, costs[0], costs[1], ints, used)
    boxlist[i] = src
    return -1 if total >= BIG else total


@njit(cache=True, inline="always")
def is_goal(s, ctx):
    goals = ctx[8]
    for t in range(goals.shape[0]):
        if s[t] != goals[t]:
            return False
    return True
