"""PI-corrals, written once for the compiled kernels and the Python searches (`corral`).

A corral is a group of unreachable floor areas together with its barrier: every box next
to one of its areas (areas that share a barrier box form one corral).  It is a PI-corral
when every push of a barrier box that the player could make goes into the corral (I: a
push out is impossible until a barrier box moves: the square beyond is a wall, a dead
square, a barrier box, or the pusher's square a barrier box or inside) and every inward
push that may ever be made first can be made now (P: the pusher's square is reachable, a
wall, inside the corral or a barrier box; a box outside the barrier there fails it).  An
unsolved PI-corral (an empty goal inside or a barrier box off goal) is entered by some
solution's next barrier push, one of the inward pushes now, which commutes with the pushes
made before it: searching only those loses no solution and no push-optimal one, and a
PI-corral with no inward push is a deadlock (Junghanns and Schaeffer's PI-corral pruning).

Over plain arrays in numba's subset (`searchkit.jit`), the board as `freeze_rule` reads it:
compiled inside `push_kernel`, compiled or plain Python for `corral`.
"""

from __future__ import annotations

from searchkit import jit


@jit
def find_root(uf, a):
    """The root of ``a`` in the union-find forest ``uf``, paths halved on the way."""
    while uf[a] != a:
        uf[a] = uf[uf[a]]
        a = uf[a]
    return a


@jit
def pi_corral(occ, reached, stamp, nbr, floor, dead, goal, boxlist, n, area, uf, group, scratch):
    """The PI-corral with the fewest inward pushes: its root in ``group`` (the barrier boxes
    are those of ``boxlist[:n]`` whose ``group`` is it), -1 for none, -2 for one with no
    inward push (the position is dead).  ``reached[x] == stamp``: the player's squares;
    ``floor``, ``dead``, ``goal``: a flag per square (``dead`` all 0 to push onto dead
    squares too); ``area``, ``uf``, ``group`` (a square each) and ``scratch`` (twice that
    and 2) are working space.  Ties go to the corral of the lowest unreachable square.
    O(squares + boxes)."""
    size = len(occ)
    for x in range(size):
        area[x] = -1
    areas = 0
    for x in range(size):
        if area[x] >= 0 or occ[x] or reached[x] == stamp or not floor[x]:
            continue
        area[x] = areas
        has_goal = 1 if goal[x] else 0
        scratch[0] = x
        top = 1
        while top:
            top -= 1
            y = scratch[top]
            for k in range(4):
                z = nbr[y][k]
                if z >= 0 and area[z] < 0 and not occ[z] and reached[z] != stamp:
                    area[z] = areas
                    if goal[z]:
                        has_goal = 1
                    scratch[top] = z
                    top += 1
        uf[areas] = areas
        group[areas] = has_goal
        areas += 1
    if areas == 0:
        return -1
    for a in range(areas):
        scratch[areas + a] = 2 * group[a]
    return corral_of(occ, reached, stamp, nbr, dead, goal, boxlist, n, areas, area, uf, group, scratch)


@jit
def corral_of(occ, reached, stamp, nbr, dead, goal, boxlist, n, areas, area, uf, group, scratch):
    """`pi_corral` from the unreachable areas (``areas`` > 0 of them, numbered in the order
    of their lowest squares): ``area[x]`` the area of each unreachable square beside a box
    (-1 for the other squares beside a box; no other square is read), ``uf[a] == a``, and
    ``scratch[areas + a]`` 2 when area ``a`` holds a goal, else 0 (``scratch``: twice the
    areas); ``boxlist[:n]`` every box beside an area at least, ``group[x]`` -1 for each box
    not listed.  O(areas + boxes listed)."""
    # areas sharing a barrier box are one corral; a barrier box's first area in ``group``
    for i in range(n):
        b = boxlist[i]
        group[b] = -1
        first = -1
        row = nbr[b]
        for k in range(4):
            y = row[k]
            if y < 0 or area[y] < 0:
                continue
            if first < 0:
                group[b] = area[y]
                first = find_root(uf, area[y])
            elif area[y] != group[b]:
                r = find_root(uf, area[y])
                if r != first:
                    uf[r] = first
    # per corral root r: scratch[r] its inward pushes, scratch[areas + r] flags (1 fails, 2 unsolved)
    pushes = scratch
    for a in range(areas):
        if uf[uf[a]] != uf[a]:
            uf[a] = find_root(uf, a)  # flat: each area's corral at once from here on
        pushes[a] = 0
    for a in range(areas):
        if pushes[areas + a] and uf[a] != a:
            pushes[areas + uf[a]] |= 2  # an empty goal inside
    for i in range(n):
        b = boxlist[i]
        if group[b] >= 0:
            group[b] = uf[group[b]]
    for i in range(n):
        b = boxlist[i]
        r = group[b]
        if r < 0:
            continue
        if not goal[b]:
            pushes[areas + r] |= 2
        row = nbr[b]
        for k in range(4):
            dst = row[k]
            ps = row[k ^ 1]
            if dst < 0 or ps < 0 or dead[dst]:
                continue
            into = area[dst] >= 0 and uf[area[dst]] == r
            barrier_dst = occ[dst] and group[dst] == r
            if reached[ps] == stamp:
                if into:
                    pushes[r] += 1
                elif not barrier_dst:
                    pushes[areas + r] |= 1  # a push out of the corral: not a PI-corral
            elif occ[ps] and group[ps] != r and not barrier_dst:
                pushes[areas + r] |= 1  # a box outside may free this push later
    best = -1
    fewest = 1 << 30
    for r in range(areas):
        if uf[r] != r or pushes[areas + r] != 2:
            continue
        if pushes[r] < fewest:
            fewest = pushes[r]
            best = r
    if best >= 0 and fewest == 0:
        return -2
    return best
