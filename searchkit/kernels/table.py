"""A hash table of fixed-width states for the compiled searches: dense rows, an open-addressing index.

A state's row (its slot, in insertion order) holds its ``width`` words, its path cost ``g``
(``int32``; ``-g - 1`` once expanded, so a cheaper path found later is known to reopen
it), its parent's slot (``int32``, -1 for the root) and the move that reached it (one
byte): 17 bytes for a one-word state.  The index is an array of ``2**k`` ``uint32``
entries (0: empty), probed linearly from the low ``k`` bits of the state's 64-bit hash;
an entry's low ``k`` bits hold ``slot + 1`` (rows never outnumber entries) and its high
``32 - k`` bits the same bits of the hash's upper half, a fingerprint, so a probe reads
a row only when the fingerprints match (one in ``2**(32 - k)`` of the other states).  A
lookup costs about one cache miss in the index and one in the rows; the index is at most
`LOAD` full, 5.3 to 10.7 bytes a stored state, and the rows hold as many states as that
allows.  Tables stop growing at ``2**MAX_BITS`` entries (a fingerprint of 2 bits).

The kernels never grow a table: they stop with ``FULL`` before an expansion that might not
fit, and the driver doubles it (`Table.grow`) between slices, or stops the search at its
memory limit.  The functions above `Table` are kernel templates (numba's subset, compiled
in each generated module, `searchkit.kernels.generate`).
"""

from __future__ import annotations

import mmap
from typing import Any

import numpy as np

LOAD = 0.75  # the fullest the index gets
FIRST_INDEX = 1 << 16  # index entries of a new table (256 KB, rows for 49,152 states)
RESERVE = 1 << 22  # rows a new table sets aside (address space; 68 MB of it for one-word states)
MAX_BITS = 30  # the largest index, 2**30 entries (4 GiB; 805 million states)


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
    return find_hashed(keys, index, s, hash_words(s, keys.shape[1]))


def find_hashed(keys: Any, index: Any, s: Any, hv: Any) -> Any:
    """`find_slot` of ``s`` whose `hash_words` is ``hv``."""
    mask = index.shape[0] - 1
    width = keys.shape[1]
    high = np.uint32(mask) ^ np.uint32(0xFFFFFFFF)  # the fingerprint's bits in an entry
    fp = np.uint32(hv >> np.uint64(32)) & high
    i = np.uint64(hv & np.uint64(mask))
    while True:
        e = index[i]
        if e == 0:
            return -np.int64(i) - 1
        if (e & high) == fp:
            slot = np.int64(e & np.uint32(mask)) - 1
            same = True
            for j in range(width):
                if keys[slot, j] != s[j]:
                    same = False
                    break
            if same:
                return slot
        i = (i + np.uint64(1)) & np.uint64(mask)


def add_slot(keys: Any, index: Any, s: Any, where: int, slot: int) -> None:
    """Store state ``s`` in row ``slot`` and index entry ``where`` (`find_slot`'s ``-(where + 1)``)."""
    add_hashed(keys, index, s, where, slot, hash_words(s, keys.shape[1]))


def add_hashed(keys: Any, index: Any, s: Any, where: int, slot: int, hv: Any) -> None:
    """`add_slot` of ``s`` whose `hash_words` is ``hv``."""
    for j in range(keys.shape[1]):
        keys[slot, j] = s[j]
    index[where] = entry(hv, index.shape[0] - 1, slot)


def entry(hv: Any, mask: int, slot: int) -> Any:
    """The index entry of the row ``slot`` whose state hashes to ``hv`` in an index of ``mask + 1`` entries."""
    high = np.uint32(mask) ^ np.uint32(0xFFFFFFFF)
    return (np.uint32(hv >> np.uint64(32)) & high) | np.uint32(slot + 1)


def rehash(keys: Any, n: int, index: Any) -> None:
    """Index the first ``n`` rows of ``keys`` in the empty ``index``."""
    mask = index.shape[0] - 1
    for slot in range(n):
        hv = hash_words(keys[slot], keys.shape[1])
        i = np.int64(hv & np.uint64(mask))
        while index[i] != 0:
            i = (i + 1) & mask
        index[i] = entry(hv, mask, slot)


