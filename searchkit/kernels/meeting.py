"""Meeting other searches: a set of the fingerprints of states they reached, for a compiled
best-first search stepped in a portfolio (`searchkit.engines.portfolio`).

A search the other way asks whether this one knows its states (`ask_kernel`): the first
one stored here answers; the fingerprints of those before it are kept in ``asked`` (an
open-addressing set of ``uint64``, a power of two long, 0 marking an empty entry: 8 bytes
a state), so that when this search stores one of them later (`asked_has`, from the
best-first kernel) the two have met.  A fingerprint is the 64-bit hash of the state's key
words, so a match may be another state: the portfolio checks the state itself.  The
functions are kernel templates (numba's subset, compiled in each generated module,
`searchkit.kernels.generate`); the caller keeps the set at most half full (`reask` moves it
to a larger one).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .codes import ASKED
from .table import find_slot, hash_words


def fingerprint(s: Any, width: int) -> Any:
    """The state's fingerprint: the hash of its ``width`` key words, never 0."""
    f = hash_words(s, width)
    return f if f != np.uint64(0) else np.uint64(1)


def asked_has(asked: Any, f: Any) -> bool:
    """Whether fingerprint ``f`` is in the set ``asked``."""
    mask = asked.shape[0] - 1
    i = np.int64(f & np.uint64(mask))
    while asked[i] != np.uint64(0):
        if asked[i] == f:
            return True
        i = (i + 1) & mask
    return False


def asked_add(asked: Any, f: Any) -> int:
    """Put fingerprint ``f`` in the set ``asked``: 1 when it was not there, else 0."""
    mask = asked.shape[0] - 1
    i = np.int64(f & np.uint64(mask))
    while asked[i] != np.uint64(0):
        if asked[i] == f:
            return 0
        i = (i + 1) & mask
    asked[i] = f
    return 1


def ask_kernel(keys: Any, index: Any, queries: Any, asked: Any, sc: Any) -> int:
    """The first row of ``queries`` (key words, one state a row) stored in the table
    (``keys``, ``index``), or -1; the fingerprints of the rows before it join ``asked``
    (``sc[ASKED]`` counts them)."""
    width = keys.shape[1]
    for q in range(queries.shape[0]):
        if find_slot(keys, index, queries[q]) >= 0:
            return q
        sc[ASKED] += asked_add(asked, fingerprint(queries[q], width))
    return -1


def reask(old: Any, new: Any) -> int:
    """Move the fingerprints of ``old`` into the larger, empty ``new``: how many."""
    n = 0
    for f in old:
        if f != np.uint64(0):
            n += asked_add(new, f)
    return n


TEMPLATES = (fingerprint, asked_has, asked_add, ask_kernel, reask)
