"""``--executor dask`` against a real `LocalCluster` (worker processes on loopback):
the same records as the local pool, and workers killed mid-run lose nothing finished."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")
import dask  # noqa: E402  (after the skip: dask comes with distributed)
import typer  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from searchkit import InputError  # noqa: E402
from searchkit.bench import load_suite, read_records, run_suite  # noqa: E402
from searchkit.bench.command import bench  # noqa: E402
from searchkit.bench.dask_executor import DaskExecutor  # noqa: E402
from searchkit.bench.executors import make_executor  # noqa: E402

# random 8-puzzles (40 random moves from the goal) and their optimal lengths
BOARDS = [
    ("5 6 0 1 8 4 3 7 2", 26),
    ("6 1 2 7 8 5 4 3 0", 22),
    ("6 1 5 7 0 8 2 3 4", 22),
    ("2 7 4 8 1 3 0 5 6", 20),
    ("7 8 2 4 1 3 6 5 0", 20),
    ("3 7 4 5 0 1 6 2 8", 24),
]

SMALL = "\n".join(
    ['domain = "npuzzle"', "[instances]", "list = ["]
    + [f'  {{ name = "p{i}", size = "3", board = "{b}", expected_cost = {c} }},' for i, (b, c) in enumerate(BOARDS, 1)]
    + [
        "]",
        """
[limits]
timeout_s = 30
[[configs]]
name = "astar"
engine = "astar"
heuristic = "manhattan"
[[configs]]
name = "ida"
engine = "idastar"
heuristic = "linear-conflict"
""",
    ]
)

# a 15-puzzle (Korf's #1, 57 moves) that IDA* with Manhattan cannot finish in 3 s: a run
# that is still going when its worker is killed
SLOW = (
    SMALL.replace(
        "list = [",
        'list = [\n  { name = "slow", size = "4", goal = "blank-first", '
        'board = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", expected_cost = 57 },',
    )
    .replace("timeout_s = 30", "timeout_s = 3")
    .split("[[configs]]")[0]
    + """
[[configs]]
name = "ida"
engine = "idastar"
heuristic = "manhattan"
params = { compiled = "off" }  # the Python engine: slow enough to hit the 3 s limit (compiled, it solves in ~2 s)
"""
)


@pytest.fixture(scope="module")
def cluster():
    # allowed-failures 0: a worker death reaches the client at once, so the runner's own
    # retry is the only one (the scheduler reads this when it starts)
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, silence_logs=50
        )
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture
def monitor(cluster):
    client = distributed.Client(cluster.scheduler_address)
    try:
        yield client
    finally:
        client.close()


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "suite.toml"
    path.write_text(body)
    return path


def essence(records):
    """What must not depend on where a run ran."""
    return {
        (r["config"], r["instance"]): (
            r["status"],
            r["cost"],
            r["cost_ok"],
            r["stats"]["expanded"],
            r["stats"]["generated"],
            r["engine"],
            r["guarantee"],
        )
        for r in records
    }


def test_dask_results_equal_the_local_executor(tmp_path, cluster):
    suite = load_suite(write(tmp_path, SMALL))
    local = run_suite(suite, jobs=2, output=tmp_path / "local.jsonl")
    started = time.monotonic()
    remote = run_suite(suite, output=tmp_path / "dask.jsonl", executor=DaskExecutor(cluster.scheduler_address))
    took = time.monotonic() - started
    assert local.ran == remote.ran == 12 and not remote.interrupted
    assert essence(local.records) == essence(remote.records)
    assert all(r["status"] == "solved" and r["cost_ok"] is True for r in remote.records)
    assert essence(read_records(tmp_path / "dask.jsonl", "suite")) == essence(local.records)
    assert took < 60


@pytest.mark.slow  # the command path over the same cluster as the test above: kept out of the CI budget
def test_dask_through_the_command_with_resume(tmp_path, cluster):
    app = typer.Typer()
    app.command()(bench)
    out = tmp_path / "r.jsonl"
    path = str(write(tmp_path, SMALL))
    first = CliRunner().invoke(
        app,
        [
            path,
            "--executor",
            "dask",
            "--scheduler",
            cluster.scheduler_address,
            "-o",
            str(out),
            "--select",
            "1-2",
            "--json",
        ],
    )
    assert first.exit_code == 0, first.output
    doc = json.loads(first.stdout)
    assert doc["executor"] == "dask" and doc["ran"] == 4 and doc["ok"]
    again = CliRunner().invoke(
        app,
        [
            path,
            "--executor",
            "dask",
            "--scheduler",
            cluster.scheduler_address,
            "-o",
            str(out),
            "--resume",
            "--select",
            "1-3",
            "--json",
        ],
    )
    doc = json.loads(again.stdout)
    assert again.exit_code == 0 and doc["ran"] == 2 and doc["resumed"] == 4
    assert len(read_records(out, "suite")) == 6


def test_dask_bad_usage_is_one_line(tmp_path, monkeypatch):
    with pytest.raises(InputError, match="--scheduler"):
        make_executor("dask")
    with pytest.raises(InputError, match="--scheduler needs --executor dask"):
        make_executor("local", scheduler="tcp://127.0.0.1:1")
    with pytest.raises(InputError, match="unknown executor 'ray'"):
        make_executor("ray")
    from searchkit.bench import dask_executor

    monkeypatch.setattr(dask_executor, "CONNECT_TIMEOUT_S", 1)
    app = typer.Typer()
    app.command()(bench)
    result = CliRunner().invoke(
        app, [str(write(tmp_path, SMALL)), "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9"]
    )
    assert result.exit_code == 2 and result.stderr.startswith("Error: cannot reach the Dask scheduler")


def _worker_running(client, marker: str, timeout: float = 30) -> str:
    """The address of the worker that runs a task whose key contains ``marker``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for worker, keys in client.processing().items():
            if any(marker in str(k) for k in keys):
                return worker
        time.sleep(0.05)
    raise AssertionError(f"no worker ever ran {marker}")


