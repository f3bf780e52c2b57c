"""The bookkeeping every engine shares: limits, progress events, counters and the Result.

An engine keeps its counters in local variables while it searches (attribute access per
node costs time) and compares its expansion count with ``run.next_check``; when that is
reached it calls `Run.limit_reached`, which checks the limits, tells the observer how far
the search is, and sets the next check.  At the end `Run.result` turns the counters into
`Stats` and a `Result`.  Composite engines give their members no limits of their own and
check the sum of their counters through their own `Run`; an engine that runs searches one
after another gives each `Run.rest` of its limits and adds up what it did with `Run.absorb`.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from ..limits import NO_LIMITS, Limits
from ..observer import Observer
from ..result import LIMIT, SOLVED, Result, Stats
from ..tables import growth_ahead

MIN_WITHIN = 4096  # the fewest states a search is taken to store before the next check

COUNTERS = ("expanded", "generated", "duplicates", "reopened", "max_frontier", "stored", "iterations")


class Run:
    """One search's limits, observer and counters."""

    __slots__ = ("name", "guard", "observer", "next_check", "reason", "tables", "within", "_stored_then", "_limits") + (
        COUNTERS
    )
    # the counters, set from `COUNTERS` in __init__
    expanded: int
    generated: int
    duplicates: int
    reopened: int
    max_frontier: int
    stored: int
    iterations: int

    def __init__(self, name: str, limits: Limits | None = None, observer: Observer | None = None):
        self.name = name
        self._limits = limits or NO_LIMITS
        self.guard = self._limits.guard()
        self.observer = observer
        self.next_check = self.guard.next_check(0)
        self.reason: str | None = None
        # under a memory limit, the searches whose tables' next growth counts as memory taken
        # (`searchkit.tables`): set by `watch`, or directly to name tables or searches that hold
        # no reference back to the run (a portfolio's live members, beam's dictionary)
        self.tables: Callable[[], Iterable[Any]] | None = None
        self.within = MIN_WITHIN  # the states the last check took the search to store before the next
        self._stored_then = 0
        self.expanded = self.generated = self.duplicates = self.reopened = 0
        self.max_frontier = self.stored = self.iterations = 0

    def restart(self) -> None:
        """Start the clock (time limit, elapsed time) again: what ran before was set-up, such
        as loading compiled code, not search.  Only before the first expansion."""
        self.guard = self._limits.guard()
        self.next_check = self.guard.next_check(0)

    def watch(self, *searches: Any) -> None:
        """Under a memory limit, count the growth of these searches' tables as memory taken.
        Held by weak references: a search holds its `Run`, which must not keep it alive."""
        refs = [weakref.ref(s) for s in searches]
        self.tables = lambda: [s for r in refs if (s := r()) is not None]

    def limit_reached(self, expanded: int, generated: int, stored: int, best: float | None = None) -> bool:
        """The periodic check: True (and ``reason`` set) when a limit stops the search;
        otherwise the observer hears the progress and ``next_check`` moves on."""
        ahead = 0
        if self.tables is not None and self.guard.max_rss is not None:
            # twice the states stored since the last check may come before the next
            self.within = max(MIN_WITHIN, 2 * (stored - self._stored_then))
            self._stored_then = stored
            ahead = growth_ahead(self.tables(), self.within)
        reason = self.guard.check(expanded, stored, ahead)
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

    def rest(self) -> Limits:
        """The limits left for a search run next: the time and expansions not yet used
        (the same interrupt, so Ctrl-C stops it too)."""
        limits, left = self.guard.limits, self.guard.left()
        return dataclasses.replace(
            limits,
            timeout_s=None if left is None else max(0.0, left),
            max_expanded=None if limits.max_expanded is None else max(0, limits.max_expanded - self.expanded),
        )

    def absorb(self, stats: Stats) -> None:
        """Add what a finished sub-search did: its counts summed, its sizes the larger,
        its limit reason (if any) kept as this run's."""
        for name in ("expanded", "generated", "duplicates", "reopened", "iterations"):
            setattr(self, name, getattr(self, name) + getattr(stats, name))
        self.stored = max(self.stored, stats.stored)
        self.max_frontier = max(self.max_frontier, stats.max_frontier)
        self.guard.peak_rss = max(self.guard.peak_rss, stats.peak_rss_bytes)
        if stats.limit_reason is not None:
            self.reason = stats.limit_reason

    def stats(self) -> Stats:
        return Stats(
            expanded=self.expanded,
            generated=self.generated,
            duplicates=self.duplicates,
            reopened=self.reopened,
            max_frontier=self.max_frontier,
            stored=self.stored,
            iterations=self.iterations,
            elapsed_s=self.guard.elapsed(),
            peak_rss_bytes=self.guard.peak_rss,
            limit_reason=self.reason,
        )

    def result(self, status: str, path: tuple[list[Any], list[Any], Any] | None = None, **counters: int) -> Result:
        """The `Result`: ``path`` is ``(actions, states, cost)`` when ``status`` is solved."""
        self.count(**counters)
        if status != SOLVED or path is None:
            return Result(status, stats=self.stats(), engine=self.name)
        actions, states, cost = path
        return Result(SOLVED, actions, states, cost, self.stats(), self.name)

    def result_of(self, search: Any) -> Result:
        """The `Result` of ``search``, stepped to its end or its limit: its counters
        (``expanded``, ``generated``, ``duplicates``, ``reopened``, ``stored``,
        ``max_frontier``), its ``status`` (None: a limit) and, solved, its ``path()``."""
        status = search.status or LIMIT
        return self.result(
            status,
            search.path() if status == SOLVED else None,
            expanded=search.expanded,
            generated=search.generated,
            duplicates=search.duplicates,
            reopened=search.reopened,
            stored=search.stored,
            max_frontier=search.max_frontier,
        )
