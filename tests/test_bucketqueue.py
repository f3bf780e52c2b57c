"""`BucketQueue` pops as one heap of ``(key, order, values)`` entries would."""

from __future__ import annotations

import heapq

from hypothesis import given
from hypothesis import strategies as st

from searchkit import BucketQueue

OPS = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2), st.sampled_from(["push", "front", "pop"])), max_size=80)


@given(ops=OPS, lifo=st.booleans(), slots=st.integers(1, 3))
def test_pushes_and_pops_in_any_interleaving_follow_one_heap(ops, lifo, slots):
    """The least key first; among equal keys the oldest (FIFO) or the newest (LIFO) first;
    an entry put back in front leaves first among its key's (in a LIFO queue that is any
    newest entry); every value comes back whole."""
    queue, heap = BucketQueue(lifo=lifo, slots=slots), []
    front = -(10**6)  # the heap's order of entries put in front: before any pushed
    for seq, (a, b, op) in enumerate(ops):
        key = (a, b)
        values = tuple(f"{seq}.{i}" for i in range(slots))
        if op == "pop":
            assert bool(queue) == bool(heap)
            if heap:
                k, _order, vals = heapq.heappop(heap)
                assert queue.pop() == (k, *vals)
            continue
        if op == "push":
            order = -seq if lifo else seq
            queue.push(key, *values)
        else:
            front -= 1
            order = -seq if lifo else front
            queue.push_front(key, *values)
        heapq.heappush(heap, (key, order, values))
    assert len(queue) == len(heap)
    assert sorted(queue) == sorted((k, *vals) for k, _o, vals in heap)
    while heap:
        k, _order, vals = heapq.heappop(heap)
        assert queue.first_key() == k
        assert queue.pop() == (k, *vals)
    assert not queue and not queue.buckets
