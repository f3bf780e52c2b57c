"""The type-based exploration queue: every entry once, types drawn evenly, runs that repeat."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from searchkit.engines.typequeue import TypeQueue


def entry(h: int, g: int, n: int) -> tuple:
    """An entry shaped as the core's heap entries: ``(key, seq, h, g, state)``."""
    return (h, n, h, g, (h, g, n))


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3))), st.integers(0, 2**32))
def test_every_entry_comes_out_once(types, seed):
    queue = TypeQueue(seed)
    pushed = [entry(h, g, n) for n, (h, g) in enumerate(types)]
    for e in pushed:
        queue.push(e)
    assert len(queue) == len(pushed) and sorted(queue) == sorted(pushed)
    popped = [queue.pop() for _ in range(len(pushed))]
    assert sorted(popped) == sorted(pushed) and not queue


def test_a_rare_type_is_drawn_as_often_as_a_crowded_one():
    """100 entries of one type and 1 of another: the lone one comes first about half the
    time (a uniform draw over entries would give it 1 time in 101)."""
    first = 0
    for seed in range(400):
        queue = TypeQueue(seed)
        for n in range(100):
            queue.push(entry(1, 5, n))
        queue.push(entry(4, 2, 0))
        first += queue.pop()[-1] == (4, 2, 0)
    assert 160 <= first <= 240


def test_the_same_seed_draws_the_same_order():
    def drawn(seed: int) -> list:
        queue = TypeQueue(seed)
        for n in range(50):
            queue.push(entry(n % 4, n % 3, n))
        return [queue.pop() for _ in range(50)]

    assert drawn(3) == drawn(3) and drawn(3) != drawn(4)


def test_an_empty_queue_refuses_a_pop_as_a_heap_does():
    import pytest

    with pytest.raises(IndexError):
        TypeQueue().pop()
