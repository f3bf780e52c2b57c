"""The sliding-tile puzzle's compiled rules with a pattern database (`searchkit.kernels.rules`).

The moves, the packing and the context are those of `searchkit_npuzzle.rules` (the Manhattan
rules); here ``apply`` also keeps the derived words that make the estimate incremental
(Korf & Felner 2002): per group the table index of the plain and of the mirrored placement
and their values, the two sums, and for rank-indexed tables (`COMPACT`) the tile -> cell
map.  The estimate is the larger of the two sums, as `searchkit_npuzzle.pdb` computes it.
"""

from __future__ import annotations

import numpy as np

from .rules import (
    CELLS,
    CMAP,
    COMPACT,
    FAC,
    GROUP,
    GROUPS,
    GSIZE,
    GTILES,
    IDENT,
    IDX,
    KIND,
    MGROUP,
    MTILES,
    MWEIGHT,
    NBR,
    OFFS,
    PDB,
    POS,
    ROW,
    SUMS,
    VAL,
    WEIGHT,
    _blank,
    _find_blank,
    _slide,
    _tile,
    cost,
    inverse,
    is_goal,
    moves,
    njit,
    undo,
)

__all__ = ["apply", "cost", "derive", "h", "h_after", "inverse", "is_goal", "moves", "undo"]


@njit(cache=True, inline="always")
def _rank(s, tab, g, tiles, cmap, moved, to):
    """The rank-indexed key of the cells (``cmap`` applied) of the tiles of row ``g`` of the
    segment ``tiles``, tile ``moved`` on cell ``to`` (-1: none moved)."""
    row, pos, fac = tab[ROW], tab[POS], tab[FAC]
    r = 0
    used = 0
    for j in range(tab[tab[GSIZE] + g]):
        u = tab[tiles + g * row + j]
        c = tab[cmap + (to if u == moved else np.int64(s[pos + u]))]
        x = used & ((1 << c) - 1)
        count = 0
        while x:
            x &= x - 1
            count += 1
        r += (c - count) * tab[fac + g * row + j]
        used |= 1 << c
    return r


@njit(cache=True, inline="always")
def _key(s, tab, g, t, b, nb, mirror):
    """Group ``g``'s table index (mirrored: of the mirror image) after tile ``t`` slides from
    ``nb`` to ``b``."""
    ng = tab[GROUPS]
    if tab[KIND] == PDB:
        if mirror:
            cmap = tab[CMAP]
            return np.int64(s[tab[IDX] + ng + g]) + (tab[cmap + b] - tab[cmap + nb]) * tab[tab[MWEIGHT] + t]
        return np.int64(s[tab[IDX] + g]) + (b - nb) * tab[tab[WEIGHT] + t]
    if mirror:
        return _rank(s, tab, g, tab[MTILES], tab[CMAP], t, b)
    return _rank(s, tab, g, tab[GTILES], tab[IDENT], t, b)


@njit(cache=True, inline="always")
def apply(s, m, ctx):
    tab, flat = ctx[0], ctx[1]
    t, nb, b = _slide(s, tab, m)
    ng, idx, val, sums, offs = tab[GROUPS], tab[IDX], tab[VAL], tab[SUMS], tab[OFFS]
    g = tab[tab[GROUP] + t]
    k = _key(s, tab, g, t, b, nb, False)
    v = np.int64(flat[tab[offs + g] + k])
    s[sums] = np.uint64(np.int64(s[sums]) + v - np.int64(s[val + g]))
    s[idx + g] = np.uint64(k)
    s[val + g] = np.uint64(v)
    mg = tab[tab[MGROUP] + t]
    if mg >= 0:
        mk = _key(s, tab, mg, t, b, nb, True)
        mv = np.int64(flat[tab[offs + mg] + mk])
        s[sums + 1] = np.uint64(np.int64(s[sums + 1]) + mv - np.int64(s[val + ng + mg]))
        s[idx + ng + mg] = np.uint64(mk)
        s[val + ng + mg] = np.uint64(mv)
    if tab[KIND] == COMPACT:
        s[tab[POS] + t] = np.uint64(b)
        s[tab[POS]] = np.uint64(nb)
    return 1


@njit(cache=True, inline="always")
def derive(s, ctx):
    tab, flat = ctx[0], ctx[1]
    _find_blank(s, tab)
    n, kind = tab[CELLS], tab[KIND]
    ng, idx, val, sums, pos, offs = tab[GROUPS], tab[IDX], tab[VAL], tab[SUMS], tab[POS], tab[OFFS]
    for i in range(2 * ng):
        s[idx + i] = 0
    for p in range(n):
        t = _tile(s, tab, p)
        if kind == COMPACT:
            s[pos + t] = p
        elif t > 0:
            g = tab[tab[GROUP] + t]
            s[idx + g] += np.uint64(p * tab[tab[WEIGHT] + t])
            mg = tab[tab[MGROUP] + t]
            if mg >= 0:
                s[idx + ng + mg] += np.uint64(tab[tab[CMAP] + p] * tab[tab[MWEIGHT] + t])
    mirrored = tab[tab[MGROUP] + 1] >= 0
    plain, other = 0, 0
    for g in range(ng):
        if kind == COMPACT:
            s[idx + g] = _rank(s, tab, g, tab[GTILES], tab[IDENT], -1, 0)
            if mirrored:
                s[idx + ng + g] = _rank(s, tab, g, tab[MTILES], tab[CMAP], -1, 0)
        v = np.int64(flat[tab[offs + g] + np.int64(s[idx + g])])
        s[val + g] = v
        plain += v
        if mirrored:
            mv = np.int64(flat[tab[offs + g] + np.int64(s[idx + ng + g])])
            s[val + ng + g] = mv
            other += mv
        else:
            s[val + ng + g] = 0
    s[sums] = plain
    s[sums + 1] = other


@njit(cache=True, inline="always")
def h(s, ctx):
    sums = ctx[0][SUMS]
    return max(np.int64(s[sums]), np.int64(s[sums + 1]))


@njit(cache=True, inline="always")
def h_after(s, m, hs, ctx):
    tab, flat = ctx[0], ctx[1]
    b = _blank(s, tab)
    nb = tab[tab[NBR] + 4 * b + m]
    t = _tile(s, tab, nb)
    ng, val, sums, offs = tab[GROUPS], tab[VAL], tab[SUMS], tab[OFFS]
    g = tab[tab[GROUP] + t]
    k = _key(s, tab, g, t, b, nb, False)
    plain = np.int64(s[sums]) + np.int64(flat[tab[offs + g] + k]) - np.int64(s[val + g])
    other = np.int64(s[sums + 1])
    mg = tab[tab[MGROUP] + t]
    if mg >= 0:
        mk = _key(s, tab, mg, t, b, nb, True)
        other += np.int64(flat[tab[offs + mg] + mk]) - np.int64(s[val + ng + mg])
    return max(plain, other)
