"""The compiled searches' hash table (`searchkit.kernels.table`), run as plain Python against a set."""

from __future__ import annotations

import random

import numpy as np
import pytest

from searchkit.kernels import table


def _rehash(keys, n, index):
    table.rehash(keys, n, index)


@pytest.mark.filterwarnings("ignore:overflow encountered")  # the hash's multiplications wrap, as compiled
@pytest.mark.parametrize("reserve", [0, 100_000])
@pytest.mark.parametrize("width", [1, 3])
def test_lookups_agree_with_a_set_through_growth(width, reserve):
    """Random states (few distinct words, so that hashes share positions and fingerprints
    are tested) stored and looked up through doublings of a 64-entry index, the rows copied
    each time (no reserve) or never (a reserve)."""
    rng = random.Random(width)
    t = table.Table(width, 64, reserve)
    stored: dict[tuple[int, ...], int] = {}
    n = 0
    for _ in range(1500):
        s = np.array([rng.randrange(2000 if width == 1 else 20) for _ in range(width)], dtype=np.uint64)
        key = tuple(int(x) for x in s)
        if n == t.capacity:
            t.grow(n, _rehash)
        r = table.find_slot(t.keys, t.index, s)
        if key in stored:
            assert r == stored[key]
        else:
            assert r < 0
            table.add_slot(t.keys, t.index, s, -r - 1, n)
            stored[key] = n
            n += 1
    assert t.index.shape[0] > 64 and n == len(stored)
    assert t.keys.shape[0] == max(reserve, t.capacity) and t.capacity == t.index.shape[0] * 3 // 4
    assert np.count_nonzero(t.index) == n  # an entry per row, none lost by the rehashes
    for key, slot in stored.items():
        assert table.find_slot(t.keys, t.index, np.array(key, dtype=np.uint64)) == slot


@pytest.mark.filterwarnings("ignore:overflow encountered")
def test_an_entry_holds_the_slot_below_its_fingerprint():
    mask = (1 << 10) - 1
    e = table.entry(np.uint64(0xFFFF_FFFF_0000_0000), mask, 5)
    assert e & mask == 6 and e >> 10 == (1 << 22) - 1


def test_a_capped_table_starts_no_bigger_than_its_cap():
    assert table.first_index(None) == table.FIRST_INDEX
    assert table.first_index(40_000) == 1 << 16  # 49,152 rows
    assert table.first_index(10) == 1 << 10
