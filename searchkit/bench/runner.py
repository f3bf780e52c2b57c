"""Run a suite: every configuration on every instance, each in its own worker process.

A fresh process per run keeps runs independent (no warm caches, an exact peak RSS) and
lets the parent enforce limits from outside: a hard kill once the time limit plus a
grace has passed, and a kill when the worker's resident memory passes the ceiling.  A
worker that dies, hangs or blows up is a record for that pair, never the end of the run.
Records are appended to the JSON Lines file the moment they arrive, so an interrupted run
loses only the runs in flight, and ``resume`` skips the pairs the file already holds.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing import connection
from pathlib import Path
from typing import Any, Protocol

from ..errors import InputError
from .suite import Suite
from .worker import ERROR, LIMIT, Task, failure_record, run_task

HARD_FACTOR = 1.2  # the hard kill comes at timeout * HARD_FACTOR + HARD_GRACE_S
HARD_GRACE_S = 5.0
SETUP_TIMEOUT_S = 600.0  # building one problem (and its pattern databases) may take this long
RSS_FACTOR = 1.2  # kill a worker whose RSS passes max_rss_mb * RSS_FACTOR
POLL_S = 0.2  # how often the parent looks at deadlines and memory
MB = 1024 * 1024


class Listener(Protocol):
    """What the runner tells a display."""

    def start(self, total: int, already_done: int) -> None: ...

    def finished(self, record: dict[str, Any]) -> None: ...

    def tick(self) -> None: ...


@dataclass
class Outcome:
    """All records of the suite's selected pairs (resumed ones too) and how the run ended."""

    records: list[dict[str, Any]] = field(default_factory=list)
    ran: int = 0
    skipped: int = 0
    interrupted: bool = False


def plan(suite: Suite, *, jobs: int = 1) -> list[Task]:
    """One task per (configuration, instance), configurations inner so that a slow
    configuration does not hold every other one back until the end."""
    ceiling = memory_ceiling_mb(suite, jobs)
    address_space = int(2 * ceiling * MB + 256 * MB)
    return [
        Task(suite.name, suite.domain, config, instance, index, suite.options_for(config, instance),
             suite.limits, address_space)
        for instance, index in zip(suite.instances, suite.indices)
        for config in suite.configs
    ]


def memory_ceiling_mb(suite: Suite, jobs: int) -> float:
    """The suite's ``max_rss_mb``, or a fair share of the machine's memory per worker."""
    if suite.limits.max_rss_mb is not None:
        return suite.limits.max_rss_mb
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        total = 8 * 1024 * MB
    return 0.8 * total / MB / max(1, jobs)


def hard_timeout_s(timeout_s: float | None, grace_s: float = HARD_GRACE_S) -> float | None:
    return None if timeout_s is None else timeout_s * HARD_FACTOR + grace_s


def run_suite(suite: Suite, *, jobs: int | None = None, output: Path | None = None, resume: bool = False,
              listener: Listener | None = None, grace_s: float = HARD_GRACE_S) -> Outcome:
    """Run the suite; Ctrl-C ends it early with ``interrupted=True`` (results kept)."""
    jobs = max(1, jobs or os.cpu_count() or 1)
    tasks = plan(suite, jobs=jobs)
    wanted = {t.key for t in tasks}
    outcome = Outcome()
    if resume:
        if output is None:
            raise InputError("--resume needs --output (the results file to continue)")
        done = {(r.get("config"), r.get("instance")): r for r in read_records(output, suite.name)}
        done = {key: r for key, r in done.items() if key in wanted}  # the last line of a pair wins
        outcome.records.extend(done.values())
        tasks = [t for t in tasks if t.key not in done]
        outcome.skipped = len(done)
    sink = _Sink(output, append=resume) if output is not None else None
    if listener is not None:
        listener.start(len(tasks), outcome.skipped)
    pool = _Pool(min(jobs, max(1, len(tasks))), memory_ceiling_mb(suite, jobs),
                 hard_timeout_s(suite.limits.timeout_s, grace_s))
    try:
        for record in pool.run(tasks, tick=listener.tick if listener is not None else None):
            if sink is not None:
                sink.write(record)
            outcome.records.append(record)
            outcome.ran += 1
            if listener is not None:
                listener.finished(record)
    except KeyboardInterrupt:
        outcome.interrupted = True
    finally:
        pool.shutdown()
        if sink is not None:
            sink.close()
    return outcome


