"""Compiled breadth-first search over a domain's compiled rules.

The table (`searchkit.kernels.table`) is the queue: its rows are in the order states were
reached, so expanding them in slot order is first in, first out, and nothing but the table
is stored.  As the Python ``bfs`` (`searchkit.engines.breadth`), the goal test is on
generation and the first path found to a state is kept; with moves listed in the order of
the problem's successors both expand and count the same.  Cost: a table row and an index
entry per state (about 23 bytes for a one-word state).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .codes import (
    COUNT,
    DUPLICATES,
    EXHAUSTED,
    EXPANDED,
    FOUND,
    FULL,
    G_MAX,
    GENERATED,
    GOAL,
    HEAD,
    MAX_FRONTIER,
    PAUSED,
    RANGE,
    SC_SIZE,
)
from .rules import HAS_DERIVE, apply, derive, is_goal, moves
from .table import Table, add_slot, find_slot

if TYPE_CHECKING:
    from .run import Driver


def bfs_kernel(
    s: Any, p: Any, ctx: Any, sc: Any, keys: Any, gtab: Any, parent: Any, mv: Any, index: Any, mbuf: Any, stop: int
) -> int:
    """Expand the table's rows in order until a child is a goal (``FOUND``, its slot in
    ``sc[GOAL]``), no row is left (``EXHAUSTED``), ``stop`` expansions (``PAUSED``), a
    table without room for one more expansion (``FULL``) or a path cost beyond ``G_MAX``
    (``RANGE``).  ``s``, ``p``: scratch states; ``mbuf``: the move buffer."""
    width = s.shape[0]
    kw = keys.shape[1]  # the key words the table holds; the rest are derived
    capacity = min(keys.shape[0], (index.shape[0] >> 2) * 3)  # the rows the index admits (`table.LOAD`)
    maxm = mbuf.shape[0]
    n = sc[COUNT]
    head = sc[HEAD]
    expanded = sc[EXPANDED]
    generated = sc[GENERATED]
    duplicates = sc[DUPLICATES]
    max_frontier = sc[MAX_FRONTIER]
    status = EXHAUSTED
    while head < n:
        if n + maxm > capacity:
            status = FULL
            break
        if expanded >= stop:
            status = PAUSED
            break
        if n - head > max_frontier:
            max_frontier = n - head
        expanded += 1
        for j in range(kw):
            p[j] = keys[head, j]
        if HAS_DERIVE:
            derive(p, ctx)
        gv = gtab[head]
        nm = moves(p, ctx, mbuf)
        for i in range(nm):
            m = mbuf[i]
            generated += 1
            for j in range(width):
                s[j] = p[j]
            cg = gv + apply(s, m, ctx)
            if cg > G_MAX:
                status = RANGE
                break
            r = find_slot(keys, index, s)
            if r >= 0:
                duplicates += 1
                continue
            add_slot(keys, index, s, -r - 1, n)
            gtab[n] = cg
            parent[n] = head
            mv[n] = m
            n += 1
            if is_goal(s, ctx):
                sc[GOAL] = n - 1
                status = FOUND
                break
        head += 1
        if status == FOUND:
            if n - 1 - head > max_frontier:
                max_frontier = n - 1 - head
            break
        if status == RANGE:
            break
    sc[COUNT] = n
    sc[HEAD] = head
    sc[EXPANDED] = expanded
    sc[GENERATED] = generated
    sc[DUPLICATES] = duplicates
    sc[MAX_FRONTIER] = max_frontier
    return status


TEMPLATES = (bfs_kernel,)


class Breadth:
    """One compiled breadth-first run (``driver``: the `searchkit.kernels.run.Driver`)."""

    def __init__(self, driver: Driver):
        self.driver = driver
        self.table = Table(driver.rules.keys)
        self.mbuf = np.zeros(driver.rules.max_moves, dtype=np.int64)
        self.sc = np.zeros(SC_SIZE, dtype=np.int64)
        self.start = driver.encode(driver.problem.initial_state())
        driver.run.watch(self)

    def bytes(self) -> int:
        """The bytes of the table (its capacity)."""
        return self.table.bytes()

    def growth_ahead(self, within: int) -> int:
        """The bytes the next growth allocates if it comes within ``within`` more states."""
        return self.table.growth_bytes() if int(self.sc[COUNT]) + within >= self.table.capacity else 0

    def solve(self) -> Result:
        drv, sc, t = self.driver, self.sc, self.table
        ctx = drv.rules.context
        where = drv.kernels.find_slot(t.keys, t.index, self.start)
        drv.kernels.add_slot(t.keys, t.index, self.start, -where - 1, 0)
        t.g[0], t.parent[0], t.move[0] = 0, -1, 0
        sc[COUNT] = 1
        if drv.fns["is_goal"](self.start, ctx):
            sc[GOAL] = 0
            return self._result(SOLVED)
        kernel = drv.kernels.bfs_kernel
        s, p = self.start.copy(), self.start.copy()
        slices = drv.slices(lambda: drv.replay(self.start, drv.path_to(t.parent, t.move, 0)))
        while True:
            stop = slices.stop(int(sc[EXPANDED]), int(sc[COUNT]))
            status = kernel(s, p, ctx, sc, t.keys, t.g, t.parent, t.move, t.index, self.mbuf, stop)
            if status == PAUSED:
                if slices.check(int(sc[EXPANDED]), int(sc[GENERATED]), int(sc[COUNT]), None):
                    return self._result(LIMIT)
            elif status == FULL:
                n = int(sc[COUNT])
                if not drv.room_for(n, t.growth_bytes(), t.capacity):
                    return self._result(LIMIT)
                try:
                    t.grow(n, drv.kernels.rehash)
                except MemoryError:
                    drv.run.reason = "memory"
                    return self._result(LIMIT)
            elif status == FOUND:
                return self._result(SOLVED)
            elif status == RANGE:
                return drv.out_of_range()
            else:
                return self._result(NO_SOLUTION)

    def _result(self, status: str) -> Result:
        drv, sc, t = self.driver, self.sc, self.table
        if status == LIMIT:  # the states waiting when the search stopped, as the Python engine counts
            sc[MAX_FRONTIER] = max(sc[MAX_FRONTIER], sc[COUNT] - sc[HEAD])
        path = None
        if status == SOLVED:
            path = drv.replay(self.start, drv.path_to(t.parent, t.move, int(sc[GOAL])))
        return drv.result(
            status,
            path,
            expanded=int(sc[EXPANDED]),
            generated=int(sc[GENERATED]),
            duplicates=int(sc[DUPLICATES]),
            max_frontier=int(sc[MAX_FRONTIER]),
            stored=int(sc[COUNT]),
        )