def _kill_worker(client, address: str) -> None:
    pid = client.run(os.getpid, workers=[address])[address]
    os.kill(pid, signal.SIGKILL)


def test_killed_worker_loses_nothing_finished_and_a_task_lost_twice_is_reported(tmp_path, cluster, monitor):
    """Kill the worker running the slow task; its retry runs again and is killed too:
    the slow task becomes an error record, every other run is complete and correct."""
    out = tmp_path / "r.jsonl"
    suite = load_suite(write(tmp_path, SLOW))
    result = {}
    runner = threading.Thread(
        target=lambda: result.setdefault(
            "outcome", run_suite(suite, output=out, executor=DaskExecutor(cluster.scheduler_address))
        )
    )
    runner.start()
    try:
        _kill_worker(monitor, _worker_running(monitor, "-ida-slow-1-"))
        _kill_worker(monitor, _worker_running(monitor, "-ida-slow-2-", timeout=60))
    finally:
        runner.join(timeout=120)
    assert not runner.is_alive()
    outcome = result["outcome"]
    by = {r["instance"]: r for r in read_records(out, "suite")}
    assert outcome.ran == 7 and set(by) == {"slow", *(f"p{i}" for i in range(1, 7))}
    assert by["slow"]["status"] == "error" and "lost 2 times" in by["slow"]["error"], by["slow"]
    assert all(by[f"p{i}"]["status"] == "solved" and by[f"p{i}"]["cost_ok"] for i in range(1, 7))


def test_killed_worker_task_is_retried_once(tmp_path, cluster, monitor):
    out = tmp_path / "r.jsonl"
    suite = load_suite(write(tmp_path, SLOW), select="1")
    result = {}
    runner = threading.Thread(
        target=lambda: result.setdefault(
            "outcome", run_suite(suite, output=out, executor=DaskExecutor(cluster.scheduler_address))
        )
    )
    runner.start()
    try:
        _kill_worker(monitor, _worker_running(monitor, "-ida-slow-1-"))
    finally:
        runner.join(timeout=120)
    (record,) = read_records(out, "suite")
    assert record["status"] == "limit" and record["stats"]["limit_reason"] == "time", record
    assert record["stats"]["expanded"] > 0 and record["error"] is None
