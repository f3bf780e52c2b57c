"""Where a suite's tasks run: behind one small interface, a local process pool or a cluster.

An executor takes the tasks and the `Watch` (memory ceiling, hard deadline) and yields one
record per task as each finishes; `shutdown` stops what still runs.  Both executors run
every task in its own watched child process, so the limits are the same wherever it runs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from ..errors import InputError
from .watch import Watch, Watcher
from .worker import Task

EXECUTORS = ("local", "dask")


class Executor(Protocol):
    """Runs tasks; yields their records in the order they finish."""

    name: str

    def run(
        self, tasks: list[Task], watch: Watch, tick: Callable[[], None] | None = None
    ) -> Iterator[dict[str, Any]]: ...

    def shutdown(self) -> None: ...


class LocalExecutor:
    """A pool of ``jobs`` forked worker processes on this machine (the default)."""

    name = "local"

    def __init__(self, jobs: int | None = None):
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self._watcher: Watcher | None = None

    def run(self, tasks: list[Task], watch: Watch, tick: Callable[[], None] | None = None) -> Iterator[dict[str, Any]]:
        # the memory share is fixed by --jobs, even when fewer tasks than jobs remain
        fixed = Watch(watch.ceiling_for(self.jobs), watch.hard_s)
        self._watcher = Watcher(min(self.jobs, max(1, len(tasks))), fixed, start="fork")
        yield from self._watcher.run(tasks, tick)

    def shutdown(self) -> None:
        if self._watcher is not None:
            self._watcher.shutdown()


def make_executor(name: str, *, jobs: int | None = None, scheduler: str | None = None) -> Executor:
    """The executor ``--executor NAME`` asks for (raises InputError for a bad combination)."""
    if name == "local":
        if scheduler is not None:
            raise InputError("--scheduler needs --executor dask")
        return LocalExecutor(jobs)
    if name == "dask":
        from .dask_executor import DaskExecutor

        return DaskExecutor(scheduler, jobs=jobs)
    raise InputError(f"unknown executor {name!r} (known: {', '.join(EXECUTORS)})")
