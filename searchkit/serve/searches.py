"""Watched searches and their tree exports, each in a worker process (`workers`).

A search's observer events travel to the page in batches: ``["x", id, g, h]`` an
expansion, ``["g", parent, child, g, h, kind]`` a generation, ``["i", bound]`` a new
iteration, where ids number the states as they appear.  A batch also carries the text of
its new states (the first `LABEL_CAP`, for clicking on tree nodes) and, for a domain with a
`GridView`, their cells on the map.  The first message is the search's header (or its
error), the last its end: the result and the engine's statistics.

A watched search goes at the page's pace (`Pace`): the page pauses it, steps it one
expansion at a time or slows it down, and the worker itself waits, so a paused search
neither searches on nor sends more.  Its time limit counts the time it runs, not the time
it waits."""

from __future__ import annotations

import random
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from ..domain import Domain, GridView, Param
from ..errors import InputError
from ..limits import Limits
from ..observer import Observer
from ..plugins import get_domain, get_engine
from ..solving import Job, execute, prepare
from .workers import CTX, Slots, Worker, WorkerGone, answering

BATCH = 500  # events per message, at most
BATCH_S = 0.1  # a batch waits no longer than this (a slow engine still shows progress)
LABEL_CAP = 5000  # states whose text is sent (the page draws no bigger tree)
MAX_EXPANDED = 200_000
TIMEOUT_S = 120.0
START_S = 60.0  # building a problem may load a pattern database
DEADLINE_S = START_S + 2 * TIMEOUT_S  # the worker is terminated past this, however slowly it is read
UNREAD_S = 30.0  # a search whose stream nobody opens within this is stopped (its slot is needed)
MAX_WAIT_S = 600.0  # a watched search paused or slowed down this long in all is stopped (its slot is needed)
WATCH_DEADLINE_S = DEADLINE_S + MAX_WAIT_S
MAX_RATE = 1_000_000  # events a second: the fastest pace a page may ask for short of full speed
MAX_STEPS = 1000  # expansions one step request may let through
PAUSE_POLL_S = 0.05  # a paused worker looks at its pace this often
MIN_SLEEP_S = 0.01  # a slowed-down worker sleeps once it is this far ahead of its pace
TREE_NODES = 2000  # the tree command's default --max-nodes


def _num(x: float | None) -> float | None:
    return None if x is None else round(float(x), 4)


def offered(dom: Domain) -> list[Param]:
    """The options a page may set: no file paths (the server's files are not the user's)
    and nothing about writing outputs."""
    return [p for p in dom.params if p.type is not Path and not p.output]


def names_a_file(text: str) -> bool:
    """Whether ``text`` could name a file on the server (a path, or a file in its working folder)."""
    if "/" in text or "\\" in text:
        return True
    try:
        return Path(text).exists()
    except (OSError, ValueError):  # a name too long, or holding a NUL: no file has it
        return False


def web_options(dom: Domain, options: dict[str, Any]) -> dict[str, Any]:
    """The page's option values converted to the types the command line gives them; none may
    name a file on the server (a text option may take a file name, as Sokoban's level does)."""
    allowed = {p.name: p for p in offered(dom)}
    out: dict[str, Any] = {}
    for name, value in options.items():
        if name not in allowed:
            raise InputError(f"{dom.name} has no option {name!r} here (it has: {', '.join(allowed) or 'none'})")
        if value in (None, ""):
            continue
        kind = allowed[name].type
        text = str(value)
        if kind is str and names_a_file(text):
            raise InputError(f"option {name!r} cannot name a file on the server (got {value!r:.60}): pick an instance")
        try:
            out[name] = text.lower() in ("1", "true", "yes", "on") if kind is bool else kind(value)
        except (TypeError, ValueError, OverflowError):
            raise InputError(f"option {name!r} must be a {kind.__name__} (got {value!r:.60})") from None
    return out


def instance_label(options: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in options.items()) or "default"


def instance_options(dom: Domain, index: Any) -> dict[str, Any]:
    """The options of the domain's own instance number ``index`` (its `check_instances`: the
    only way a page reaches a file option, such as a bundled map), or none."""
    if index is None or index == "":
        return {}
    known = dom.check_instances()
    try:
        return dict(known[whole({"instance": index}, "instance", 0, 0, len(known) - 1)])
    except InputError:
        has = f"{len(known)}: 0 to {len(known) - 1}" if known else "none"
        raise InputError(f"{dom.name} has no instance {index!r:.40} (it has {has})") from None


