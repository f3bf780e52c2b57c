"""Pattern-database estimates of packed-int n-puzzle states, from scratch and per move.

What the generic engines (weighted A*, greedy, ...) use with a ``pdb-*`` heuristic.
Every lookup key of a state - one per group for the plain lookup and one per group for the
mirrored lookup, each the base-n index of `PatternDatabase.sparse` - is held in one int,
key i in bits ``[i * F, (i + 1) * F)``.  A state's keys are the sum of one table entry per
pair of cells (the entry holds both tiles' contributions to every key), so the full
estimate is about a dozen lookups and additions instead of a loop over the tiles.

A move changes the cell of one tile, so it changes one plain key and one mirrored key by
a fixed amount: the incremental successor function adds that precomputed delta to the
parent's keys and looks up just the two entries that changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

CELLS_PER_CHUNK = 2  # cells per table: 2**(2 * bits) entries each (1024 on the 24-puzzle)


def packed_lookups(db: Any, problem: Any) -> tuple[Callable[[int], int], Callable[[int, int], list]] | None:
    """``(h, successors_with_h)`` of `PatternDatabase` ``db`` for ``problem``'s packed
    states, or None when ``db`` has no base-n (sparse) tables."""
    sparse = db.sparse()
    if sparse is None:
        return None
    n, bits, mask, top = problem.n, problem.bits, problem.mask, problem.top
    tables = [t.tobytes() for t in sparse]  # bytes index to small ints fast
    ngroups = len(tables)
    group, weight, mgroup, mweight = db.tile_keys()
    mirror = db.mirror is not None
    cell_map = db.mirror[0] if mirror else list(range(n))
    field = max((n ** len(g) - 1).bit_length() for g in db.groups)
    field_mask = (1 << field) - 1

    # contribution of tile t on cell p to all keys at once
    contrib = [[0] * n for _ in range(n)]
    for t in range(1, n):
        for p in range(n):
            c = (p * weight[t]) << (field * group[t])
            if mirror:
                c += (cell_map[p] * mweight[t]) << (field * (ngroups + mgroup[t]))
            contrib[t][p] = c

    chunks = []  # (shift, table): keys += table[(state >> shift) & chunk_mask]
    chunk_mask = (1 << (bits * CELLS_PER_CHUNK)) - 1
    for first in range(0, n, CELLS_PER_CHUNK):
        cells = range(first, min(first + CELLS_PER_CHUNK, n))
        table = [0] * (chunk_mask + 1)
        for index in range(chunk_mask + 1):
            total = 0
            for j, p in enumerate(cells):
                t = (index >> (bits * j)) & mask
                if t < n:  # other codes never occur in a state
                    total += contrib[t][p]
            table[index] = total
        chunks.append((bits * first, table))

    key_shifts = [(tables[i % ngroups], field * i) for i in range(2 * ngroups if mirror else ngroups)]

    def keys_of(state: int) -> int:
        keys = 0
        for shift, table in chunks:
            keys += table[(state >> shift) & chunk_mask]
        return keys

    def h(state: int) -> int:
        keys = keys_of(state)
        plain = 0
        for table, shift in key_shifts[:ngroups]:
            plain += table[(keys >> shift) & field_mask]
        if not mirror:
            return plain
        other = 0
        for table, shift in key_shifts[ngroups:]:
            other += table[(keys >> shift) & field_mask]
        return plain if plain > other else other

    # per blank cell: (action, bits * p, change, per-tile (key delta, plain slot, mirror slot))
    slots = [None] + [
        (
            group[t],
            field * group[t],
            ngroups + mgroup[t] if mirror else -1,
            field * (ngroups + mgroup[t]) if mirror else 0,
        )
        for t in range(1, n)
    ]
    moves = [
        [(a, sp, change, [(d, slots[t]) for t, d in enumerate(delta)]) for a, _p, sp, change, delta in per_blank]
        for per_blank in problem.moves_with_tile_delta(contrib)
    ]

    def successors_with_h(state: int, _hv: int) -> list:
        keys = keys_of(state)
        vals = [table[(keys >> shift) & field_mask] for table, shift in key_shifts]
        plain = sum(vals[:ngroups])
        other = sum(vals[ngroups:])
        out = []
        for action, sp, change, per_tile in moves[state >> top]:
            t = (state >> sp) & mask
            delta, (g, gshift, mg, mshift) = per_tile[t]
            child_keys = keys + delta
            cp = plain - vals[g] + tables[g][(child_keys >> gshift) & field_mask]
            if mg >= 0:
                co = other - vals[mg] + tables[mg - ngroups][(child_keys >> mshift) & field_mask]
                if co > cp:
                    cp = co
            out.append((action, state + change[t], 1, cp))
        return out

    return h, successors_with_h
