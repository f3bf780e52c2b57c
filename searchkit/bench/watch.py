"""Worker processes watched from outside: one task per child, killed at a deadline or a
memory ceiling, a death turned into a record.

A child reports on a one-way pipe: ``("started",)`` when its search begins (so the hard
deadline does not count the set-up) and ``("done", record)`` at the end.  The parent holds
no write end of that pipe, so a child that dies shows up as EOF and its exit code says how.

Two ways to start a child: ``fork`` (fast, inherits the loaded plugins; the local
executor's choice on Linux) and ``subprocess`` (a fresh ``python -m
searchkit.bench.child``; works inside daemonic processes such as Dask workers, which may
not fork multiprocessing children).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing import connection
from multiprocessing.process import BaseProcess
from typing import Any

from ..limits import current_rss_bytes
from .worker import ERROR, LIMIT, Task, failure_record, run_task

HARD_FACTOR = 1.2  # the hard kill comes at timeout * HARD_FACTOR + grace
HARD_GRACE_S = 5.0
SETUP_TIMEOUT_S = 600.0  # building one problem (and its pattern databases) may take this long
RSS_FACTOR = 1.2  # kill a worker whose RSS passes the ceiling * RSS_FACTOR
POLL_S = 0.2  # how often the parent looks at deadlines and memory
MB = 1024 * 1024


@dataclass(frozen=True)
class Watch:
    """How children are watched: the memory ceiling (None: a fair share of this machine's
    memory per running child) and the hard deadline after the search starts (None: none)."""

    ceiling_mb: float | None
    hard_s: float | None

    def ceiling_for(self, jobs: int) -> float:
        return self.ceiling_mb if self.ceiling_mb is not None else machine_share_mb(jobs)


def machine_share_mb(jobs: int) -> float:
    """80 % of this machine's memory split over ``jobs`` children."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        total = 8 * 1024 * MB
    return 0.8 * total / MB / max(1, jobs)


def hard_timeout_s(timeout_s: float | None, grace_s: float = HARD_GRACE_S) -> float | None:
    return None if timeout_s is None else timeout_s * HARD_FACTOR + grace_s


class _ForkChild:
    """A `multiprocessing` child (fork on Linux, spawn elsewhere)."""

    def __init__(self, ctx: Any, task: Task):
        recv, send = ctx.Pipe(duplex=False)
        self.proc: BaseProcess = ctx.Process(
            target=_child_main, args=(task, send), daemon=True, name=f"bench {task.key[0]} {task.key[1]}"
        )
        self.proc.start()
        send.close()  # the child holds the only write end: its death is EOF here
        self.conn = recv
        self.pid = self.proc.pid
        self.waitable = [recv, self.proc.sentinel]

    def alive(self) -> bool:
        return self.proc.is_alive()

    def exitcode(self) -> int | None:
        self.proc.join()
        return self.proc.exitcode

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join()

    def reap(self) -> None:
        self.proc.join(timeout=5)
        if self.proc.is_alive():  # sent its record but will not exit
            self.kill()
        self.conn.close()
        self.proc.close()


class _SubprocessChild:
    """A fresh interpreter running `searchkit.bench.child`: the task goes in on stdin
    (pickled), the messages come back on an inherited pipe."""

    def __init__(self, task: Task):
        read_fd, write_fd = os.pipe()
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "searchkit.bench.child", str(write_fd)],
                stdin=subprocess.PIPE,
                pass_fds=(write_fd,),
                close_fds=True,
            )
        except BaseException:
            os.close(read_fd)
            raise
        finally:
            os.close(write_fd)
        self.conn = connection.Connection(read_fd, writable=False)
        assert self.proc.stdin is not None  # stdin=PIPE
        try:
            self.proc.stdin.write(pickle.dumps(task))
            self.proc.stdin.close()
        except BrokenPipeError:
            pass  # died at once: EOF on the pipe and its exit code tell
        self.pid = self.proc.pid
        self.waitable = [self.conn]

    def alive(self) -> bool:
        return self.proc.poll() is None

    def exitcode(self) -> int | None:
        return self.proc.wait()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def reap(self) -> None:
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
        self.conn.close()


class _Slot:
    """A running child and what the parent knows about it."""

    __slots__ = ("task", "child", "spawned", "started", "deadline", "peak_rss", "base_rss")

    def __init__(self, task: Task, child: _ForkChild | _SubprocessChild, now: float, base_rss: int = 0):
        self.task, self.child = task, child
        # a forked child starts with the parent's resident pages; only its growth counts
        self.base_rss = base_rss
        self.spawned = now
        self.started: float | None = None
        self.deadline: float | None = now + SETUP_TIMEOUT_S
        self.peak_rss = 0


