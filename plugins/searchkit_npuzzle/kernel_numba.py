"""The compiled (weighted) IDA* kernel of `fastida`, used only when numba is importable.

The depth-first search is iterative: the path (directions, next direction to try, the
estimate at each depth) lives in arrays, so a call can stop after a slice of expansions
and the next call resumes exactly there.  Between slices the Python side checks the
limits (time, nodes, memory, Ctrl-C) and reports progress.  Importing this module without
numba raises ImportError, and `fastida` falls back to its Python search.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from searchkit import LIMIT, NO_SOLUTION, SOLVED, Run

from .blank_paths import finish, neighbours

SLICE = 1 << 18  # nodes the kernel expands between two limit checks

# indices into the scalar array ``sc``
BLANK, DEPTH, BOUND, NEXT_BOUND, EXPANDED, GENERATED = range(6)
PAUSED, FOUND, EXHAUSTED = 0, 1, 2
MANHATTAN, PDB, COMPACT = 0, 1, 2
NO_BOUND = 1 << 40


@njit(cache=True, inline="always")
def _rank(pos, tiles, size, fac, cmap, moved, to):
    """Rank of the cells of ``tiles[:size]`` (``cmap`` applied) with tile ``moved`` on cell ``to``."""
    r = 0
    used = 0
    for j in range(size):
        u = tiles[j]
        c = cmap[to if u == moved else pos[u]]
        x = used & ((1 << c) - 1)  # popcount, 32-bit
        x = x - ((x >> 1) & 0x55555555)
        x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
        x = (((x + (x >> 4)) & 0x0F0F0F0F) * 0x01010101) >> 24
        r += (c - (x & 0xFF)) * fac[j]
        used |= 1 << c
    return r


@njit(cache=True)
def run(
    board,
    sc,
    path,
    nextdir,
    nbr,
    stop,
    kind,
    md,
    n,
    flat,
    offs,
    group,
    weight,
    mgroup,
    mweight,
    cmap,
    keys,
    vals,
    sums,
    gw,
    hw,
    pos,
    gtiles,
    mtiles,
    gsize,
    fac,
    ident,
    cap,
):
    """Go on with the current iteration until it ends, finds the goal or expands ``stop`` nodes.

    A child is pruned when ``gw * g + hw * h`` exceeds the bound: ``gw = hw = 1`` is IDA*,
    ``hw / gw = w > 1`` weighted IDA* (integers, so bounds stay exact).  A child whose
    ``g + h`` reaches ``cap`` (an anytime search's incumbent cost) is cut for good: it
    leaves the next bound alone, and every answer found costs less than ``cap``.

    ``keys``/``vals`` (depth x 2G: the plain groups, then the mirrored ones) and ``sums``
    (depth x 2) hold the heuristic's bookkeeping per depth, so backing up undoes nothing but
    the board.  ``kind`` PDB keys are base-n sums that a move changes by one addition;
    COMPACT keys are lexicographic ranks (tables too big for base-n indexing, e.g. 7-8),
    recomputed for the moved tile's group from ``pos`` (tile -> cell): ``gtiles[g]`` lists
    group g's tiles, ``mtiles[g]`` the tiles whose mirror images they are.  Everything is
    inline (a call passing arrays costs reference counts) and the counters live in locals,
    written back to ``sc`` on return.
    """
    bound = sc[BOUND]
    ng = len(offs)
    d = sc[DEPTH]
    blank = sc[BLANK]
    expanded = sc[EXPANDED]
    generated = sc[GENERATED]
    next_bound = sc[NEXT_BOUND]
    status = EXHAUSTED
    while True:
        if nextdir[d] == 0:
            if expanded >= stop:
                status = PAUSED
                break
            expanded += 1
        advanced = False
        back = path[d - 1] ^ 1 if d > 0 else -1
        cg = (d + 1) * gw
        for dr in range(nextdir[d], 4):
            nb = nbr[blank * 4 + dr]
            if nb < 0 or dr == back:
                continue
            t = board[nb]  # slides from nb into the blank's cell
            generated += 1
            if kind == MANHATTAN:
                ch = sums[d, 0] + md[t * n + blank] - md[t * n + nb]
                f = cg + hw * ch
                if f > bound:
                    if f < next_bound:
                        next_bound = f
                    continue
                if d + 1 + ch >= cap:
                    continue
                sums[d + 1, 0] = ch
            else:
                g = group[t]
                if kind == PDB:
                    k = keys[d, g] + (blank - nb) * weight[t]
                else:
                    k = _rank(pos, gtiles[g], gsize[g], fac[g], ident, t, blank)
                v = np.int64(flat[offs[g] + k])
                hs = sums[d, 0] + v - vals[d, g]
                f = cg + hw * hs
                if f > bound:  # the plain sum alone prunes: no need for the mirror
                    if f < next_bound:
                        next_bound = f
                    continue
                ch = hs
                mg = mgroup[t]
                ms = 0
                if mg >= 0:
                    if kind == PDB:
                        mk = keys[d, ng + mg] + (cmap[blank] - cmap[nb]) * mweight[t]
                    else:
                        mk = _rank(pos, mtiles[mg], gsize[mg], fac[mg], cmap, t, blank)
                    mv = np.int64(flat[offs[mg] + mk])
                    ms = sums[d, 1] + mv - vals[d, ng + mg]
                    f = cg + hw * ms
                    if f > bound:
                        if f < next_bound:
                            next_bound = f
                        continue
                    if ms > ch:
                        ch = ms
                if d + 1 + ch >= cap:
                    continue
                for i in range(2 * ng):
                    keys[d + 1, i] = keys[d, i]
                    vals[d + 1, i] = vals[d, i]
                keys[d + 1, g] = k
                vals[d + 1, g] = v
                sums[d + 1, 0] = hs
                if mg >= 0:
                    keys[d + 1, ng + mg] = mk
                    vals[d + 1, ng + mg] = mv
                    sums[d + 1, 1] = ms
            board[blank] = t
            board[nb] = 0
            pos[t] = blank
            nextdir[d] = dr + 1
            path[d] = dr
            blank = nb
            d += 1
            if ch == 0:
                status = FOUND
                break
            nextdir[d] = 0
            advanced = True
            break
        if status == FOUND:
            break
        if advanced:
            continue
        nextdir[d] = 4
        if d == 0:
            status = EXHAUSTED
            break
        prev = nbr[blank * 4 + (path[d - 1] ^ 1)]  # where the blank came from
        pos[board[prev]] = blank
        board[blank] = board[prev]
        board[prev] = 0
        blank = prev
        d -= 1
    sc[DEPTH] = d
    sc[BLANK] = blank
    sc[EXPANDED] = expanded
    sc[GENERATED] = generated
    sc[NEXT_BOUND] = next_bound
    return status


_warm = False


def warm_up() -> None:
    """Load (or compile, the first time on this machine) the kernel with a trivial search."""
    global _warm
    if _warm:
        return
    nbr = np.array([-1, 2, -1, 1, -1, 3, 0, -1, 0, -1, -1, 3, 1, -1, 2, -1], dtype=np.int64)
    one = np.zeros(1, dtype=np.int64)
    two = np.zeros((4, 2), dtype=np.int64)
    run(
        np.array([0, 1, 2, 3], dtype=np.int64),
        np.zeros(6, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        nbr,
        0,
        MANHATTAN,
        np.zeros(16, dtype=np.int64),
        4,
        np.zeros(1, dtype=np.uint8),
        one,
        one,
        one,
        one,
        one,
        np.arange(4, dtype=np.int64),
        two,
        two.copy(),
        two.copy(),
        1,
        1,
        np.arange(4, dtype=np.int64),
        two,
        two.copy(),
        one,
        two.copy(),
        np.arange(4, dtype=np.int64),
        NO_BOUND,
    )
    _warm = True


def floor_of(gw: int, hw: int, bound: int, h0: int) -> int:
    """What an iteration starting at ``bound`` has proven about every answer below the cap:
    IDA* (weight 1) starts it only when no path has ``g + h`` under it; weighted
    iterations prove only the root's admissible estimate."""
    return bound if gw == hw else h0


class Search:
    """Drives `run` iteration by iteration and slice by slice under the limits.

    ``gw``, ``hw``: the integer weights of g and h in the bound (see `run`); ``tally`` (a
    `searchkit.Run`) keeps the limits, the observer and the engine's name.
    """

    def __init__(self, problem: Any, db: Any, tally: Run, gw: int = 1, hw: int = 1, cap: int | None = None):
        self.problem, self.run = problem, tally
        self.gw, self.hw = gw, hw
        self.cap = NO_BOUND if cap is None else cap
        self.floor = 0  # a lower bound on the cost of any answer below ``cap`` (see `floor_of`)
        self.n = n = problem.n
        self.nbr = np.full(4 * n, -1, dtype=np.int64)
        for b, moves in enumerate(neighbours(problem.width, problem.height)):
            for d, p in moves:
                self.nbr[4 * b + d] = p
        board = list(problem.start)
        self.board = np.array(board, dtype=np.int64)
        self.sc = np.zeros(6, dtype=np.int64)
        self.iterations = 0
        pos = [0] * n
        for p, t in enumerate(board):
            pos[t] = p
        self.pos = np.array(pos, dtype=np.int64)
        self.ident = np.arange(n, dtype=np.int64)
        none = np.zeros((1, 1), dtype=np.int64)
        self.gtiles = self.mtiles = self.fac = none
        self.gsize = np.zeros(1, dtype=np.int64)
        if db is None:
            self.kind = MANHATTAN
            self.md = np.array(problem.manhattan_table(), dtype=np.int64).reshape(-1)
            self.flat = np.zeros(1, dtype=np.uint8)
            self.offs = self.group = self.weight = self.mgroup = self.mweight = np.zeros(1, dtype=np.int64)
            self.cmap = self.ident
            self.root_keys = np.zeros(2, dtype=np.int64)
            self.root_vals = np.zeros(2, dtype=np.int64)
            self.root_sums = np.array([sum(int(self.md[t * n + p]) for p, t in enumerate(board)), 0], dtype=np.int64)
            self.h0 = int(self.root_sums[0])
            return
        self.md = np.zeros(1, dtype=np.int64)
        group, weight, mgroup, mweight = db.tile_keys()
        self.group, self.weight = np.array(group, dtype=np.int64), np.array(weight, dtype=np.int64)
        self.mgroup, self.mweight = np.array(mgroup, dtype=np.int64), np.array(mweight, dtype=np.int64)
        cmap, tile_map = db.mirror if db.mirror is not None else (list(range(n)), list(range(n)))
        self.cmap = np.array(cmap, dtype=np.int64)
        self.kind = PDB if db.sparse() is not None else COMPACT
        self.flat, self.offs = db.flat(sparse=self.kind == PDB)
        keys, mkeys = db.keys(pos, ranked=self.kind == COMPACT)
        if self.kind == COMPACT:
            from .pdb.ranking import rank_factors

            width = max(len(g) for g in db.groups)
            self.gsize = np.array([len(g) for g in db.groups], dtype=np.int64)
            self.gtiles = np.zeros((len(db.groups), width), dtype=np.int64)
            self.mtiles = np.zeros_like(self.gtiles)
            self.fac = np.zeros_like(self.gtiles)
            for i, g in enumerate(db.groups):
                self.gtiles[i, : len(g)] = g
                self.mtiles[i, : len(g)] = [tile_map[t] for t in g]
                self.fac[i, : len(g)] = rank_factors(n, len(g))
        vals = [int(self.flat[o + k]) for o, k in zip(self.offs, keys)]
        mvals = [int(self.flat[o + k]) for o, k in zip(self.offs, mkeys)] if db.mirror is not None else [0] * len(keys)
        self.root_keys = np.array(keys + mkeys, dtype=np.int64)
        self.root_vals = np.array(vals + mvals, dtype=np.int64)
        self.root_sums = np.array([sum(vals), sum(mvals)], dtype=np.int64)
        self.h0 = max(sum(vals), sum(mvals))

    def counts(self) -> dict[str, int]:
        return {"expanded": int(self.sc[EXPANDED]), "generated": int(self.sc[GENERATED]), "iterations": self.iterations}

    def solve(self):
        problem, tally, sc = self.problem, self.run, self.sc  # `run` is the kernel
        observer = tally.observer
        gw, hw = self.gw, self.hw
        if self.h0 == 0:
            return finish(problem, tally, SOLVED)
        bound = hw * self.h0
        limit = tally.guard.max_expanded
        while True:
            self.iterations += 1
            shown = bound if gw == 1 else bound / gw  # in moves, as the observer expects
            self.floor = floor_of(gw, hw, bound, self.h0)
            if observer is not None:
                observer.iteration(shown)
            depth = bound // gw + 2  # no path of the iteration is deeper
            path = np.zeros(depth, dtype=np.int64)
            nextdir = np.zeros(depth, dtype=np.int64)
            keys = np.zeros((depth, len(self.root_keys)), dtype=np.int64)
            vals = np.zeros_like(keys)
            sums = np.zeros((depth, 2), dtype=np.int64)
            keys[0], vals[0], sums[0] = self.root_keys, self.root_vals, self.root_sums
            sc[BLANK] = int(np.flatnonzero(self.board == 0)[0])
            sc[DEPTH] = 0
            sc[BOUND] = bound
            sc[NEXT_BOUND] = NO_BOUND
            while True:
                stop = int(sc[EXPANDED]) + SLICE
                if limit is not None and limit < stop:
                    stop = limit
                status = run(
                    self.board,
                    sc,
                    path,
                    nextdir,
                    self.nbr,
                    stop,
                    self.kind,
                    self.md,
                    self.n,
                    self.flat,
                    self.offs,
                    self.group,
                    self.weight,
                    self.mgroup,
                    self.mweight,
                    self.cmap,
                    keys,
                    vals,
                    sums,
                    gw,
                    hw,
                    self.pos,
                    self.gtiles,
                    self.mtiles,
                    self.gsize,
                    self.fac,
                    self.ident,
                    self.cap,
                )
                if status != PAUSED:
                    break
                if tally.limit_reached(int(sc[EXPANDED]), int(sc[GENERATED]), int(sc[DEPTH]), shown):
                    return finish(problem, tally, LIMIT, **self.counts())
            if status == FOUND:
                return finish(problem, tally, SOLVED, [int(d) for d in path[: sc[DEPTH]]], **self.counts())
            if sc[NEXT_BOUND] == NO_BOUND:
                return finish(problem, tally, NO_SOLUTION, **self.counts())
            bound = int(sc[NEXT_BOUND])
