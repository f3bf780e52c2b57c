"""Additive (disjoint) pattern databases for the sliding-tile puzzle.

Interfaces the domain and the fast engine use:

* ``PARTITIONS``: name -> `Partition` (``pdb-555``, ``pdb-663`` and ``pdb-78`` for 4x4,
  ``pdb-8`` for 3x3, ``pdb-55554`` for 5x5).  A partition's groups are written for the *canonical* goal, the
  blank-first one (tile k's home is cell k).  For another goal, `goal_groups` carries the
  canonical cells onto the goal with the board symmetry that takes cell 0 to the goal's
  blank cell (identity, 180-degree turn, or a mirror; the blank-last goal gets the
  180-degree turn, so its groups have the same shapes), and a group is then the set of
  tiles whose goal cells are those cells.  When no symmetry takes cell 0 to the blank's
  goal cell, canonical cell k means the k-th non-blank goal cell in row-major order.
* ``pdb_heuristics()``: the partitions as `searchkit.Heuristic`s; ``make(problem)`` loads
  (or builds, once, and caches) the tables and returns ``state_int -> value``, whose
  ``successors_with_h`` attribute is the incremental successor function (`pdb_packed`).
* `get_database(name, width, height, goal)`: the loaded `PatternDatabase`, memoised per
  process; `PatternDatabase.lookup_tables()` gives what the incremental engines need.

A group's table counts only the moves of the group's own tiles, so the groups' values add
up to an admissible estimate.  It is built by a breadth-first search over the abstract
states (the group's tile cells and the blank's cell) in which a blank move that swaps with
a tile outside the group costs 0 and one that swaps with a group tile costs 1 (a 0-1 BFS,
vectorised with numpy over lexicographic ranks of partial permutations), then the
minimum over the blank's cells.  When numba is installed the compiled `pdb_stream` builder
does the same search in a few bits per abstract state (four times faster, and the only
way to build the 7-8 partition's 8-tile group: 4.2e9 abstract states).  Lookups take the maximum of the state's value and the
value of its main-diagonal mirror image when the board is square and the blank's goal
cell is on the diagonal (so the mirrored goal is the goal).
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from math import perm
from pathlib import Path
from typing import Callable

from functools import lru_cache

import numpy as np

from searchkit import Heuristic, InputError

SPARSE_LIMIT = 1 << 26  # largest n**k table the incremental (base-n index) lookups use
UNSEEN = 255  # distance of an abstract state not reached yet
PENDING = 254  # reached at the current depth through a free move, not expanded yet
CHUNK = 1 << 20  # abstract states expanded per numpy batch (bounds temporary memory)


@dataclass(frozen=True)
class Partition:
    """Disjoint tile groups (canonical blank-first numbering) covering every tile."""

    name: str
    width: int
    height: int
    groups: tuple[tuple[int, ...], ...]
    summary: str


PARTITIONS: dict[str, Partition] = {
    p.name: p
    for p in [
        Partition("pdb-555", 4, 4, ((1, 2, 3, 5, 6), (4, 8, 9, 12, 13), (7, 10, 11, 14, 15)),
                  "15-puzzle additive pattern databases, 5-5-5 (small, quick to build) + reflection"),
        Partition("pdb-663", 4, 4, ((4, 5, 8, 9, 12, 13), (6, 7, 10, 11, 14, 15), (1, 2, 3)),
                  "15-puzzle additive pattern databases, 6-6-3 (Korf & Felner) + reflection"),
        Partition("pdb-78", 4, 4, ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
                  "15-puzzle additive pattern databases, 7-8 (Korf & Felner's strongest) + reflection; "
                  "needs searchkit[fast], ~11 CPU-min and 2.3 GB to build once, 577 MB"),
        Partition("pdb-8", 3, 3, ((1, 2, 3, 4, 5, 6, 7, 8),),
                  "8-puzzle exact pattern database (all 181,440 states)"),
        # Korf & Felner's 6-6-6-6 groups less one tile each; those four tiles form the fifth group
        # (a 6-tile group over 25 cells has 2.4e9 abstract states, beyond this builder)
        Partition("pdb-55554", 5, 5, ((1, 2, 5, 6, 7), (3, 4, 8, 9, 14), (10, 15, 16, 20, 21), (18, 19, 22, 23, 24),
                                      (11, 12, 13, 17)),
                  "24-puzzle additive pattern databases, 5-5-5-5-4 + reflection (built once: ~25 s with searchkit[fast], ~4 min without; 26 MB)"),
    ]
}

MAX_ABSTRACT = 1 << 30  # abstract states (one byte each) the numpy build may hold; an 8-tile 4x4 group has 4.2e9
MAX_STREAM_BYTES = 3 << 30  # memory the compiled build may hold (the 7-8 partition's 8-tile group: 2.1 GB of tables)


def check_partition(groups: tuple[tuple[int, ...], ...], n: int, name: str = "partition") -> None:
    """Raise InputError unless the groups split the tiles 1..n-1 exactly."""
    seen: list[int] = [t for g in groups for t in g]
    if any(not 1 <= t < n for t in seen):
        raise InputError(f"{name}: tiles must be 1..{n - 1} (got {sorted(t for t in seen if not 1 <= t < n)})")
    if len(seen) != len(set(seen)):
        raise InputError(f"{name}: a tile is in two groups")
    missing = sorted(set(range(1, n)) - set(seen))
    if missing:
        raise InputError(f"{name}: the groups do not cover tiles {', '.join(map(str, missing))}")


def parse_partition(text: str, width: int, height: int) -> Partition:
    """A partition from its name (``pdb-663``, ``663``, ``6-6-3``) or explicit groups
    (``1,2,3/4,5,6,...``) for a board size; InputError when unknown or not covering."""
    key = text.strip().lower().replace("-", "")
    key = key[3:] if key.startswith("pdb") else key
    for p in PARTITIONS.values():
        if p.name[4:] == key:
            if (p.width, p.height) != (width, height):
                raise InputError(f"partition {p.name} is for {p.width}x{p.height} boards, not {width}x{height}")
            return p
    if "/" in text or "," in text:
        try:
            groups = tuple(tuple(sorted(int(t) for t in g.split(",") if t.strip())) for g in text.split("/"))
        except ValueError:
            raise InputError(f"partition {text!r}: groups are comma-separated tile numbers, '/' between groups") from None
        groups = tuple(g for g in groups if g)
        check_partition(groups, width * height, f"partition {text!r}")
        name = "pdb-" + "-".join(str(len(g)) for g in groups)
        return Partition(name, width, height, groups, "custom partition")
    known = ", ".join(f"{p.name} ({p.width}x{p.height})" for p in PARTITIONS.values())
    raise InputError(f"unknown partition {text!r} (known: {known}, or groups like '1,2,3/4,5,6,7/...')")


# -- board geometry ------------------------------------------------------------------------------

def _symmetries(width: int, height: int) -> list[Callable[[int], int]]:
    """Cell maps of the board's symmetries, identity first, then the 180-degree turn."""
    def cell(fn):
        return lambda p: fn(*divmod(p, width))

    syms = [cell(lambda r, c: r * width + c),
            cell(lambda r, c: (height - 1 - r) * width + (width - 1 - c)),
            cell(lambda r, c: r * width + (width - 1 - c)),
            cell(lambda r, c: (height - 1 - r) * width + c)]
    if width == height:
        syms += [cell(lambda r, c: c * width + r),
                 cell(lambda r, c: (width - 1 - c) * width + (height - 1 - r))]
    return syms


