"""Sokoban's compiled pull rules (`searchkit.kernels.rules`): single pulls from the solved boxes,
the nearest start square and the matching bound as two estimates taken in turns.

A state is the push rules' (`push_rules`): the boxes as a bit set in ``W`` words, then the
player's lowest reachable square.  Move ``4 * i + k`` pulls the ``i``-th box (lowest square
first) from ``x`` to ``x + o`` (``o`` the offset of direction ``k``: u, d, l, r) while the
player walks from ``x + o`` to ``x + 2o``; listed direction by direction, boxes in order (the
Python pull search's order, `pull`).  Each pull costs 1.  ``moves`` leaves out a pull onto a
square from which no start square can be reached.  ``hs`` gives one estimate per open list:
the pulls each box needs to its nearest start square, summed, then (two lists) the matching
over pull distances (`matching_rule`); a position whose boxes cannot each have a start square
of their own is dead on every list.  ``hs_after`` prices a pull from the parent's assignment.
``is_goal``: the position is the target (the start, or the gateway: `gateway.aim`).

``ctx`` is laid out as the push rules' (`compiled_rules.pull_context` builds it), so that
their parts are written once and shared: ``(nbr, -, -, -, -, dist, comp, geo, target, occ,
buf, costs, ints, used, memo, key, near)``; the unused slots hold empty arrays, ``geo`` has
the push rules' ``WORDS``, ``BOXES`` and ``IMPOSSIBLE``, ``dist`` the pull distances to each
start square (the four sides alike, ``comp`` zeros) and ``near`` per square the fewest pulls
to the nearest start square (`matching_rule.BIG`: none).  The scratch is one search's.
"""

from __future__ import annotations

from numba import njit

from .matching_rule import BIG
from .push_rules import IMPOSSIBLE, PSTAMP, _assigned, _load, _moved, is_goal
from .push_rules import h_after as _matching_after

__all__ = ["apply", "h", "hs", "hs_after", "is_goal", "moves"]

NEAR, NEAR_STAMP = 3, 4  # memo slots: the loaded position's nearest-start sum, the load it was summed for


@njit(cache=True, inline="always")
def moves(s, ctx, out):
    nbr, geo, occ, buf, memo, near = ctx[0], ctx[7], ctx[9], ctx[10], ctx[14], ctx[16]
    if geo[IMPOSSIBLE]:
        return 0
    n = _load(s, ctx)
    boxlist, reached, pstamp = buf[7], buf[1], memo[PSTAMP]
    count = 0
    for k in range(4):
        for i in range(n):
            stand = nbr[boxlist[i], k]  # the player's square, the box's next
            if stand < 0 or reached[stand] != pstamp or near[stand] >= BIG:
                continue
            behind = nbr[stand, k]  # where the player steps back to
            if behind < 0 or occ[behind]:
                continue
            out[count] = 4 * i + k
            count += 1
    return count


@njit(cache=True, inline="always")
def apply(s, m, ctx):
    nbr, buf = ctx[0], ctx[10]
    _load(s, ctx)
    src = buf[7, m >> 2]
    k = m & 3
    stand = nbr[src, k]  # the box onto the player's square, the player a step back
    _moved(s, ctx, src, stand, nbr[stand, k])
    return 1


@njit(cache=True, inline="always")
def _near(s, ctx):
    """The loaded position's pulls to the nearest start square, summed (kept per load)."""
    buf, memo, near = ctx[10], ctx[14], ctx[16]
    n = _load(s, ctx)
    if memo[NEAR_STAMP] != memo[PSTAMP]:
        total = 0
        for i in range(n):
            total += near[buf[7, i]]
        memo[NEAR] = total
        memo[NEAR_STAMP] = memo[PSTAMP]
    return memo[NEAR]


@njit(cache=True, inline="always")
def _fill(out, hnear, matching):
    """The estimates per list: nearest, then matching; dead on each when the matching is."""
    dead = matching < 0
    out[0] = -1 if dead else hnear
    if out.shape[0] > 1:
        out[1] = -1 if dead else matching


@njit(cache=True, inline="always")
def hs(s, ctx, out):
    if ctx[7][IMPOSSIBLE]:
        _fill(out, 0, -1)
        return
    hnear = _near(s, ctx)
    total = _assigned(s, ctx)
    _fill(out, hnear, -1 if total >= BIG else total)


@njit(cache=True, inline="always")
def hs_after(s, m, ctx, out):
    nbr, buf, near = ctx[0], ctx[10], ctx[16]
    hnear = _near(s, ctx)
    src = buf[7, m >> 2]
    _fill(out, hnear - near[src] + near[nbr[src, m & 3]], _matching_after(s, m, 0, ctx))


@njit(cache=True, inline="always")
def h(s, ctx):
    """The first list's estimate (`hs`)."""
    out = ctx[17]
    hs(s, ctx, out)
    return out[0]
