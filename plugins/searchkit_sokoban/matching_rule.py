"""The matching bound, written once for the compiled kernels and the Python searches.

The pushes still needed are at least those of a minimum-cost assignment of the boxes to
the goals, each box's cost to a goal its push distance from the player's side of it; when
no assignment avoids an unreachable pair (cost `BIG`) none exists and the position is dead
(a bipartite deadlock).  The Hungarian method with potentials (Kuhn; the shortest
augmenting path form, O(n^3)) finds it; a child whose boxes differ from its parent's in a
row or two is matched again from the parent's optimum, only its changed rows unassigned
and augmented (O(n^2) a row): `parent_assignment` then `child_h` for a search's siblings,
`row_matching` for any sequence of box sets over a table of rows (`heuristics.RowCosts`).

Over plain arrays in numba's subset (`searchkit.jit`): compiled inside the push and pull
rules (`push_rules`, `pull_rules`) and for `heuristics`, plain Python where numba is absent.
"""

from __future__ import annotations

from searchkit import jit

BIG = 1 << 20  # an unreachable box-goal pair's cost; a matching cost at or past it is a deadlock


@jit
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


@jit
def _total(cost, n, p):
    """The cost of the assignment ``p`` (column to 1-based row) over columns 1 to ``n``."""
    total = 0
    for j in range(1, n + 1):
        total += cost[p[j], j]
    return total


@jit
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


@jit
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


@jit
def _load_row(table, cost, ints, where, r, k, m):
    """Row ``r`` of the assignment is the box keyed ``k`` now (its costs from ``table``)."""
    base = ints[7]
    base[r] = k
    where[k] = r
    for j in range(m):
        cost[r, j + 1] = table[k, j]


@jit
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


@jit
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


@jit
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


@jit
def _rows(nboxes, boxlist, dist, comp, player, cost):
    """The assignment's costs: a box's distances to the goals from the player's side of it
    (``comp``: the side of each square seen from a cut square, 0 elsewhere)."""
    for i in range(nboxes):
        b = boxlist[i]
        row = dist[b * 4 + comp[b, player]]
        for j in range(nboxes):
            cost[i + 1, j + 1] = row[j]


@jit
def child_h(n, boxlist, bi, src, parent_player, dist, comp, cost, base, ints, used):
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


@jit
def parent_assignment(n, boxlist, dist, comp, player, cost, base, ints, used):
    """The assignment of the position being expanded, which each child's starts from
    (`child_h`): its costs in ``base`` and ``cost``, its potentials and pairs in ``ints``
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
