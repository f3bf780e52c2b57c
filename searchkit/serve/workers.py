"""Worker processes: each watched search or tree export runs in a process of its own, so it
can use a CPU without stalling the server and be stopped for sure (terminated) on cancel
or past its deadline.

A worker talks to the server through a one-way pipe: the pipe's small buffer is all that
waits between them (a full pipe makes the worker wait), so a long search cannot grow the
server's memory.  A worker holds one of the server's slots from its start until its
process has ended, however it ends."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any

from ..errors import InputError

CTX = multiprocessing.get_context("spawn")  # a fork of a threaded server could inherit held locks
STOP_GRACE_S = 3.0
PARENT_CHECK_S = 1.0


class Busy(Exception):
    """Every slot is taken: the page says so and the player tries again."""


class Slots:
    """At most ``n`` solves (or searches) at once on the whole server."""

    def __init__(self, n: int) -> None:
        self.n = n
        self._sem = threading.BoundedSemaphore(n)

    def take(self, wait_s: float = 0.0) -> None:
        """Take a slot, waiting up to ``wait_s`` seconds for one; `Busy` if none came."""
        if not self._sem.acquire(timeout=wait_s if wait_s > 0 else None, blocking=wait_s > 0):
            raise Busy("the server is busy solving for others; try again in a moment")

    def give(self) -> None:
        self._sem.release()


def quiet_worker() -> None:
    """A worker ignores Ctrl-C (the server it belongs to stops it) and ends itself if the
    server is gone (killed without the chance to stop its workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()

    def watch_parent() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True, name="searchkit-serve-orphan-check").start()


@contextmanager
def answering(conn: Connection) -> Iterator[None]:
    """The body of a worker process: a failure goes to the server as an ``error`` message
    (the page shows it, the server goes on), and the pipe is closed at the end."""
    quiet_worker()
    try:
        yield
    except InputError as e:
        conn.send({"error": str(e)})
    except Exception as e:
        conn.send({"error": f"{type(e).__name__}: {e}"})
    finally:
        conn.close()


class WorkerGone(Exception):
    """The worker's process ended and everything it sent has been read."""


class Worker:
    """``target(*args, conn, **kwargs)`` in a new process, started at once under one of
    ``slots``; terminated past ``deadline_s`` seconds."""

    def __init__(
        self,
        target: Callable[..., None],
        args: tuple[Any, ...],
        slots: Slots,
        deadline_s: float,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        slots.take()
        self.conn, child = CTX.Pipe(duplex=False)
        self.process = CTX.Process(
            target=target, args=(*args, child), kwargs=kwargs or {}, daemon=True, name="searchkit-serve-worker"
        )
        try:
            self.process.start()
        except BaseException:
            slots.give()
            raise
        finally:
            child.close()  # the worker's end: the server keeps none, so it reads EOF once the worker is gone
        self.ended = threading.Event()
        watcher = threading.Thread(target=self._watch, args=(slots, deadline_s), daemon=True)
        watcher.start()

    def _watch(self, slots: Slots, deadline_s: float) -> None:
        """Wait for the process to end (ending it at the deadline), then give the slot back."""
        self.process.join(deadline_s)
        self._end()
        slots.give()
        self.ended.set()

    def _end(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(STOP_GRACE_S)
        if self.process.is_alive():
            self.process.kill()
        self.process.join()

    def receive(self, timeout: float = 0.0) -> Any:
        """The next message, or None if none comes within ``timeout`` seconds."""
        try:
            if not self.conn.poll(timeout):
                return None
            return self.conn.recv()
        except (EOFError, OSError):
            raise WorkerGone from None

    def stop(self) -> None:
        """Terminate the process (its slot comes back as soon as it has ended) and close the pipe."""
        if self.process.is_alive():
            self.process.terminate()
        self.conn.close()
