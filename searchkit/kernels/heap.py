"""A binary heap of packed open-list entries for the compiled best-first search.

An entry is two ``int64`` words compared in order: ``(f << SEC_BITS) | sec`` and
``(seq << SLOT_BITS) | slot`` (`searchkit.kernels.codes`), so the least entry has the least
``f``, then the least ``sec`` (``h``), then the lowest insertion number: first in, first
out among equals, as the Python best-first search's bucket queue.  The entries live in two
arrays that the driver grows between slices.  The functions are kernel templates (numba's
subset, compiled in each generated module).
"""

from __future__ import annotations

from typing import Any


def heap_push(k1s: Any, k2s: Any, size: int, k1: int, k2: int) -> int:
    """Add the entry ``(k1, k2)`` to the heap of ``size`` entries; the new size."""
    i = size
    while i > 0:
        p = (i - 1) >> 1
        pk1 = k1s[p]
        if pk1 < k1 or (pk1 == k1 and k2s[p] < k2):
            break
        k1s[i] = pk1
        k2s[i] = k2s[p]
        i = p
    k1s[i] = k1
    k2s[i] = k2
    return size + 1


def heap_pop(k1s: Any, k2s: Any, size: int) -> int:
    """Remove the least entry (read it at index 0 first); the new size."""
    size -= 1
    if size == 0:
        return 0
    k1 = k1s[size]
    k2 = k2s[size]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and (k1s[c + 1] < k1s[c] or (k1s[c + 1] == k1s[c] and k2s[c + 1] < k2s[c])):
            c += 1
        if k1 < k1s[c] or (k1 == k1s[c] and k2 < k2s[c]):
            break
        k1s[i] = k1s[c]
        k2s[i] = k2s[c]
        i = c
    k1s[i] = k1
    k2s[i] = k2
    return size


TEMPLATES = (heap_push, heap_pop)
