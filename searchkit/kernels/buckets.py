"""A bucket queue of table slots for the compiled best-first search.

The open list is ordered by a key ``(f << SEC_BITS) | sec`` (`searchkit.kernels.codes`;
``sec`` is ``h``, or the saturated ``g`` for greedy), then by insertion order, one of two
(``newest``): oldest first (first in, first out among equal keys, as the Python best-first
search's bucket queue) or newest first (last in, first out: on a plateau of equal keys the
search goes on from the state it generated last, deeper).  Each distinct key has a bucket
record, ``buckets[b] = (key, head, last, count)``: its 4-byte slots (``int32``) in a chain
of chunks of `CHUNK` slots in the shared pool ``pool`` (``head`` the position of the oldest
slot, ``last`` of the newest; ``links[c]``, the chunk after chunk ``c`` oldest first, the
one before it newest first, or the next free chunk).  The non-empty buckets' numbers form a
binary heap by key (``kheap``), and an open-addressing map (``mkeys``: ``key + 1``, 0 empty;
``mvals``: the bucket) finds a key's bucket.  An entry costs 4 bytes, plus a partly filled
chunk per non-empty bucket; a push or pop is O(1) within a bucket, O(log buckets) across.

The small counters live in ``qs`` (`NB`, `KSIZE`, `FREE`, `NFREE`, `USED`).  The driver
grows the arrays between slices; the kernel stops with ``FULL`` first when fewer than
``max_moves`` chunks or buckets are left.  The functions are kernel templates (numba's
subset, compiled in each generated module, inlined into the kernels); a queue is used with
one ``newest`` from its first push to its last pop.
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
    pool: Any,
    links: Any,
    buckets: Any,
    kheap: Any,
    mkeys: Any,
    mvals: Any,
    qs: Any,
    key: int,
    slot: int,
    newest: bool,
) -> None:
    """Queue ``slot`` as the newest entry of the bucket of ``key`` (its chunks linked for
    the order ``newest``)."""
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
            if newest:
                links[c] = last // CHUNK - 1  # newest first: each chunk links to the one before
            else:
                links[last // CHUNK - 1] = c
            last = c * CHUNK
    pool[last] = slot
    buckets[b, 2] = last
    buckets[b, 3] = count + 1


def bq_first(pool: Any, buckets: Any, kheap: Any, newest: bool) -> Any:
    """The slot the next pop takes (the queue not empty): of the least key, the oldest or newest."""
    b = kheap[0]
    return pool[buckets[b, 2]] if newest else pool[buckets[b, 1]]


def bq_pop(links: Any, buckets: Any, kheap: Any, qs: Any, newest: bool) -> None:
    """Take the entry `bq_first` names out of the queue: its chunk freed when emptied, its
    bucket out of the heap when emptied."""
    b = kheap[0]
    count = buckets[b, 3] - 1
    buckets[b, 3] = count
    at = buckets[b, 2] if newest else buckets[b, 1]
    if count > 0 and (at % CHUNK != 0 if newest else (at + 1) % CHUNK != 0):
        if newest:
            buckets[b, 2] = at - 1
        else:
            buckets[b, 1] = at + 1
        return
    c = at // CHUNK  # done with this chunk: to the free list
    nxt = links[c]  # the chunk the bucket goes on with
    links[c] = qs[FREE]
    qs[FREE] = c
    qs[NFREE] += 1
    if count > 0:
        if newest:
            buckets[b, 2] = nxt * CHUNK + CHUNK - 1  # a chunk before the newest is full
        else:
            buckets[b, 1] = nxt * CHUNK
        return
    ksize = qs[KSIZE] - 1  # the bucket is empty: out of the heap
    qs[KSIZE] = ksize
    if ksize > 0:
        e = kheap[ksize]
        ek = buckets[e, 0]
        j = 0
        while True:
            kc = 2 * j + 1
            if kc >= ksize:
                break
            if kc + 1 < ksize and buckets[kheap[kc + 1], 0] < buckets[kheap[kc], 0]:
                kc += 1
            if ek < buckets[kheap[kc], 0]:
                break
            kheap[j] = kheap[kc]
            j = kc
        kheap[j] = e


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


TEMPLATES = (bq_chunk, bq_push, bq_first, bq_pop, bq_rehash)
