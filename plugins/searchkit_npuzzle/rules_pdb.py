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
    OFFS,
    R_IDX,
    R_MIDX,
    R_MOFF,
    R_MVAL,
    R_MW,
    R_OFF,
    R_ON,
    R_SUMS,
    R_VAL,
    R_W,
    SUMS,
    VAL,
    WEIGHT,
    _blank,
    _cdelta,
    _field,
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

__all__ = ["account", "apply", "cost", "derive", "estimate", "h", "h_after", "inverse", "is_goal"]
__all__ += ["moves", "undo"]


@njit(cache=True, inline="always")
def account(s, tab, flat, r, k, mk):
    """Write the new index ``k`` of the group of the tile whose record is at ``r`` and its value,
    and (when the tile has a mirror image) the mirror group's index ``mk`` and value, into the
    derived words, the sums with them."""
    u = np.uint64
    sums, iw, vw = u(_field(tab, r, R_SUMS)), u(_field(tab, r, R_IDX)), u(_field(tab, r, R_VAL))
    v = np.int64(flat[u(_field(tab, r, R_OFF) + k)])
    s[sums] = u(np.int64(s[sums]) + v - np.int64(s[vw]))
    s[iw] = u(k)
    s[vw] = u(v)
    on = _field(tab, r, R_ON)  # 0: no mirror image, the mirror's words stay as they are
    miw, mvw = u(_field(tab, r, R_MIDX)), u(_field(tab, r, R_MVAL))
    old_k, old_v = np.int64(s[miw]), np.int64(s[mvw])
    mk = old_k + on * (mk - old_k)
    mv = old_v + on * (np.int64(flat[u(_field(tab, r, R_MOFF) + mk)]) - old_v)
    s[sums + u(1)] = u(np.int64(s[sums + u(1)]) + mv - old_v)
    s[miw] = u(mk)
    s[mvw] = u(mv)


@njit(cache=True, inline="always")
def estimate(s, tab, flat, r, k, mk):
    """The estimate with the group of the tile whose record is at ``r`` at index ``k`` and its
    mirror group (if any) at ``mk``, the other groups as the derived words hold them: the
    larger of the two sums."""
    u = np.uint64
    sums = u(_field(tab, r, R_SUMS))
    plain = np.int64(s[sums]) + np.int64(flat[u(_field(tab, r, R_OFF) + k)]) - np.int64(s[u(_field(tab, r, R_VAL))])
    on = _field(tab, r, R_ON)
    mv = np.int64(flat[u(_field(tab, r, R_MOFF) + mk * on)]) - np.int64(s[u(_field(tab, r, R_MVAL))])
    other = np.int64(s[sums + u(1)]) + on * mv
    return plain + (other - plain) * np.int64(other > plain)


@njit(cache=True, inline="always")
def _keys(s, ctx, t, b, nb, m):
    """``(record, index, mirror index)`` after tile ``t`` slides from ``nb`` to ``b`` (move ``m``)."""
    tab = ctx[0]
    r = _record(ctx, t)
    k = np.int64(s[np.uint64(_field(tab, r, R_IDX))]) + (b - nb) * _field(tab, r, R_W)
    mk = np.int64(s[np.uint64(_field(tab, r, R_MIDX))]) + _cdelta(ctx, b, m) * _field(tab, r, R_MW)
    return r, k, mk


@njit(cache=True, inline="always")
def apply(s, m, ctx):
    b = _blank(s, ctx)
    nb = _nbr(ctx, b, m)
    r, k, mk = _keys(s, ctx, _tile(s, ctx, nb), b, nb, m)
    _slide(s, ctx, m)
    account(s, ctx[0], ctx[1], r, k, mk)
    return 1


@njit(cache=True, inline="always")
def h_after(s, m, hs, ctx):
    b = _blank(s, ctx)
    nb = _nbr(ctx, b, m)
    r, k, mk = _keys(s, ctx, _tile(s, ctx, nb), b, nb, m)
    return estimate(s, ctx[0], ctx[1], r, k, mk)


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
