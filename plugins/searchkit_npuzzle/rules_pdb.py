"""The sliding-tile puzzle's compiled rules with a pattern database in base-n form
(`searchkit.kernels.rules`; rank-indexed tables: `searchkit_npuzzle.rules_ranked`).

The moves, the packing and the context are those of `searchkit_npuzzle.rules` (the Manhattan
rules); here ``apply`` also keeps the derived words that make the estimate incremental
(Korf & Felner 2002): per group the table index of the plain and of the mirrored placement
and their values, and the two sums.  A base-n index changes by one addition when a tile
moves.  The estimate is the larger of the two sums, as `searchkit_npuzzle.pdb` computes it.
`account` and `estimate` are shared with the rank-indexed rules; like every hot path here
they hold no branch around the arrays (a tile without a mirror image, ``mgroup`` -1, is
handled by arithmetic), which keeps numba's reference counting out of the kernels' loops.
"""

from __future__ import annotations

import numpy as np

from .rules import (
    CELLS,
    CMAP,
    GROUP,
    GROUPS,
    IDX,
    MGROUP,
    MWEIGHT,
    NBR,
    OFFS,
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

__all__ = ["account", "apply", "cost", "derive", "estimate", "h", "h_after", "inverse", "is_goal"]
__all__ += ["moves", "undo"]


@njit(cache=True, inline="always")
def account(s, tab, flat, g, k, mg, mk):
    """Write group ``g``'s new index ``k`` and its value, and (``mg >= 0``) mirror group ``mg``'s
    index ``mk`` and value, into the derived words, the sums with them."""
    ng, idx, val, sums, offs = tab[GROUPS], tab[IDX], tab[VAL], tab[SUMS], tab[OFFS]
    v = np.int64(flat[tab[offs + g] + k])
    s[sums] = np.uint64(np.int64(s[sums]) + v - np.int64(s[val + g]))
    s[idx + g] = np.uint64(k)
    s[val + g] = np.uint64(v)
    on = np.int64(mg >= 0)  # 0: no mirror image, the mirror's words stay as they are
    at = ng + mg * on
    old_k, old_v = np.int64(s[idx + at]), np.int64(s[val + at])
    mk = old_k + on * (mk - old_k)
    mv = old_v + on * (np.int64(flat[tab[offs + mg * on] + mk]) - old_v)
    s[sums + 1] = np.uint64(np.int64(s[sums + 1]) + mv - old_v)
    s[idx + at] = np.uint64(mk)
    s[val + at] = np.uint64(mv)


@njit(cache=True, inline="always")
def estimate(s, tab, flat, g, k, mg, mk):
    """The estimate with group ``g`` at index ``k`` and (``mg >= 0``) mirror group ``mg`` at
    ``mk``, the other groups as the derived words hold them: the larger of the two sums."""
    ng, val, sums, offs = tab[GROUPS], tab[VAL], tab[SUMS], tab[OFFS]
    plain = np.int64(s[sums]) + np.int64(flat[tab[offs + g] + k]) - np.int64(s[val + g])
    on = np.int64(mg >= 0)
    mg *= on
    other = np.int64(s[sums + 1]) + on * (np.int64(flat[tab[offs + mg] + mk * on]) - np.int64(s[val + ng + mg]))
    return plain + (other - plain) * np.int64(other > plain)


@njit(cache=True, inline="always")
def _keys(s, tab, t, b, nb):
    """``(group, index, mirror group, mirror index)`` after tile ``t`` slides from ``nb`` to ``b``."""
    ng, idx, cmap = tab[GROUPS], tab[IDX], tab[CMAP]
    g, mg = tab[tab[GROUP] + t], tab[tab[MGROUP] + t]
    on = np.int64(mg >= 0)
    k = np.int64(s[idx + g]) + (b - nb) * tab[tab[WEIGHT] + t]
    mk = np.int64(s[idx + ng + mg * on]) + on * (tab[cmap + b] - tab[cmap + nb]) * tab[tab[MWEIGHT] + t]
    return g, k, mg, mk


@njit(cache=True, inline="always")
def apply(s, m, ctx):
    tab = ctx[0]
    b = _blank(s, tab)
    nb = tab[tab[NBR] + 4 * b + m]
    g, k, mg, mk = _keys(s, tab, _tile(s, ctx, nb), b, nb)
    _slide(s, ctx, m)
    account(s, tab, ctx[1], g, k, mg, mk)
    return 1


@njit(cache=True, inline="always")
def h_after(s, m, hs, ctx):
    tab = ctx[0]
    b = _blank(s, tab)
    nb = tab[tab[NBR] + 4 * b + m]
    g, k, mg, mk = _keys(s, tab, _tile(s, ctx, nb), b, nb)
    return estimate(s, tab, ctx[1], g, k, mg, mk)


@njit(cache=True, inline="always")
def derive(s, ctx):
    tab, flat = ctx[0], ctx[1]
    _find_blank(s, ctx)
    ng, idx = tab[GROUPS], tab[IDX]
    for i in range(2 * ng):
        s[idx + i] = 0
    for p in range(tab[CELLS]):
        t = _tile(s, ctx, p)
        if t > 0:
            s[idx + tab[tab[GROUP] + t]] += np.uint64(p * tab[tab[WEIGHT] + t])
            mg = tab[tab[MGROUP] + t]
            if mg >= 0:
                s[idx + ng + mg] += np.uint64(tab[tab[CMAP] + p] * tab[tab[MWEIGHT] + t])
    values(s, tab, flat)


@njit(cache=True, inline="always")
def values(s, tab, flat):
    """Fill the values and the sums from the indices in the derived words (no mirror image:
    the mirror's words all 0)."""
    ng, idx, val, sums, offs = tab[GROUPS], tab[IDX], tab[VAL], tab[SUMS], tab[OFFS]
    mirrored = tab[tab[MGROUP] + 1] >= 0
    plain, other = 0, 0
    for g in range(ng):
        v = np.int64(flat[tab[offs + g] + np.int64(s[idx + g])])
        s[val + g] = v
        plain += v
        mv = np.int64(flat[tab[offs + g] + np.int64(s[idx + ng + g])]) if mirrored else 0
        s[val + ng + g] = mv
        other += mv
    s[sums] = plain
    s[sums + 1] = other


@njit(cache=True, inline="always")
def h(s, ctx):
    sums = ctx[0][SUMS]
    return max(np.int64(s[sums]), np.int64(s[sums + 1]))
