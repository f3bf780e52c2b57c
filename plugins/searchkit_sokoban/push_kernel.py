"""A compiled push search (numba): best-first over push positions at native speed.

The Python push search (`problem`) prunes more per position but expands about 10,000 a
second; a level of a dozen boxes whose trouble is the order of its boxes, not its dead
ends, needs millions (Sasquatch II 19: 3.6 million by A* on the matching bound).  This is
the same search with the cheap, strong parts only - dead squares, freeze deadlocks, the
matching bound (a minimum-cost assignment of boxes to goals, infinite when none exists),
the player's normalised square - over arrays: a position is its boxes as a bit set in
64-bit words and the player's lowest reachable square; an open-addressing table maps
positions to their index; parents and pushes are kept per index for the path.

Everything here works on plain integer arrays and is driven by `run` in budgets of
expansions, so the Python side (`compiled_search`) can step it inside a portfolio.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .corral_rule import pi_corral as _pi_corral
from .freeze_rule import freeze_dead as _freeze_dead
from .matching_rule import BIG, parent_assignment
from .matching_rule import child_h as _child_h

# run's return codes
RUNNING, SOLVED, EXHAUSTED, FULL, MET = 0, 1, 2, 3, 4
# run's flags
FREEZE, BIPARTITE, CORRAL, REOPEN = 1, 2, 4, 8
# meta array slots
M_STATES, M_HEAP, M_EXPANDED, M_GENERATED, M_DUPLICATES, M_GOAL, M_STAMP, M_REOPENED, M_MET, M_FOREIGN = range(10)
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
def _hash(key):
    h = np.uint64(1469598103934665603)
    for t in range(key.shape[0]):
        h ^= key[t]
        h *= np.uint64(1099511628211)
        h ^= h >> np.uint64(29)
    return h


@njit(cache=True)
def _slot(keys, table, key, mask):
    """The slot of ``table`` holding the position whose key is ``key``, or the empty slot it would take."""
    slot = np.int64(_hash(key) & np.uint64(mask))
    nwords = key.shape[0]
    while True:
        j = table[slot]
        if j == 0:
            return slot
        j -= 1
        same = True
        for t in range(nwords):
            if keys[j, t] != key[t]:
                same = False
                break
        if same:
            return slot
        slot = (slot + 1) & mask


@njit(cache=True)
def lookup(keys, table, query):
    """The index of the stored position whose key is ``query``, or -1."""
    return table[_slot(keys, table, query, table.shape[0] - 1)] - 1


@njit(cache=True)
def _fingerprint(key):
    """A position's 64-bit hash, never 0 (0 marks an empty slot of an asked set)."""
    f = _hash(key)
    return f if f else np.uint64(1)


@njit(cache=True)
def _asked(asked, key):
    """Whether ``key``'s fingerprint is in ``asked`` (an open-addressing set of fingerprints,
    a power of two long): the positions another search reached, as fingerprints only, so
    a match may be another position (the portfolio checks the position itself)."""
    mask = asked.shape[0] - 1
    f = _fingerprint(key)
    slot = np.int64(f & np.uint64(mask))
    while asked[slot]:
        if asked[slot] == f:
            return True
        slot = (slot + 1) & mask
    return False


@njit(cache=True)
def _add_asked(asked, f, meta):
    """Put fingerprint ``f`` in ``asked`` (room checked by the caller); ``meta[M_FOREIGN]`` counts them."""
    mask = asked.shape[0] - 1
    slot = np.int64(f & np.uint64(mask))
    while asked[slot]:
        if asked[slot] == f:
            return
        slot = (slot + 1) & mask
    asked[slot] = f
    meta[M_FOREIGN] += 1


@njit(cache=True)
def ask(keys, table, queries, asked, meta):
    """The row of ``queries`` (positions another search reached) that the first is stored
    here, or -1; the fingerprints of those before it are kept in ``asked``, so that storing
    one of them later is a meeting (``MET``)."""
    mask = table.shape[0] - 1
    for q in range(queries.shape[0]):
        if table[_slot(keys, table, queries[q], mask)]:
            return q
        _add_asked(asked, _fingerprint(queries[q]), meta)
    return -1


@njit(cache=True)
def reask(old, new, meta):
    """Move the fingerprints of ``old`` into the larger, empty ``new``."""
    meta[M_FOREIGN] = 0
    for f in old:
        if f:
            _add_asked(new, f, meta)


@njit(cache=True)
def rehash(keys, count, table):
    """Fill an emptied ``table`` (a power of two long) with the first ``count`` positions."""
    mask = table.shape[0] - 1
    for i in range(count):
        table[_slot(keys, table, keys[i], mask)] = i + 1


@njit(cache=True)
def heap_push(hf, hh, hi, size, f, h, i):
    """Add index ``i`` at ``(f, h)`` to the binary heap of ``size`` entries; the new size."""
    k = size
    hf[k] = f
    hh[k] = h
    hi[k] = i
    while k > 0:
        p = (k - 1) >> 1
        if hf[p] < f or (hf[p] == f and hh[p] <= h):
            break
        hf[k], hh[k], hi[k] = hf[p], hh[p], hi[p]
        k = p
    hf[k] = f
    hh[k] = h
    hi[k] = i
    return size + 1


