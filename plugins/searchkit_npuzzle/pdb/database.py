"""A loaded pattern database: one partition's tables for one board and goal, and its lookups."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .partitions import mirror_maps
from .ranking import place_values, rank_one, sparse_index

SPARSE_LIMIT = 1 << 26  # largest n**k table the incremental (base-n index) lookups use
UNSEEN = 255  # distance of a placement the build never reached


class PatternDatabase:
    """The tables of one partition for one board and goal, with their lookups.

    ``tables[i]`` is indexed by `rank` of the cells of ``groups[i]`` (tiles in increasing
    order).  `sparse` tables are indexed by ``sum(cell_j * place_value_j)`` instead, which a move
    updates with one addition - what the incremental engines use.
    """

    def __init__(
        self,
        name: str,
        width: int,
        height: int,
        goal: tuple[int, ...],
        groups: tuple[tuple[int, ...], ...],
        tables: list[np.ndarray],
    ):
        self.name, self.width, self.height, self.goal = name, width, height, tuple(goal)
        self.n = width * height
        self.groups = groups
        self.tables = tables
        self.mirror = mirror_maps(width, height, self.goal)
        self._sparse: list[np.ndarray] | None = None
        self._flat: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def sparse(self) -> list[np.ndarray] | None:
        """Base-n indexed copies of the tables (None when one would exceed SPARSE_LIMIT)."""
        n = self.n
        if self._sparse is None and all(n ** len(g) <= SPARSE_LIMIT for g in self.groups):
            out = []
            for g, table in zip(self.groups, self.tables):
                sparse = np.full(n ** len(g), UNSEEN, dtype=np.uint8)
                sparse[sparse_index(n, len(g))] = table  # the index increases: writes go in order
                out.append(sparse)
            self._sparse = out
        return self._sparse

    def flat(self, sparse: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``(all tables back to back, offset of each)`` for the compiled search: the base-n
        tables, or (``sparse=False``) the rank-indexed ones - a view when they already sit
        back to back in one buffer, as loaded from the cache.  Memoised."""
        key = "sparse" if sparse else "ranked"
        if key not in self._flat:
            tables = self.sparse() if sparse else self.tables
            if tables is None:
                raise ValueError(f"{self.name} has no base-n tables (one exceeds SPARSE_LIMIT): use sparse=False")
            offs = np.cumsum([0] + [len(t) for t in tables[:-1]]).astype(np.int64)
            first = tables[0]
            adjacent = all(t.dtype == np.uint8 and t.flags.c_contiguous for t in tables) and all(
                t.__array_interface__["data"][0] == first.__array_interface__["data"][0] + o
                for t, o in zip(tables, offs)
            )
            if adjacent:  # one view over them all (they were checked to be back to back)
                flat = np.lib.stride_tricks.as_strided(first, shape=(int(offs[-1]) + len(tables[-1]),), strides=(1,))
            else:
                flat = np.concatenate(tables)
            self._flat[key] = (flat, offs)
        return self._flat[key]

    def tile_keys(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """Per tile t: its group and place value, and (for the mirror image) the group and
        place value of the tile it becomes; -1 / 0 for the blank or without a mirror."""
        n = self.n
        group = [-1] * n
        weight = [0] * n
        for gi, g in enumerate(self.groups):
            for j, t in enumerate(g):
                group[t], weight[t] = gi, n ** (len(g) - 1 - j)
        mgroup, mweight = [-1] * n, [0] * n
        if self.mirror is not None:
            tile_map = self.mirror[1]
            for t in range(1, n):
                mgroup[t], mweight[t] = group[tile_map[t]], weight[tile_map[t]]
        return group, weight, mgroup, mweight

    def keys(self, pos: list[int], ranked: bool = False) -> tuple[list[int], list[int]]:
        """Per group, the table index of tile positions ``pos`` (tile -> cell): plain, and
        of the mirror image (zeros without a mirror).  Base-n indices (`sparse` tables),
        or lexicographic ranks (``ranked``, the tables themselves)."""
        n = self.n
        cmap, tile_map = self.mirror if self.mirror is not None else (range(n), range(n))

        def index(cells: list[int]) -> int:
            return rank_one(cells, n) if ranked else sum(c * w for c, w in zip(cells, place_values(n, len(cells))))

        plain = [index([pos[t] for t in g]) for g in self.groups]
        if self.mirror is None:
            return plain, [0] * len(plain)
        return plain, [index([cmap[pos[tile_map[t]]] for t in g]) for g in self.groups]

    def value(self, board: tuple[int, ...] | list[int]) -> int:
        """The estimate for a board (cell -> tile)."""
        pos = [0] * self.n
        for p, t in enumerate(board):
            pos[t] = p
        return self.value_of_positions(pos)

    def value_of_positions(self, pos: list[int]) -> int:
        """The estimate for tile positions (tile -> cell): max of plain and mirrored sums."""
        n = self.n
        total = sum(int(table[rank_one([pos[t] for t in g], n)]) for g, table in zip(self.groups, self.tables))
        if self.mirror is not None:
            cell_map, tile_map = self.mirror
            mirrored = sum(
                int(table[rank_one([cell_map[pos[tile_map[t]]] for t in g], n)])
                for g, table in zip(self.groups, self.tables)
            )
            total = max(total, mirrored)
        return total

    def state_heuristic(self, bits: int, mask: int) -> Callable[[int], int]:
        """``state_int -> estimate`` for the packed-int states of `NPuzzleProblem`."""
        n = self.n
        shifts = [bits * p for p in range(n)]
        sparse = self.sparse()
        if sparse is None:

            def h_compact(state: int) -> int:
                pos = [0] * n
                for p, s in enumerate(shifts):
                    pos[(state >> s) & mask] = p
                return self.value_of_positions(pos)

            return h_compact
        tables = [t.tobytes() for t in sparse]  # bytes index to ints fast, one byte an entry
        plain = [(tables[gi], list(zip(g, place_values(n, len(g))))) for gi, g in enumerate(self.groups)]
        mirrored = None
        if self.mirror is not None:
            cell_map, tile_map = self.mirror
            mirrored = [
                (tables[gi], [(tile_map[t], w) for t, w in zip(g, place_values(n, len(g)))])
                for gi, g in enumerate(self.groups)
            ]

        def h(state: int) -> int:
            pos = [0] * n
            for p, s in enumerate(shifts):
                pos[(state >> s) & mask] = p
            total = 0
            for table, keys in plain:
                total += table[sum(pos[t] * w for t, w in keys)]
            if mirrored is not None:
                other = 0
                for table, keys in mirrored:
                    other += table[sum(cell_map[pos[t]] * w for t, w in keys)]
                if other > total:
                    return other
            return total

        return h
