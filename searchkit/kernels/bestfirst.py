"""Compiled best-first search (A*, weighted A*, greedy) over a domain's compiled rules.

The kernel `bestfirst_kernel` is the Python `BestFirstSearch` loop (Hart, Nilsson & Raphael
1968; weighted A*, Pohl 1970) over a `searchkit.kernels.table` of states and a
`searchkit.kernels.buckets` queue of slots ordered by ``f = wg * g + wh * h``, then ``h`` (for
greedy, ``wg = 0``: then ``g``, saturated at 2**24 - 1, or nothing), then by ``ties``:
``"oldest"`` first (the Python engines' order: the same expansions) or ``"newest"`` first
(deeper on plateaus).  With the rules' ``lists`` (and ``hs``), one queue per estimate, taking
turns as `searchkit.engines.alternation` (Röger & Helmert 2010).  The goal test is on
expansion or on generation; a cheaper path to a stored state updates it and queues it again
(``reopen``), the old entry skipped when it comes off the queue (lazy deletion).  A child the
rules call dead (``h < 0``) is stored but never queued (or, ``store_dead`` off, dropped).  A
weight that is not a whole number is approximated by two integers
(`searchkit.compiled.integer_weights`): orders within 1/1000 of the weight.

`BestFirst` drives the kernel from one start or several (each a root of the table): slices
between limit checks, growing the table and the queues when the kernel says ``FULL``,
stopping at the memory limit, rebuilding the path from the parent slots; or stepped by a
portfolio, meeting searches the other way (`meeting`).  ``reopen``: a cheaper path requeues
a state, updates only one not yet expanded, or does nothing (A*, weighted, greedy).  With the
rules' ``inverse``, the child a move back to the parent reaches is the parent's slot.  Cost
per stored state: a table row (``8 * key_width + 9`` bytes), its index entry (4 bytes at most
3/4 full) and 4 bytes per open-list entry (in chunks of 128).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .buckets import bq_first, bq_pop, bq_push
from .codes import (
    ASKED,
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
    IMPROVE_OPEN,
    KEEP_FIRST,
    KSIZE,
    MAX_FRONTIER,
    MEETING,
    MET,
    NB,
    NFREE,
    PAUSED,
    QS_SIZE,
    RANGE,
    REOPEN_ALL,
    REOPENED,
    SC_SIZE,
    SEC_BITS,
    SEC_MAX,
    TURN,
    USED,
)
from .meeting import asked_has, fingerprint
from .prefetch import prefetch
from .rules import (
    HAS_DERIVE,
    HAS_H_AFTER,
    HAS_HS,
    HAS_HS_AFTER,
    HAS_INVERSE,
    apply,
    derive,
    h,
    h_after,
    hs,
    hs_after,
    inverse,
    is_goal,
    moves,
)
from .table import RESERVE, Table, add_hashed, find_hashed, first_index, hash_words

if TYPE_CHECKING:
    from .run import Driver

FIRST_CHUNKS = 1 << 8  # bucket-queue chunks of a new search (32768 entries)
FIRST_BUCKETS = 1 << 10  # bucket records of a new search (distinct keys)
FIRST_ASKED = 1 << 11  # entries of the first set of fingerprints other searches asked for
TIES = ("oldest", "newest")  # the orders among equal keys (`searchkit.kernels.buckets`)


def bestfirst_kernel(
    kids: Any,
    hashes: Any,
    mcost: Any,
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
    asked: Any,
    hbuf: Any,
    stop: int,
    wg: int,
    wh: int,
    reopen: int,
    on_generation: bool,
    newest: bool,
    by_g: bool,
    store_dead: bool,
) -> int:
    """Expand states best first until a goal (``FOUND``, its slot in ``sc[GOAL]``), an
    empty open list (``EXHAUSTED``), ``stop`` expansions (``PAUSED``, the next state left
    queued), a table or queue without room for one more expansion (``FULL``), a number
    beyond the packed entries (``RANGE``) or, after the expansion that stored it, a state
    whose fingerprint is in ``asked`` (``MET``, its slot in ``sc[MEETING]``; looked up only
    while ``sc[ASKED]`` is not 0: `searchkit.kernels.meeting`).

    ``kids``: a row per move for the children, ``hashes`` their hashes, ``mcost`` their
    moves' costs; ``p``: a scratch state; ``keys``, ``gtab``, ``parent``, ``mv``, ``index``:
    the table (`searchkit.kernels.table`); ``pool`` to ``qs``: one bucket queue per open list
    (`searchkit.kernels.buckets`, each array with a leading axis of lists); ``mbuf``: the
    move buffer; ``hbuf``: the estimates of a child, one per list (the rules' ``hs``).  The
    lists take turns (``sc[TURN]``) giving the next state to expand; the turn passes on
    only with a state expanded, and a list that has none left ends the search (every list
    holds every live state).  ``wg``, ``wh``: the weights of ``g`` and ``h`` in ``f``;
    ``reopen``: what a cheaper path to a stored state does (`KEEP_FIRST`, `IMPROVE_OPEN`,
    `REOPEN_ALL`); ``newest``: ties of equal keys go newest first (else oldest first);
    ``by_g``: with ``wg = 0``, equal ``h`` go lower ``g`` first (else ``h`` alone, then the
    ties); ``store_dead``: a new dead child is stored (a later path to it a duplicate),
    else dropped (never stored, so never a goal either).  A child's estimates are asked
    only when it is new or takes a cheaper path (not for a duplicate).  A state's children
    are made and their index entries prefetched before the first is looked up, and the row
    of the state next in line while this one is expanded (`searchkit.kernels.prefetch`: the
    cache misses overlap)."""
    width = p.shape[0]
    kw = keys.shape[1]  # the key words the table holds; the rest are derived
    capacity = min(keys.shape[0], (index.shape[0] >> 2) * 3)  # the rows the index admits (`table.LOAD`)
    lists = qs.shape[0]
    chunks = links.shape[1]
    bcap = buckets.shape[1]
    bmap = mkeys.shape[1] // 2
    maxm = mbuf.shape[0]
    n = sc[COUNT]
    size = sc[FRONTIER]
    expanded = sc[EXPANDED]
    generated = sc[GENERATED]
    duplicates = sc[DUPLICATES]
    reopened = sc[REOPENED]
    max_frontier = sc[MAX_FRONTIER]
    sec_mask = (1 << SEC_BITS) - 1
    status = EXHAUSTED
    while True:
        if sc[MEETING] >= 0:
            status = MET
            break
        full = n + maxm > capacity
        for q in range(lists):
            if qs[q, NFREE] + chunks - qs[q, USED] < maxm or qs[q, NB] + maxm > bcap or qs[q, NB] + maxm > bmap:
                full = True
        if full:
            status = FULL
            break
        turn = sc[TURN]
        if qs[turn, KSIZE] == 0:
            status = EXHAUSTED
            break
        k1 = buckets[turn, kheap[turn, 0], 0]
        slot = bq_first(pool[turn], buckets[turn], kheap[turn], newest)
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
        bq_pop(links[turn], buckets[turn], kheap[turn], qs[turn], newest)  # read above: a paused search leaves it
        size -= 1
        if status == FOUND:
            break
        if stale:
            continue
        if lists > 1:
            turn = turn + 1 if turn + 1 < lists else 0
            sc[TURN] = turn
        if qs[turn, KSIZE] > 0:  # the row of the state next in line (unless a child goes before it) on its way
            nxt = bq_first(pool[turn], buckets[turn], kheap[turn], newest)
            prefetch(gtab, nxt)
            prefetch(keys[nxt], 0)
            prefetch(parent, nxt)
            prefetch(mv, nxt)
        expanded += 1
        gtab[slot] = -gv - 1
        back = -1
        if HAS_INVERSE and parent[slot] >= 0:
            back = inverse(mv[slot], ctx)  # the move back to the parent, whose slot is known
        nm = moves(p, ctx, mbuf)
        imask = np.uint64(index.shape[0] - 1)
        for i in range(nm):  # the children first, their index entries on their way into the cache
            c = kids[i]
            for j in range(width):
                c[j] = p[j]
            mcost[i] = apply(c, mbuf[i], ctx)
            if mbuf[i] != back:
                hv = hash_words(c, kw)
                hashes[i] = hv
                prefetch(index, hv & imask)
        for i in range(nm):
            m = mbuf[i]
            s = kids[i]
            generated += 1
            cg = gv + mcost[i]
            if cg > G_MAX:
                status = RANGE
                break
            if m == back:
                r = parent[slot]
            else:
                r = find_hashed(keys, index, s, hashes[i])
            if r >= 0:
                child = r
                old = gtab[child]
                closed = old < 0
                if closed:
                    old = -old - 1
                if cg >= old or reopen == KEEP_FIRST or (closed and reopen == IMPROVE_OPEN):
                    duplicates += 1
                    continue
                if closed:
                    reopened += 1
            else:
                child = -1
            if HAS_HS:
                if HAS_HS_AFTER:
                    hs_after(p, m, ctx, hbuf)  # ``p`` is the parent still: the move was made on ``s``
                else:
                    hs(s, ctx, hbuf)
                ch = hbuf[0]
                for q in range(1, lists):
                    if hbuf[q] < 0:
                        ch = -1
            elif HAS_H_AFTER:
                ch = h_after(p, m, hp, ctx)
            else:
                ch = h(s, ctx)
            if child < 0:
                if ch < 0 and not store_dead:
                    continue
                child = n
                add_hashed(keys, index, s, -r - 1, child, hashes[i])
                n += 1
                if sc[ASKED] > 0 and sc[MEETING] < 0 and asked_has(asked, fingerprint(s, kw)):
                    sc[MEETING] = child  # reached by another search too: answered after this expansion
            gtab[child] = cg
            parent[child] = slot
            mv[child] = m
            if on_generation and is_goal(s, ctx):
                sc[GOAL] = child
                status = FOUND
                break
            if ch < 0:
                continue
            for q in range(lists):
                hq = hbuf[q] if HAS_HS else ch
                if wg > 0:
                    sec = hq
                    if hq > SEC_MAX:
                        status = RANGE
                        break
                elif by_g:
                    sec = cg if cg < SEC_MAX else SEC_MAX
                else:
                    sec = 0
                f = wg * cg + wh * hq
                if f > F_MAX:
                    status = RANGE
                    break
                key = (f << SEC_BITS) | sec
                bq_push(pool[q], links[q], buckets[q], kheap[q], mkeys[q], mvals[q], qs[q], key, child, newest)
                size += 1
            if status == RANGE:
                break
        if size > max_frontier:
            max_frontier = size
        if status == FOUND or status == RANGE:
            break
    sc[COUNT] = n
    sc[FRONTIER] = size
    sc[EXPANDED] = expanded
    sc[GENERATED] = generated
    sc[DUPLICATES] = duplicates
    sc[REOPENED] = reopened
    sc[MAX_FRONTIER] = max_frontier
    return status


TEMPLATES = (bestfirst_kernel,)


class BestFirst:
    """One compiled best-first run: the table, the bucket queue, slices and growth; run to
    its end (`solve`) or stepped (`step`, e.g. by a portfolio: `searchkit.engines.portfolio.Steppable`).

    ``driver``: the `searchkit.kernels.run.Driver`; ``wg``, ``wh``: the integer weights of
    ``g`` and ``h``; ``reopen``: what a cheaper path to a stored state does (`REOPEN_ALL`:
    A*; `IMPROVE_OPEN`: only a state not yet expanded takes it; `KEEP_FIRST`: greedy);
    ``on_generation``: the goal test on generation; ``start``: the state to search from
    (default: the problem's initial state); ``starts``: several states to search from at
    once, in place of ``start`` (each a root of the table, queued in that order; a path
    leads from the one its state descends from); ``cap``: the most states the table grows
    to hold (past it the search stops with ``limit``, reason ``"memory"``); ``ties``: which
    of the entries of equal ``f`` and ``h`` (greedy: ``h`` and ``g``) goes first,
    ``"oldest"`` (the Python engines' order: the same expansions) or ``"newest"`` (deeper on
    plateaus); ``by_g``: greedy (``wg = 0``) puts lower ``g`` first among equal ``h``
    (False: ``h`` alone, then ``ties``); ``store_dead``: a dead child is stored (False:
    dropped, as a search that keeps only live states does).  The rules' ``lists`` open
    lists take turns (`bestfirst_kernel`); ``frontier`` counts the entries of them all.

    Stepped, it meets searches the other way as the Python engines do: `knows_any` looks
    their states up and keeps the fingerprints of those not stored yet
    (`searchkit.kernels.meeting`); one of them stored later is decoded into ``fresh`` (when
    the portfolio set a list there), the only states it ever lists."""

    def __init__(
        self,
        driver: Driver,
        wg: int,
        wh: int,
        reopen: int = REOPEN_ALL,
        on_generation: bool = False,
        start: Any = None,
        cap: int | None = None,
        ties: str = "oldest",
        starts: list[Any] | None = None,
        by_g: bool = True,
        store_dead: bool = True,
    ):
        if ties not in TIES:
            raise InputError(f"ties must be one of {', '.join(TIES)}, not {ties!r}")
        self.newest = ties == "newest"
        self.driver, self.wg, self.wh, self.on_generation = driver, wg, wh, on_generation
        self.reopen, self.cap, self.by_g, self.store_dead = int(reopen), cap, by_g, store_dead
        rules = driver.rules
        self.lists = lists = rules.lists
        self.problem = driver.problem
        self.table = Table(rules.keys, first_index(cap), RESERVE if cap is None else min(cap, RESERVE))
        self.pool = np.empty((lists, FIRST_CHUNKS * CHUNK), dtype=np.int32)
        self.links = np.empty((lists, FIRST_CHUNKS), dtype=np.int32)
        self._allocate_buckets(FIRST_BUCKETS)
        self.qs = np.zeros((lists, QS_SIZE), dtype=np.int64)
        self.qs[:, FREE] = -1  # no free chunk yet
        self.hbuf = np.zeros(lists, dtype=np.int64)
        self.mbuf = np.zeros(rules.max_moves, dtype=np.int64)
        self.sc = np.zeros(SC_SIZE, dtype=np.int64)
        self.sc[MEETING] = -1
        self.asked = np.zeros(FIRST_ASKED, dtype=np.uint64)
        if starts is None:
            starts = [driver.problem.initial_state() if start is None else start]
        elif not starts:
            raise InputError("a best-first search needs a state to start from")
        self.starts = [driver.encode(state) for state in starts]
        self.start = self.starts[0]
        self.status: str | None = None
        self.fresh: list[Any] | None = None
        self._slices: Any = None
        driver.run.watch(self)
        self._begin()

    def _allocate_buckets(self, cap: int) -> None:
        lists = self.lists
        self.buckets = np.empty((lists, cap, 4), dtype=np.int64)
        self.kheap = np.empty((lists, cap), dtype=np.int64)
        self.mkeys = np.zeros((lists, 2 * cap), dtype=np.int64)
        self.mvals = np.empty((lists, 2 * cap), dtype=np.int64)

    def queue_bytes(self) -> int:
        """The bytes of the bucket queue's arrays (their capacity)."""
        return sum(a.nbytes for a in (self.pool, self.links, self.buckets, self.kheap, self.mkeys, self.mvals))

    def bytes(self) -> int:
        """The bytes of the table and the bucket queue (their capacity)."""
        return self.table.bytes() + self.queue_bytes()

    @property
    def memory_bytes(self) -> int:
        """The bytes its arrays hold, which retiring it frees (a portfolio's memory limit)."""
        return self.bytes() + int(self.asked.nbytes)

    def growth_ahead(self, within: int) -> int:
        """The bytes the next growth allocates if it comes within ``within`` more states
        (`searchkit.tables.growth_ahead`); none once the table is at its ``cap`` (it stops there)."""
        n, t = int(self.sc[COUNT]), self.table
        if self.cap is not None and t.capacity >= self.cap:
            return 0
        return t.growth_bytes() if n + within >= t.capacity else 0

    # -- the counters (the portfolio and the Result read them) ------------------------------
    @property
    def expanded(self) -> int:
        return int(self.sc[EXPANDED])

    @property
    def generated(self) -> int:
        return int(self.sc[GENERATED])

    @property
    def duplicates(self) -> int:
        return int(self.sc[DUPLICATES])

    @property
    def reopened(self) -> int:
        return int(self.sc[REOPENED])

    @property
    def stored(self) -> int:
        return int(self.sc[COUNT])

    @property
    def frontier(self) -> int:
        return int(self.sc[FRONTIER])

    @property
    def max_frontier(self) -> int:
        return int(self.sc[MAX_FRONTIER])

    @property
    def done(self) -> bool:
        return self.status is not None

    def _begin(self) -> None:
        """The starts in the first rows of the table (each once), queued on every list
        unless dead (a dead one dropped unless ``store_dead``), or the search found at once
        (a start that is a goal, tested on generation)."""
        drv, sc, t = self.driver, self.sc, self.table
        fns, ctx = drv.fns, drv.rules.context
        n = 0
        for start in self.starts:
            where = drv.kernels.find_slot(t.keys, t.index, start)
            if where >= 0:
                continue  # a start given twice
            estimates = self._estimates(start)
            dead = min(estimates) < 0
            if dead and not self.store_dead:
                continue
            drv.kernels.add_slot(t.keys, t.index, start, -where - 1, n)
            t.g[n], t.parent[n], t.move[n] = 0, -1, 0
            n += 1
            sc[COUNT] = n
            if self.on_generation and fns["is_goal"](start, ctx):
                sc[GOAL] = n - 1
                self.status = SOLVED
                return
            if dead:
                continue
            for q, h0 in enumerate(estimates):
                f, sec = self.wh * h0, (h0 if self.wg > 0 else 0)
                if h0 > (1 << 24) - 1 or f > F_MAX:
                    drv.out_of_range()
                drv.kernels.bq_push(*self._queue(q), (f << SEC_BITS) | sec, n - 1, self.newest)
                sc[FRONTIER] += 1
        sc[MAX_FRONTIER] = sc[FRONTIER]
        if n == 0:
            self.status = NO_SOLUTION  # every start dead
        start = self.start
        self._kids = np.empty((drv.rules.max_moves, start.shape[0]), dtype=start.dtype)
        self._hashes = np.empty(drv.rules.max_moves, dtype=np.uint64)
        self._costs = np.empty(drv.rules.max_moves, dtype=np.int64)
        self._p = start.copy()

    def _estimates(self, words: Any) -> list[int]:
        """The estimates of the state ``words``, one per open list (the rules' ``hs``, else ``h``)."""
        fns, ctx = self.driver.fns, self.driver.rules.context
        if "hs" in fns:
            fns["hs"](words, ctx, self.hbuf)
            return [int(v) for v in self.hbuf]
        return [int(fns["h"](words, ctx))]

    def solve(self) -> Result:
        """Run to a goal, the end of the space or a limit: the `Result`."""
        self.step()
        return self.result()

    def step(self, budget: int | None = None) -> bool:
        """Expand up to ``budget`` states (None: until the search ends, the limits checked
        between slices); True once it is over (``status`` set).  Stepped, it returns early
        when it stores a state another search asked for, listed in ``fresh``."""
        if self.status is not None:
            return True
        drv, sc, t = self.driver, self.sc, self.table
        kernel = drv.kernels.bestfirst_kernel
        if budget is None and self._slices is None:
            self._slices = drv.slices(lambda: self._path(0))  # the root's path: the path kernels loaded
        end = None if budget is None else int(sc[EXPANDED]) + max(1, budget)
        while True:
            if end is None:
                stop = self._slices.stop(int(sc[EXPANDED]), int(sc[COUNT]))
            else:
                stop = end
            status = kernel(
                self._kids,
                self._hashes,
                self._costs,
                self._p,
                drv.rules.context,
                sc,
                t.keys,
                t.g,
                t.parent,
                t.move,
                t.index,
                *self._queue(),
                self.mbuf,
                self.asked,
                self.hbuf,
                stop,
                self.wg,
                self.wh,
                self.reopen,
                self.on_generation,
                self.newest,
                self.by_g,
                self.store_dead,
            )
            if status == PAUSED:
                if end is not None:
                    return False
                best = int(self.buckets[0, self.kheap[0, 0], 0] >> SEC_BITS) if self.qs[0, KSIZE] else None
                if self._slices.check(int(sc[EXPANDED]), int(sc[GENERATED]), int(sc[COUNT]), best):
                    self.status = LIMIT
            elif status == FULL:
                if not self._grow():
                    self.status = LIMIT
            elif status == MET:
                met = int(sc[MEETING])
                sc[MEETING] = -1
                if self.fresh is not None:
                    self.fresh.append(self._decode(met))
                    return False
            elif status == FOUND:
                self.status = SOLVED
            elif status == RANGE:
                drv.out_of_range()
            else:
                self.status = NO_SOLUTION
            if self.status is not None:
                return True

    def _decode(self, slot: int) -> Any:
        """The Python state of the table's row ``slot``."""
        return self.driver.rules.decode(self.table.keys[slot].copy())

    def _slot(self, state: Any) -> int:
        """The table's row of ``state``, or -1."""
        keys = self._encode_keys([state])[0]
        t = self.table
        return max(-1, int(self.driver.kernels.find_slot(t.keys, t.index, keys)))

    def _encode_keys(self, states: list[Any]) -> Any:
        """The key words of ``states``, one row each."""
        rules = self.driver.rules
        if rules.encode_rows is not None:
            return rules.encode_rows(states)
        rows = np.empty((len(states), rules.keys), dtype=np.uint64)
        for i, state in enumerate(states):
            rows[i] = rules.encode(state)
        return rows

    def knows(self, state: Any) -> bool:
        """Whether ``state`` is stored (`knows_any` of one)."""
        return self.knows_any([state]) >= 0

    def knows_any(self, states: list[Any]) -> int:
        """The index in ``states`` of the first one stored, or -1; the fingerprints of those
        before it are kept, so that storing one later is a meeting (`step`)."""
        if not states:
            return -1
        need = 2 * (int(self.sc[ASKED]) + len(states))
        if need >= self.asked.shape[0]:
            size = self.asked.shape[0]
            while need >= size:
                size *= 2
            self.grow_asked(size)
        t = self.table
        return int(self.driver.kernels.ask_kernel(t.keys, t.index, self._encode_keys(states), self.asked, self.sc))

    def grow_asked(self, size: int) -> None:
        """The fingerprints asked for moved to a set of ``size`` entries (a power of two)."""
        bigger = np.zeros(size, dtype=np.uint64)
        self.sc[ASKED] = self.driver.kernels.reask(self.asked, bigger)
        self.asked = bigger

    def path(self) -> tuple[list[Any], list[Any], Any]:
        """``(actions, states, cost)`` from the start to the goal found."""
        return self._path(int(self.sc[GOAL]))

    def path_to(self, state: Any) -> tuple[list[Any], list[Any], Any]:
        """``(actions, states, cost)`` from the start to ``state`` (stored)."""
        slot = self._slot(state)
        if slot < 0:
            raise KeyError(state)
        return self._path(slot)

    def _path(self, slot: int) -> tuple[list[Any], list[Any], Any]:
        drv, t = self.driver, self.table
        if len(self.starts) == 1:
            start = self.start
        else:  # the row of the start it descends from (a start may have been dropped: dead)
            start = drv.rules.words(t.keys[int(drv.kernels.root_of(t.parent, slot))], drv.fns.get("derive"))
        return drv.replay(start, drv.path_to(t.parent, t.move, slot))

    def _grow(self) -> bool:
        """Room for the next expansion: the table or the queue's arrays doubled; False (the run's
        reason set) when that would pass the memory limit."""
        drv, t, n = self.driver, self.table, int(self.sc[COUNT])
        max_moves = drv.rules.max_moves
        if n + max_moves > t.capacity:
            if self.cap is not None and t.capacity >= self.cap:
                drv.run.reason = "memory"  # the most this search's table may hold
                return False
            if not drv.room_for(n, t.growth_bytes(), t.capacity):
                return False
            try:
                t.grow(n, drv.kernels.rehash)
            except MemoryError:
                drv.run.reason = "memory"
                return False
        qs = self.qs
        chunks = self.links.shape[1]
        if int((qs[:, NFREE] + chunks - qs[:, USED]).min()) < max_moves:
            if not drv.room_for(n, 2 * (self.pool.nbytes + self.links.nbytes), None):
                return False
            try:
                pool = np.empty((self.lists, 2 * chunks * CHUNK), dtype=np.int32)
                links = np.empty((self.lists, 2 * chunks), dtype=np.int32)
            except MemoryError:
                drv.run.reason = "memory"
                return False
            used = int(qs[:, USED].max())
            pool[:, : used * CHUNK], links[:, :used] = self.pool[:, : used * CHUNK], self.links[:, :used]
            self.pool, self.links = pool, links
        nb = int(qs[:, NB].max())
        if nb + max_moves > self.buckets.shape[1]:
            old = (self.buckets, self.kheap, self.mkeys, self.mvals)
            if not drv.room_for(n, 2 * sum(a.nbytes for a in old), None):
                return False
            try:
                self._allocate_buckets(2 * self.buckets.shape[1])
            except MemoryError:
                self.buckets, self.kheap, self.mkeys, self.mvals = old
                drv.run.reason = "memory"
                return False
            for q in range(self.lists):
                nbq, size = int(qs[q, NB]), int(qs[q, KSIZE])
                self.buckets[q, :nbq] = old[0][q, :nbq]
                self.kheap[q, :size] = old[1][q, :size]
                drv.kernels.bq_rehash(self.buckets[q], nbq, self.mkeys[q], self.mvals[q])
        return True

    def _queue(self, q: int | None = None) -> tuple[Any, ...]:
        """The bucket queues' arrays, as the kernel takes them (a leading axis of lists), or
        those of list ``q`` alone, as the queue's functions take them."""
        arrays = (self.pool, self.links, self.buckets, self.kheap, self.mkeys, self.mvals, self.qs)
        return arrays if q is None else tuple(a[q] for a in arrays)

    def result(self) -> Result:
        """The `Result` of the search as it stands (``limit`` while not over)."""
        out: Result = self.driver.run.result_of(self)
        out.compiled = True
        return out
