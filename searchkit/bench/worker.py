"""What runs inside a worker process: one (configuration, instance) pair -> one record.

The worker builds the job, tells the parent the search starts (so the parent's hard
deadline does not count the set-up), runs the engine under the suite's `Limits`, and
sends back a JSON-ready record.  It never raises: every failure is a record.
"""

from __future__ import annotations

import math
import os
import resource
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..domain import Instance
from ..errors import InputError
from ..limits import current_rss_bytes
from ..result import SOLVED, Stats
from .baseline import prepare_job
from .suite import BenchLimits, Config

ERROR = "error"
LIMIT = "limit"
# RSS moves in pages and allocator arenas (hundreds of KiB): below this many stored states
# (a depth-first engine's path, a tiny space) bytes per state would be noise, so it is null.
MIN_STORED_FOR_RSS = 1000
COST_TOLERANCE = 1e-6  # absolute: how far a cost may be from a file's rounded optimal cost


@dataclass(frozen=True)
class Task:
    """Everything a worker needs, as plain data (so it also survives ``spawn``)."""

    suite: str
    domain: str
    config: Config
    instance: Instance
    index: int
    options: dict[str, Any]
    limits: BenchLimits
    address_space_bytes: int | None = None  # RLIMIT_AS for the worker, None for none

    @property
    def key(self) -> tuple[str, str]:
        return (self.config.name, self.instance.name)


def base_record(task: Task) -> dict[str, Any]:
    """The fields every record has, filled for a run that produced nothing."""
    return {
        "suite": task.suite,
        "config": task.config.name,
        "instance": task.instance.name,
        "index": task.index,
        "domain": task.domain,
        "engine": task.config.engine,
        "heuristic": task.config.heuristic,
        "status": ERROR,
        "cost": None,
        "length": None,
        "expected_cost": task.instance.expected_cost,
        "cost_ok": None,
        "guarantee": None,
        "stats": Stats().to_dict(),
        "rss_per_stored_bytes": None,
        "error": None,
    }


def failure_record(
    task: Task, status: str, error: str, *, reason: str | None = None, elapsed_s: float = 0.0, peak_rss: int = 0
) -> dict[str, Any]:
    """A record for a run the parent had to end, or that died without a word."""
    record = base_record(task)
    record["status"] = status
    record["error"] = error
    record["stats"] = Stats(elapsed_s=elapsed_s, peak_rss_bytes=peak_rss, limit_reason=reason).to_dict()
    return record


def cost_ok(
    guarantee: str | None, status: str, cost: float | None, length: int | None, expected: float | None
) -> bool | None:
    """Does an optimal configuration's answer match the known optimal cost?

    None when nothing can be judged: no expected cost, no optimality claim, a run that
    stopped at a limit, or a fewest-steps engine on a solution whose steps are not all
    unit cost (fewest steps is then not least cost).
    """
    if expected is None or guarantee is None or not guarantee.startswith("optimal"):
        return None
    if status == "no-solution":
        return False  # an optimal engine claims there is none, the suite knows one
    if status != SOLVED or cost is None:
        return None
    if guarantee != "optimal" and length is not None and not math.isclose(cost, length):
        return None
    # files print irrational optimal lengths rounded (Moving AI .scen: 8 decimals), and no two
    # different path costs of a real benchmark are within a millionth of each other
    return math.isclose(cost, expected, rel_tol=1e-9, abs_tol=COST_TOLERANCE)


def run_task(task: Task, send: Callable[[tuple[Any, ...]], None]) -> None:
    """The worker's body: ``send(("started",))`` then ``send(("done", record))``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C ends
    _exit_with_parent()
    if task.address_space_bytes is not None:
        _limit_address_space(task.address_space_bytes)
    record = base_record(task)
    started = False
    try:
        job = prepare_job(task.domain, task.options, task.config.engine, task.config.heuristic, task.config.params)
        record["engine"] = job.engine.name
        record["heuristic"] = job.heuristic.name if job.heuristic is not None else "none"
        record["guarantee"] = None  # what the answer promises, once there is one
        send(("started",))
        started = True
        rss_before = current_rss_bytes()
        peak_before = _peak_rss()
        from ..observer import Observer
        from ..solving import execute

        observer = Observer() if task.config.observer == "null" else None
        result = execute(job, task.limits.to_limits(), observer)
        peak_after = _peak_rss()
        stats = result.stats
        # ru_maxrss is exact but counts the set-up too; if the search did not raise it,
        # the engine's sampled peak (or the RSS now) is the search's own peak.
        search_peak = peak_after if peak_after > peak_before else max(stats.peak_rss_bytes, current_rss_bytes())
        stats.peak_rss_bytes = max(stats.peak_rss_bytes, search_peak)
        record["status"] = result.status
        record["cost"] = result.cost
        record["length"] = len(result.actions) if result.status == SOLVED else None
        record["stats"] = stats.to_dict()
        if stats.stored >= MIN_STORED_FOR_RSS:
            record["rss_per_stored_bytes"] = round(max(0, search_peak - rss_before) / stats.stored, 1)
        record["guarantee"] = job.guarantee_of(result)  # none without an answer
        if result.improvements:  # an anytime engine: its answers on the way and the bound it proved
            record["bound"] = result.bound
            record["improvements"] = [i.to_dict() for i in result.improvements]
        record["cost_ok"] = cost_ok(
            result.guarantee or job.guarantee, result.status, result.cost, record["length"], task.instance.expected_cost
        )
        if result.status == SOLVED:
            extras = job.domain.solution_json(job.problem, result, job.options) or {}
            for key, value in extras.items():
                record.setdefault(key, value)  # the common fields win over a domain's
    except MemoryError:
        record.update(status=LIMIT, error="out of memory (address-space ceiling)")
        record["stats"] = dict(record["stats"], limit_reason="memory")
    except InputError as e:
        record.update(status=ERROR, error=str(e))
    except AssertionError as e:
        record.update(status=ERROR, error=f"the solution failed its replay: {e}")
    except Exception as e:  # noqa: BLE001 - a record, never a dead run
        record.update(status=ERROR, error=f"{type(e).__name__}: {e}".splitlines()[0])
    if not started:
        send(("started",))
    send(("done", record))


def _exit_with_parent(every_s: float = 1.0) -> None:
    """End this worker when its parent dies (a killed runner or Dask worker), so that no
    orphan search runs on past every deadline: a daemon thread polls the parent's pid."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every_s)
        os._exit(70)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _peak_rss() -> int:
    """This process's peak resident set size in bytes (ru_maxrss is KiB on Linux)."""
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return maxrss if os.uname().sysname == "Darwin" else maxrss * 1024


def _limit_address_space(extra_bytes: int) -> None:
    """Let the worker's address space grow by ``extra_bytes`` beyond what it maps now.

    A backstop under the parent's RSS polling: an allocation burst that outruns the
    poll ends in a MemoryError here instead of the machine swapping.
    """
    try:
        with open("/proc/self/statm", "rb") as f:
            mapped = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        want = mapped + extra_bytes
        if hard != resource.RLIM_INFINITY:
            want = min(want, hard)
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (OSError, ValueError):  # not Linux, or not allowed: the RSS poll still works
        pass
