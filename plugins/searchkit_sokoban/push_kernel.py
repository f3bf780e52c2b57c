"""The compiled (numba) parts of Sokoban's push rules: the matching bound, freeze deadlocks,
PI-corrals and the player's reach, over plain integer arrays.

A position is its boxes as a bit set in 64-bit words and the player's lowest reachable
square.  The matching bound is a minimum-cost assignment of boxes to goals (the Hungarian
method with potentials, `_matching`), infinite (`BIG` or more) when none exists, matched
again incrementally after a push (`_child_h`, `row_matching`); `_freeze_dead` is the freeze
test after a push, `_pi_corral` the PI-corral with the fewest inward pushes.  Their users:
the push rules the core's compiled engines search (`push_rules`), the compiled pull search
(`pull_kernel`) and the compiled matching of the Python heuristics (`heuristics`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

BIG = 1 << 20  # an unreachable box-goal pair's cost; a matching cost at or past it is a deadlock
# meta array slots (the pull search's; `_freeze_dead` advances the mark counter ``M_STAMP``)
M_STATES, M_HEAP, M_EXPANDED, M_GENERATED, M_DUPLICATES, M_GOAL, M_STAMP = range(7)  # 7 is free
M_MET, M_FOREIGN = 8, 9
META = 10


@njit(cache=True)
def _low_bit(low):
    """The index of the one set bit of ``low`` (a power of two below 2**64)."""
    b = 0
    for shift in (32, 16, 8, 4, 2, 1):
        if low >> np.uint64(shift):
            b += shift
            low >>= np.uint64(shift)
    return b


@njit(cache=True)
def _augment(cost, n, row, ints, used):
    """Assign ``row`` (1-based) along a shortest augmenting path, keeping the potentials
    feasible: one phase of the Hungarian method (``ints``: u, v, p, way, minv rows)."""
    u, v, p, way, minv = ints[0], ints[1], ints[2], ints[3], ints[4]
    p[0] = row
    j0 = 0
    for j in range(n + 1):
        minv[j] = 1 << 40
        used[j] = False
    while True:
        used[j0] = True
        i0 = p[j0]
        delta = 1 << 40
        j1 = 0
        for j in range(1, n + 1):
            if not used[j]:
                cur = cost[i0, j] - u[i0] - v[j]
                if cur < minv[j]:
                    minv[j] = cur
                    way[j] = j0
                if minv[j] < delta:
                    delta = minv[j]
                    j1 = j
        for j in range(n + 1):
            if used[j]:
                u[p[j]] += delta
                v[j] -= delta
            else:
                minv[j] -= delta
        j0 = j1
        if p[j0] == 0:
            break
    while True:
        j1 = way[j0]
        p[j0] = p[j1]
        j0 = j1
        if j0 == 0:
            break


@njit(cache=True)
def _total(cost, n, p):
    total = 0
    for j in range(1, n + 1):
        total += cost[p[j], j]
    return total


@njit(cache=True)
def _matching(cost, n, m, ints, used):
    """Minimum-cost assignment of ``n`` boxes (rows) to ``m >= n`` goals (columns) by the
    Hungarian method with potentials (1-based ``cost``, row 0 zeros); BIG or more when
    none exists."""
    for r in range(3):
        for j in range(m + 1):
            ints[r, j] = 0
    for i in range(1, n + 1):
        _augment(cost, m, i, ints, used)
    return _total(cost, m, ints[2])


@njit(cache=True)
def row_matching(table, cost, ints, where, n, m):
    """`heuristics.RowCosts`' matching compiled: the boxes whose rows of ``table`` are
    ``ints[6, :n]`` assigned to its first ``m`` columns (its last two: each row's least cost
    and the column of it), or the least costs' sum when no two boxes share that column.
    The last assignment stays (``cost``'s rows, the potentials and pairs in ``ints`` rows
    0-2, its keys by row in row 7, ``where``: each key's row, 0 for none): when at most a
    third of the keys differ from it - a search's siblings differ in two, a box moved in
    each - only their rows are matched again (`_rematch`), else all afresh, padded to
    ``m`` rows of zeros (so no column left free keeps a potential).  ``cost`` and ``ints``
    (11 rows; 5 the method's ``used``, 8-10 scratch, ``ints[10, 0]`` set when the last had
    no perfect assignment) are ``m + 1`` wide.  Few arguments:
    each costs the call a fraction of a microsecond."""
    keys, used, base, hit = ints[6], ints[5], ints[7], ints[10]
    total = 0
    for j in range(m + 1):
        used[j] = 0
    shared = False
    for i in range(n):
        k = keys[i]
        total += table[k, m]
        a = table[k, m + 1] + 1
        if used[a]:
            shared = True
        used[a] = 1
    if total >= BIG or not shared:
        return total
    d = _moved_rows(table, cost, ints, where, n, m) if base[0] == n and hit[0] == 0 else -1
    if d < 0:
        total = _afresh(table, cost, ints, where, n, m)
    elif d == 0:
        total = _total(cost, m, ints[2])
    else:
        total = _rematch(cost, m, ints[9], d, ints, used)
    hit[0] = total >= BIG  # no perfect assignment: potentials that far apart are not kept
    return total


@njit(cache=True)
def _load_row(table, cost, ints, where, r, k, m):
    """Row ``r`` of the assignment is the box keyed ``k`` now (its costs from ``table``)."""
    base = ints[7]
    base[r] = k
    where[k] = r
    for j in range(m):
        cost[r, j + 1] = table[k, j]


@njit(cache=True)
def _moved_rows(table, cost, ints, where, n, m):
    """How many of the keys ``ints[6, :n]`` the last assignment's rows lack, each loaded in
    place of a row whose key went (listed in ``ints[9]``); -1, nothing changed, when more
    than a third of them: matched afresh that costs less."""
    keys, base, extra, hit = ints[6], ints[7], ints[8], ints[10]
    d = 0
    for i in range(n):
        r = where[keys[i]]
        if r > 0:
            hit[r] = 1
        else:
            extra[d] = keys[i]
            d += 1
    c = 0
    for r in range(1, n + 1):
        if hit[r]:
            hit[r] = 0
        elif 3 * d <= n:
            where[base[r]] = 0
            _load_row(table, cost, ints, where, r, extra[c], m)
            ints[9, c] = r
            c += 1
    return d if 3 * d <= n else -1


@njit(cache=True)
def _afresh(table, cost, ints, where, n, m):
    """The keys ``ints[6, :n]`` matched from nothing, padded to ``m`` rows of zeros."""
    base = ints[7]
    for r in range(1, base[0] + 1):
        where[base[r]] = 0
    for i in range(n):
        _load_row(table, cost, ints, where, i + 1, ints[6, i], m)
    for i in range(n + 1, m + 1):
        for j in range(m + 1):
            cost[i, j] = 0
    base[0] = n
    return _matching(cost, m, m, ints, ints[5])


@njit(cache=True)
def _rematch(cost, n, changed, nchanged, ints, used):
    """The assignment again after the rows in ``changed`` (1-based) took new costs, from
    the optimal one before (potentials and pairs in ``ints``): each changed row is
    unassigned, its potential lowered until feasible, and assigned again (O(n^2) a row)."""
    u, v, p = ints[0], ints[1], ints[2]
    for c in range(nchanged):
        r = changed[c]
        for j in range(1, n + 1):
            if p[j] == r:
                p[j] = 0
        low = 1 << 40
        for j in range(1, n + 1):
            d = cost[r, j] - v[j]
            if d < low:
                low = d
        u[r] = low
    for c in range(nchanged):
        _augment(cost, n, changed[c], ints, used)
    return _total(cost, n, p)


@njit(cache=True)
def _freeze_dead(dst, occ, nbr, dead, goal, seen, meta, members):
    """After a push onto ``dst``: whether some box off a goal can never move again.

    The boxes joined to ``dst`` through neighbouring boxes are taken as frozen, then every
    one with an axis free of walls, of dead squares on both sides and of boxes still taken
    as frozen is let go, until none is: what is left cannot move first, so never moves
    (the freeze test of Sokoban solvers, as a greatest fixed point: no recursion).
    """
    meta[M_STAMP] += 1
    stamp = meta[M_STAMP]
    seen[dst] = stamp
    members[0] = dst
    n = 1
    head = 0
    while head < n:
        x = members[head]
        head += 1
        for k in range(4):
            y = nbr[x, k]
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
            for axis in range(2):
                a = nbr[x, 2 * axis]
                b = nbr[x, 2 * axis + 1]
                if a < 0 or b < 0 or (dead[a] and dead[b]):
                    continue
                if (occ[a] and seen[a] == stamp) or (occ[b] and seen[b] == stamp):
                    continue
                free = True
                break
            if free:
                seen[x] = 0
                changed = True
    for m in range(n):
        x = members[m]
        if seen[x] == stamp and not goal[x]:
            return True
    return False


@njit(cache=True)
def _reach(player, occ, nbr, seen, stamp, stack):
    """Mark the squares the player reaches (``seen == stamp``); the lowest of them."""
    seen[player] = stamp
    stack[0] = player
    top = 1
    low = player
    while top:
        top -= 1
        x = stack[top]
        if x < low:
            low = x
        for k in range(4):
            y = nbr[x, k]
            if y >= 0 and not occ[y] and seen[y] != stamp:
                seen[y] = stamp
                stack[top] = y
                top += 1
    return low


@njit(cache=True)
def _find_root(uf, a):
    while uf[a] != a:
        uf[a] = uf[uf[a]]
        a = uf[a]
    return a


@njit(cache=True)
def _pi_corral(occ, reached, stamp, nbr, floor, dead, goal, boxlist, n, area, uf, group, scratch):
    """The PI-corral with the fewest inward pushes (see `corral`): its root in ``group``
    (the barrier boxes are those whose ``group`` is it), -1 for none, -2 for one with no
    inward push (the position is dead).  ``reached[x] == stamp``: the player's squares."""
    size = occ.shape[0]
    for x in range(size):
        area[x] = -1
    areas = 0
    for x in range(size):
        if area[x] >= 0 or occ[x] or reached[x] == stamp or not floor[x]:
            continue
        area[x] = areas
        scratch[0] = x
        top = 1
        while top:
            top -= 1
            y = scratch[top]
            for k in range(4):
                z = nbr[y, k]
                if z >= 0 and area[z] < 0 and not occ[z] and reached[z] != stamp:
                    area[z] = areas
                    scratch[top] = z
                    top += 1
        uf[areas] = areas
        areas += 1
    if areas == 0:
        return -1
    # areas sharing a barrier box are one corral
    for i in range(n):
        b = boxlist[i]
        first = -1
        for k in range(4):
            y = nbr[b, k]
            if y >= 0 and area[y] >= 0:
                if first < 0:
                    first = _find_root(uf, area[y])
                else:
                    r = _find_root(uf, area[y])
                    if r != first:
                        uf[r] = first
    for i in range(n):
        b = boxlist[i]
        group[b] = -1
        for k in range(4):
            y = nbr[b, k]
            if y >= 0 and area[y] >= 0:
                group[b] = _find_root(uf, area[y])
                break
    # per corral root: 1 open to the player / solved is decided below; pushes counted here
    pushes = scratch  # reused: scratch[r] pushes, scratch[areas + r] flags (1 fails, 2 unsolved)
    for r in range(2 * areas):
        pushes[r] = 0
    for x in range(size):
        if area[x] >= 0 and goal[x]:
            pushes[areas + _find_root(uf, area[x])] |= 2
    for i in range(n):
        b = boxlist[i]
        r = group[b]
        if r < 0:
            continue
        if not goal[b]:
            pushes[areas + r] |= 2
        for k in range(4):
            dst = nbr[b, k]
            ps = nbr[b, k ^ 1]
            if dst < 0 or ps < 0 or dead[dst]:
                continue
            into = area[dst] >= 0 and _find_root(uf, area[dst]) == r
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


@njit(cache=True)
def _rows(nboxes, boxlist, dist, comp, player, cost):
    """The assignment's costs: a box's distances to the goals from the player's side of it
    (``comp``: the side of each square seen from a cut square, 0 elsewhere)."""
    for i in range(nboxes):
        b = boxlist[i]
        row = dist[b * 4 + comp[b, player]]
        for j in range(nboxes):
            cost[i + 1, j + 1] = row[j]


@njit(cache=True)
def _child_h(n, boxlist, bi, src, parent_player, dist, comp, cost, base, ints, used):
    """The matching bound after box ``bi`` of ``boxlist`` (already on its new square) was
    pushed from ``src``, from the parent's assignment (``base``: its costs; ``ints`` rows
    5-7: its potentials and pairs): only the rows that changed are matched again."""
    changed = ints[8]
    m = 0
    for r in range(n):
        b = boxlist[r]
        side = comp[b, src]
        if r == bi or side != comp[b, parent_player]:
            row = dist[b * 4 + side]
            for j in range(n):
                cost[r + 1, j + 1] = row[j]
            changed[m] = r + 1
            m += 1
    for r in range(3):
        for j in range(n + 1):
            ints[r, j] = ints[5 + r, j]
    h = _rematch(cost, n, changed, m, ints, used)
    for c in range(m):  # back to the parent's costs for the next child
        r = changed[c]
        for j in range(1, n + 1):
            cost[r, j] = base[r, j]
    return h


@njit(cache=True)
def unpack(key, width, occ, boxlist):
    """Mark the boxes of ``key`` (its first ``width`` words) in the emptied ``occ`` and list
    their squares in ``boxlist``, lowest first; how many there are."""
    for x in range(occ.shape[0]):
        occ[x] = 0
    n = 0
    for t in range(width):
        word = key[t]
        first = t * 64
        while word:
            low = word & (~word + np.uint64(1))
            b = first + _low_bit(low)
            occ[b] = 1
            boxlist[n] = b
            n += 1
            word ^= low
    return n


@njit(cache=True)
def parent_assignment(n, boxlist, dist, comp, player, cost, base, ints, used):
    """The assignment of the position being expanded, which each child's starts from
    (`_child_h`): its costs in ``base`` and ``cost``, its potentials and pairs in ``ints``
    rows 0-2 and their copy in rows 5-7; its cost (BIG or more: none)."""
    _rows(n, boxlist, dist, comp, player, base)
    total = _matching(base, n, n, ints, used)
    for r in range(3):
        for j in range(n + 1):
            ints[5 + r, j] = ints[r, j]
    for r in range(n + 1):
        for j in range(n + 1):
            cost[r, j] = base[r, j]
    return total


def scratch(size: int, nboxes: int) -> tuple:
    """The working arrays `run` reuses from call to call (a board of ``size`` squares)."""
    n = nboxes + 1
    return (
        np.zeros(size, np.uint8),  # occupied squares
        np.zeros((9, 2 * size + 2), np.int64),  # marks x2, stack, areas, union-find, groups, spare, boxes, cluster
        np.zeros((2, n, n), np.int64),  # the assignment's costs: a child's, the parent's
        np.zeros((9, n), np.int64),  # u, v, p, way, minv; the parent's u, v, p; changed rows
        np.zeros(n, np.bool_),
    )