def whole(doc: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    """``doc[key]`` as a whole number from ``low`` to ``high`` (a JSON integer or a string of
    ASCII digits), or ``default`` when absent or empty; an `InputError` naming ``key`` and the
    range for anything else."""
    value = doc.get(key)
    if value is None or value == "":
        return default
    number = value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(value, str) and value.isascii() and value.isdigit():  # "²" is a digit to isdigit, not to int
        number = int(value) if len(value) <= 30 else high + 1  # thousands of digits: out of range
    if number is None or not low <= number <= high:
        raise InputError(f"{key} must be a whole number from {low:,} to {high:,} (got {value!r:.40})")
    return number


def name_of(doc: dict[str, Any], key: str) -> str | None:
    """``doc[key]``, a name (a string), or None when absent or empty."""
    value = doc.get(key)
    if value is not None and not isinstance(value, str):
        raise InputError(f"{key} must be a name (a string; got {value!r:.40})")
    return value or None


@dataclass(frozen=True)
class Spec:
    """What to search, checked and in plain types (it travels to a worker process).

    ``random_seed`` seeds the worker's `random` before the problem is built, so a domain that
    draws a random instance (an n-puzzle without a board) draws the same one for both panes
    and for the tree export."""

    domain: str
    options: dict[str, Any]
    engine: str | None
    heuristic: str | None
    max_expanded: int
    random_seed: int

    @classmethod
    def from_request(cls, doc: dict[str, Any]) -> Spec:
        options = doc.get("options") or {}
        if not isinstance(options, dict):
            raise InputError("options must be a JSON object")
        dom = get_domain(name_of(doc, "domain") or "")
        base = instance_options(dom, doc.get("instance"))
        engine = name_of(doc, "engine")
        if engine is not None:
            get_engine(engine)  # a name no engine has is refused here, before a worker starts
        return cls(
            dom.name,
            {**base, **web_options(dom, options)},
            engine,
            name_of(doc, "heuristic"),
            whole(doc, "max_expanded", MAX_EXPANDED, 1, MAX_EXPANDED),
            whole(doc, "random_seed", random.randrange(2**31), 0, 2**63 - 1),
        )

    def job(self) -> Job:
        random.seed(self.random_seed)
        return prepare(self.domain, self.options, engine=self.engine, heuristic=self.heuristic)

    def limits(self) -> Limits:
        return Limits(max_expanded=self.max_expanded, timeout_s=TIMEOUT_S)


class Pace:
    """How fast a watched search may go: set by the server, kept to by the search's worker
    process (the two share its memory).  The rate is in events a second, 0 while paused and
    None at full speed; steps count the expansions the page let through while paused."""

    def __init__(self, rate: float | None) -> None:
        self._shared = CTX.RawArray("d", [-1.0 if rate is None else rate, 0.0])

    @staticmethod
    def rate_of(doc: dict[str, Any]) -> float | None:
        """``doc["rate"]``, checked: a number from 0 (paused) to `MAX_RATE`, or None (full speed)."""
        value = doc.get("rate")
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_RATE:
            raise InputError(
                f"rate must be a number of events a second from 0 (paused) to {MAX_RATE:,}, "
                f"or null for full speed (got {value!r:.40})"
            )
        return float(value)

    def set_rate(self, rate: float | None) -> None:
        self._shared[0] = -1.0 if rate is None else rate

    def rate(self) -> float | None:
        rate = self._shared[0]
        return None if rate < 0 else rate

    def grant(self, steps: int) -> None:
        """Let ``steps`` more expansions through (only while paused: a running search needs none)."""
        if self.rate() == 0:
            self._shared[1] += steps

    def steps(self) -> int:
        return int(self._shared[1])


class Pacer:
    """The worker's side of a `Pace`: `wait` holds the search back while it is paused or
    ahead of its rate, and `check` stops it (through ``limits.interrupt``) once it has run for
    ``budget_s`` seconds, waits not counted, or waited `MAX_WAIT_S` in all.  ``reason``: the
    limit that stopped it, as the engine's statistics name limits.

    The engine's clock starts with room for every wait (``limits.timeout_s`` is
    ``budget_s + MAX_WAIT_S`` then); from the first event on, ``limits.timeout_s`` is
    ``budget_s`` plus the waits so far, so what `solving.execute` leaves for improving a
    solution afterwards counts running time only."""

    def __init__(self, pace: Pace, budget_s: float, limits: Limits) -> None:
        self.pace = pace
        self.budget_s = budget_s
        self.limits = limits
        self.began = self.next_at = time.monotonic()
        self.waited = 0.0
        self.used = 0  # the steps taken
        self.reason: str | None = None

    def wait(self, expansion: bool, flush: Callable[[], None]) -> None:
        """Before an event: wait until the pace lets it go (``flush`` first, so the page has
        everything before it).  While paused only expansions wait, each for a step."""
        if self.limits.timeout_s != self.budget_s + self.waited:
            self.limits.timeout_s = self.budget_s + self.waited  # the engine's clock has started
        rate = self.pace.rate()
        if rate is None or self.reason is not None:
            return
        now = time.monotonic()
        if rate > 0:
            self.next_at = max(self.next_at, now - BATCH_S) + 1 / rate
            if self.next_at - now > MIN_SLEEP_S:
                flush()
                time.sleep(self.next_at - now)
                self._waited(now)
            return
        if not expansion:
            return
        if self.pace.steps() <= self.used:
            flush()
            while self.pace.rate() == 0 and self.pace.steps() <= self.used and self.reason is None:
                time.sleep(PAUSE_POLL_S)
                now = self._waited(now)
        if self.pace.rate() == 0 and self.pace.steps() > self.used:
            self.used += 1
        self.next_at = time.monotonic()

    def _waited(self, since: float) -> float:
        """Count the wait from ``since`` to now (stopping a search that waited too long); now."""
        now = time.monotonic()
        self.waited += now - since
        self.limits.timeout_s = self.budget_s + self.waited
        if self.waited > MAX_WAIT_S:
            self._stop("paused too long")
        return now

    def check(self) -> None:
        if time.monotonic() - self.began - self.waited > self.budget_s:
            self._stop("time")

    def _stop(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason
            self.limits.interrupt.set()


def header(job: Job, view: GridView | None) -> dict[str, Any]:
    problem = job.problem
    grid = None
    if view is not None:
        grid = {"rows": list(view.rows), "start": list(view.start), "goals": [list(g) for g in view.goals]}
    return {
        "domain": job.domain.name,
        "engine": job.engine.name,
        "heuristic": job.heuristic.name if job.heuristic else None,
        "start": job.domain.describe_state(problem, problem.initial_state()),
        "grid": grid,
    }


class Batcher(Observer):
    """Numbers states as they appear and hands events to ``send`` in batches."""

    def __init__(
        self,
        send: Callable[[dict[str, Any]], None],
        describe: Callable[[Any], str],
        view: GridView | None,
        pacer: Pacer | None = None,
    ):
        self.send = send
        self.pacer = pacer
        self.describe = describe
        self.cell = view.cell if view is not None else None
        self.ids: dict[Any, int] = {}
        self.batch: list[list[Any]] = []
        self.labels: list[list[Any]] = []
        self.cells: list[list[int]] = []
        self.since = time.monotonic()

    def id_of(self, state: Any) -> int:
        found = self.ids.get(state)
        if found is None:
            found = self.ids[state] = len(self.ids)
            if found < LABEL_CAP:
                self.labels.append([found, self.describe(state)])
            if self.cell is not None:
                self.cells.append([found, *self.cell(state)])
        return found

    def expand(self, state: Any, g: float, h: float | None) -> None:
        self._push(["x", self.id_of(state), _num(g), _num(h)])

    def generate(self, parent: Any, action: Any, child: Any, g: float, h: float | None, kind: str) -> None:
        self._push(["g", self.id_of(parent), self.id_of(child), _num(g), _num(h), kind])

    def iteration(self, bound: float) -> None:
        self._push(["i", _num(bound)])

    def _push(self, event: list[Any]) -> None:
        if self.pacer is not None:
            self.pacer.wait(event[0] == "x", self.flush)
        self.batch.append(event)
        if len(self.batch) >= BATCH or time.monotonic() - self.since > BATCH_S:
            self.flush()

    def flush(self) -> None:
        if self.batch:
            message: dict[str, Any] = {"events": self.batch}
            if self.labels:
                message["labels"] = self.labels
            if self.cells:
                message["cells"] = self.cells
            self.send(message)
            self.batch, self.labels, self.cells = [], [], []
        if self.pacer is not None:
            self.pacer.check()
        self.since = time.monotonic()


def search_worker(spec: Spec, conn: Connection, pace: Pace | None = None) -> None:
    """A worker process: the header, the batches (at ``pace``; at full speed without one), the
    end (or an error message)."""
    with answering(conn):
        job = spec.job()
        problem = job.problem
        view = job.domain.grid_view(problem)
        conn.send({"header": header(job, view)})
        limits = spec.limits()
        pacer = None
        if pace is not None:
            limits.timeout_s = TIMEOUT_S + MAX_WAIT_S  # the pacer keeps TIMEOUT_S, waits not counted
            pacer = Pacer(pace, TIMEOUT_S, limits)
        batcher = Batcher(conn.send, lambda s: job.domain.describe_state(problem, s), view, pacer)
        result = execute(job, limits, batcher)
        batcher.flush()
        if pacer is not None and pacer.reason is not None and result.stats.limit_reason == "interrupted":
            result.stats.limit_reason = pacer.reason
        end: dict[str, Any] = {
            "status": result.status,
            "cost": result.cost,
            "length": len(result.actions),
            "actions": [a if isinstance(a, (str, int, float)) else str(a) for a in result.actions],
            "path": [batcher.ids.get(s) for s in result.states],
            "stats": result.stats.to_dict(),
            "guarantee": job.guarantee_of(result),
        }
        if view is not None:
            end["path_cells"] = [list(view.cell(s)) for s in result.states]
        conn.send({"end": end})


def export_worker(spec: Spec, path: Path, conn: Connection) -> None:
    """A worker process: the tree of the search written to ``path``, as ``searchkit tree`` writes it."""
    from ..render.job import job_recorder, save_job_tree

    with answering(conn):
        job = spec.job()
        recorder = job_recorder(job, TREE_NODES)
        result = execute(job, spec.limits(), recorder, improve=False)
        graph = save_job_tree(job, recorder, result, path)
        conn.send({"nodes": graph.number_of_nodes()})


def first_message(worker: Worker, timeout: float, what: str) -> dict[str, Any]:
    """The worker's first message; its error, a silent end or a timeout as an InputError."""
    try:
        message: dict[str, Any] | None = worker.receive(timeout)
    except WorkerGone:
        message = {"error": f"the {what} ended without an answer"}
    if message is None:
        message = {"error": f"the {what} did not answer within {timeout:g} s"}
    if "error" in message:
        worker.stop()
        raise InputError(message["error"])
    return message


class SearchRun:
    """One watched search: its worker, its pace and its header."""

    def __init__(self, spec: Spec, slots: Slots, rate: float | None = None) -> None:
        self.pace = Pace(rate)
        self.worker = Worker(search_worker, (spec,), slots, WATCH_DEADLINE_S, {"pace": self.pace})
        self.header: dict[str, Any] = first_message(self.worker, START_S, "search")["header"]
        self.streaming = False  # set when the page opens the stream

    def next_message(self) -> dict[str, Any] | None:
        """The next batch or end message, or None if nothing is ready."""
        try:
            message: dict[str, Any] | None = self.worker.receive()
            return message
        except WorkerGone:
            return {"error": "the search was stopped (cancelled, or out of time)"}

    def cancel(self) -> None:
        self.worker.stop()


class SearchStore:
    """Running searches by id; a search is forgotten (and its worker stopped) once its
    stream ends or it is cancelled."""

    def __init__(self, slots: Slots) -> None:
        self.slots = slots
        self._runs: dict[str, SearchRun] = {}
        self._lock = threading.Lock()

    def start(self, spec: Spec, rate: float | None = None) -> str:
        """Start a search at ``rate`` (`Pace`) and wait for its header (blocking: call it off
        the event loop)."""
        run = SearchRun(spec, self.slots, rate)
        sid = secrets.token_urlsafe(12)
        with self._lock:
            self._runs[sid] = run
        timer = threading.Timer(UNREAD_S, self._forget_unread, args=(sid,))
        timer.daemon = True
        timer.start()
        return sid

    def _forget_unread(self, sid: str) -> None:
        with self._lock:
            run = self._runs.get(sid)
        if run is not None and not run.streaming:
            self.forget(sid)

    def get(self, sid: str) -> SearchRun:
        with self._lock:
            return self._runs[sid]

    def forget(self, sid: str) -> None:
        with self._lock:
            run = self._runs.pop(sid, None)
        if run is not None:
            run.cancel()

    def close(self) -> None:
        """Stop every search (the server is shutting down)."""
        with self._lock:
            sids = list(self._runs)
        for sid in sids:
            self.forget(sid)

    def running(self) -> int:
        with self._lock:
            return len(self._runs)

    def export(self, spec: Spec, suffix: str) -> bytes:
        """The file ``searchkit tree`` writes for this search (blocking: call it off the event loop)."""
        folder = Path(tempfile.mkdtemp(prefix="searchkit-tree-"))
        try:
            path = folder / f"tree{suffix}"
            worker = Worker(export_worker, (spec, path), self.slots, DEADLINE_S)
            try:
                first_message(worker, DEADLINE_S, "tree export")
            finally:
                worker.stop()
            return path.read_bytes()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
