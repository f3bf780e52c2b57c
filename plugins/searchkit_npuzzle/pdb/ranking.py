"""Ranks of partial permutations: where a group's tiles stand, as one table index.

A group of k tiles on n cells has n!/(n-k)! placements; `rank` numbers them
lexicographically (dense tables), `place_values` / `sparse_index` give the base-n index a
move updates with one addition (the incremental lookups).
"""

from __future__ import annotations

from functools import lru_cache
from math import perm

import numpy as np


def rank_factors(n: int, k: int) -> np.ndarray:
    """Place values of the lexicographic rank of k distinct cells out of n."""
    return np.array([perm(n - 1 - i, k - 1 - i) for i in range(k)], dtype=np.int64)


def rank(cells: np.ndarray, n: int) -> np.ndarray:
    """Lexicographic ranks of rows of distinct cells (shape (m, k)) among the k-perms of n."""
    return rank_rows(cells, n, rank_factors(n, cells.shape[1]))


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


def rank_rows(cells: np.ndarray, n: int, factors: np.ndarray) -> np.ndarray:
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
