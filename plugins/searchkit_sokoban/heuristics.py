"""Lower bounds on the pushes still needed, from per-box rows of push distances.

Each box contributes a row: its push distance to every goal with the player on its
current side (`Board.rowdist`), named by a row key ``square * 4 + component``.
``nearest-goal`` sums each row's minimum; ``matching`` is the minimum-cost perfect
matching of boxes to goals (SciPy's Jonker-Volgenant), a stronger bound that is infinite
exactly when no perfect matching of finite distances exists - a bipartite deadlock.  When
every box's nearest goal is a different goal the two agree, so SciPy is only asked when
boxes compete for goals; a search that asks it thousands of times has the compiled
Hungarian method (`matching_rule.row_matching`) instead, when numba is installed: FESS aimed
at the backward search's positions (`aim`) solves Sasquatch II 24 in 21.8 s, not 40.8.  The
kernel keeps its last assignment and matches again only the boxes that changed when they are
few (a search asks for siblings, a box moved in each): Sasquatch II 40 (52 boxes) in 22.8 s,
not 34.2, the matching's share of the time 9 % where it was 44 %.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from searchkit import numba_available

from .board import INF, bits

NEAREST = "nearest-goal"
MATCHING = "matching"
PACKING = "packing"
MEMO_SIZE = 1 << 17  # remembered matchings (~500 bytes each) before starting afresh
COMPILE_AFTER = 2000  # SciPy's matchings before the compiled one takes over (numba installed)


class RowCosts:
    """``cost(keys)``: the chosen bound for the boxes whose row keys are ``keys``."""

    def __init__(self, rows: list, ncols: int, kind: str):
        """The bound over a table: ``rows[key]`` a box's cost to each of ``ncols`` targets
        (None: no row).  The pull search's rows are pull distances to the start squares."""
        self.kind = kind
        self.rows = rows
        self.near = near = [INF] * len(rows)
        self.arg = arg = [-1] * len(rows)
        for key, row in enumerate(rows):
            if row:  # no row, or an empty one: every target is sealed off
                m = near[key] = min(row)
                arg[key] = row.index(m)
        self.cost = self.nearest if kind == NEAREST else self.matching
        if kind == MATCHING:
            import numpy as np
            from scipy.optimize import linear_sum_assignment

            table = np.full((len(rows), ncols), INF, dtype=np.int64)
            for key, row in enumerate(rows):
                if row:
                    table[key] = row
            self._table = table
            self._solve = linear_sum_assignment
            self._memo: dict[tuple, int] = {}
            self._columns = ncols
            self._misses = 0
            self._compiled: Callable[[Any], int] | None = None  # from COMPILE_AFTER misses (numba installed)

    @classmethod
    def of_board(cls, board, kind: str) -> RowCosts:
        """The bound over the board's push distances to the goals, a row per box square and
        player side (key ``square * 4 + side``)."""
        return cls(push_rows(board), len(board.goal_list), kind)

    def nearest(self, keys) -> int:
        near = self.near
        total = 0
        for k in keys:
            total += near[k]
        return total if total < INF else INF

    def matching(self, keys) -> int:
        compiled = self._compiled
        if compiled is not None and len(keys) <= self._columns:
            return compiled(keys)
        near, arg = self.near, self.arg
        total = 0
        used = set()
        for k in keys:
            total += near[k]
            used.add(arg[k])
        if total >= INF:
            return INF
        if len(used) == len(keys):
            return total  # every box has its own nearest goal: that is the optimum
        # a search meets the same boxes again (duplicates, other paths): remember SciPy's answers
        memo = self._memo
        tkeys = tuple(sorted(keys))
        known = memo.get(tkeys)
        if known is not None:
            return known
        self._misses += 1
        if self._misses == COMPILE_AFTER and numba_available():
            self._compile()
        picked = self._table.take(keys, axis=0)  # take: a third of fancy indexing's cost on a list
        rows = self.rows
        # the sum in Python: numpy's costs more than the solver on matrices this small
        total = sum(map(lambda k, j: rows[k][j], keys, self._solve(picked)[1].tolist()))
        if total >= INF:
            total = INF
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[tkeys] = total
        return total

    def _compile(self) -> None:
        """From here on the compiled assignment (`matching_rule.row_matching`), which checks
        the nearest goals itself and remembers only its last assignment (``where``: each row
        key's row in it): on 14 boxes sharing goals a call costs ~5.6 us against SciPy's
        ~8.8 us (and its memo's memory) afresh, less from a sibling's; loading the kernel
        ~0.4 s, so only a search that asks often pays it."""
        import numpy as np

        from .matching_rule import row_matching

        m = self._columns
        table = np.column_stack((self._table, self.near, self.arg)).astype(np.int64)
        cost, ints = np.zeros((m + 1, m + 1), np.int64), np.zeros((11, m + 1), np.int64)
        where = np.zeros(len(table), np.int64)
        keyed = ints[6]

        def solve(keys) -> int:
            n = len(keys)
            keyed[:n] = keys
            total = row_matching(table, cost, ints, where, n, m)
            return total if total < INF else INF

        self._compiled = solve
        self._memo.clear()


def push_rows(board) -> list[tuple[int, ...] | None]:
    """The board's push distances to the goals (`Board.rowdist`) as rows keyed
    ``square * 4 + side``: None for keys with no row (walls, sides that do not exist)."""
    rows: list[tuple[int, ...] | None] = [None] * (board.size * 4)
    for x, per_side in enumerate(board.rowdist):
        for c, row in enumerate(per_side):
            rows[x * 4 + c] = row
    return rows


def rows_to(board, targets: int, pulls: bool = False) -> list[tuple[int, ...] | None]:
    """Per square: the fewest pushes (walls only) that bring a box there to each square of
    ``targets`` - or, ``pulls``, the fewest pulls (INF where none do; None for squares off
    the floor).  Rows keyed by square, for `RowCosts` over the boxes' squares."""
    # pushes from t reach x in d steps exactly when pulls from x reach t in d, and the other way
    spread = board.pushes_from if pulls else board.pulls_from
    columns = [spread(1 << t) for t in bits(targets)]
    return [tuple(c.get(x, INF) for c in columns) if board.floor >> x & 1 else None for x in range(board.size)]
