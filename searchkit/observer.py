"""Search events for listeners (progress bars, tree recorders).

Engines take ``observer=None`` and test it once per event site, so a search nobody
listens to pays one ``is not None`` test per node and nothing else.
"""

from __future__ import annotations

from typing import Any


class Observer:
    """Base listener: override what you need; every method does nothing by default.

    ``g`` is the path cost; ``h`` the engine's estimate, or None from an engine that
    computes none (breadth-first, Dijkstra, IDDFS).  ``kind`` in `generate` is ``"new"``
    (first time seen), ``"duplicate"`` (dropped), ``"improved"`` (a cheaper path to a state
    still on the open list), ``"reopened"`` (a cheaper path puts an expanded state back on
    the open list: the ``reopened`` statistic counts these) or ``"pruned"`` (cut by a bound).
    """

    def expand(self, state: Any, g: float, h: float | None) -> None:
        pass

    def generate(self, parent: Any, action: Any, child: Any, g: float, h: float | None, kind: str) -> None:
        pass

    def iteration(self, bound: float) -> None:
        """A depth-first engine starts a new iteration with this bound."""

    def progress(self, expanded: int, generated: int, best_f: float | None) -> None:
        """Called at every limit check (every thousand or so expansions; closer where they are slow)."""

    def note(self, text: str) -> None:
        """An engine's own word on how far it has come, shown beside the counters (Sokoban's
        FESS: the most boxes packed in order so far)."""

    def improved(self, cost: float | None, bound: float) -> None:
        """An anytime engine has a cheaper answer (``cost``; None before the first) or has
        proven a higher lower ``bound`` on the optimal cost."""


class Observers(Observer):
    """Several observers behind one."""

    def __init__(self, *observers: Observer | None):
        self.observers = [o for o in observers if o is not None]

    def expand(self, state: Any, g: float, h: float | None) -> None:
        for o in self.observers:
            o.expand(state, g, h)

    def generate(self, parent: Any, action: Any, child: Any, g: float, h: float | None, kind: str) -> None:
        for o in self.observers:
            o.generate(parent, action, child, g, h, kind)

    def iteration(self, bound: float) -> None:
        for o in self.observers:
            o.iteration(bound)

    def progress(self, expanded: int, generated: int, best_f: float | None) -> None:
        for o in self.observers:
            o.progress(expanded, generated, best_f)

    def note(self, text: str) -> None:
        for o in self.observers:
            o.note(text)

    def improved(self, cost: float | None, bound: float) -> None:
        for o in self.observers:
            o.improved(cost, bound)