def goal_groups(groups: tuple[tuple[int, ...], ...], width: int, height: int,
                goal: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The partition's groups as tile numbers of ``goal`` (see the module docstring)."""
    blank = goal.index(0)
    for sym in _symmetries(width, height):
        if sym(0) == blank:
            return tuple(tuple(sorted(goal[sym(c)] for c in g)) for g in groups)
    cells = [p for p in range(width * height) if p != blank]  # canonical cell k -> cells[k - 1]
    return tuple(tuple(sorted(goal[cells[c - 1]] for c in g)) for g in groups)


def mirror_maps(width: int, height: int, goal: tuple[int, ...]) -> tuple[list[int], list[int]] | None:
    """``(cell_map, tile_map)`` of the main-diagonal mirror, or None when it does not keep the goal.

    The mirror image of a state puts tile ``tile_map[t]`` on cell ``cell_map[p]`` for each
    tile t on cell p; its distance to the goal equals the state's when the board is square
    and the blank's goal cell lies on the diagonal.
    """
    blank = goal.index(0)
    if width != height or blank // width != blank % width:
        return None
    cell_map = [(p % width) * width + p // width for p in range(width * height)]
    goal_pos = {t: p for p, t in enumerate(goal)}
    tile_map = [goal[cell_map[goal_pos[t]]] for t in range(width * height)]
    return cell_map, tile_map


def neighbour_table(width: int, height: int) -> np.ndarray:
    """``nbr[b, d]``: the cell the blank at b reaches moving U, D, L, R (255: off the board)."""
    n = width * height
    nbr = np.full((n, 4), 255, dtype=np.uint8)
    for b in range(n):
        r, c = divmod(b, width)
        if r > 0:
            nbr[b, 0] = b - width
        if r < height - 1:
            nbr[b, 1] = b + width
        if c > 0:
            nbr[b, 2] = b - 1
        if c < width - 1:
            nbr[b, 3] = b + 1
    return nbr


# -- ranking of partial permutations ------------------------------------------------------------

def rank_factors(n: int, k: int) -> np.ndarray:
    """Place values of the lexicographic rank of k distinct cells out of n."""
    return np.array([perm(n - 1 - i, k - 1 - i) for i in range(k)], dtype=np.int64)


def rank(cells: np.ndarray, n: int) -> np.ndarray:
    """Lexicographic ranks of rows of distinct cells (shape (m, k)) among the k-perms of n."""
    return _rank_rows(cells, n, rank_factors(n, cells.shape[1]))


def unrank(ranks: np.ndarray, n: int, k: int) -> np.ndarray:
    """Inverse of `rank`: the (m, k) uint8 cells of each rank."""
    factors = rank_factors(n, k)
    cells = np.empty((len(ranks), k), dtype=np.uint8)
    for i in range(k):
        cells[:, i] = (ranks // factors[i]) % (n - i)
    for i in range(k - 2, -1, -1):  # digits count the free cells: lift the later ones past earlier picks
        col = cells[:, i]
        for j in range(i + 1, k):
            cells[:, j] += cells[:, j] >= col
    return cells


def place_values(n: int, k: int) -> list[int]:
    """Base-n place value of each of k cells: the first cell is the most significant digit,
    so base-n indices increase with the lexicographic rank (the copy into base-n order then
    writes memory in order, several times faster than scattered)."""
    return [n ** (k - 1 - j) for j in range(k)]


@lru_cache(maxsize=2)
def sparse_index(n: int, k: int) -> np.ndarray:
    """The base-n index (`place_values`) of every k-permutation of n cells, in rank order,
    increasing (read-only).

    Built prefix by prefix (each prefix extended by its free cells in increasing order keeps
    the lexicographic order), which is several times faster than unranking them all.  Cached:
    the groups of one partition usually share a size.
    """
    index = np.zeros(1, dtype=np.int64)
    used = np.zeros((1, n), dtype=bool)
    for j in range(k):
        rows, cells = np.nonzero(~used)  # row-major: by prefix, then by cell
        index = index[rows] * n + cells.astype(np.int64)
        if j + 1 < k:
            used = used[rows]
            used[np.arange(len(rows)), cells] = True
    index.setflags(write=False)
    return index


def rank_one(cells: tuple[int, ...] | list[int], n: int) -> int:
    """`rank` of one tuple of cells, in pure Python."""
    k = len(cells)
    r = 0
    used = 0
    for i, c in enumerate(cells):
        c = int(c)
        r += (c - bin(used & ((1 << c) - 1)).count("1")) * perm(n - 1 - i, k - 1 - i)
        used |= 1 << c
    return r


# -- building ------------------------------------------------------------------------------------

class _Progress:
    """A rich progress bar on stderr when it is a terminal, else nothing."""

    def __init__(self, label: str, total: int, enabled: bool | None = None):
        self.bar = None
        if enabled is None:
            enabled = sys.stderr.isatty()
        if enabled:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>5.1f}%"),
                                TextColumn("{task.fields[info]}"), TimeElapsedColumn(),
                                console=Console(stderr=True), transient=True)
            self.task = self.bar.add_task(label, total=total, info="")
            self.bar.start()

    def update(self, done: int, info: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done, info=info)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def build_group(width: int, height: int, goal: tuple[int, ...], tiles: tuple[int, ...],
                progress: bool | None = None) -> np.ndarray:
    """The table of one group: ``table[rank(cells of tiles)]`` = fewest moves of these tiles.

    0-1 breadth-first search over (cells of ``tiles``, blank cell), one depth at a time:
    the states at depth d are expanded in batches; a swap with an outside tile (cost 0)
    joins depth d and is expanded in a later wave of the same depth, a swap with a group
    tile (cost 1) is marked d + 1.  Memory: one byte per abstract state plus a batch.
    """
    n, k = width * height, len(tiles)
    kk = k + 1  # the blank is the last "tile" of the abstract state
    size = perm(n, kk)
    free = n - k  # cells left for the blank once the tiles are placed
    dist = np.full(size, UNSEEN, dtype=np.uint8)
    nbr = neighbour_table(width, height)
    start = [goal.index(t) for t in tiles] + [goal.index(0)]
    dist[rank(np.array([start], dtype=np.uint8), n)[0]] = 0
    factors = rank_factors(n, kk)
    bar = _Progress(f"pdb {width}x{height} tiles {','.join(map(str, tiles))}", size, progress)
    reached = 1

    def expand(ranks: np.ndarray, d: int) -> list[np.ndarray]:
        """Expand abstract states at depth d; mark cost-1 children d+1; return free-move children."""
        cells = unrank(ranks, n, kk)
        blank = cells[:, k]
        tiles_cells = cells[:, :k]
        occupied = np.zeros(len(ranks), dtype=np.uint32)  # bit p: a group tile is on cell p
        for i in range(k):
            occupied |= np.left_shift(np.uint32(1), tiles_cells[:, i], dtype=np.uint32)
        base = ranks - ranks % free  # the rank without the blank's digit
        free_children = []
        for direction in range(4):
            nb = nbr[blank, direction]
            sel = np.flatnonzero(nb != 255)
            nb = nb[sel]
            swap = (occupied[sel] >> nb) & 1
            # free move: only the blank's digit (the last one) changes
            fr = np.flatnonzero(swap == 0)
            if len(fr):
                nbf = nb[fr]
                below = occupied[sel[fr]] & ((np.uint32(1) << nbf) - np.uint32(1))
                child = base[sel[fr]] + nbf - np.bitwise_count(below)
                dc = dist[child]
                child = child[(dc == UNSEEN) | (dc == d + 1)]
                if len(child):
                    dist[child] = PENDING
                    free_children.append(child)
            sw = np.flatnonzero(swap)
            if len(sw):
                rows = sel[sw]
                nbs = nb[sw]
                moved = np.empty((len(sw), kk), dtype=np.uint8)
                moved[:, :k] = tiles_cells[rows]
                moved[:, k] = nbs
                hit = moved[:, :k] == nbs[:, None]
                moved[:, :k][hit] = blank[rows]
                child = _rank_rows(moved, n, factors)
                child = child[dist[child] == UNSEEN]
                if len(child):
                    dist[child] = d + 1
        return free_children

    d = 0
    started = time.perf_counter()
    try:
        while True:
            waves: list[np.ndarray] = []
            found = False
            for lo in range(0, size, CHUNK * 8):  # the depth's states, found by scanning
                idx = np.flatnonzero(dist[lo:lo + CHUNK * 8] == d)
                if len(idx):
                    found = True
                    waves += expand(idx + lo, d)
            while waves:  # states joined through free moves, wave after wave
                todo = _distinct(np.concatenate(waves))
                waves = []
                dist[todo] = d
                found = True
                for lo in range(0, len(todo), CHUNK):
                    waves += expand(todo[lo:lo + CHUNK], d)
            if not found:
                break
            d += 1
            reached = size - int(np.count_nonzero(dist == UNSEEN))
            bar.update(reached, f"depth {d}, {reached:,} states, {time.perf_counter() - started:.0f}s")
    finally:
        bar.close()
    if free == 0:
        return dist
    return dist.reshape(-1, free).min(axis=1)


def group_builder(n: int, groups: tuple[tuple[int, ...], ...], name: str) -> Callable[..., np.ndarray]:
    """`build_group`'s signature: the compiled builder when numba is here, else numpy's;
    InputError when a group is beyond the one available."""
    from .compiled import compiled_kernel_available

    if compiled_kernel_available():
        try:
            from .pdb_stream import build_group_stream, bytes_needed
        except ImportError:
            pass
        else:
            big = [g for g in groups if bytes_needed(n, len(g)) > MAX_STREAM_BYTES]
            if big:
                raise InputError(f"{name}: a group of {len(big[0])} tiles needs {bytes_needed(n, len(big[0])):,} "
                                 f"bytes to build, more than this builder holds ({MAX_STREAM_BYTES:,})")

            def stream(width, height, goal, tiles, progress=None):
                bar = _Progress(f"pdb {width}x{height} tiles {','.join(map(str, tiles))}", perm(n, len(tiles)), progress)
                try:
                    return build_group_stream(width, height, goal, tiles, bar)
                finally:
                    bar.close()

            return stream
    big = [g for g in groups if perm(n, len(g) + 1) > MAX_ABSTRACT]
    if big:
        raise InputError(f"{name}: a group of {len(big[0])} tiles has {perm(n, len(big[0]) + 1):,} abstract states, "
                         f"more than the numpy builder holds ({MAX_ABSTRACT:,}); the compiled builder can: "
                         f"pip install 'searchkit[fast]'")
    return build_group


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values (sorted); faster than np.unique's hashing for big int arrays."""
    values = np.sort(values)
    keep = np.ones(len(values), dtype=bool)
    keep[1:] = values[1:] != values[:-1]
    return values[keep]


def _rank_rows(cells: np.ndarray, n: int, factors: np.ndarray) -> np.ndarray:
    """`rank` with the place values given (the builder's hot path)."""
    m, k = cells.shape
    out = np.zeros(m, dtype=np.int64)
    for i in range(k):
        digit = cells[:, i].astype(np.int64)
        col = cells[:, i]
        for j in range(i):
            digit -= cells[:, j] < col
        out += digit * factors[i]
    return out


# -- loaded databases ----------------------------------------------------------------------------

class PatternDatabase:
    """The tables of one partition for one board and goal, with their lookups.

    ``tables[i]`` is indexed by `rank` of the cells of ``groups[i]`` (tiles in increasing
    order).  `sparse` tables are indexed by ``sum(cell_j * place_value_j)`` instead, which a move
    updates with one addition - what the incremental engines use.
    """

    def __init__(self, name: str, width: int, height: int, goal: tuple[int, ...],
                 groups: tuple[tuple[int, ...], ...], tables: list[np.ndarray]):
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
            offs = np.cumsum([0] + [len(t) for t in tables[:-1]]).astype(np.int64)
            first = tables[0]
            adjacent = all(t.dtype == np.uint8 and t.flags.c_contiguous for t in tables) and all(
                t.__array_interface__["data"][0] == first.__array_interface__["data"][0] + o
                for t, o in zip(tables, offs))
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
            mirrored = sum(int(table[rank_one([cell_map[pos[tile_map[t]]] for t in g], n)])
                           for g, table in zip(self.groups, self.tables))
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
            mirrored = [(tables[gi], [(tile_map[t], w) for t, w in zip(g, place_values(n, len(g)))])
                        for gi, g in enumerate(self.groups)]

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


_LOADED: dict[tuple, PatternDatabase] = {}


def _echo(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def get_database(name: str, width: int, height: int, goal: tuple[int, ...], *, cache_dir: str | Path | None = None,
                 rebuild: bool = False, progress: bool | None = None,
                 echo: Callable[[str], None] = _echo) -> PatternDatabase:
    """The database ``name`` for this board and goal: from memory, the cache, or built.

    A cache file that is corrupt, truncated or made for something else is reported in one
    line through ``echo`` and rebuilt.  InputError when the partition does not fit the board.
    """
    partition = PARTITIONS.get(name)
    if partition is None:
        raise InputError(f"unknown pattern database {name!r} (known: {', '.join(PARTITIONS)})")
    if (partition.width, partition.height) != (width, height):
        fitting = [p.name for p in PARTITIONS.values() if (p.width, p.height) == (width, height)]
        hint = f"for {width}x{height} use {', '.join(fitting)}" if fitting else f"none exists for {width}x{height}"
        raise InputError(f"{name} is a pattern database for {partition.width}x{partition.height} boards ({hint})")
    return load_or_build(partition, goal, cache_dir=cache_dir, rebuild=rebuild, progress=progress, echo=echo)


def cache_entry(partition: Partition, goal: tuple[int, ...], cache_dir: str | Path | None = None):
    """``(file path, expected header, groups as goal tiles)`` of a partition's cache file."""
    from . import pdb_cache

    width, height, n = partition.width, partition.height, partition.width * partition.height
    check_partition(partition.groups, n, partition.name)
    groups = goal_groups(partition.groups, width, height, tuple(goal))
    path = pdb_cache.cache_dir(cache_dir) / pdb_cache.file_name(partition.name, width, height, tuple(goal), groups)
    header = pdb_cache.expected_header(partition.name, width, height, tuple(goal), groups,
                                       [perm(n, len(g)) for g in groups])
    return path, header, groups


def load_or_build(partition: Partition, goal: tuple[int, ...], *, cache_dir: str | Path | None = None,
                  rebuild: bool = False, progress: bool | None = None,
                  echo: Callable[[str], None] = _echo) -> PatternDatabase:
    """`get_database` for any `Partition` (custom ones too)."""
    from . import pdb_cache

    width, height, n = partition.width, partition.height, partition.width * partition.height
    goal = tuple(goal)
    path, header, groups = cache_entry(partition, goal, cache_dir)
    directory = path.parent
    key = (partition.name, partition.groups, width, height, goal, str(directory))
    if not rebuild and key in _LOADED:
        return _LOADED[key]
    tables = None
    if path.exists() and not rebuild:
        try:
            tables = pdb_cache.read(path, header)
        except pdb_cache.CacheError as e:
            echo(f"warning: pattern database cache {path} is unusable ({e}); rebuilding it")
    if tables is None:
        build = group_builder(n, groups, partition.name)
        try:  # fail before a long build, not after it
            directory.mkdir(parents=True, exist_ok=True)
            writable = os.access(directory, os.W_OK)
        except OSError as e:
            raise InputError(f"cannot use the pattern-database cache directory {directory}: {e.strerror or e}") from None
        if not writable:
            raise InputError(f"the pattern-database cache directory {directory} is not writable")
        why = "rebuilding" if rebuild or path.exists() else "first use"
        echo(f"building pattern database {partition.name} for {width}x{height} ({why}, cached in {directory})")
        tables = [build(width, height, goal, g, progress) for g in groups]
        try:
            pdb_cache.write(path, header, tables)
        except OSError as e:
            raise InputError(f"cannot write the pattern-database cache {path}: {e.strerror or e}") from None
    db = PatternDatabase(partition.name, width, height, goal, groups, tables)
    _LOADED[key] = db
    return db


def pdb_heuristics() -> dict[str, Heuristic]:
    """The partitions as heuristics; ``make(problem)`` loads or builds on first use."""
    def maker(name: str):
        def make(problem) -> Callable[[int], int]:
            from .pdb_packed import packed_lookups

            db = get_database(name, problem.width, problem.height, tuple(problem.goal))
            packed = packed_lookups(db, problem)
            if packed is None:
                return db.state_heuristic(problem.bits, problem.mask)
            h, successors_with_h = packed
            h.successors_with_h = successors_with_h  # for NPuzzleProblem.use_heuristic's incremental slot
            return h

        return make

    return {name: Heuristic(name, maker(name), p.summary, admissible=True) for name, p in PARTITIONS.items()}
