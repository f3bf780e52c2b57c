"""The freeze test, written once for the compiled kernels and the Python searches.

A box can move along an axis unless a wall, a box that itself cannot move, or dead squares
on both sides block it; a box blocked along both axes never moves again, and a position
with such a box off a goal is dead (the freeze deadlock of Sokoban solvers; covers 2x2
blocks and boxes stuck against walls).  The test is a greatest fixed point, not a
recursion: the boxes joined to the pushed one through neighbouring boxes are taken as
frozen, then every one with a free axis is let go, until none is.  Whatever is left can
never move first, so never moves; a box is left exactly when some set of boxes holds it
in which every box is blocked by walls, dead pairs or the set's own boxes.

Over plain arrays in numba's subset (`searchkit.jit`): compiled inside the push rules
(`push_rules`), and called by the Python searches (`deadlocks`) compiled or, without numba,
as plain Python.  The board: ``nbr[x][k]`` the next floor square from ``x`` in direction
``k`` (up, down, left, right; -1 a wall), ``dead``/``goal`` a flag per square; the position:
``occ``, a flag per square holding a box.
"""

from __future__ import annotations

from searchkit import jit

# the kernels' ``meta`` slot of the mark counter (`push_kernel.M_STAMP`, which it must equal)
STAMP = 6


@jit
def frozen_boxes(dst, occ, nbr, dead, seen, stamp, members):
    """The boxes joined to the box on ``dst`` through neighbouring boxes, listed in
    ``members``: how many there are (``dst`` first).  On return those of them that can
    never move are marked ``seen[x] == stamp`` (``stamp`` a mark not yet in ``seen``), the
    others are not.  ``members`` has room for every box; O(group size x rounds)."""
    seen[dst] = stamp
    members[0] = dst
    n = 1
    head = 0
    while head < n:
        x = members[head]
        head += 1
        for k in range(4):
            y = nbr[x][k]
            if y >= 0 and occ[y] and seen[y] != stamp:
                seen[y] = stamp
                members[n] = y
                n += 1
    changed = True
    while changed:
        changed = False
        for m in range(n):
            x = members[m]
            if seen[x] != stamp:
                continue
            free = False
            row = nbr[x]
            for axis in range(2):
                a = row[2 * axis]
                b = row[2 * axis + 1]
                if a < 0 or b < 0 or (dead[a] and dead[b]):
                    continue
                if (occ[a] and seen[a] == stamp) or (occ[b] and seen[b] == stamp):
                    continue
                free = True
                break
            if free:
                seen[x] = 0
                changed = True
    return n


@jit
def freeze_dead(dst, occ, nbr, dead, goal, seen, meta, members):
    """After a push onto ``dst`` (``occ`` the boxes after it): whether a box that can never
    move (`frozen_boxes`) is off a goal, a dead position.  ``meta[STAMP]`` is the mark
    counter of ``seen`` (taken one up)."""
    meta[STAMP] += 1
    stamp = meta[STAMP]
    n = frozen_boxes(dst, occ, nbr, dead, seen, stamp, members)
    for m in range(n):
        x = members[m]
        if seen[x] == stamp and not goal[x]:
            return True
    return False
