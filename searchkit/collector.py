"""Full garbage collections wait while a search runs (`searching`).

Why: a search's tables hold millions of small containers - states, heap entries, parent
links - that are never part of a reference cycle, yet CPython's collector walks every one
of them at each full collection, more of them each time.  On Sokoban that was 10 to 20 %
of the time (FESS on Sasquatch II 4: 12 full collections, 2.3 s of 20).  Young
collections go on, so a cycle that dies young is still freed; one that lives long waits
for the search to end, when the thresholds come back.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

NEVER = 1 << 30  # a full-collection threshold no search reaches


@contextmanager
def searching() -> Iterator[None]:
    """Hold off full collections (the oldest generation) inside the block."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)
    try:
        yield
    finally:
        gc.set_threshold(young, middle, old)