@njit(cache=True)
def _heap_pop(hf, hh, hi, size):
    """The heap's least ``(f, h)`` entry's index, and the new size."""
    top = hi[0]
    size -= 1
    f, h, i = hf[size], hh[size], hi[size]
    k = 0
    while True:
        c = 2 * k + 1
        if c >= size:
            break
        if c + 1 < size and (hf[c + 1] < hf[c] or (hf[c + 1] == hf[c] and hh[c + 1] < hh[c])):
            c += 1
        if hf[c] > f or (hf[c] == f and hh[c] >= h):
            break
        hf[k], hh[k], hi[k] = hf[c], hh[c], hi[c]
        k = c
    if size > 0:
        hf[k] = f
        hh[k] = h
        hi[k] = i
    return top, size


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
    """The working arrays `run` reuses from call to call (a board of ``size`` squares)."""
    n = nboxes + 1
    return (
        np.zeros(size, np.uint8),  # occupied squares
        np.zeros((9, 2 * size + 2), np.int64),  # marks x2, stack, areas, union-find, groups, spare, boxes, cluster
        np.zeros((2, n, n), np.int64),  # the assignment's costs: a child's, the parent's
        np.zeros((9, n), np.int64),  # u, v, p, way, minv; the parent's u, v, p; changed rows
        np.zeros(n, np.bool_),
    )


@njit(cache=True)
def run(
    keys,
    parent,
    move,
    gs,
    closed,
    table,
    asked,
    hf,
    hh,
    hi,
    meta,
    nbr,
    floor,
    dead,
    goal,
    dist,
    comp,
    nboxes,
    wg,
    wh,
    flags,
    budget,
    occ,
    buf,
    costs,
    ints,
    used,
):
    """Expand up to ``budget`` positions (``f = wg * g + wh * h``, ties to the lower h):
    RUNNING, SOLVED (``meta[M_GOAL]`` is the goal's index), EXHAUSTED or FULL (the arrays
    need room: grow them and call again), or MET (``meta[M_MET]``: a position stored that
    is among the ``meta[M_FOREIGN]`` fingerprints in ``asked``, those another search reached).
    ``flags``: FREEZE, BIPARTITE, CORRAL, REOPEN."""
    seen, seen2, stack, area, uf, group, spare, boxlist, members = (
        buf[0],
        buf[1],
        buf[2],
        buf[3],
        buf[4],
        buf[5],
        buf[6],
        buf[7],
        buf[8],
    )
    nwords = keys.shape[1]
    width = nwords - 1  # the last word is the player's square
    cap = keys.shape[0]
    mask = table.shape[0] - 1
    room_needed = 4 * nboxes + 1
    done = 0
    while done < budget:
        if meta[M_MET] >= 0:
            return MET
        if meta[M_HEAP] == 0:
            return EXHAUSTED
        room = meta[M_STATES] + room_needed
        if room >= cap or 2 * room >= table.shape[0] or meta[M_HEAP] + room_needed >= hf.shape[0]:
            return FULL
        i, meta[M_HEAP] = _heap_pop(hf, hh, hi, meta[M_HEAP])
        if closed[i]:
            continue
        closed[i] = 1
        done += 1
        meta[M_EXPANDED] += 1
        n = unpack(keys[i], width, occ, boxlist)
        allgoal = True
        for bi in range(n):
            if not goal[boxlist[bi]]:
                allgoal = False
                break
        if allgoal:
            meta[M_GOAL] = i
            return SOLVED
        meta[M_STAMP] += 1
        stamp = meta[M_STAMP]
        player = np.int64(keys[i, width])
        _reach(player, occ, nbr, seen2, stamp, stack)
        best = -1
        if flags & CORRAL:
            best = _pi_corral(occ, seen2, stamp, nbr, floor, dead, goal, boxlist, n, area, uf, group, spare)
            if best == -2:
                continue  # a corral no push can open
        cost, base = costs[0], costs[1]
        parent_assignment(n, boxlist, dist, comp, player, cost, base, ints, used)
        g = gs[i] + 1
        for bi in range(n):
            src = boxlist[bi]
            if best >= 0 and group[src] != best:
                continue
            for k in range(4):
                dst = nbr[src, k]
                back = nbr[src, k ^ 1]
                if dst < 0 or back < 0 or occ[dst] or dead[dst] or seen2[back] != stamp:
                    continue
                occ[src] = 0
                occ[dst] = 1
                if not (flags & FREEZE and _freeze_dead(dst, occ, nbr, dead, goal, seen, meta, members)):
                    meta[M_GENERATED] += 1
                    c = meta[M_STATES]
                    for t in range(width):
                        keys[c, t] = keys[i, t]
                    keys[c, src >> 6] ^= np.uint64(1) << np.uint64(src & 63)
                    keys[c, dst >> 6] ^= np.uint64(1) << np.uint64(dst & 63)
                    meta[M_STAMP] += 1
                    keys[c, width] = _reach(src, occ, nbr, seen, meta[M_STAMP], stack)
                    slot = _slot(keys, table, keys[c], mask)
                    j = table[slot] - 1
                    if j >= 0:
                        meta[M_DUPLICATES] += 1
                    # a new position, or a shorter way to one filed (a closed one only when reopening)
                    if j < 0 or (g < gs[j] and (not closed[j] or flags & REOPEN)):
                        boxlist[bi] = dst
                        h = min(_child_h(n, boxlist, bi, src, player, dist, comp, cost, base, ints, used), BIG)
                        boxlist[bi] = src
                        if j < 0 and (h < BIG or not flags & BIPARTITE):  # a new position (row c is unused: open)
                            j = c
                            table[slot] = c + 1
                            meta[M_STATES] = c + 1
                            if meta[M_FOREIGN] and meta[M_MET] < 0 and _asked(asked, keys[c]):
                                meta[M_MET] = c  # reached by another search too: answered at this expansion's end
                        if j >= 0:
                            if closed[j]:
                                closed[j] = 0
                                meta[M_REOPENED] += 1
                            gs[j] = g
                            parent[j] = i
                            move[j] = src * 4 + k
                            meta[M_HEAP] = heap_push(hf, hh, hi, meta[M_HEAP], wg * g + wh * h, h, j)
                occ[dst] = 0
                occ[src] = 1
    return RUNNING
