"""A compiled pull search (numba): the greedy pull search (`pull`) at native speed.

The Python pull search expands about 40,000 positions a second; on the levels where the
pulls are the member that gets through (Sasquatch II 44: 434 thousand expansions alone),
its share of the default's time is too short for that.  This is the same search over
arrays, with the push search's parts (`push_kernel`: the position table, the heaps, the
player's reach; `matching_rule`: the incremental matching): from the solved boxes with the player in each
part of the free floor, a step pulls a box from ``x`` to ``x + o`` while the player walks
from ``x + o`` to ``x + 2o``; a box pulled where no start square can be reached is never
stored, nor a position whose boxes cannot each have a start square of their own (the
matching over pull distances, walls only, is infinite).  Two open lists take turns, as
``pull``'s two estimates do: one on the pulls each box needs to its nearest start square,
summed, one on the matching; ties go to the newest position (depth first along a
plateau).  It ends on a position equal to ``target`` (the start, or the gateway).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .matching_rule import BIG, parent_assignment
from .matching_rule import child_h as _child_h
from .push_kernel import (
    M_DUPLICATES,
    M_EXPANDED,
    M_FOREIGN,
    M_GENERATED,
    M_GOAL,
    M_HEAP,
    M_MET,
    M_STAMP,
    M_STATES,
    _reach,
    scratch,
    unpack,
)

# what `compiled_search` calls and reads of a kernel: its functions, return codes and meta slots
__all__ = ["ask", "heap_push", "lookup", "parent_assignment", "reask", "rehash", "run", "scratch"]
__all__ += ["EXHAUSTED", "FULL", "MET", "RUNNING", "SOLVED", "META"]
__all__ += ["M_DUPLICATES", "M_EXPANDED", "M_FOREIGN", "M_GENERATED", "M_GOAL", "M_HEAP", "M_MET"]
__all__ += ["M_STATES"]

# run's return codes
RUNNING, SOLVED, EXHAUSTED, FULL, MET = 0, 1, 2, 3, 4
# meta slots past the push search's: the second list's size, whose turn it is
M_HEAP2, M_TURN = 10, 11
META = 12


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
def _pop_open(hf, hh, hi, meta, slot, closed):
    """The next open position of the list whose size is ``meta[slot]``, or -1 (none left)."""
    while meta[slot] > 0:
        i, meta[slot] = _heap_pop(hf, hh, hi, meta[slot])
        if not closed[i]:
            return i
    return -1


@njit(cache=True)
def run(
    keys,
    parent,
    move,
    closed,
    table,
    asked,
    hf,
    hh,
    hi,
    meta,
    nbr,
    near,
    dist,
    comp,
    target,
    nboxes,
    lists,
    budget,
    occ,
    buf,
    costs,
    ints,
    used,
):
    """Expand up to ``budget`` positions, the ``lists`` (1 or 2) open lists in turns (rows of
    ``hf``/``hh``/``hi``: nearest, matching): RUNNING, SOLVED (``meta[M_GOAL]``: the index of
    the position equal to ``target``), EXHAUSTED, FULL (grow the arrays and call again) or
    MET (``meta[M_MET]``, a position stored that another search reached, as `push_kernel.run`)."""
    seen, seen2, stack, boxlist = buf[0], buf[1], buf[2], buf[7]
    nwords = keys.shape[1]
    width = nwords - 1  # the last word is the player's square
    cap = keys.shape[0]
    mask = table.shape[0] - 1
    room_needed = 4 * nboxes + 1
    sizes = (M_HEAP, M_HEAP2)
    done = 0
    while done < budget:
        if meta[M_MET] >= 0:
            return MET
        room = meta[M_STATES] + room_needed
        if room >= cap or 2 * room >= table.shape[0] or max(meta[M_HEAP], meta[M_HEAP2]) + room_needed >= hf.shape[1]:
            return FULL
        turn = meta[M_TURN]
        meta[M_TURN] = (turn + 1) % lists
        i = _pop_open(hf[turn], hh[turn], hi[turn], meta, sizes[turn], closed)
        if i < 0:
            return EXHAUSTED  # each list holds every position stored: none is open
        closed[i] = 1
        done += 1
        meta[M_EXPANDED] += 1
        n = unpack(keys[i], width, occ, boxlist)
        hnear = 0
        for bi in range(n):
            hnear += near[boxlist[bi]]
        meta[M_STAMP] += 1
        stamp = meta[M_STAMP]
        player = np.int64(keys[i, width])
        _reach(player, occ, nbr, seen2, stamp, stack)
        cost, base = costs[0], costs[1]
        parent_assignment(n, boxlist, dist, comp, player, cost, base, ints, used)
        for k in range(4):  # (by direction, then box: the Python search's order, which ties keep)
            for bi in range(n):
                src = boxlist[bi]
                stand = nbr[src, k]  # the player's square, the box's next
                if stand < 0 or seen2[stand] != stamp or near[stand] >= BIG:
                    continue
                behind = nbr[stand, k]  # where the player steps back to
                if behind < 0 or occ[behind]:
                    continue
                meta[M_GENERATED] += 1
                occ[src] = 0
                occ[stand] = 1
                c = meta[M_STATES]
                for t in range(width):
                    keys[c, t] = keys[i, t]
                keys[c, src >> 6] ^= np.uint64(1) << np.uint64(src & 63)
                keys[c, stand >> 6] ^= np.uint64(1) << np.uint64(stand & 63)
                meta[M_STAMP] += 1
                keys[c, width] = _reach(behind, occ, nbr, seen, meta[M_STAMP], stack)
                occ[stand] = 0
                occ[src] = 1
                slot = _slot(keys, table, keys[c], mask)
                if table[slot]:
                    meta[M_DUPLICATES] += 1
                    continue
                boxlist[bi] = stand
                h = _child_h(n, boxlist, bi, src, player, dist, comp, cost, base, ints, used)
                boxlist[bi] = src
                if h >= BIG:
                    continue  # some box has no start square of its own
                table[slot] = c + 1
                meta[M_STATES] = c + 1
                parent[c] = i
                move[c] = stand * 4 + (k ^ 1)  # the push that undoes the pull
                # ties: the newest first (its index negated)
                meta[M_HEAP] = heap_push(hf[0], hh[0], hi[0], meta[M_HEAP], hnear - near[src] + near[stand], -c, c)
                if lists > 1:
                    meta[M_HEAP2] = heap_push(hf[1], hh[1], hi[1], meta[M_HEAP2], h, -c, c)
                same = True
                for t in range(nwords):
                    if keys[c, t] != target[t]:
                        same = False
                        break
                if same:
                    meta[M_GOAL] = c
                    return SOLVED
                if meta[M_FOREIGN] and meta[M_MET] < 0 and _asked(asked, keys[c]):
                    meta[M_MET] = c  # reached by another search too: answered at this expansion's end
    return RUNNING
