"""Compiled best-first search (A*, weighted A*, greedy) over a domain's compiled rules.

The kernel `bestfirst_kernel` is the Python `BestFirstSearch` loop (Hart, Nilsson & Raphael
1968; weighted A*, Pohl 1970) over a `searchkit.kernels.table` of states and a
`searchkit.kernels.buckets` queue of slots ordered by ``f = wg * g + wh * h``, then ``h`` (for
greedy, ``wg = 0``: then ``g``, saturated at 2**24 - 1), then insertion order: the Python
engine's bucket queue order, so with moves listed in the order of the problem's successors
both expand the same states in the same order (and count the same).  The goal test is on
expansion (or on generation); a cheaper path to a stored state updates it and queues it
again (``reopen``), the old entry left to be skipped when it comes off the queue (lazy
deletion, as in the Python engine).  A child the rules call dead (``h < 0``) is stored but
never queued (the Python engine queues it at infinity: it expands such states only once
everything else is done, so only a search that exhausts the space counts differently).
A weight that is not a whole number is approximated by two integers
(`searchkit.compiled.integer_weights`): orders within 1/1000 of the weight.

`BestFirst` drives the kernel: slices between limit checks, growing the table and the queue
when the kernel says ``FULL``, stopping at the memory limit, rebuilding the path from the
parent slots.  With the rules' ``inverse``, the child a move back to the parent reaches
is the parent's slot, found without a lookup.  Cost per stored state: a table row
(``8 * key_width + 9`` bytes), its index entry (8 bytes at most 3/4 full) and 4 bytes per
open-list entry (in chunks of 128).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .codes import (
    CHUNK,
    COUNT,
    DUPLICATES,
    EXHAUSTED,
    EXPANDED,
    F_MAX,
    FOUND,
    FREE,
    FRONTIER,
    FULL,
    G_MAX,
    GENERATED,
    GOAL,
    KSIZE,
    MAX_FRONTIER,
    NB,
    NFREE,
    PAUSED,
    QS_SIZE,
    RANGE,
    REOPENED,
    SC_SIZE,
    SEC_BITS,
    SEC_MAX,
    SEQ,
    USED,
)
from .rules import HAS_DERIVE, HAS_H_AFTER, HAS_INVERSE, apply, derive, h, h_after, inverse, is_goal, moves
from .table import Table, add_slot, find_slot

if TYPE_CHECKING:
    from .run import Driver

FIRST_CHUNKS = 1 << 8  # bucket-queue chunks of a new search (32768 entries)
FIRST_BUCKETS = 1 << 10  # bucket records of a new search (distinct keys)


def bestfirst_kernel(
    s: Any,
    p: Any,
    ctx: Any,
    sc: Any,
    keys: Any,
    gtab: Any,
    parent: Any,
    mv: Any,
    index: Any,
    pool: Any,
    links: Any,
    buckets: Any,
    kheap: Any,
    mkeys: Any,
    mvals: Any,
    qs: Any,
    mbuf: Any,
    stop: int,
    wg: int,
    wh: int,
    reopen: bool,
    on_generation: bool,
) -> int:
    """Expand states best first until a goal (``FOUND``, its slot in ``sc[GOAL]``), an
    empty open list (``EXHAUSTED``), ``stop`` expansions (``PAUSED``, the next state left
    queued), a table or queue without room for one more expansion (``FULL``) or a number
    beyond the packed entries (``RANGE``).

    ``s``, ``p``: scratch states; ``keys``, ``gtab``, ``parent``, ``mv``, ``index``: the
    table (`searchkit.kernels.table`); ``pool`` to ``qs``: the bucket queue
    (`searchkit.kernels.buckets`); ``mbuf``: the move buffer.  ``wg``, ``wh``: the weights
    of ``g`` and ``h`` in ``f``."""
    width = s.shape[0]
    kw = keys.shape[1]  # the key words the table holds; the rest are derived
    capacity = keys.shape[0]
    chunks = links.shape[0]
    bcap = buckets.shape[0]
    bmap = mkeys.shape[0] // 2
    mmask = mkeys.shape[0] - 1
    maxm = mbuf.shape[0]
    n = sc[COUNT]
    size = sc[FRONTIER]
    seq = sc[SEQ]
    expanded = sc[EXPANDED]
    generated = sc[GENERATED]
    duplicates = sc[DUPLICATES]
    reopened = sc[REOPENED]
    max_frontier = sc[MAX_FRONTIER]
    sec_mask = (1 << SEC_BITS) - 1
    status = EXHAUSTED
    while size > 0:
        if n + maxm > capacity or qs[NFREE] + chunks - qs[USED] < maxm or qs[NB] + maxm > bcap or qs[NB] + maxm > bmap:
            status = FULL
            break
        b = kheap[0]
        k1 = buckets[b, 0]
        slot = pool[buckets[b, 1]]
        f = k1 >> SEC_BITS
        sec = k1 & sec_mask
        gv = gtab[slot]
        # stale: expanded already, or a cheaper entry for this state was queued after this one
        stale = gv < 0 or (wg > 0 and (f - wh * sec) // wg != gv)
        hp = sec if wg > 0 else f // wh
        if not stale:
            for j in range(kw):
                p[j] = keys[slot, j]
            if HAS_DERIVE:
                derive(p, ctx)
            if not on_generation and is_goal(p, ctx):
                sc[GOAL] = slot
                status = FOUND
            elif expanded >= stop:
                status = PAUSED  # the entry stays first in line
                break
        # the pop, written out: an inlined helper's array arguments cost atomic reference
        # counts on every call (numba): see `searchkit.kernels.buckets`
        head = buckets[b, 1]
        count = buckets[b, 3] - 1
        buckets[b, 3] = count
        if count > 0 and (head + 1) % CHUNK != 0:
            buckets[b, 1] = head + 1
        else:
            c = head // CHUNK  # done with this chunk: to the free list
            nxt = links[c]
            links[c] = qs[FREE]
            qs[FREE] = c
            qs[NFREE] += 1
            if count > 0:
                buckets[b, 1] = nxt * CHUNK
            else:  # the bucket is empty: out of the heap
                ksize = qs[KSIZE] - 1
                qs[KSIZE] = ksize
                if ksize > 0:
                    e = kheap[ksize]
                    ek = buckets[e, 0]
                    j = 0
                    while True:
                        kc = 2 * j + 1
                        if kc >= ksize:
                            break
                        if kc + 1 < ksize and buckets[kheap[kc + 1], 0] < buckets[kheap[kc], 0]:
                            kc += 1
                        if ek < buckets[kheap[kc], 0]:
                            break
                        kheap[j] = kheap[kc]
                        j = kc
                    kheap[j] = e
        size -= 1
        if status == FOUND:
            break
        if stale:
            continue
        expanded += 1
        gtab[slot] = -gv - 1
        back = -1
        if HAS_INVERSE and slot > 0:
            back = inverse(mv[slot], ctx)  # the move back to the parent, whose slot is known
        nm = moves(p, ctx, mbuf)
        for i in range(nm):
            m = mbuf[i]
            generated += 1
            ch = 0
            if HAS_H_AFTER:
                ch = h_after(p, m, hp, ctx)
            for j in range(width):
                s[j] = p[j]
            cg = gv + apply(s, m, ctx)
            if cg > G_MAX:
                status = RANGE
                break
            if m == back:
                r = parent[slot]
            else:
                r = find_slot(keys, index, s)
            if r >= 0:
                child = r
                old = gtab[child]
                closed = old < 0
                if closed:
                    old = -old - 1
                if not reopen or cg >= old:
                    duplicates += 1
                    continue
                if closed:
                    reopened += 1
            else:
                child = n
                add_slot(keys, index, s, -r - 1, child)
                n += 1
            gtab[child] = cg
            parent[child] = slot
            mv[child] = m
            if not HAS_H_AFTER:
                ch = h(s, ctx)
            if on_generation and is_goal(s, ctx):
                sc[GOAL] = child
                status = FOUND
                break
            if ch < 0:
                continue
            if wg > 0:
                sec = ch
                if ch > SEC_MAX:
                    status = RANGE
                    break
            else:
                sec = cg if cg < SEC_MAX else SEC_MAX
            f = wg * cg + wh * ch
            if f > F_MAX:
                status = RANGE
                break
            seq += 1
            # `buckets.bq_push`, written out (as the pop above)
            key = (f << SEC_BITS) | sec
            q = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(33)) & mmask
            while True:
                e = mkeys[q]
                if e == key + 1:
                    b = mvals[q]
                    break
                if e == 0:
                    b = qs[NB]
                    qs[NB] = b + 1
                    mkeys[q] = key + 1
                    mvals[q] = b
                    buckets[b, 0] = key
                    buckets[b, 3] = 0
                    break
                q = (q + 1) & mmask
            count = buckets[b, 3]
            if count == 0 or (buckets[b, 2] + 1) % CHUNK == 0:
                c = qs[FREE]  # a new chunk
                if c >= 0:
                    qs[FREE] = links[c]
                    qs[NFREE] -= 1
                else:
                    c = qs[USED]
                    qs[USED] = c + 1
                links[c] = -1
                last = c * CHUNK
                if count > 0:
                    links[buckets[b, 2] // CHUNK] = c
            else:
                last = buckets[b, 2] + 1
            if count == 0:
                buckets[b, 1] = last
                j = qs[KSIZE]  # the bucket joins the heap of non-empty buckets
                qs[KSIZE] = j + 1
                while j > 0:
                    up = (j - 1) >> 1
                    if buckets[kheap[up], 0] < key:
                        break
                    kheap[j] = kheap[up]
                    j = up
                kheap[j] = b
            pool[last] = child
            buckets[b, 2] = last
            buckets[b, 3] = count + 1
            size += 1
        if size > max_frontier:
            max_frontier = size
        if status == FOUND or status == RANGE:
            break
    sc[COUNT] = n
    sc[FRONTIER] = size
    sc[SEQ] = seq
    sc[EXPANDED] = expanded
    sc[GENERATED] = generated
    sc[DUPLICATES] = duplicates
    sc[REOPENED] = reopened
    sc[MAX_FRONTIER] = max_frontier
    return status


TEMPLATES = (bestfirst_kernel,)


class BestFirst:
    """One compiled best-first run: the table, the bucket queue, slices and growth.

    ``driver``: the `searchkit.kernels.run.Driver`; ``wg``, ``wh``: the integer weights of
    ``g`` and ``h``; ``reopen``: a cheaper path re-queues a state (A*), or the first path is
    kept (greedy); ``on_generation``: the goal test on generation."""

    def __init__(self, driver: Driver, wg: int, wh: int, reopen: bool = True, on_generation: bool = False):
        self.driver, self.wg, self.wh, self.reopen, self.on_generation = driver, wg, wh, reopen, on_generation
        rules = driver.rules
        self.table = Table(rules.keys)
        self.pool = np.empty(FIRST_CHUNKS * CHUNK, dtype=np.int32)
        self.links = np.empty(FIRST_CHUNKS, dtype=np.int32)
        self._allocate_buckets(FIRST_BUCKETS)
        self.qs = np.zeros(QS_SIZE, dtype=np.int64)
        self.qs[FREE] = -1  # no free chunk yet
        self.mbuf = np.zeros(rules.max_moves, dtype=np.int64)
        self.sc = np.zeros(SC_SIZE, dtype=np.int64)
        self.start = driver.encode(driver.problem.initial_state())
        driver.run.watch(self)

    def _allocate_buckets(self, cap: int) -> None:
        self.buckets = np.empty((cap, 4), dtype=np.int64)
        self.kheap = np.empty(cap, dtype=np.int64)
        self.mkeys = np.zeros(2 * cap, dtype=np.int64)
        self.mvals = np.empty(2 * cap, dtype=np.int64)

    def queue_bytes(self) -> int:
        """The bytes of the bucket queue's arrays (their capacity)."""
        return sum(a.nbytes for a in (self.pool, self.links, self.buckets, self.kheap, self.mkeys, self.mvals))

    def bytes(self) -> int:
        """The bytes of the table and the bucket queue (their capacity)."""
        return self.table.bytes() + self.queue_bytes()

    def growth_ahead(self, within: int) -> int:
        """The bytes the next growth allocates if it comes within ``within`` more states
        (`searchkit.tables.growth_ahead`)."""
        n = int(self.sc[COUNT])
        return self.table.growth_bytes() if n + within >= self.table.capacity else 0

    def solve(self) -> Result:
        drv, sc, t = self.driver, self.sc, self.table
        fns, ctx = drv.fns, drv.rules.context
        start = self.start
        h0 = int(fns["h"](start, ctx))
        add = drv.kernels.add_slot
        where = drv.kernels.find_slot(t.keys, t.index, start)
        add(t.keys, t.index, start, -where - 1, 0)
        t.g[0], t.parent[0], t.move[0] = 0, -1, 0
        sc[COUNT] = 1
        if self.on_generation and fns["is_goal"](start, ctx):
            sc[GOAL] = 0
            return self._result(SOLVED)
        if h0 >= 0:
            f, sec = self.wh * h0, (h0 if self.wg > 0 else 0)
            if h0 > (1 << 24) - 1 or f > F_MAX:
                return drv.out_of_range()
            drv.kernels.bq_push(*self._queue(), (f << SEC_BITS) | sec, 0)
            sc[FRONTIER] = 1
            sc[MAX_FRONTIER] = 1
        kernel = drv.kernels.bestfirst_kernel
        s, p = start.copy(), start.copy()
        slices = drv.slices()
        while True:
            status = kernel(
                s,
                p,
                ctx,
                sc,
                t.keys,
                t.g,
                t.parent,
                t.move,
                t.index,
                *self._queue(),
                self.mbuf,
                slices.stop(int(sc[EXPANDED]), int(sc[COUNT])),
                self.wg,
                self.wh,
                self.reopen,
                self.on_generation,
            )
            if status == PAUSED:
                best = int(self.buckets[self.kheap[0], 0] >> SEC_BITS) if sc[FRONTIER] else None
                if slices.check(int(sc[EXPANDED]), int(sc[GENERATED]), int(sc[COUNT]), best):
                    return self._result(LIMIT)
            elif status == FULL:
                if not self._grow():
                    return self._result(LIMIT)
            elif status == FOUND:
                return self._result(SOLVED)
            elif status == RANGE:
                return drv.out_of_range()
            else:
                return self._result(NO_SOLUTION)

    def _grow(self) -> bool:
        """Room for the next expansion: the table or the queue's arrays doubled; False (the run's
        reason set) when that would pass the memory limit."""
        drv, t, n = self.driver, self.table, int(self.sc[COUNT])
        max_moves = drv.rules.max_moves
        if n + max_moves > t.capacity:
            if not drv.room_for(n, t.growth_bytes(), t.capacity):
                return False
            try:
                t.grow(n, drv.kernels.rehash)
            except MemoryError:
                drv.run.reason = "memory"
                return False
        qs = self.qs
        chunks = self.links.shape[0]
        if qs[NFREE] + chunks - qs[USED] < max_moves:
            if not drv.room_for(n, 2 * (self.pool.nbytes + self.links.nbytes), None):
                return False
            try:
                pool = np.empty(2 * chunks * CHUNK, dtype=np.int32)
                links = np.empty(2 * chunks, dtype=np.int32)
            except MemoryError:
                drv.run.reason = "memory"
                return False
            used = int(qs[USED])
            pool[: used * CHUNK], links[:used] = self.pool[: used * CHUNK], self.links[:used]
            self.pool, self.links = pool, links
        nb = int(qs[NB])
        if nb + max_moves > self.buckets.shape[0]:
            old = (self.buckets, self.kheap, self.mkeys, self.mvals)
            if not drv.room_for(n, 2 * sum(a.nbytes for a in old), None):
                return False
            try:
                self._allocate_buckets(2 * self.buckets.shape[0])
            except MemoryError:
                self.buckets, self.kheap, self.mkeys, self.mvals = old
                drv.run.reason = "memory"
                return False
            self.buckets[:nb] = old[0][:nb]
            size = int(qs[KSIZE])
            self.kheap[:size] = old[1][:size]
            drv.kernels.bq_rehash(self.buckets, nb, self.mkeys, self.mvals)
        return True

    def _queue(self) -> tuple[Any, ...]:
        """The bucket queue's arrays, as the kernels take them."""
        return (self.pool, self.links, self.buckets, self.kheap, self.mkeys, self.mvals, self.qs)

    def _result(self, status: str) -> Result:
        drv, sc, t = self.driver, self.sc, self.table
        path = None
        if status == SOLVED:
            path = drv.replay(self.start, drv.path_to(t.parent, t.move, int(sc[GOAL])))
        return drv.result(
            status,
            path,
            expanded=int(sc[EXPANDED]),
            generated=int(sc[GENERATED]),
            duplicates=int(sc[DUPLICATES]),
            reopened=int(sc[REOPENED]),
            max_frontier=int(sc[MAX_FRONTIER]),
            stored=int(sc[COUNT]),
        )
