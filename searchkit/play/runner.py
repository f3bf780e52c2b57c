"""Run a solver in a background thread that a game's screen polls and can cancel.

The screen never waits: it starts a task, reads `SolverRunner.status` on a timer (the
counters the engine reports about every thousand expansions) and collects the outcome
once `done` is true.  Cancelling sets ``Limits.interrupt``; engines check it at their
regular limit checks, so a search stops within milliseconds.  One task at a time: `start`
refuses a second until the first has really ended (even a cancelled one).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..limits import Limits
from ..observer import Observer

Task = Callable[[Limits, "ProgressObserver"], Any]


class ProgressObserver(Observer):
    """Keeps the latest counters; plain attribute writes, read by another thread."""

    def __init__(self) -> None:
        self.phase = "preparing"
        self.expanded = 0
        self.generated = 0
        self.best_f: float | None = None

    def progress(self, expanded: int, generated: int, best_f: float | None) -> None:
        self.phase = "searching"
        self.expanded, self.generated, self.best_f = expanded, generated, best_f


@dataclass
class Status:
    """A snapshot for the screen."""

    label: str = ""
    phase: str = "idle"  # idle, preparing, searching, cancelling, done
    expanded: int = 0
    generated: int = 0
    best_f: float | None = None
    elapsed_s: float = 0.0
    extra: dict = field(default_factory=dict)

    def line(self) -> str:
        if self.phase in ("idle", "done"):
            return ""
        spin = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"[int(self.elapsed_s * 10) % 10]
        if self.phase == "searching":
            f = f" · f {self.best_f:g}" if self.best_f is not None else ""
            return f"{spin} {self.label}: {self.expanded:,} expanded{f} · {self.elapsed_s:.1f}s (Esc cancels)"
        return f"{spin} {self.label}: {self.phase} · {self.elapsed_s:.1f}s (Esc cancels)"


class SolverRunner:
    """Runs one task at a time in a daemon thread."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._limits: Limits | None = None
        self._observer: ProgressObserver | None = None
        self._label = ""
        self._started = 0.0
        self._cancelled = False
        self._value: Any = None
        self._error: str | None = None
        self._finished = threading.Event()

    @property
    def busy(self) -> bool:
        """A task is running (or stopping after a cancel): no new task may start."""
        return self._thread is not None and not self._finished.is_set()

    @property
    def done(self) -> bool:
        """A task has ended and its outcome waits to be collected."""
        return self._thread is not None and self._finished.is_set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def start(self, task: Task, label: str = "solving", limits: Limits | None = None) -> bool:
        """Run ``task(limits, observer)`` in the background; False if one is still running."""
        if self.busy:
            return False
        self._limits = limits or Limits()
        self._observer = ProgressObserver()
        self._label, self._started = label, time.perf_counter()
        self._cancelled, self._value, self._error = False, None, None
        self._finished.clear()
        self._thread = threading.Thread(target=self._run, args=(task,), name=f"searchkit-{label}", daemon=True)
        self._thread.start()
        return True

    def _run(self, task: Task) -> None:
        limits, observer = self._limits, self._observer
        assert limits is not None and observer is not None  # set by `start`
        try:
            self._value = task(limits, observer)
        except InputError as e:
            self._error = str(e)
        except Exception as e:  # the screen shows it; the game goes on
            self._error = f"{type(e).__name__}: {e}"
        finally:
            self._finished.set()

    def cancel(self) -> bool:
        """Ask the running task to stop; True if there was one."""
        if not self.busy:
            return False
        self._cancelled = True
        assert self._limits is not None  # busy: `start` set it
        self._limits.interrupt.set()
        return True

    def status(self) -> Status:
        if self._thread is None:
            return Status()
        obs = self._observer
        assert obs is not None  # started: `start` set it
        phase = "done" if self._finished.is_set() else "cancelling" if self._cancelled else obs.phase
        return Status(self._label, phase, obs.expanded, obs.generated, obs.best_f, time.perf_counter() - self._started)

    def collect(self) -> tuple[Any, str | None, bool]:
        """``(value, error, cancelled)`` of the finished task, and forget it."""
        if not self.done:
            raise RuntimeError("no finished task to collect")
        out = (self._value, self._error, self._cancelled)
        self._thread = None
        self._value = self._error = None
        return out

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the task ends (for tests and scripts; screens poll instead)."""
        return self._finished.wait(timeout) if self._thread is not None else True


@dataclass
class Plan:
    """What a solve found: moves from ``key``'s position, and how good they are."""

    key: str
    moves: list[str]
    quality: str | None  # "optimal", or what the answer guarantees otherwise; None without an answer
    status: str = "solved"  # or the search's status when it found nothing
    detail: str = ""
    stats: dict[str, Any] = field(default_factory=dict)  # the engine's `Stats`, as the CLI's --json shows them

    @property
    def found(self) -> bool:
        return self.status == "solved"


def solve_moves(
    domain: str,
    options: dict[str, Any],
    to_moves: Callable[[Any, Any], list[str]],
    key: str,
    engine: str | None = None,
    params: dict[str, Any] | None = None,
    heuristic: str | None = None,
) -> Task:
    """A task that solves ``options`` with the domain's defaults (or ``engine`` and
    ``heuristic``) and turns the verified result into game moves with ``to_moves(job, result)``."""

    def task(limits: Limits, observer: ProgressObserver) -> Plan:
        from ..solving import execute, prepare

        job = prepare(domain, options, engine=engine, heuristic=heuristic, params=params)
        observer.phase = "searching"
        result = execute(job, limits, observer)
        if not result.solved:
            reason = result.stats.limit_reason or ""
            return Plan(key, [], None, result.status, reason, result.stats.to_dict())  # no answer, no promise
        return Plan(key, to_moves(job, result), job.guarantee_of(result), stats=result.stats.to_dict())

    return task
