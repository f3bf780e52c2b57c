"""A bucket queue: the open list of searches whose priorities repeat (puzzles' integer
costs, the cells of a feature space).

A heap holds each distinct key once; each key has a bucket of entries, taken first in
first out (``lifo=False``) or newest first (``lifo=True``).  A push is a dictionary lookup
and an append (a heap push only for a new key), a pop a bucket pop (a heap pop only when
the bucket empties), so with few distinct keys both cost O(1).  An entry of ``slots``
values is stored flat in its bucket, ``slots`` pointers and no tuple of its own (a waiting
position and its label: two).  Keys are any mutually comparable values (numbers, tuples).
The Python best-first loop (`searchkit.engines.bestfirst`) keeps its buckets here and
inlines push and pop in its hot loop.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from heapq import heappop, heappush
from typing import Any

SPARE = 256  # emptied FIFO buckets kept for new keys (allocating deques costs more than reusing)


class BucketQueue:
    """Entries of ``slots`` values by key, the least key first; within a key first in first
    out, or with ``lifo`` newest first.  `pop` and iteration give ``(key, *values)``
    (iteration in no set order); ``len`` counts the entries (a sum over the keys)."""

    __slots__ = ("keys", "buckets", "spare", "lifo", "slots")

    def __init__(self, lifo: bool = False, slots: int = 1):
        self.keys: list[Any] = []  # a heap of the keys that have entries
        self.buckets: dict[Any, Any] = {}  # per key, its entries' values in turn (a list with lifo, else a deque)
        self.spare: list[deque[Any]] = []  # emptied FIFO buckets, reused
        self.lifo = lifo
        self.slots = slots

    def __len__(self) -> int:
        return sum(len(bucket) for bucket in self.buckets.values()) // self.slots

    def __bool__(self) -> bool:
        return bool(self.keys)

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        k = self.slots
        for key, bucket in self.buckets.items():
            values = list(bucket)
            for i in range(0, len(values), k):
                yield (key, *values[i : i + k])

    def bucket(self, key: Any) -> Any:
        """The bucket of ``key``, made (and the key queued) if it has none."""
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = [] if self.lifo else (self.spare.pop() if self.spare else deque())
            heappush(self.keys, key)
        return bucket

    def push(self, key: Any, *values: Any) -> None:
        """Queue the entry ``values`` (``slots`` of them) last among those of ``key`` (first
        to leave with ``lifo``)."""
        self.bucket(key).extend(values)

    def push_front(self, key: Any, *values: Any) -> None:
        """Queue the entry ``values`` to leave first among those of ``key`` (an entry taken
        and put back)."""
        bucket = self.bucket(key)
        if self.lifo:
            bucket.extend(values)
        else:
            bucket.extendleft(reversed(values))

    def first_key(self) -> Any:
        """The least key that has entries (IndexError when empty)."""
        return self.keys[0]

    def pop(self) -> tuple[Any, ...]:
        """``(key, *values)`` of the next entry (IndexError when empty)."""
        key = self.keys[0]
        bucket = self.buckets[key]
        k = self.slots
        if self.lifo:
            values = bucket[-k:]
            del bucket[-k:]
        else:
            values = [bucket.popleft() for _ in range(k)]
        if not bucket:
            self.drop_first(bucket)
        return (key, *values)

    def drop_first(self, bucket: Any) -> None:
        """Forget the least key, whose ``bucket`` has just emptied (a FIFO kept for reuse)."""
        del self.buckets[heappop(self.keys)]
        if not self.lifo and len(self.spare) < SPARE:
            self.spare.append(bucket)
