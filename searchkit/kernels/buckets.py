"""A bucket queue of table slots for the compiled best-first search.

The open list is ordered by a key ``(f << SEC_BITS) | sec`` (`searchkit.kernels.codes`;
``sec`` is ``h``, or the saturated ``g`` for greedy), then by insertion order: first in,
first out among equal keys, as the Python best-first search's bucket queue.  Each distinct
key has a bucket record, ``buckets[b] = (key, head, last, count)``: a FIFO of 4-byte slots
(``int32``) kept in a chain of chunks of `CHUNK` slots in the shared pool ``pool`` (``head``
the position of the next slot out, ``last`` of the last slot in; ``links[c]`` the chunk
after chunk ``c``, or the next free chunk).  The non-empty buckets' numbers form a binary
heap by key (``kheap``, a few hundred entries for the 15-puzzle), and an open-addressing
map (``mkeys``: ``key + 1``, 0 empty; ``mvals``: the bucket) finds a key's bucket.  An
entry costs 4 bytes, plus a partly filled chunk per non-empty bucket.

The small counters live in ``qs`` (`NB`, `KSIZE`, `FREE`, `NFREE`, `USED`).  The driver
grows the arrays between slices; the kernel stops with ``FULL`` first when fewer than
``max_moves`` chunks or buckets are left.  The functions are kernel templates (numba's
subset, compiled in each generated module, inlined into the kernels); the best-first
kernel pops in its own body, as it reads the first entry before deciding to take it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .codes import CHUNK, FREE, KSIZE, NB, NFREE, USED


def bq_chunk(links: Any, qs: Any) -> Any:
    """A free chunk (from the free list, else never used before)."""
    c = qs[FREE]
    if c >= 0:
        qs[FREE] = links[c]
        qs[NFREE] -= 1
    else:
        c = qs[USED]
        qs[USED] = c + 1
    links[c] = -1
    return c


def bq_push(
    pool: Any, links: Any, buckets: Any, kheap: Any, mkeys: Any, mvals: Any, qs: Any, key: int, slot: int
) -> None:
    """Queue ``slot`` at the back of the bucket of ``key``."""
    mask = mkeys.shape[0] - 1
    i = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(33)) & mask
    while True:
        e = mkeys[i]
        if e == key + 1:
            b = mvals[i]
            break
        if e == 0:
            b = qs[NB]
            qs[NB] = b + 1
            mkeys[i] = key + 1
            mvals[i] = b
            buckets[b, 0] = key
            buckets[b, 3] = 0
            break
        i = (i + 1) & mask
    count = buckets[b, 3]
    if count == 0:
        c = bq_chunk(links, qs)
        last = c * CHUNK
        buckets[b, 1] = last
        # the bucket joins the heap of non-empty buckets
        j = qs[KSIZE]
        qs[KSIZE] = j + 1
        while j > 0:
            up = (j - 1) >> 1
            if buckets[kheap[up], 0] < key:
                break
            kheap[j] = kheap[up]
            j = up
        kheap[j] = b
    else:
        last = buckets[b, 2] + 1
        if last % CHUNK == 0:
            c = bq_chunk(links, qs)
            links[last // CHUNK - 1] = c
            last = c * CHUNK
    pool[last] = slot
    buckets[b, 2] = last
    buckets[b, 3] = count + 1


def bq_rehash(buckets: Any, nb: int, mkeys: Any, mvals: Any) -> None:
    """Map the keys of the first ``nb`` buckets in the empty ``mkeys``, ``mvals``."""
    mask = mkeys.shape[0] - 1
    for b in range(nb):
        key = buckets[b, 0]
        i = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(33)) & mask
        while mkeys[i] != 0:
            i = (i + 1) & mask
        mkeys[i] = key + 1
        mvals[i] = b


TEMPLATES = (bq_chunk, bq_push, bq_rehash)
