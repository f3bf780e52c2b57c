"""Run a suite: every configuration on every instance, each in its own worker process.

A fresh process per run keeps runs independent (no warm caches, an exact peak RSS) and
lets the parent enforce limits from outside (see `watch`): a hard kill once the time
limit plus a grace has passed, and a kill when the worker's resident memory passes the
ceiling.  A worker that dies, hangs or blows up is a record for that pair, never the end
of the run.  Where the workers run is the executor's business (`executors`): a local
process pool by default, or a Dask cluster.  Records are appended to the JSON Lines file
the moment they arrive, so an interrupted run loses only the runs in flight, and
``resume`` skips the pairs the file already holds.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..errors import InputError
from .executors import Executor, LocalExecutor
from .suite import Suite
from .watch import HARD_GRACE_S, MB, Watch, hard_timeout_s, machine_share_mb
from .worker import Task


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
        Task(
            suite.name,
            suite.domain,
            config,
            instance,
            index,
            suite.options_for(config, instance),
            suite.limits,
            address_space,
        )
        for instance, index in zip(suite.instances, suite.indices)
        for config in suite.configs
    ]


def memory_ceiling_mb(suite: Suite, jobs: int) -> float:
    """The suite's ``max_rss_mb``, or a fair share of the machine's memory per worker."""
    if suite.limits.max_rss_mb is not None:
        return suite.limits.max_rss_mb
    return machine_share_mb(jobs)


def run_suite(
    suite: Suite,
    *,
    jobs: int | None = None,
    output: Path | None = None,
    resume: bool = False,
    listener: Listener | None = None,
    grace_s: float = HARD_GRACE_S,
    executor: Executor | None = None,
) -> Outcome:
    """Run the suite (on ``executor``, default a local pool of ``jobs`` processes); Ctrl-C
    ends it early with ``interrupted=True`` (results kept)."""
    jobs = max(1, jobs or os.cpu_count() or 1)
    executor = executor if executor is not None else LocalExecutor(jobs)
    sink = None
    outcome = Outcome()
    try:
        tasks = plan(suite, jobs=jobs)
        if resume:
            if output is None:
                raise InputError("--resume needs --output (the results file to continue)")
            wanted = {t.key for t in tasks}
            done = {(r.get("config"), r.get("instance")): r for r in read_records(output, suite.name)}
            done = {key: r for key, r in done.items() if key in wanted}  # the last line of a pair wins
            outcome.records.extend(done.values())
            tasks = [t for t in tasks if t.key not in done]
            outcome.skipped = len(done)
        sink = _Sink(output, append=resume) if output is not None else None
        if listener is not None:
            listener.start(len(tasks), outcome.skipped)
        watch = Watch(suite.limits.max_rss_mb, hard_timeout_s(suite.limits.timeout_s, grace_s))
        if tasks:
            for record in executor.run(tasks, watch, tick=listener.tick if listener is not None else None):
                if sink is not None:
                    sink.write(record)
                outcome.records.append(record)
                outcome.ran += 1
                if listener is not None:
                    listener.finished(record)
    except KeyboardInterrupt:
        outcome.interrupted = True
    finally:
        executor.shutdown()
        if sink is not None:
            sink.close()
    return outcome


def _is_name(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    return _is_name(value) and not isinstance(value, str) and math.isfinite(value)


def record_problem(record: Any) -> str | None:
    """What makes ``record`` (one line of a results file) unusable, or None: the fields the
    summaries and plots read must have the types `run_suite` writes them with."""
    if not isinstance(record, dict) or not {"config", "instance", "status", "stats"} <= set(record):
        return "is not a bench result record"
    for key in ("config", "instance", "status"):
        if not _is_name(record[key]):
            return f"is not a bench result record ({key} is not text)"
    if record.get("suite") is not None and not _is_name(record["suite"]):
        return "is not a bench result record (suite is not text)"
    stats = record["stats"]
    if not isinstance(stats, dict):
        return "is not a bench result record (stats is not an object)"
    for key in ("elapsed_s", "expanded", "generated"):
        if stats.get(key) is not None and not _is_count(stats[key]):
            return f"is not a bench result record (stats {key} is not a number)"
    if record.get("cost") is not None and not _is_count(record["cost"]):
        return "is not a bench result record (cost is not a number)"
    return None


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
        except (ValueError, RecursionError):  # RecursionError: brackets nested thousands deep
            raise InputError(f"{path}: line {n} is not JSON; not resuming into it") from None
        problem = record_problem(record)
        if problem is not None:
            raise InputError(f"{path}: line {n} {problem}; not resuming into it")
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
