"""Limits on a search and the cheap periodic check that enforces them.

Engines call `Guard.check` every thousand or so expansions (never per node), so limits cost
nothing measurable; where one expansion is slow (a big Sokoban level), the checks come
closer together, so a limit is still met within a fraction of a second.  A limit never
raises: the engine stops and returns ``status="limit"`` with the statistics gathered so far
and ``stats.limit_reason`` set.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field

CHECK_EVERY = 1024  # most expansions between two checks of the clock and memory
FIRST_CHECK = 16  # expansions before the first check: the cost of one is not known yet
CHECK_PERIOD_S = 0.05  # where expansions are slow, the checks come about this often


def current_rss_bytes() -> int:
    """Resident set size of this process (0 where it cannot be read)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):  # not Linux
        try:
            import resource

            return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        except Exception:  # pragma: no cover - exotic platforms
            return 0


@dataclass
class Limits:
    """What may stop a search before it ends by itself.

    ``max_expanded``: expansions; ``timeout_s``: wall-clock seconds; ``max_stored``: states
    held in memory; ``max_rss_mb``: resident memory of the process.  ``interrupt`` is an
    event another thread or a signal handler sets to stop the search (Ctrl-C).
    """

    max_expanded: int | None = None
    timeout_s: float | None = None
    max_stored: int | None = None
    max_rss_mb: float | None = None
    interrupt: threading.Event = field(default_factory=threading.Event, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("max_expanded", "timeout_s", "max_stored", "max_rss_mb"):
            value = getattr(self, name)
            if value is not None and not value >= 0:  # also refuses NaN, which no clock reaches
                raise ValueError(f"{name} must not be negative (got {value})")

    def guard(self) -> Guard:
        return Guard(self)


class Guard:
    """The running side of `Limits`: knows the start time and answers `check`."""

    __slots__ = (
        "limits",
        "start",
        "deadline",
        "max_expanded",
        "max_stored",
        "max_rss",
        "peak_rss",
        "rss",
        "ahead",
        "drift",
        "_n",
        "_step",
        "_last_at",
        "_last_expanded",
    )

    def __init__(self, limits: Limits):
        self.limits = limits
        self.start = time.perf_counter()
        self.deadline = self.start + limits.timeout_s if limits.timeout_s is not None else None
        self.max_expanded = limits.max_expanded
        self.max_stored = limits.max_stored
        self.max_rss = limits.max_rss_mb * 1024 * 1024 if limits.max_rss_mb is not None else None
        self.peak_rss = 0
        self.rss = 0  # the last reading (at every check under a memory limit)
        self.ahead = 0  # the bytes the last check counted as about to be claimed (`tables`)
        self.drift = 0  # the bytes memory grew by since the check before (none when a table stepped)
        self._n = 0
        self._step = FIRST_CHECK
        self._last_at = self.start
        self._last_expanded = 0

    def check(self, expanded: int, stored: int = 0, ahead: int = 0) -> str | None:
        """The name of the limit reached (``interrupted``, ``nodes``, ``time``, ``states``: the
        stored states, ``memory``: the process's memory), or None to go on.  ``ahead``: bytes
        the search will claim in one step before the next check (a hash table growing,
        `searchkit.tables`), counted as taken, so the memory limit stops it before, not after,
        the step; so is the memory it took since the last check (``drift``), which it takes
        again before the next."""
        if self.limits.interrupt.is_set():
            return "interrupted"
        if self.max_expanded is not None and expanded >= self.max_expanded:
            return "nodes"
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return "time"
        if self.max_stored is not None and stored >= self.max_stored:
            return "states"
        self._n += 1
        if self.max_rss is not None or self._n & 15 == 0:
            rss = current_rss_bytes()
            # what the search stored between two checks it stores again before the next: an
            # interval in which a table may have stepped (the last check foresaw one) is no measure
            self.drift = max(0, rss - self.rss) if self.rss and not self.ahead else 0
            self.rss, self.ahead = rss, ahead
            if rss > self.peak_rss:
                self.peak_rss = rss
            if self.max_rss is not None and rss + ahead + self.drift >= self.max_rss:
                return "memory"
        return None

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def left(self) -> float | None:
        """Seconds to the deadline (negative past it), or None with no time limit."""
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def next_check(self, expanded: int) -> int:
        """The expansion count at which the engine should call `check` again.

        Engines compare their counter with this number (one integer comparison per
        expansion), so the node limit is met exactly and the clock is read rarely: the step
        doubles up to `CHECK_EVERY` while checks come often, and shrinks when the last one
        came later than `CHECK_PERIOD_S`.
        """
        now = time.perf_counter()
        done = expanded - self._last_expanded
        if done > 0:
            took = now - self._last_at
            if took > CHECK_PERIOD_S:
                self._step = max(1, int(done * CHECK_PERIOD_S / took))
            else:
                self._step = min(CHECK_EVERY, 2 * self._step)
        self._last_at, self._last_expanded = now, expanded
        nxt = expanded + self._step
        if self.max_expanded is not None and self.max_expanded < nxt:
            return self.max_expanded
        return nxt


NO_LIMITS = Limits()
