"""The bookkeeping every engine shares: limits, progress events, counters and the Result.

An engine keeps its counters in local variables while it searches (attribute access per
node costs time) and compares its expansion count with ``run.next_check``; when that is
reached it calls `Run.limit_reached`, which checks the limits, tells the observer how far
the search is, and sets the next check.  At the end `Run.result` turns the counters into
`Stats` and a `Result`.  Composite engines give their members no limits of their own and
check the sum of their counters through their own `Run`.
"""

from __future__ import annotations

from typing import Any

from ..limits import NO_LIMITS, Limits
from ..observer import Observer
from ..result import SOLVED, Result, Stats

COUNTERS = ("expanded", "generated", "duplicates", "reopened", "max_frontier", "stored", "iterations")


class Run:
    """One search's limits, observer and counters."""

    __slots__ = ("name", "guard", "observer", "next_check", "reason") + COUNTERS

    def __init__(self, name: str, limits: Limits | None = None, observer: Observer | None = None):
        self.name = name
        self.guard = (limits or NO_LIMITS).guard()
        self.observer = observer
        self.next_check = self.guard.next_check(0)
        self.reason: str | None = None
        for counter in COUNTERS:
            setattr(self, counter, 0)

    def limit_reached(self, expanded: int, generated: int, stored: int, best: float | None = None) -> bool:
        """The periodic check: True (and ``reason`` set) when a limit stops the search;
        otherwise the observer hears the progress and ``next_check`` moves on."""
        reason = self.guard.check(expanded, stored)
        if self.observer is not None:
            self.observer.progress(expanded, generated, best)
        if reason is not None:
            self.reason = reason
            return True
        self.next_check = self.guard.next_check(expanded)
        return False

    def count(self, **counters: int) -> None:
        """Store the engine's counters (the names of `COUNTERS`)."""
        for name, value in counters.items():
            setattr(self, name, value)

    def stats(self) -> Stats:
        return Stats(expanded=self.expanded, generated=self.generated, duplicates=self.duplicates,
                     reopened=self.reopened, max_frontier=self.max_frontier, stored=self.stored,
                     iterations=self.iterations, elapsed_s=self.guard.elapsed(), peak_rss_bytes=self.guard.peak_rss,
                     limit_reason=self.reason)

    def result(self, status: str, path: tuple[list, list, Any] | None = None, **counters: int) -> Result:
        """The `Result`: ``path`` is ``(actions, states, cost)`` when ``status`` is solved."""
        self.count(**counters)
        if status != SOLVED or path is None:
            return Result(status, stats=self.stats(), engine=self.name)
        actions, states, cost = path
        return Result(SOLVED, actions, states, cost, self.stats(), self.name)
