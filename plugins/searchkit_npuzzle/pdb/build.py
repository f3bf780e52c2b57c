"""Building a group's table: a 0-1 breadth-first search over abstract states, in numpy.

The abstract state is the group's tile cells and the blank's cell; a blank move that swaps
with a tile outside the group costs 0, one that swaps with a group tile costs 1, and the
table keeps the minimum over the blank's cells.  `group_builder` picks this builder or
the compiled one (`build_stream`) by size and by what is installed.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from math import perm

import numpy as np

from searchkit import InputError

from ..compiled import compiled_kernel_available
from .database import UNSEEN
from .ranking import rank, rank_factors, rank_rows, unrank

PENDING = 254  # reached at the current depth through a free move, not expanded yet
CHUNK = 1 << 20  # abstract states expanded per numpy batch (bounds temporary memory)
MAX_ABSTRACT = 1 << 30  # abstract states (one byte each) the numpy build may hold; an 8-tile 4x4 group has 4.2e9
MAX_STREAM_BYTES = 3 << 30  # memory the compiled build may hold (the 7-8 partition's 8-tile group: 2.1 GB of tables)


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


class _Progress:
    """A rich progress bar on stderr when it is a terminal, else nothing."""

    def __init__(self, label: str, total: int, enabled: bool | None = None):
        self.bar = None
        if enabled is None:
            enabled = sys.stderr.isatty()
        if enabled:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.percentage:>5.1f}%"),
                TextColumn("{task.fields[info]}"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.task = self.bar.add_task(label, total=total, info="")
            self.bar.start()

    def update(self, done: int, info: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done, info=info)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def build_group(
    width: int, height: int, goal: tuple[int, ...], tiles: tuple[int, ...], progress: bool | None = None
) -> np.ndarray:
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
                child = rank_rows(moved, n, factors)
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
                idx = np.flatnonzero(dist[lo : lo + CHUNK * 8] == d)
                if len(idx):
                    found = True
                    waves += expand(idx + lo, d)
            while waves:  # states joined through free moves, wave after wave
                todo = _distinct(np.concatenate(waves))
                waves = []
                dist[todo] = d
                found = True
                for lo in range(0, len(todo), CHUNK):
                    waves += expand(todo[lo : lo + CHUNK], d)
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

    if compiled_kernel_available():
        try:
            from .build_stream import build_group_stream, bytes_needed  # numba: imported only when used
        except ImportError:
            pass
        else:
            big = [g for g in groups if bytes_needed(n, len(g)) > MAX_STREAM_BYTES]
            if big:
                raise InputError(
                    f"{name}: a group of {len(big[0])} tiles needs {bytes_needed(n, len(big[0])):,} "
                    f"bytes to build, more than this builder holds ({MAX_STREAM_BYTES:,})"
                )

            def stream(width, height, goal, tiles, progress=None):
                bar = _Progress(
                    f"pdb {width}x{height} tiles {','.join(map(str, tiles))}", perm(n, len(tiles)), progress
                )
                try:
                    return build_group_stream(width, height, goal, tiles, bar)
                finally:
                    bar.close()

            return stream
    big = [g for g in groups if perm(n, len(g) + 1) > MAX_ABSTRACT]
    if big:
        raise InputError(
            f"{name}: a group of {len(big[0])} tiles has {perm(n, len(big[0]) + 1):,} abstract states, "
            f"more than the numpy builder holds ({MAX_ABSTRACT:,}); the compiled builder can: "
            f"pip install 'searchkit[fast]'"
        )
    return build_group


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values (sorted); faster than np.unique's hashing for big int arrays."""
    values = np.sort(values)
    keep = np.ones(len(values), dtype=bool)
    keep[1:] = values[1:] != values[:-1]
    return values[keep]
