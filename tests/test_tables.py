"""`searchkit.tables` foresees a hash table's next growth: which insertion makes it and the
bytes it claims, checked against CPython's own tables (``sys.getsizeof``) as they grow."""

from __future__ import annotations

import sys

import pytest

from searchkit import growth_ahead
from searchkit.tables import WATCHED, dict_growth, set_growth

KEYS = {
    "tuples": lambda i: (i, i),  # a general dictionary (24-byte entries)
    "strings": lambda i: str(i),  # keyed by str only (16-byte entries)
}


def _growths(table, add, key, within, count):
    """For each insertion from ``WATCHED`` on: (the growth foreseen just before it, the
    table's size after it if it grew, else 0)."""
    out = []
    for i in range(count):
        foreseen = dict_growth(table, within) if isinstance(table, dict) else set_growth(table, within)
        before = sys.getsizeof(table)
        add(table, key(i))
        after = sys.getsizeof(table)
        if len(table) > WATCHED:
            out.append((foreseen, after if after != before else 0))
    return out


@pytest.mark.parametrize("within", [1, 37])
@pytest.mark.parametrize("kind", ["tuples", "strings", "set"])
def test_a_growth_is_foreseen_within_exactly_the_insertions_before_it(kind, within):
    if kind == "set":
        table, add, key = set(), set.add, KEYS["tuples"]
    else:
        table, add, key = {}, lambda t, k: t.__setitem__(k, None), KEYS[kind]
    steps = _growths(table, add, key, within, 50_000)
    grew = [i for i, (_f, new) in enumerate(steps) if new]
    assert len(grew) >= 3  # several growths checked
    for i, (foreseen, _new) in enumerate(steps):
        due = any(0 <= g - i < within for g in grew)  # a growth within the next ``within`` insertions
        assert (foreseen > 0) == due, (kind, i)
    for g in grew:  # the bytes foreseen are the new table's, within the object's header
        foreseen, size = steps[g]
        assert 0 <= size - foreseen < 300, (kind, g, size, foreseen)


def test_small_tables_and_frozen_sets_never_count():
    assert dict_growth({i: i for i in range(WATCHED - 1)}, 10**9) == 0
    assert set_growth(frozenset(range(100_000)), 10**9) == 0


def test_growth_ahead_reads_a_searchs_tables_or_asks_it():
    """A search's dictionaries and sets among its attributes (slots too), or its own
    ``growth_ahead`` when it has one (arrays, searches made of others)."""
    full = {}
    while dict_growth(full, 1) == 0:  # one insertion short of growing
        full[len(full)] = None
    quiet = {i: None for i in range(WATCHED * 4)}  # just grown: far from its next

    class Plain:
        def __init__(self):
            self.seen, self.other, self.small = full, quiet, {1: 2}

    class Slotted:
        __slots__ = ("seen", "unset")

        def __init__(self):
            self.seen = full

    class Says:
        def growth_ahead(self, within):
            return 1000 * within

    assert growth_ahead([Plain()], 1) == dict_growth(full, 1) > 0
    assert growth_ahead([Slotted()], 1) == dict_growth(full, 1)
    assert growth_ahead([Plain(), Slotted(), Says()], 1) == 2 * dict_growth(full, 1) + 1000
    assert growth_ahead([Plain()], 0) == 0  # not within no more insertions
