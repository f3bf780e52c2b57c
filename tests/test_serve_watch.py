"""Watching searches in ``searchkit serve``, at the HTTP level: two engines side by side with
the CLI's counters, searches in worker processes (bounded streaming, cancel frees the slot,
the cap), tree exports equal to ``searchkit tree``'s files, the map of a grid domain."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import warnings
from pathlib import Path

import networkx as nx
import pytest
from processes import cpu_seconds, run_with_plugin, wait_for, wait_until_idle
from typer.testing import CliRunner

from searchkit.cli import build_app as build_cli
from searchkit.limits import current_rss_bytes
from searchkit.serve.app import CONCURRENT_SEARCHES, build_app
from searchkit.serve.loadtest import Server

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx versions
    from starlette.testclient import TestClient

BOARD = "8 6 7 2 5 4 3 0 1"
COUNTERS = ("expanded", "generated", "duplicates", "reopened", "max_frontier", "stored", "iterations", "limit_reason")
LONG = {"domain": "npuzzle", "options": {"size": "4", "seed": "3"}, "engine": "bfs"}


@pytest.fixture
def client() -> TestClient:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(build_app())


def start(client: TestClient, body: dict) -> dict:
    r = client.post("/api/searches", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def read_stream(client: TestClient, sid: str) -> tuple[list, list, dict]:
    """The events, the batch messages and the last message of a search's stream."""
    events, batches, last = [], [], {}
    with client.stream("GET", f"/api/searches/{sid}/events") as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                last = json.loads(line[6:])
                if "events" in last:
                    events += last["events"]
                    batches.append({k: v for k, v in last.items() if k != "events"})
    return events, batches, last


def cli_json(*args: str) -> dict:
    done = CliRunner().invoke(build_cli(), ["solve", *args, "--json"])
    return json.loads(done.stdout)


def test_two_engines_side_by_side_each_with_the_clis_counters(client: TestClient) -> None:
    body = {"domain": "npuzzle", "options": {"board": BOARD}}
    left = start(client, {**body, "engine": "astar"})
    right = start(client, {**body, "engine": "idastar"})
    assert (left["engine"], right["engine"]) == ("astar", "idastar") and left["grid"] is None
    assert left["start"] == right["start"] and "8" in left["start"]
    for started in (right, left):  # both run at once; the later one is read first
        events, batches, last = read_stream(client, started["id"])
        expected = cli_json("npuzzle", "--board", BOARD, "--engine", started["engine"])
        stats = last["end"]["stats"]
        assert {k: stats[k] for k in COUNTERS} == {k: expected["stats"][k] for k in COUNTERS}
        assert last["end"]["cost"] == expected["cost"] == len(last["end"]["path"]) - 1
        assert sum(e[0] == "x" for e in events) == stats["expanded"]
        labels = dict(pair for b in batches for pair in b.get("labels", []))
        assert labels[0] == started["start"]  # state 0 is the start, described as the CLI does


def test_one_random_seed_draws_one_instance_for_both_panes(client: TestClient) -> None:
    body = {"domain": "npuzzle", "options": {"size": "3"}, "engine": "greedy", "max_expanded": 10}
    a, b = (start(client, {**body, "random_seed": 7}) for _ in range(2))
    c = start(client, {**body, "random_seed": 8})
    assert a["start"] == b["start"] != c["start"]
    for started in (a, b, c):
        assert read_stream(client, started["id"])[2]["end"]["stats"]["expanded"] <= 10
    assert client.post("/api/searches", json={**body, "random_seed": -1}).status_code == 400


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a worker's CPU time from /proc")
def test_a_long_search_streams_to_the_end_with_bounded_memory(client: TestClient) -> None:
    started = start(client, {**LONG, "max_expanded": 100_000})
    worker = client.app.state.searches.get(started["id"]).worker
    assert worker.process.pid != os.getpid() and worker.process.is_alive()
    # nobody reads: the worker fills the pipe and waits (CPU time: true on a loaded machine)
    waiting = wait_until_idle(worker.process.pid)
    base, peak, expanded, batches, last, spent = current_rss_bytes(), 0, 0, 0, {}, waiting
    with client.stream("GET", f"/api/searches/{started['id']}/events") as r:
        for line in r.iter_lines():  # counted, not kept: the test holds no more than the server
            if line.startswith("data: "):
                last = json.loads(line[6:])
                expanded += sum(e[0] == "x" for e in last.get("events", []))
                batches += "events" in last
                peak = max(peak, current_rss_bytes())
                with contextlib.suppress(OSError):  # the worker ends with the search
                    spent = cpu_seconds(worker.process.pid)
    assert waiting < 0.5 * spent, f"an unread worker should wait, not search on ({waiting:.2f} of {spent:.2f} s)"
    stats = last["end"]["stats"]
    assert last["end"]["status"] == "limit" and stats["limit_reason"] == "nodes"
    assert stats["expanded"] == expanded == 100_000
    assert batches >= 100_000 // 500
    assert peak - base < 50 * 2**20, f"the server grew by {(peak - base) >> 20} MB while streaming"


