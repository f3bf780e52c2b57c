"""Compiled IDA* (Korf 1985) over a domain's compiled rules, resumable in slices of expansions.

The kernel `ida_kernel` is the Python engine's depth-first iteration (`searchkit.engines.
depthfirst`) made iterative over arrays: one mutable state changed by ``apply`` and
restored by ``undo``, and per depth its cost ``g``, estimate ``h``, list of moves, the next
move to try and the move taken.  A child is pruned when ``wg * g + wh * h`` exceeds the
bound (``wg = wh = 1``: IDA*; ``wh / wg > 1``: weighted IDA*, integers so bounds stay
exact); the least pruned value is the next bound.  With the problem's
``cycle_check = "parent"`` a child equal to its grandparent is skipped (by the rules'
``inverse`` without making the move, else by comparing words), otherwise a child equal to
any state on the path.  The goal test runs on generation, on children whose ``h`` is 0
when the heuristic is admissible, else on every child, as in the Python engine.

Same expansions as the Python ``idastar`` when the rules list moves in the order of the
problem's successors: the checks, the order of tests and the counts are the same.  Where
they differ: a child the rules call dead (``h < 0``) is pruned and leaves the next bound
alone (the Python engine's infinity does the same); with ``inverse`` the move back is
counted as a duplicate before any pruning, as the Python engine does.  The deepest path
(``stored``, ``max_frontier``) is read at the limit checks, as in the Python engine, but
these come at other expansions, so those two figures can differ.

Rules that offer ``inverse``, ``h_after`` and ``cost``, under the parent cycle check, run
`ida_pruning_kernel`: the same search in a tighter loop that prices every child before
making its move, on a copy of its parent's words (copy-make: no undo).

`IdaSearch` drives the kernel: it stops after each slice to check the limits (`run`),
grows the path arrays when a path outgrows them, starts each iteration and rebuilds the
answer.  Cost: the path arrays, ``depth * (max_moves + 6)`` words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .codes import (
    BOUND,
    CYCLE_PARENT,
    CYCLE_PATH,
    DEPTH,
    DUPLICATES,
    EXHAUSTED,
    EXPANDED,
    FOUND,
    FULL,
    GENERATED,
    NEXT_BOUND,
    NO_BOUND,
    PAUSED,
    SC_SIZE,
)
from .rules import HAS_H_AFTER, HAS_INVERSE, apply, cost, h, h_after, inverse, is_goal, moves, undo

if TYPE_CHECKING:
    from .run import Driver

FIRST_DEPTH = 64  # path arrays of a new search (doubled when a path needs more)


def ida_kernel(
    s: Any,
    ctx: Any,
    sc: Any,
    words: Any,
    mbuf: Any,
    nmv: Any,
    nxt: Any,
    gs: Any,
    hs: Any,
    pm: Any,
    stop: int,
    wg: int,
    wh: int,
    every: bool,
    cycle: int,
    kw: int,
    cap: int,
) -> int:
    """Go on with the current iteration until it ends (``EXHAUSTED``), reaches a goal
    (``FOUND``, at depth ``sc[DEPTH]``), has expanded ``stop`` nodes (``PAUSED``, before
    expanding the next) or needs deeper path arrays (``FULL``).

    ``s``: the state at depth ``sc[DEPTH]``; ``words[d]``: the state at depth ``d`` (kept
    for the cycle check); ``mbuf[d, :nmv[d]]``: its moves; ``nxt[d]``: the next to try (-1:
    not expanded yet); ``gs``, ``hs``: cost and estimate per depth; ``pm[d]``: the move
    taken at depth ``d``.  ``every``: goal-test every child (the heuristic is not known to
    be 0 at goals).  ``cycle``: `CYCLE_PARENT` or `CYCLE_PATH`.  ``kw``: the key words
    (compared by the cycle check; the derived words past them are saved in ``words`` per
    depth and restored after each ``undo``).  ``cap``: a child whose ``g + h`` reaches it is
    cut for good (an anytime search's incumbent cost), leaving the next bound alone."""
    width = s.shape[0]
    last = nmv.shape[0] - 1
    d = sc[DEPTH]
    bound = sc[BOUND]
    next_bound = sc[NEXT_BOUND]
    expanded = sc[EXPANDED]
    generated = sc[GENERATED]
    duplicates = sc[DUPLICATES]
    by_inverse = HAS_INVERSE and cycle == CYCLE_PARENT
    keep = not by_inverse  # the path's words are compared
    derived = kw < width
    save = keep or derived  # the path's words are kept
    status = EXHAUSTED
    while True:
        if nxt[d] < 0:
            if expanded >= stop:
                status = PAUSED
                break
            if d >= last:
                status = FULL
                break
            expanded += 1
            nmv[d] = moves(s, ctx, mbuf[d])
            nxt[d] = 0
        g = gs[d]
        hd = hs[d]
        n = nmv[d]
        i = nxt[d]
        back = -1
        if by_inverse and d > 0:
            back = inverse(pm[d - 1], ctx)
        advanced = False
        while i < n:
            m = mbuf[d, i]
            i += 1
            generated += 1
            if by_inverse and m == back:
                duplicates += 1
                continue
            ch = 0
            if HAS_H_AFTER:
                ch = h_after(s, m, hd, ctx)
            c = apply(s, m, ctx)
            if keep:
                dup = False
                first = d - 1 if cycle == CYCLE_PARENT else 0
                if first < 0:
                    first = 0
                top = d - 1 if cycle == CYCLE_PARENT else d
                for j in range(first, top + 1):
                    same = True
                    for k in range(kw):
                        if words[j, k] != s[k]:
                            same = False
                            break
                    if same:
                        dup = True
                        break
                if dup:
                    duplicates += 1
                    undo(s, m, ctx)
                    if derived:
                        for k in range(kw, width):
                            s[k] = words[d, k]
                    continue
            if not HAS_H_AFTER:
                ch = h(s, ctx)
            f = wg * (g + c) + wh * ch
            if ch < 0 or f > bound or g + c + ch >= cap:
                if ch >= 0 and f > bound and f < next_bound:
                    next_bound = f
                undo(s, m, ctx)
                if derived:
                    for k in range(kw, width):
                        s[k] = words[d, k]
                continue
            nxt[d] = i
            pm[d] = m
            d += 1
            gs[d] = g + c
            hs[d] = ch
            if (ch == 0 or every) and is_goal(s, ctx):
                status = FOUND
                break
            nxt[d] = -1
            if save:
                for k in range(width):
                    words[d, k] = s[k]
            advanced = True
            break
        if status == FOUND:
            break
        if advanced:
            continue
        if d == 0:
            status = EXHAUSTED
            break
        d -= 1
        undo(s, pm[d], ctx)
        if derived:
            for k in range(kw, width):
                s[k] = words[d, k]
    sc[DEPTH] = d
    sc[NEXT_BOUND] = next_bound
    sc[EXPANDED] = expanded
    sc[GENERATED] = generated
    sc[DUPLICATES] = duplicates
    return status


def ida_pruning_kernel(
    ctx: Any,
    sc: Any,
    words: Any,
    mbuf: Any,
    nmv: Any,
    nxt: Any,
    gs: Any,
    hs: Any,
    pm: Any,
    stop: int,
    wg: int,
    wh: int,
    every: bool,
    cap: int,
) -> int:
    """`ida_kernel` for rules with ``inverse``, ``h_after`` and ``cost`` under the parent
    cycle check: a child is priced and pruned before its move is made, and the move back is
    skipped by its code.  Copy-make: the state at depth ``d`` is ``words[d]`` (derived words
    and all), a child is the parent's row copied to the next and its move made, so backing up
    undoes nothing (measured against make and undo with a restore of the derived words: 13 %
    more expansions a second with 6-6-3 pattern databases).  The same nodes, counts and
    statuses as `ida_kernel` in one tighter loop."""
    width = words.shape[1]
    last = nmv.shape[0] - 1
    d = sc[DEPTH]
    bound = sc[BOUND]
    next_bound = sc[NEXT_BOUND]
    expanded = sc[EXPANDED]
    generated = sc[GENERATED]
    duplicates = sc[DUPLICATES]
    status = EXHAUSTED
    while True:
        if nxt[d] < 0:
            if expanded >= stop:
                status = PAUSED
                break
            if d >= last:
                status = FULL
                break
            expanded += 1
            nmv[d] = moves(words[d], ctx, mbuf[d])
            nxt[d] = 0
        g = gs[d]
        hd = hs[d]
        n = nmv[d]
        i = nxt[d]
        back = inverse(pm[d - 1], ctx) if d > 0 else -1
        advanced = False
        while i < n:
            m = mbuf[d, i]
            i += 1
            generated += 1
            if m == back:
                duplicates += 1
                continue
            ch = h_after(words[d], m, hd, ctx)
            if ch < 0:
                continue
            c = cost(words[d], m, ctx)
            f = wg * (g + c) + wh * ch
            if f > bound:
                if f < next_bound:
                    next_bound = f
                continue
            if g + c + ch >= cap:
                continue
            for k in range(width):  # copy-make: the child is the next row, the parent's row stays
                words[d + 1, k] = words[d, k]
            apply(words[d + 1], m, ctx)
            nxt[d] = i
            pm[d] = m
            d += 1
            gs[d] = g + c
            hs[d] = ch
            if (ch == 0 or every) and is_goal(words[d], ctx):
                status = FOUND
                break
            nxt[d] = -1
            advanced = True
            break
        if status == FOUND:
            break
        if advanced:
            continue
        if d == 0:
            break
        d -= 1
    sc[DEPTH] = d
    sc[NEXT_BOUND] = next_bound
    sc[EXPANDED] = expanded
    sc[GENERATED] = generated
    sc[DUPLICATES] = duplicates
    return status


TEMPLATES = (ida_kernel, ida_pruning_kernel)


class IdaSearch:
    """One compiled IDA* run: the kernel's arrays, iterations and slices.

    ``driver``: the `searchkit.kernels.run.Driver` (rules, generated kernels, the `Run`);
    ``wg``, ``wh``: the integer weights of ``g`` and ``h``."""

    # the path arrays, one row or entry per depth (`ida_kernel`)
    words: Any
    mbuf: Any
    nmv: Any
    nxt: Any
    gs: Any
    hs: Any
    pm: Any

    def __init__(self, driver: Driver, wg: int = 1, wh: int = 1, cap: int | None = None):
        """``cap``: only answers cheaper than it (an anytime search's incumbent cost); the
        Result's ``bound`` then says what the search proved about them (`floor`)."""
        self.driver, self.wg, self.wh = driver, wg, wh
        self.cap = NO_BOUND if cap is None else cap
        self.floor = 0  # a lower bound on the cost of any answer below ``cap``
        self.h0 = 0
        rules, problem = driver.rules, driver.problem
        self.start = driver.encode(problem.initial_state())
        self.s = self.start.copy()
        self.sc = np.zeros(SC_SIZE, dtype=np.int64)
        self.every = not getattr(problem, "heuristic_admissible", False)
        self.cycle = CYCLE_PARENT if getattr(problem, "cycle_check", "path") == "parent" else CYCLE_PATH
        # children priced and pruned before their move is made (`ida_pruning_kernel`)
        self.pruning = self.cycle == CYCLE_PARENT and {"inverse", "h_after", "cost"} <= driver.fns.keys()
        self.depth = 0
        self._arrays(FIRST_DEPTH, rules.width, rules.max_moves)
        self.iterations = self.max_depth = 0

    def _arrays(self, depth: int, width: int, max_moves: int) -> None:
        old = getattr(self, "gs", None)  # None: the first arrays
        words = np.zeros((depth + 1, width), dtype=np.uint64)
        mbuf = np.zeros((depth + 1, max_moves), dtype=np.int64)
        nmv, nxt, gs, hs, pm = (np.zeros(depth + 1, dtype=np.int64) for _ in range(5))
        if old is not None:
            n = self.gs.shape[0]
            words[:n], mbuf[:n] = self.words, self.mbuf
            nmv[:n], nxt[:n], gs[:n], hs[:n], pm[:n] = self.nmv, self.nxt, self.gs, self.hs, self.pm
        self.words, self.mbuf, self.nmv, self.nxt, self.gs, self.hs, self.pm = words, mbuf, nmv, nxt, gs, hs, pm

    def solve(self) -> Result:
        drv = self.driver
        run, fns, ctx = drv.run, drv.fns, drv.rules.context
        if fns["is_goal"](self.start, ctx):
            return self._result(SOLVED, 0)
        h0 = self.h0 = int(fns["h"](self.start, ctx))
        if h0 < 0:
            return self._result(NO_SOLUTION)
        sc = self.sc
        kernel = drv.kernels.ida_pruning_kernel if self.pruning else drv.kernels.ida_kernel
        bound = self.wh * h0
        slices = drv.slices(lambda: drv.replay(self.start, []))
        while True:
            self.iterations += 1
            # what an iteration starting at ``bound`` proves about every answer below the cap:
            # IDA* (equal weights) starts it only when no path has g + h under it; weighted
            # iterations prove only the root's (admissible) estimate
            self.floor = bound // self.wg if self.wg == self.wh else h0
            if run.observer is not None:
                run.observer.iteration(bound if self.wg == 1 else bound / self.wg)
            sc[DEPTH], sc[BOUND], sc[NEXT_BOUND] = 0, bound, NO_BOUND
            self.words[0] = self.start
            self.s[:] = self.start
            self.gs[0], self.hs[0], self.nxt[0] = 0, h0, -1
            while True:
                status = kernel(*self._arguments(ctx, sc, slices.stop(int(sc[EXPANDED]))))
                if status == PAUSED:
                    depth = int(sc[DEPTH])
                    self.max_depth = max(self.max_depth, depth)
                    if slices.check(int(sc[EXPANDED]), int(sc[GENERATED]), depth, bound):
                        return self._result(LIMIT)
                elif status == FULL:
                    depth = 2 * (self.gs.shape[0] - 1)
                    try:
                        self._arrays(depth, drv.rules.width, drv.rules.max_moves)
                    except MemoryError:
                        run.reason = "memory"
                        return self._result(LIMIT)
                elif status == FOUND:
                    return self._result(SOLVED, int(sc[DEPTH]))
                else:
                    break
            if sc[NEXT_BOUND] == NO_BOUND:
                return self._result(NO_SOLUTION)
            bound = int(sc[NEXT_BOUND])

    def _arguments(self, ctx: Any, sc: Any, stop: int) -> tuple[Any, ...]:
        """The kernel's arguments for a slice ending at ``stop`` expansions (`ida_kernel`, or
        `ida_pruning_kernel`, which keeps its states in the path's rows)."""
        path = (
            self.words,
            self.mbuf,
            self.nmv,
            self.nxt,
            self.gs,
            self.hs,
            self.pm,
            stop,
            self.wg,
            self.wh,
            self.every,
        )
        if self.pruning:
            return (ctx, sc, *path, self.cap)
        return (self.s, ctx, sc, *path, self.cycle, self.driver.rules.keys, self.cap)

    def _result(self, status: str, depth: int = 0) -> Result:
        drv, sc = self.driver, self.sc
        path = drv.replay(self.start, [int(m) for m in self.pm[:depth]]) if status == SOLVED else None
        deepest = max(self.max_depth, depth)
        result = drv.result(
            status,
            path,
            expanded=int(sc[EXPANDED]),
            generated=int(sc[GENERATED]),
            duplicates=int(sc[DUPLICATES]),
            iterations=self.iterations,
            max_frontier=deepest,
            stored=deepest + 1,
        )
        if self.cap != NO_BOUND:
            result.bound = self.cap if status == NO_SOLUTION else self.floor
        return result
