"""``--executor dask``: send a suite's tasks to an existing Dask distributed cluster.

Each task runs on a Dask worker inside a fresh watched child process (`watch.run_one`,
started as a subprocess because Dask workers are daemonic and may not fork
multiprocessing children), so the time and memory limits are the same as the local
pool's.  Records come back as futures finish; the runner writes and resumes them exactly
as for the local executor.

A worker that dies (killed, out of memory, ``client.restart()``) loses the tasks it was
running: each lost task is submitted once more, and if it is lost again it becomes an
``error`` record.  Dask's scheduler may itself re-run a task whose worker died
(``distributed.scheduler.allowed-failures``, default 3) before it reports the loss; set it
to 0 on the scheduler for exactly one retry.

Dask is an optional extra: ``pip install "searchkit[dask]"``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import InputError
from .watch import POLL_S, Watch, run_one
from .worker import ERROR, Task, failure_record

CONNECT_TIMEOUT_S = 30
RETRIES = 1  # resubmissions of a task whose worker died


def run_remote(task: Task, watch: Watch) -> dict[str, Any]:
    """What a Dask worker runs: one task in a watched subprocess.

    Without a suite memory ceiling each task gets a fair share of the worker machine's
    memory: its share split over the worker's threads (the tasks it runs at once).
    """
    if watch.ceiling_mb is None:
        try:
            from distributed import get_worker

            threads = get_worker().state.nthreads
        except (ImportError, ValueError, AttributeError):
            threads = 1
        watch = Watch(watch.ceiling_for(threads), watch.hard_s)
    return run_one(task, watch, start="subprocess")


def _lost(exc: BaseException | None) -> bool:
    """Did the task fail because its worker went away (rather than by its own error)?"""
    if exc is None:
        return True  # cancelled futures carry no exception of their own
    names = {cls.__name__ for cls in type(exc).__mro__}
    return bool(names & {"KilledWorker", "CancelledError", "FutureCancelledError", "CommClosedError"})


class DaskExecutor:
    """Runs tasks on ``dask.distributed.Client(scheduler)``; ``jobs`` caps the tasks in
    flight (default: the cluster's thread count)."""

    name = "dask"

    def __init__(self, scheduler: str | None = None, *, jobs: int | None = None, client: Any = None):
        try:
            import distributed
        except ImportError:
            raise InputError('--executor dask needs dask.distributed: pip install "searchkit[dask]"') from None
        self._own = client is None
        if client is None:
            if not scheduler:
                raise InputError("--executor dask needs --scheduler tcp://HOST:PORT (the cluster's scheduler)")
            try:
                client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT_S)
            except (OSError, TimeoutError, ValueError) as e:
                message = str(e).splitlines()[0] if str(e) else type(e).__name__
                raise InputError(f"cannot reach the Dask scheduler at {scheduler}: {message}") from None
        self.client = client
        self.jobs = jobs
        self._futures: dict[Any, Any] = {}

    def _capacity(self) -> int:
        if self.jobs:
            return self.jobs
        try:
            threads: int = sum(self.client.nthreads().values())
            return max(1, threads)
        except Exception:  # noqa: BLE001 - no workers yet: keep one per task in flight later
            return 1

    def run(self, tasks: list[Task], watch: Watch, tick: Callable[[], None] | None = None) -> Iterator[dict[str, Any]]:
        from distributed import wait

        pending = list(reversed(tasks))
        attempts: dict[tuple[str, str], int] = {}
        futures = self._futures

        def submit(task: Task) -> None:
            n = attempts.get(task.key, 0) + 1
            attempts[task.key] = n
            key = f"searchkit-{task.key[0]}-{task.key[1]}-{n}-{uuid.uuid4().hex[:8]}"
            futures[self.client.submit(run_remote, task, watch, key=key, pure=False, retries=0)] = task

        capacity = self._capacity()
        while pending or futures:
            while pending and len(futures) < capacity:
                submit(pending.pop())
            try:
                done, _ = wait(list(futures), timeout=POLL_S, return_when="FIRST_COMPLETED")
            except TimeoutError:
                done = ()
            for future in done:
                task = futures.pop(future)
                record = self._record(future, task, attempts[task.key])
                future.release()
                if record is None:  # lost with its worker: once more, ahead of the rest
                    submit(task)
                else:
                    yield record
            if tick is not None:
                tick()

    def _record(self, future: Any, task: Task, attempt: int) -> dict[str, Any] | None:
        """The task's record, or None to retry a task whose worker died."""
        if future.status == "finished":
            try:
                record: dict[str, Any] = future.result()
                return record
            except Exception:  # noqa: BLE001 - cancelled between the status and the fetch
                pass
        try:
            exc = future.exception()
        except BaseException as e:  # noqa: BLE001 - a cancelled future raises here
            exc = e
        if _lost(exc):
            if attempt <= RETRIES:
                return None
            what = f"{type(exc).__name__}: {exc}" if exc is not None else "cancelled"
            return failure_record(task, ERROR, f"dask worker lost {attempt} times ({what.splitlines()[0]})")
        return failure_record(task, ERROR, f"dask task failed: {type(exc).__name__}: {exc}".splitlines()[0])

    def shutdown(self) -> None:
        if self._futures:
            try:
                self.client.cancel(list(self._futures))
            except Exception:  # noqa: BLE001 - the cluster may already be gone
                pass
            self._futures.clear()
        if self._own:
            self.client.close()