def test_cancel_terminates_the_worker_and_frees_its_slot(client: TestClient) -> None:
    store = client.app.state.searches
    ids = [start(client, LONG)["id"] for _ in range(CONCURRENT_SEARCHES)]
    busy = client.post("/api/searches", json=LONG)
    assert busy.status_code == 429 and "busy" in busy.json()["error"]
    process = store.get(ids[0]).worker.process
    assert client.delete(f"/api/searches/{ids[0]}").json() == {"cancelled": True}
    assert wait_for(lambda: not process.is_alive()), "the cancelled worker still runs"
    assert client.get(f"/api/searches/{ids[0]}/events").status_code == 404

    def started_again() -> bool:
        r = client.post("/api/searches", json=LONG)
        assert r.status_code in (200, 429), r.text
        if r.status_code == 200:
            ids.append(r.json()["id"])
        return r.status_code == 200

    assert wait_for(started_again), "the cancelled search's slot did not come back"
    for sid in ids:
        client.delete(f"/api/searches/{sid}")
    assert client.get("/api/health").json()["searches"] == 0


def test_a_search_nobody_reads_is_stopped(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("searchkit.serve.searches.UNREAD_S", 0.5)
    store = client.app.state.searches
    sid = start(client, LONG)["id"]
    process = store.get(sid).worker.process
    assert wait_for(lambda: not process.is_alive()), "an unread search kept its worker"
    assert client.get(f"/api/searches/{sid}/events").status_code == 404


def test_health_reports_memory_games_and_searches(client: TestClient) -> None:
    doc = client.get("/api/health").json()
    assert doc["rss_mb"] > 10 and doc["games"] == 0 and doc["searches"] == 0


@pytest.mark.parametrize("fmt", ["json", "graphml", "dot", "gexf"])
def test_tree_export_is_the_tree_commands_file(client: TestClient, tmp_path: Path, fmt: str) -> None:
    body = {"domain": "npuzzle", "options": {"board": BOARD}, "engine": "astar", "format": fmt}
    r = client.post("/api/trees", json=body)
    assert r.status_code == 200, r.text
    assert f".{fmt}" in r.headers["content-disposition"]
    out = tmp_path / f"cli.{fmt}"
    cli = CliRunner().invoke(build_cli(), ["tree", "npuzzle", "--board", BOARD, "--engine", "astar", "-o", str(out)])
    assert cli.exit_code == 0, cli.output
    served_file = tmp_path / f"served.{fmt}"
    served_file.write_bytes(r.content)
    if fmt == "gexf":  # the file carries the day it was written: compare the graphs
        a, b = nx.read_gexf(served_file), nx.read_gexf(out)
        assert dict(a.nodes(data=True)) == dict(b.nodes(data=True)) and list(a.edges) == list(b.edges)
    else:
        assert r.content == out.read_bytes()


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_tree_export_pictures(client: TestClient, fmt: str) -> None:
    body = {"domain": "npuzzle", "options": {"board": "1 2 3 4 5 6 0 7 8"}, "engine": "bfs", "format": fmt}
    r = client.post("/api/trees", json=body)
    assert r.status_code == 200, r.text
    assert r.content.startswith(b"\x89PNG") if fmt == "png" else b"<svg" in r.content[:2000]


@pytest.mark.parametrize(
    "body",
    [
        {"domain": "npuzzle", "format": "xls"},
        {"domain": "npuzzle", "format": "png", "engine": "nosuch"},
        {"domain": "npuzzle", "format": "png", "options": {"board": "1 2"}},
        {"domain": "chess", "format": "json"},
    ],
)
def test_bad_tree_exports_are_400(client: TestClient, body: dict) -> None:
    r = client.post("/api/trees", json=body)
    assert r.status_code == 400 and r.json()["error"]


@pytest.mark.parametrize("level", ["/etc/passwd", "../README.md", "README.md", "a\\b"])
def test_no_option_names_a_file_on_the_server(client: TestClient, level: str) -> None:
    r = client.post("/api/searches", json={"domain": "sokoban", "options": {"level_file": level}})
    assert r.status_code == 400 and "cannot name a file on the server" in r.json()["error"]
    assert start(client, {"domain": "sokoban", "options": {"level_file": "microban:1"}})["engine"]


@pytest.mark.parametrize("cap", [0, -5, "x", True, 1.5])
def test_a_bad_expansion_cap_is_400(client: TestClient, cap: object) -> None:
    r = client.post("/api/searches", json={"domain": "npuzzle", "max_expanded": cap})
    assert r.status_code == 400 and "max_expanded" in r.json()["error"]


def test_a_grid_domain_streams_its_map_cells_and_path(client: TestClient, installed: Path, gridpath) -> None:  # noqa: F811
    dom = client.get("/api/info").json()["domains"]["gridpath"]
    assert "scen" not in {p["name"] for p in dom["params"]}  # a file path: not offered to pages...
    rooms = next(i for i, label in enumerate(dom["instances"]) if "rooms" in label and "connectivity" not in label)
    started = start(client, {"domain": "gridpath", "instance": rooms, "engine": "astar"})  # ...but its instances are
    grid = started["grid"]
    assert (
        len(grid["rows"]) == 24 and {len(r) for r in grid["rows"]} == {32} and set("".join(grid["rows"])) <= {"#", "."}
    )
    events, batches, last = read_stream(client, started["id"])
    cells = {i: (x, y) for b in batches for i, x, y in b.get("cells", [])}
    assert cells[0] == tuple(grid["start"]) and all(grid["rows"][y][x] == "." for x, y in cells.values())
    end = last["end"]
    assert end["path_cells"][0] == grid["start"] and end["path_cells"][-1] == grid["goals"][0]
    assert [list(cells[i]) for i in end["path"]] == end["path_cells"]
    cli = run_with_plugin(
        installed, "solve", "gridpath", "--scen", "gridpath:rooms", "--index", "2", "--engine", "astar", "--json"
    )
    expected = json.loads(cli.stdout)
    assert {k: end["stats"][k] for k in COUNTERS} == {k: expected["stats"][k] for k in COUNTERS}
    assert end["path_cells"] == expected["path"]
    bad = client.post("/api/searches", json={"domain": "gridpath", "instance": 99})
    assert bad.status_code == 400 and "instance" in bad.json()["error"]


def children(pid: int) -> set[int]:
    return {int(c) for t in Path(f"/proc/{pid}/task").iterdir() for c in (t / "children").read_text().split()}


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="lists a server's processes from /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_workers_end_with_the_server(sig: signal.Signals) -> None:
    import httpx

    with Server() as server:
        gid = httpx.post(f"{server.url}/api/games", json={"game": "npuzzle", "size": 3}).json()["id"]
        assert httpx.post(f"{server.url}/api/games/{gid}/hint", timeout=60).status_code == 200  # the solver pool
        assert httpx.post(f"{server.url}/api/searches", json=LONG, timeout=60).status_code == 200  # a search worker
        workers = children(server.process.pid)
        assert len(workers) >= 2
        server.process.send_signal(sig)
        server.process.wait(30)
        assert wait_for(lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers)), (
            "workers outlived the server"
        )
