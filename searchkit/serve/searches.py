"""Watched searches: the engine runs in a worker thread and its observer events travel to
the page in batches through a bounded queue, so a long search neither freezes the page nor
grows the server's memory (a full queue makes the engine wait; cancel stops it)."""

from __future__ import annotations

import queue
import secrets
import threading
from pathlib import Path
from typing import Any

from ..domain import Domain, Param
from ..errors import InputError
from ..limits import Limits
from ..observer import Observer
from ..plugins import get_domain
from ..solving import execute, prepare
from .games import Slots

BATCH = 500  # events per message
MAX_BATCHES = 64  # batches waiting for the page before the engine waits
MAX_EXPANDED = 200_000
TIMEOUT_S = 120.0
PUT_WAIT_S = 0.2


def _num(x: float | None) -> float | None:
    return None if x is None else round(float(x), 4)


def offered(dom: Domain) -> list[Param]:
    """The options a page may set: no file paths (the server's files are not the user's)
    and nothing about writing outputs."""
    return [p for p in dom.params if p.type is not Path and not p.output]


def web_options(dom: Domain, options: dict[str, Any]) -> dict[str, Any]:
    """The page's option values converted to the types the command line gives them."""
    allowed = {p.name: p for p in offered(dom)}
    out: dict[str, Any] = {}
    for name, value in options.items():
        if name not in allowed:
            raise InputError(f"{dom.name} has no option {name!r} here (it has: {', '.join(allowed) or 'none'})")
        if value in (None, ""):
            continue
        kind = allowed[name].type
        try:
            out[name] = str(value).lower() in ("1", "true", "yes", "on") if kind is bool else kind(value)
        except (TypeError, ValueError):
            raise InputError(f"option {name!r} must be a {kind.__name__} (got {value!r})") from None
    return out


class Batcher(Observer):
    """Numbers states as they appear and packs events into lists sent ``BATCH`` at a time:
    ``["x", id, g, h]`` an expansion, ``["g", parent, child, g, h, kind]`` a generation,
    ``["i", bound]`` a new iteration."""

    def __init__(self, out: queue.Queue[dict[str, Any]], limits: Limits) -> None:
        self.out = out
        self.limits = limits
        self.ids: dict[Any, int] = {}
        self.batch: list[list[Any]] = []

    def _id(self, state: Any) -> int:
        found = self.ids.get(state)
        if found is None:
            found = self.ids[state] = len(self.ids)
        return found

    def expand(self, state: Any, g: float, h: float | None) -> None:
        self._push(["x", self._id(state), _num(g), _num(h)])

    def generate(self, parent: Any, action: Any, child: Any, g: float, h: float | None, kind: str) -> None:
        self._push(["g", self._id(parent), self._id(child), _num(g), _num(h), kind])

    def iteration(self, bound: float) -> None:
        self._push(["i", _num(bound)])

    def _push(self, event: list[Any]) -> None:
        self.batch.append(event)
        if len(self.batch) >= BATCH:
            self.flush()

    def flush(self) -> None:
        if self.batch:
            send(self.out, {"events": self.batch}, self.limits)
            self.batch = []


def send(out: queue.Queue[dict[str, Any]], message: dict[str, Any], limits: Limits) -> None:
    """Put ``message`` in the queue, waiting while it is full unless the search is cancelled."""
    while not limits.interrupt.is_set():
        try:
            out.put(message, timeout=PUT_WAIT_S)
            return
        except queue.Full:
            continue


class SearchRun:
    """One search: started in a thread at once, read by `messages`, stopped by `cancel`."""

    def __init__(self, domain: str, options: dict[str, Any], engine: str | None, heuristic: str | None) -> None:
        options = web_options(get_domain(domain), options)
        self.job = prepare(domain, options, engine=engine, heuristic=heuristic)  # InputError before any thread
        self.limits = Limits(max_expanded=MAX_EXPANDED, timeout_s=TIMEOUT_S)
        self.out: queue.Queue[dict[str, Any]] = queue.Queue(maxsize=MAX_BATCHES)
        self.done = threading.Event()
        self.slots: Slots | None = None
        self.thread = threading.Thread(target=self._run, name="searchkit-serve-search", daemon=True)

    def start(self, slots: Slots) -> None:
        slots.take()
        self.slots = slots  # given back when the thread ends
        self.thread.start()

    def header(self) -> dict[str, Any]:
        job = self.job
        start = job.problem.initial_state()
        return {
            "domain": job.domain.name,
            "engine": job.engine.name,
            "heuristic": job.heuristic.name if job.heuristic else None,
            "start": job.domain.describe_state(job.problem, start),
        }

    def _run(self) -> None:
        batcher = Batcher(self.out, self.limits)
        try:
            result = execute(self.job, self.limits, batcher)
            batcher.flush()
            end: dict[str, Any] = {
                "end": {
                    "status": result.status,
                    "cost": result.cost,
                    "length": len(result.actions),
                    "actions": [a if isinstance(a, (str, int, float)) else str(a) for a in result.actions],
                    "stats": result.stats.to_dict(),
                    "guarantee": result.guarantee or self.job.guarantee,
                }
            }
        except InputError as e:
            end = {"error": str(e)}
        except Exception as e:  # the page shows it; the server goes on
            end = {"error": f"{type(e).__name__}: {e}"}
        finally:
            if self.slots is not None:
                self.slots.give()
        send(self.out, end, self.limits)
        self.done.set()

    def cancel(self) -> None:
        self.limits.interrupt.set()

    def next_message(self) -> dict[str, Any] | None:
        """The next batch or end message, or None if nothing is ready."""
        try:
            message: dict[str, Any] = self.out.get_nowait()
            return message
        except queue.Empty:
            return None


class SearchStore:
    """Running searches by id; a finished one is forgotten once its stream has been read."""

    def __init__(self, slots: Slots) -> None:
        self.slots = slots
        self._runs: dict[str, SearchRun] = {}
        self._lock = threading.Lock()

    def start(self, domain: str, options: dict[str, Any], engine: str | None, heuristic: str | None) -> str:
        run = SearchRun(domain, options, engine, heuristic)
        run.start(self.slots)
        sid = secrets.token_urlsafe(12)
        with self._lock:
            self._runs[sid] = run
        return sid

    def get(self, sid: str) -> SearchRun:
        with self._lock:
            return self._runs[sid]

    def forget(self, sid: str) -> None:
        with self._lock:
            run = self._runs.pop(sid, None)
        if run is not None:
            run.cancel()
