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
import threading
from collections.abc import Iterator
from contextlib import contextmanager

NEVER = 1 << 30  # a full-collection threshold no search reaches

_lock = threading.Lock()
_held = [0, 0]  # searches running in this process (threads, nested calls); the threshold they hold off


@contextmanager
def searching() -> Iterator[None]:
    """Hold off full collections (the oldest generation) inside the block; searches in
    several threads share the pause, and the last one out gives the threshold back."""
    with _lock:
        if _held[0] == 0:
            young, middle, _held[1] = gc.get_threshold()
            gc.set_threshold(young, middle, NEVER)
        _held[0] += 1
    try:
        yield
    finally:
        with _lock:
            _held[0] -= 1
            if _held[0] == 0:
                young, middle, _ = gc.get_threshold()
                gc.set_threshold(young, middle, _held[1])