class Watcher:
    """At most ``jobs`` children at once, one task each, watched from outside."""

    def __init__(self, jobs: int, watch: Watch, start: str = "fork"):
        self.jobs = max(1, jobs)
        self.ceiling_mb = watch.ceiling_for(self.jobs)
        self.ceiling = self.ceiling_mb * RSS_FACTOR * MB
        self.hard_s = watch.hard_s
        self.start = start
        self.ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        self.running: list[_Slot] = []

    def run(self, tasks: list[Task], tick: Callable[[], None] | None = None) -> Iterator[dict[str, Any]]:
        """Yield one record per task, in the order they finish."""
        pending = deque(tasks)
        while pending or self.running:
            while pending and len(self.running) < self.jobs:
                self.running.append(self._spawn(pending.popleft()))
            connection.wait([w for s in self.running for w in s.child.waitable], POLL_S)
            now = time.monotonic()
            for slot in list(self.running):
                record = self._service(slot, now)
                if record is not None:
                    self.running.remove(slot)
                    slot.child.reap()
                    yield record
            if tick is not None:
                tick()

    def _spawn(self, task: Task) -> _Slot:
        if self.start == "subprocess":
            return _Slot(task, _SubprocessChild(task), time.monotonic())
        base = current_rss_bytes()
        return _Slot(task, _ForkChild(self.ctx, task), time.monotonic(), base)

    def _service(self, slot: _Slot, now: float) -> dict[str, Any] | None:
        """The slot's record if it is over (finished, died, or killed now), else None."""
        try:
            while slot.child.conn.poll():
                message = slot.child.conn.recv()
                if message[0] == "done":
                    record: dict[str, Any] = message[1]
                    return record
                slot.started = now
                slot.deadline = now + self.hard_s if self.hard_s is not None else None
        except (EOFError, OSError):
            pass  # the child is gone; its exit code says how
        elapsed = now - (slot.started if slot.started is not None else slot.spawned)
        if not slot.child.alive():
            return failure_record(
                slot.task, ERROR, describe_exit(slot.child.exitcode()), elapsed_s=elapsed, peak_rss=slot.peak_rss
            )
        if slot.deadline is not None and now >= slot.deadline:
            slot.child.kill()
            if slot.started is None:
                what = f"killed: setting up took over {SETUP_TIMEOUT_S:g} s"
            else:
                limit = slot.task.limits.timeout_s
                what = f"killed after {elapsed:.1f} s " + (
                    f"(time limit {limit:g} s + grace)" if limit is not None else "(the hard deadline)"
                )
            return failure_record(slot.task, LIMIT, what, reason="killed", elapsed_s=elapsed, peak_rss=slot.peak_rss)
        rss = rss_of(slot.child.pid)
        if rss > slot.peak_rss:
            slot.peak_rss = rss
        if rss - slot.base_rss > self.ceiling:
            slot.child.kill()
            return failure_record(
                slot.task,
                LIMIT,
                f"killed at {rss / MB:.0f} MB resident, {(rss - slot.base_rss) / MB:.0f} MB of it "
                f"its own (ceiling {self.ceiling_mb:g} MB)",
                reason="memory",
                elapsed_s=elapsed,
                peak_rss=rss,
            )
        return None

    def shutdown(self) -> None:
        """Kill whatever still runs (Ctrl-C, an error in the parent)."""
        for slot in self.running:
            slot.child.kill()
            slot.child.conn.close()
        self.running.clear()


def run_one(task: Task, watch: Watch, start: str = "subprocess") -> dict[str, Any]:
    """Run one task in a watched child and return its record (what a remote worker calls)."""
    watcher = Watcher(1, watch, start)
    try:
        return next(iter(watcher.run([task])))
    finally:
        watcher.shutdown()


def _child_main(task: Task, conn: connection.Connection) -> None:
    try:
        run_task(task, conn.send)
    finally:
        conn.close()


def describe_exit(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = " (out of memory?)" if name == "SIGKILL" else ""
        return f"worker killed by {name}{hint}"
    return f"worker exited with code {code} without a result"


def rss_of(pid: int) -> int:
    """Resident bytes of process ``pid`` (0 where /proc is missing)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0
