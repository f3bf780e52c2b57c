"""The memory a search's hash tables are about to claim in one step.

A dictionary or set of millions of states grows by allocating a table twice the size and
copying into it: for a moment the process holds both (about 320 MB more for a dictionary of
5 million states).  A memory limit read every 50 ms passes its ceiling by that much when the
step falls between two readings, so `Guard.check` counts the steps due before the next
reading as memory already taken (``ahead``).  The sizes follow CPython's rules (those of
3.11, checked on the running version by tests/test_tables.py): a dictionary of table size
``S`` grows when it holds ``2S/3`` entries, a set when ``3/5`` of its table is filled; both
then double (a small set quadruples).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

SET_ENTRY = 16  # bytes: a hash and a pointer
SET_MIN = 8  # a set's table inside its own object, never reallocated below this
SET_BASE = sys.getsizeof(set())
DICT_ENTRIES = (24, 16)  # bytes an entry of a general dictionary, of one keyed by str only
WATCHED = 1024  # entries: tables smaller than this grow by too little to count


def _index_bytes(size: int) -> int:
    """The bytes of one slot of a dictionary's index at table size ``size``."""
    bits = size.bit_length() - 1
    return 1 if bits < 8 else 2 if bits < 16 else 4 if bits < 32 else 8


def _dict_table(size: int, entry: int) -> int:
    return size * _index_bytes(size) + (2 * size // 3) * entry


def dict_growth(table: dict[Any, Any], within: int) -> int:
    """The bytes the next growth of ``table`` allocates if it comes within ``within`` more
    entries, else 0 (its table size read from ``sys.getsizeof``)."""
    n = len(table)
    if n < WATCHED:
        return 0
    have = sys.getsizeof(table)
    least = (3 * n // 2).bit_length()  # near the smallest table holding ``n``; a few sizes above it
    size, entry = min(
        ((1 << k, e) for k in range(least - 1, least + 4) for e in DICT_ENTRIES if 2 * (1 << k) // 3 >= n),
        key=lambda c: abs(have - _dict_table(*c)),
    )
    if 2 * size // 3 - n >= within:  # it grows on the insertion past its usable entries
        return 0
    return _dict_table(2 * size, entry)


def set_growth(table: set[Any] | frozenset[Any], within: int) -> int:
    """The bytes the next growth of ``table`` allocates if it comes within ``within`` more
    entries, else 0."""
    n = len(table)
    if n < WATCHED or isinstance(table, frozenset):
        return 0
    size = max(SET_MIN, (sys.getsizeof(table) - SET_BASE) // SET_ENTRY)
    mask = size - 1
    fill = -(-3 * mask // 5)  # an insertion bringing the table to this many grows it
    if fill - n > within:
        return 0
    wanted = fill * 2 if fill > 50_000 else fill * 4
    new = SET_MIN
    while new <= wanted:
        new <<= 1
    return new * SET_ENTRY


def growth_ahead(searches: Iterable[Any], within: int) -> int:
    """The bytes the tables of ``searches`` would claim in one step each if they grew within
    ``within`` more entries: a search's own ``growth_ahead(within)`` when it has one (arrays,
    or searches made of others), else the dictionaries and sets among its attributes (a
    dictionary or set among ``searches`` counts itself)."""
    total = 0
    for search in searches:
        own = getattr(search, "growth_ahead", None)
        if callable(own):
            total += own(within)
        elif isinstance(search, dict | set):
            total += _table_growth(search, within)
        else:
            total += attribute_growth(search, within)
    return total


def attribute_growth(obj: Any, within: int) -> int:
    """The bytes the dictionaries and sets among ``obj``'s attributes would claim in one
    step each if they grew within ``within`` more entries (for a search whose own
    ``growth_ahead`` adds the tables of its parts to its own)."""
    return sum(_table_growth(value, within) for value in _attributes(obj))


def _table_growth(value: Any, within: int) -> int:
    """`dict_growth` or `set_growth` of ``value``, 0 for anything else."""
    if isinstance(value, dict):
        return dict_growth(value, within)
    if isinstance(value, set):
        return set_growth(value, within)
    return 0


def _attributes(obj: Any) -> list[Any]:
    values = list(getattr(obj, "__dict__", {}).values())
    for cls in type(obj).__mro__:
        slots = getattr(cls, "__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if hasattr(obj, name):
                values.append(getattr(obj, name))
    return values