def read_records(path: Path, suite_name: str) -> list[dict[str, Any]]:
    """The records a results file holds; a torn last line (a run killed mid-write) is cut off."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from None
    records = []
    end = data.rfind(b"\n") + 1
    if end < len(data):  # torn write: keep the file appendable
        with open(path, "r+b") as f:
            f.truncate(end)
    for n, line in enumerate(data[:end].splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            raise InputError(f"{path}: line {n} is not JSON; not resuming into it") from None
        if not isinstance(record, dict):
            raise InputError(f"{path}: line {n} is not a result record")
        if record.get("suite") != suite_name:
            raise InputError(f"{path}: line {n} belongs to suite {record.get('suite')!r}, not {suite_name!r}")
        records.append(record)
    return records


class _Sink:
    """The JSON Lines file: one line per record, flushed and synced as it is written."""

    def __init__(self, path: Path, append: bool):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.f = open(path, "a" if append else "w", encoding="utf-8")
        except OSError as e:
            raise InputError(f"cannot write {path}: {e.strerror or e}") from None

    def write(self, record: dict[str, Any]) -> None:
        self.f.write(json.dumps(record, default=str) + "\n")
        self.f.flush()
        os.fsync(self.f.fileno())

    def close(self) -> None:
        self.f.close()


class _Slot:
    """A running worker and what the parent knows about it."""

    __slots__ = ("task", "proc", "conn", "spawned", "started", "deadline", "peak_rss")

    def __init__(self, task: Task, proc, conn, now: float):
        self.task, self.proc, self.conn = task, proc, conn
        self.spawned = now
        self.started: float | None = None
        self.deadline: float | None = now + SETUP_TIMEOUT_S
        self.peak_rss = 0


class _Pool:
    """At most ``jobs`` workers at once, one task each, watched from outside."""

    def __init__(self, jobs: int, ceiling_mb: float, hard_s: float | None):
        self.jobs = jobs
        self.ceiling = ceiling_mb * RSS_FACTOR * MB
        self.ceiling_mb = ceiling_mb
        self.hard_s = hard_s
        self.ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        self.running: list[_Slot] = []

    def run(self, tasks: list[Task], tick=None):
        """Yield one record per task, in the order they finish."""
        pending = deque(tasks)
        while pending or self.running:
            while pending and len(self.running) < self.jobs:
                self.running.append(self._spawn(pending.popleft()))
            connection.wait([s.conn for s in self.running] + [s.proc.sentinel for s in self.running], POLL_S)
            now = time.monotonic()
            for slot in list(self.running):
                record = self._service(slot, now)
                if record is not None:
                    self.running.remove(slot)
                    self._reap(slot)
                    yield record
            if tick is not None:
                tick()

    def _spawn(self, task: Task) -> _Slot:
        recv, send = self.ctx.Pipe(duplex=False)
        proc = self.ctx.Process(target=_child, args=(task, send), name=f"bench {task.key[0]} {task.key[1]}",
                                daemon=True)
        proc.start()
        send.close()  # the child holds the only write end: its death is EOF here
        return _Slot(task, proc, recv, time.monotonic())

    def _service(self, slot: _Slot, now: float) -> dict[str, Any] | None:
        """The slot's record if it is over (finished, died, or killed now), else None."""
        try:
            while slot.conn.poll():
                message = slot.conn.recv()
                if message[0] == "done":
                    return message[1]
                slot.started = now
                slot.deadline = now + self.hard_s if self.hard_s is not None else None
        except (EOFError, OSError):
            pass  # the worker is gone; its exit code says how
        elapsed = now - (slot.started if slot.started is not None else slot.spawned)
        if not slot.proc.is_alive():
            slot.proc.join()
            return failure_record(slot.task, ERROR, _describe_exit(slot.proc.exitcode), elapsed_s=elapsed,
                                  peak_rss=slot.peak_rss)
        if slot.deadline is not None and now >= slot.deadline:
            self._kill(slot)
            if slot.started is None:
                what = f"killed: setting up took over {SETUP_TIMEOUT_S:g} s"
            else:
                what = f"killed after {elapsed:.1f} s (time limit {slot.task.limits.timeout_s:g} s + grace)"
            return failure_record(slot.task, LIMIT, what, reason="killed", elapsed_s=elapsed, peak_rss=slot.peak_rss)
        rss = _rss_of(slot.proc.pid)
        if rss > slot.peak_rss:
            slot.peak_rss = rss
        if rss > self.ceiling:
            self._kill(slot)
            return failure_record(slot.task, LIMIT,
                                  f"killed at {rss / MB:.0f} MB resident (ceiling {self.ceiling_mb:g} MB)",
                                  reason="memory", elapsed_s=elapsed, peak_rss=rss)
        return None

    def _kill(self, slot: _Slot) -> None:
        if slot.proc.is_alive():
            slot.proc.kill()
        slot.proc.join()

    def _reap(self, slot: _Slot) -> None:
        slot.proc.join(timeout=5)
        if slot.proc.is_alive():  # sent its record but will not exit
            self._kill(slot)
        slot.conn.close()
        slot.proc.close()

    def shutdown(self) -> None:
        """Kill whatever still runs (Ctrl-C, an error in the parent)."""
        for slot in self.running:
            self._kill(slot)
            slot.conn.close()
        self.running.clear()


def _child(task: Task, conn) -> None:
    try:
        run_task(task, conn.send)
    finally:
        conn.close()


def _describe_exit(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = " (out of memory?)" if name == "SIGKILL" else ""
        return f"worker killed by {name}{hint}"
    return f"worker exited with code {code} without a result"


def _rss_of(pid: int) -> int:
    """Resident bytes of process ``pid`` (0 where /proc is missing)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0