TEMPLATES = (hash_words, find_hashed, find_slot, entry, add_hashed, add_slot, rehash)


def rows_array(shape: tuple[int, ...], dtype: Any) -> Any:
    """An uninitialised array of ``shape`` for table rows, in the system's base pages where
    it can say so (``madvise(MADV_NOHUGEPAGE)``): rows are written in order, and a huge page
    (2 MB) half used would be resident whole, more than a small table's rows."""
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    if nbytes < mmap.PAGESIZE or not hasattr(mmap, "MADV_NOHUGEPAGE"):
        return np.empty(shape, dtype=dtype)
    try:
        area = mmap.mmap(-1, nbytes)
    except OSError as e:  # no address space left
        raise MemoryError(str(e)) from None
    area.madvise(mmap.MADV_NOHUGEPAGE)
    return np.frombuffer(area, dtype=dtype).reshape(shape)


def first_index(cap: int | None) -> int:
    """The index entries of a new table that will hold at most ``cap`` states (None: no
    cap): `FIRST_INDEX`, or the fewest whose rows hold ``cap``."""
    size = 1 << 10
    while size < FIRST_INDEX and (cap is None or size * LOAD < cap):
        size *= 2
    return size


class Table:
    """The arrays of one table of states ``width`` words wide, and their growth.

    ``capacity`` is the rows the index admits (`LOAD` of its entries), which the kernels
    fill before they stop with ``FULL``.  The row arrays are set aside longer, ``reserve``
    rows (address space only: a row takes memory when it is written, `rows_array`), so that
    growing rebuilds the index alone until the reserve is full; past it they are copied into
    arrays twice as long."""

    __slots__ = ("width", "keys", "g", "parent", "move", "index", "capacity")

    def __init__(self, width: int, index_size: int = FIRST_INDEX, reserve: int = RESERVE):
        self.width = width
        self.capacity = int(index_size * LOAD)
        rows = max(self.capacity, reserve)
        self.keys = rows_array((rows, width), np.uint64)
        self.g = rows_array((rows,), np.int32)
        self.parent = rows_array((rows,), np.int32)
        self.move = rows_array((rows,), np.uint8)
        self.index = np.zeros(index_size, dtype=np.uint32)

    @staticmethod
    def row_bytes(width: int) -> int:
        """The bytes of one row: the words, g, the parent, the move."""
        return 8 * width + 4 + 4 + 1

    def bytes(self) -> int:
        """The bytes the table's arrays take once its capacity is used (rows set aside
        beyond it take none)."""
        return self.capacity * self.row_bytes(self.width) + self.index.nbytes

    def growth_bytes(self) -> int:
        """The bytes the table may claim by its next growth and the rows it then admits."""
        return 2 * self.bytes()

    def grow(self, n: int, rehash_fn: Any) -> None:
        """Double the table's capacity, keeping its first ``n`` rows (``rehash_fn``: the
        compiled `rehash`).  May raise MemoryError, leaving the table as it was.

        Where the rows must move, one row array at a time is copied; the old index is dropped
        before the new one is built from the rows: the peak is the rows, the new index and
        one array's copy, not the old and the new table together."""
        size = self.index.shape[0]
        if 2 * size > 1 << MAX_BITS:
            raise MemoryError(f"a table of {2 * size} index entries")
        capacity = int(2 * size * LOAD)
        if capacity > self.keys.shape[0]:  # the reserve is full: rows twice as many
            rows = max(capacity, 2 * self.keys.shape[0])
            for name in ("keys", "g", "parent", "move"):  # a MemoryError leaves each array as long as before or longer
                old = getattr(self, name)
                new = rows_array((rows, *old.shape[1:]), old.dtype)
                new[:n] = old[:n]
                setattr(self, name, new)
                del old, new
        try:
            self.index = np.empty(0, dtype=np.uint32)  # the old index freed
            index = np.zeros(2 * size, dtype=np.uint32)
        except MemoryError:  # as it was: the old index rebuilt
            self.index = np.zeros(size, dtype=np.uint32)
            rehash_fn(self.keys, n, self.index)
            raise
        self.index, self.capacity = index, capacity
        rehash_fn(self.keys, n, self.index)
