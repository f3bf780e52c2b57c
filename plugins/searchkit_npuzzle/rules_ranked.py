"""The sliding-tile puzzle's compiled rules with a pattern database in rank-indexed form
(`searchkit.kernels.rules`): tables too big for base-n indexing, such as 7-8's 8-tile group.

As `searchkit_npuzzle.rules_pdb`, with the index of the moved tile's group (and of its
mirror image) recomputed as the lexicographic rank of the group's cells, from the tile ->
cell map kept in the derived words.
"""

from __future__ import annotations

import numpy as np

from .rules import (
    CELLS,
    CMAP,
    FAC,
    GROUP,
    GROUPS,
    GSIZE,
    GTILES,
    IDENT,
    IDX,
    KEYS,
    MEMO,
    MEMO_SIZE,
    MGROUP,
    MTILES,
    POS,
    ROW,
    _blank,
    _find_blank,
    _nbr,
    _record,
    _slide,
    _tile,
    cost,
    inverse,
    is_goal,
    moves,
    njit,
    undo,
)
from .rules_pdb import account, estimate, h, values

__all__ = ["apply", "cost", "derive", "h", "h_after", "inverse", "is_goal", "moves", "undo"]


@njit(cache=True, inline="always")
def _rank(s, tab, g, tiles, cmap, moved, to):
    """The rank of the cells (``cmap`` applied) of the tiles of row ``g`` of the segment
    ``tiles``, tile ``moved`` on cell ``to`` (-1: none moved), the others where the tile ->
    cell map in the derived words puts them."""
    row, pos, fac = tab[ROW], tab[POS], tab[FAC]
    r = 0
    used = 0
    for j in range(tab[tab[GSIZE] + g]):
        u = tab[tiles + g * row + j]
        c = tab[cmap + (to if u == moved else np.int64(s[pos + u]))]
        x = used & ((1 << c) - 1)  # the cells below c already taken: a 32-bit popcount
        x = x - ((x >> 1) & 0x55555555)
        x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
        x = (((x + (x >> 4)) & 0x0F0F0F0F) * 0x01010101) >> 24
        r += (c - (x & 0xFF)) * tab[fac + g * row + j]
        used |= 1 << c
    return r


@njit(cache=True, inline="always")
def _keys(s, ctx, t, b):
    """``(record, index, mirror index)`` after tile ``t`` slides to ``b`` (`rules_pdb._keys`)."""
    tab = ctx[0]
    g, mg = tab[tab[GROUP] + t], tab[tab[MGROUP] + t]
    k = _rank(s, tab, g, tab[GTILES], tab[IDENT], t, b)
    mk = _rank(s, tab, mg * np.int64(mg >= 0), tab[MTILES], tab[CMAP], t, b)
    return _record(ctx, t), k, mk


@njit(cache=True, inline="always")
def _remembered(s, tab, m):
    """Whether the last move `h_after` priced was ``m`` on a board equal to ``s``'s."""
    at = tab[MEMO]
    same = tab[at] == m
    for i in range(tab[KEYS]):
        same &= np.uint64(tab[at + MEMO_SIZE + i]) == s[i]
    return same


@njit(cache=True, inline="always")
def apply(s, m, ctx):
    tab = ctx[0]
    b = _blank(s, ctx)
    nb = _nbr(ctx, b, m)
    t = _tile(s, ctx, nb)
    at = tab[MEMO]
    if _remembered(s, tab, m):  # IDA* makes the move it has just priced: its ranks are known
        r, k, mk = np.uint64(tab[at + 1]), tab[at + 2], tab[at + 3]
    else:
        r, k, mk = _keys(s, ctx, t, b)
    _slide(s, ctx, m)
    account(s, tab, ctx[1], r, k, mk)
    pos = tab[POS]
    s[pos + t] = np.uint64(b)
    s[pos] = np.uint64(nb)
    return 1


@njit(cache=True, inline="always")
def h_after(s, m, hs, ctx):
    tab = ctx[0]
    b = _blank(s, ctx)
    nb = _nbr(ctx, b, m)
    r, k, mk = _keys(s, ctx, _tile(s, ctx, nb), b)
    at = tab[MEMO]  # remembered for `apply`: a transparent cache, the same answer either way
    tab[at], tab[at + 1], tab[at + 2], tab[at + 3] = m, np.int64(r), k, mk
    for i in range(tab[KEYS]):
        tab[at + MEMO_SIZE + i] = np.int64(s[i])
    return estimate(s, tab, ctx[1], r, k, mk)


@njit(cache=True, inline="always")
def derive(s, ctx):
    tab, flat = ctx[0], ctx[1]
    _find_blank(s, ctx)
    ng, idx, pos = tab[GROUPS], tab[IDX], tab[POS]
    for p in range(tab[CELLS]):
        s[pos + _tile(s, ctx, p)] = p
    mirrored = tab[tab[MGROUP] + 1] >= 0
    for g in range(ng):
        s[idx + g] = _rank(s, tab, g, tab[GTILES], tab[IDENT], -1, 0)
        s[idx + ng + g] = _rank(s, tab, g, tab[MTILES], tab[CMAP], -1, 0) if mirrored else 0
    values(s, tab, flat)
