"""A hash table of fixed-width states for the compiled searches: dense rows, an open-addressing index.

A state's row (its slot, in insertion order) holds its ``width`` words, its path cost ``g``
(``int32``; ``-g - 1`` once expanded, so a cheaper path found later is known to reopen
it), its parent's slot (``int32``, -1 for the root) and the move that reached it (one
byte): 17 bytes for a one-word state.  The index is a power-of-two array of ``int64``
entries, ``(fingerprint << 32) | (slot + 1)`` (0: empty), probed linearly from the state's
hash; a probe compares fingerprints and reads a row only when they match, so a lookup
costs about one cache miss in the index and one in the rows.  The index is at most
`LOAD` full; the rows hold as many states as that allows.

The kernels never grow a table: they stop with ``FULL`` before an expansion that might not
fit, and the driver doubles it (`Table.grow`) between slices, or stops the search at its
memory limit.  The functions above `Table` are kernel templates (numba's subset, compiled
in each generated module, `searchkit.kernels.generate`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

LOAD = 0.75  # the fullest the index gets
FIRST_INDEX = 1 << 16  # index entries of a new table (1.3 MB for one-word states: fewer growths)


def hash_words(s: Any, width: int) -> Any:
    """A 64-bit hash of the words ``s[:width]`` (splitmix64's finaliser over each word in turn)."""
    x = np.uint64(0x9E3779B97F4A7C15)
    for i in range(width):
        z = x ^ s[i]
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        x = z ^ (z >> np.uint64(31))
    return x


def find_slot(keys: Any, index: Any, s: Any) -> Any:
    """The slot of state ``s`` (its key words, the table's width), or ``-(position + 1)`` of
    the empty index entry where it goes."""
    mask = index.shape[0] - 1
    width = keys.shape[1]
    hv = hash_words(s, width)
    fp = np.int64(hv >> np.uint64(33))
    i = np.int64(hv & np.uint64(mask))
    while True:
        e = index[i]
        if e == 0:
            return -(i + 1)
        if (e >> 32) == fp:
            slot = (e & 0xFFFFFFFF) - 1
            same = True
            for j in range(width):
                if keys[slot, j] != s[j]:
                    same = False
                    break
            if same:
                return slot
        i = (i + 1) & mask


def add_slot(keys: Any, index: Any, s: Any, where: int, slot: int) -> None:
    """Store state ``s`` in row ``slot`` and index entry ``where`` (`find_slot`'s ``-(where + 1)``)."""
    width = keys.shape[1]
    for j in range(width):
        keys[slot, j] = s[j]
    index[where] = ((np.int64(hash_words(s, width) >> np.uint64(33))) << 32) | (slot + 1)


def rehash(keys: Any, n: int, index: Any) -> None:
    """Index the first ``n`` rows of ``keys`` in the empty ``index``."""
    mask = index.shape[0] - 1
    for slot in range(n):
        hv = hash_words(keys[slot], keys.shape[1])
        i = np.int64(hv & np.uint64(mask))
        while index[i] != 0:
            i = (i + 1) & mask
        index[i] = ((np.int64(hv >> np.uint64(33))) << 32) | (slot + 1)


TEMPLATES = (hash_words, find_slot, add_slot, rehash)


class Table:
    """The arrays of one table of states ``width`` words wide, and their growth."""

    __slots__ = ("width", "keys", "g", "parent", "move", "index", "capacity")

    def __init__(self, width: int, index_size: int = FIRST_INDEX):
        self.width = width
        self._allocate(index_size)

    def _allocate(self, index_size: int) -> None:
        self.capacity = int(index_size * LOAD)
        self.keys = np.empty((self.capacity, self.width), dtype=np.uint64)
        self.g = np.empty(self.capacity, dtype=np.int32)
        self.parent = np.empty(self.capacity, dtype=np.int32)
        self.move = np.empty(self.capacity, dtype=np.uint8)
        self.index = np.zeros(index_size, dtype=np.int64)

    @staticmethod
    def row_bytes(width: int) -> int:
        """The bytes of one row: the words, g, the parent, the move."""
        return 8 * width + 4 + 4 + 1

    def bytes(self) -> int:
        """The bytes the table's arrays take (their capacity, used or not)."""
        return self.capacity * self.row_bytes(self.width) + self.index.nbytes

    def growth_bytes(self) -> int:
        """The bytes `grow` allocates (the new arrays; the old ones are freed after)."""
        return 2 * self.bytes()

    def grow(self, n: int, rehash_fn: Any) -> None:
        """Double the table, keeping its first ``n`` rows (``rehash_fn``: the compiled
        `rehash`).  May raise MemoryError, leaving the table as it was.

        One array at a time, the old index dropped before the new one is built from the
        rows: the peak is the rows, the new index and one array's copy, not the old and the
        new table together (untouched capacity costs no memory until rows are written)."""
        size = self.index.shape[0]
        capacity = int(2 * size * LOAD)
        names = ("keys", "g", "parent", "move")
        try:
            for name in names:
                old = getattr(self, name)
                new = np.empty((capacity, *old.shape[1:]), dtype=old.dtype)
                new[:n] = old[:n]
                setattr(self, name, new)
                del old, new
            self.index = np.empty(0, dtype=np.int64)  # the old index freed
            index = np.zeros(2 * size, dtype=np.int64)
        except MemoryError:  # as it was: the rows seen at the old capacity, the old index rebuilt
            for name in names:
                setattr(self, name, getattr(self, name)[: self.capacity])
            if self.index.shape[0] != size:
                self.index = np.zeros(size, dtype=np.int64)
                rehash_fn(self.keys, n, self.index)
            raise
        self.index, self.capacity = index, capacity
        rehash_fn(self.keys, n, self.index)
