"""A compiled pattern-database builder that holds a few bits per abstract state.

`build.build_group` (numpy) keeps one byte per abstract state, the group's tile cells *and*
the blank's cell: 4.2e9 bytes for the 15-puzzle's 8-tile group, more than this machine
should give a build.  This builder (numba, so only with ``searchkit[fast]``) indexes by the
tiles' placement alone and keeps, per placement, three small bitmasks over the cells left
free: which blank cells are *visited*, which are in the current depth's frontier and which
in the next one.  For the 8-tile group that is three bytes per placement (1.6 GB for the
519 million placements) plus the one-byte answer.

The search is the same 0-1 breadth-first search: a blank move into a cell outside the
group costs 0, a swap with a group tile costs 1.  Free moves never change the placement,
so instead of queueing them the builder floods the blank's connected region of free cells
with bitboard shifts when it expands a placement; every cell of that region is at the same
depth.  Depths are processed in increasing order by scanning the frontier array, so the
first depth at which a placement is expanded is its table entry - the minimum over the
blank's cells - and equals what `build.build_group` computes (tested on small groups).
"""

from __future__ import annotations

import time
from math import perm

import numpy as np
from numba import njit

UNSEEN = 255
SPAN = 1 << 22  # placements per compiled call: the progress bar and Ctrl-C get a turn between calls


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True, inline="always")
def _translate(mask, free, to_cells):
    """Between a mask over the set bits of ``free`` (bit i: its i-th set bit, the builder's
    per-placement masks) and a mask over cells: spread onto the cells (``to_cells``) or
    gather back."""
    out = 0
    i = 0
    f = free
    while f:
        low = f & -f
        if to_cells:
            if (mask >> i) & 1:
                out |= low
        elif mask & low:
            out |= 1 << i
        i += 1
        f ^= low
    return out


@njit(cache=True)
def _level(lo, hi, depth, cur, nxt, visited, result, n, k, fac, nbr, not_first_col, not_last_col, width):
    """Expand the placements in ``[lo, hi)`` whose frontier mask is set.

    Returns (regions expanded, placements reached for the first time).

    ``cur``/``nxt``/``visited`` hold masks over the placement's free cells in increasing cell
    order; ``nbr[c, 0:4]`` are the cell's neighbours (-1: none).
    """
    full = (np.int64(1) << n) - 1
    cells = np.empty(k, dtype=np.int64)
    tile_at = np.zeros(n, dtype=np.int64)
    expanded = first = 0
    for p in range(lo, hi):
        mask = np.int64(cur[p])
        if mask == 0:
            continue
        cur[p] = 0
        # unrank the placement: digit i picks the (digit)-th cell not used by tiles 0..i-1
        used = np.int64(0)
        for i in range(k):
            digit = (p // fac[i]) % (n - i)
            c = 0
            while True:
                if not (used >> c) & 1:
                    if digit == 0:
                        break
                    digit -= 1
                c += 1
            cells[i] = c
            tile_at[c] = i
            used |= np.int64(1) << c
        free = full & ~used
        seen = _translate(np.int64(visited[p]), free, True)
        region = _translate(mask, free, True) & ~seen
        if region == 0:
            continue
        while True:  # flood the blank's free cells: free moves cost nothing
            grow = (
                region
                | (
                    ((region << 1) & not_first_col)
                    | ((region >> 1) & not_last_col)
                    | (region << width)
                    | (region >> width)
                )
                & free
            )
            if grow == region:
                break
            region = grow
        region &= ~seen
        visited[p] = visited[p] | _translate(region, free, False)
        if result[p] == UNSEEN:
            result[p] = depth
            first += 1
        expanded += 1
        m = region
        while m:  # each blank cell of the region, each group tile next to it: cost 1
            low = m & -m
            m ^= low
            b = _popcount(low - 1)
            for j in range(4):
                c = nbr[b, j]
                if c < 0 or not (used >> c) & 1:
                    continue
                t = tile_at[c]
                cells[t] = b
                r = np.int64(0)
                u = np.int64(0)
                for i in range(k):
                    ci = cells[i]
                    r += (ci - _popcount(u & ((np.int64(1) << ci) - 1))) * fac[i]
                    u |= np.int64(1) << ci
                cells[t] = c
                bit = _popcount(full & ~u & ((np.int64(1) << c) - 1))
                if not (np.int64(visited[r]) >> bit) & 1:
                    nxt[r] = nxt[r] | (1 << bit)
    return expanded, first


def mask_dtype(free_cells: int):
    """The narrowest unsigned type with a bit per free cell."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if free_cells <= np.dtype(dtype).itemsize * 8:
            return dtype
    raise ValueError(f"{free_cells} free cells need more than 32 bits a mask")


def bytes_needed(n: int, k: int) -> int:
    """Memory the build holds for a group of k tiles on n cells (three masks + the answer)."""
    return perm(n, k) * (3 * np.dtype(mask_dtype(n - k)).itemsize + 1)


def build_group_stream(width: int, height: int, goal: tuple[int, ...], tiles: tuple[int, ...], bar=None) -> np.ndarray:
    """The table of one group, indexed like `build.build_group`'s (rank of the tiles' cells).

    ``bar``: an object with ``update(done, info)`` (`build._Progress`), or None.
    """
    n, k = width * height, len(tiles)
    if n > 62:
        raise ValueError("boards of more than 62 cells are beyond the 64-bit bitboards")
    size = perm(n, k)
    dtype = mask_dtype(n - k)
    cur = np.zeros(size, dtype=dtype)
    nxt = np.zeros(size, dtype=dtype)
    visited = np.zeros(size, dtype=dtype)
    result = np.full(size, UNSEEN, dtype=np.uint8)
    fac = np.array([perm(n - 1 - i, k - 1 - i) for i in range(k)], dtype=np.int64)
    nbr = np.full((n, 4), -1, dtype=np.int64)
    for c in range(n):
        r, col = divmod(c, width)
        for j, (ok, other) in enumerate(
            ((r > 0, c - width), (r < height - 1, c + width), (col > 0, c - 1), (col < width - 1, c + 1))
        ):
            if ok:
                nbr[c, j] = other
    first_col = sum(1 << (r * width) for r in range(height))
    last_col = first_col << (width - 1)
    full = (1 << n) - 1
    start = [goal.index(t) for t in tiles]
    blank = goal.index(0)
    r0, used = 0, 0
    for i, c in enumerate(start):
        r0 += (c - bin(used & ((1 << c) - 1)).count("1")) * int(fac[i])
        used |= 1 << c
    cur[r0] = 1 << bin(full & ~used & ((1 << blank) - 1)).count("1")
    depth, reached, started = 0, 0, time.perf_counter()
    while True:
        new = 0
        for lo in range(0, size, SPAN):
            expanded, first = _level(
                lo,
                min(lo + SPAN, size),
                depth,
                cur,
                nxt,
                visited,
                result,
                n,
                k,
                fac,
                nbr,
                full & ~first_col,
                full & ~last_col,
                width,
            )
            new += expanded
            reached += first
            if bar is not None:
                bar.update(reached, f"depth {depth}, {reached:,} placements, {time.perf_counter() - started:.0f}s")
        if new == 0:
            break
        cur, nxt = nxt, cur  # cur was cleared while it was expanded
        depth += 1
    return result
