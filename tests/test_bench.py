"""The bench runner: suite parsing, worker isolation, JSONL output, resume, cost checks."""

from __future__ import annotations

import heapq
import json
import os
import random
import sys
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from searchkit import Domain, GraphProblem, Heuristic, InputError, Instance, Param, dijkstra, hookimpl, replay
from searchkit.bench import load_suite, parse_select, plain_astar, read_records, run_suite, textbook_astar
from searchkit.bench.command import bench
from searchkit.plugins import get_plugin_manager, registry_changed

MB = 1024 * 1024


# -- a tiny grid domain, registered for these tests only ---------------------------------------


class GridProblem:
    """An n x n grid from (0, 0) to (n-1, n-1) with unit moves; ``crash`` misbehaves on purpose."""

    def __init__(self, n: int, crash: str, weight: float):
        self.n, self.crash, self.weight = n, crash, weight

    def initial_state(self):
        return (0, 0)

    def is_goal(self, state):
        return state == (self.n - 1, self.n - 1)

    def successors(self, state):
        if self.crash == "exit":
            os._exit(3)
        if self.crash == "sleep":
            time.sleep(60)
        if self.crash == "raise":
            raise RuntimeError("boom")
        if self.crash == "huge":
            bytearray(8 * 1024 * MB)  # one allocation past the address-space ceiling
        if self.crash == "memory":
            hog = []
            while True:
                hog.append(b"x" * (20 * MB))
                time.sleep(0.01)
        x, y = state
        for dx, dy, a in ((1, 0, "R"), (-1, 0, "L"), (0, 1, "D"), (0, -1, "U")):
            if 0 <= x + dx < self.n and 0 <= y + dy < self.n:
                yield a, (x + dx, y + dy), 1

    def heuristic(self, state):
        return self.weight * ((self.n - 1 - state[0]) + (self.n - 1 - state[1]))


class GridDomain(Domain):
    name = "benchgrid"
    params = [Param("n", int, 4), Param("crash", str, ""), Param("seed", int, None), Param("note", Path, None)]

    def builtin_heuristics(self):
        return {"manhattan": Heuristic("manhattan"), "triple": Heuristic("triple", admissible=False)}

    def make_problem(self, options, heuristic):
        if options["n"] < 1:
            raise InputError(f"n must be positive (got {options['n']})")
        n = options["n"] if options.get("seed") is None else 2 + options["seed"] % 4
        weight = {None: 0, "manhattan": 1, "triple": 3}[heuristic.name if heuristic else None]
        return GridProblem(n, options["crash"], weight)

    def solution_json(self, problem, result, options):
        return {"moves": "".join(result.actions), "status": "overridden?"}

    def load_instances(self, source, base_dir):
        path = base_dir / source
        if not path.exists():
            raise InputError(f"instance file {path} not found")
        out = []
        for line in path.read_text().splitlines():
            name, n, cost = line.split()
            out.append(Instance(name, {"n": int(n)}, float(cost)))
        return out


class _Plugin:
    @hookimpl
    def register_domains(self, register):
        register(GridDomain())


@pytest.fixture(autouse=True, scope="module")
def grid_domain():
    pm = get_plugin_manager()
    pm.register(_Plugin(), name="test-benchgrid")
    registry_changed()
    try:
        yield
    finally:
        pm.unregister(name="test-benchgrid")
        registry_changed()


def write_suite(tmp_path: Path, body: str, name: str = "suite.toml") -> Path:
    path = tmp_path / name
    path.write_text(body)
    return path


GOOD = """
domain = "benchgrid"
[instances]
list = [
  { name = "g3", n = 3, expected_cost = 4 },
  { name = "g5", n = 5, expected_cost = 8 },
  { name = "g6", n = 6, expected_cost = 10 },
]
[limits]
timeout_s = 20
[[configs]]
name = "plain"
engine = "baseline:plain-astar"
heuristic = "manhattan"
[[configs]]
engine = "astar"
heuristic = "manhattan"
[[configs]]
name = "greedy"
engine = "greedy"
heuristic = "manhattan"
"""


def one_config(config: str) -> str:
    """`GOOD` with its configurations replaced by the one given (TOML lines)."""
    return GOOD.split("[[configs]]")[0] + "[[configs]]\n" + config + "\n"


RECORD_KEYS = {
    "suite",
    "config",
    "instance",
    "index",
    "domain",
    "engine",
    "heuristic",
    "status",
    "cost",
    "expected_cost",
    "cost_ok",
    "guarantee",
    "stats",
    "rss_per_stored_bytes",
    "error",
}
STATS_KEYS = {
    "expanded",
    "generated",
    "duplicates",
    "reopened",
    "max_frontier",
    "stored",
    "iterations",
    "elapsed_s",
    "improve_s",
    "compile_s",
    "peak_rss_bytes",
    "limit_reason",
    "answered_by",
    "members",
    "expansions_per_s",
    "generated_per_s",
}


def cli(*args: str):
    app = typer.Typer()
    app.command()(bench)
    return CliRunner().invoke(app, list(args))


# -- suite parsing ---------------------------------------------------------------------------


def test_suite_loads_with_defaults_and_select(tmp_path):
    suite = load_suite(write_suite(tmp_path, GOOD))
    assert suite.name == "suite" and suite.domain == "benchgrid"
    assert [c.name for c in suite.configs] == ["plain", "astar-manhattan", "greedy"]
    assert [i.name for i in suite.instances] == ["g3", "g5", "g6"]
    picked = load_suite(write_suite(tmp_path, GOOD), select="3,1")
    assert [i.name for i in picked.instances] == ["g6", "g3"] and picked.indices == [3, 1]
    assert load_suite(write_suite(tmp_path, GOOD), timeout_s=2.5).limits.timeout_s == 2.5


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda s: s.replace('name = "greedy"', 'name = "greedy"\nheurstic = "x"'), ["[[configs]] #3", "'heurstic'"]),
        (lambda s: "colour = 1\n" + s, ["unknown key 'colour'"]),
        (lambda s: s.replace("timeout_s = 20", 'timeout_s = "abc"'), ["[limits] timeout_s", "'abc'"]),
        (lambda s: s.replace("timeout_s = 20", "timeout_s = -1"), ["[limits] timeout_s"]),
        (lambda s: s.replace("timeout_s = 20", "wall = 3"), ["[limits]", "'wall'"]),
        (lambda s: s.replace("n = 5, expected", 'n = "five", expected'), ["[[instances.list]] #2 n", "'five'"]),
        (lambda s: s.replace("n = 5, expected", "m = 5, expected"), ["[[instances.list]] #2", "'m'"]),
        (lambda s: s.replace('engine = "greedy"', 'engine = "gredy"'), ["[[configs]] #3 (greedy)", "'gredy'"]),
        (lambda s: s.replace('engine = "greedy"', 'engine = "baseline:nope"'), ["[[configs]] #3", "baseline:nope"]),
        (
            lambda s: s.replace(
                'heuristic = "manhattan"\n[[configs]]\nname = "greedy"',
                'heuristic = "manhatan"\n[[configs]]\nname = "greedy"',
            ),
            ["[[configs]] #2", "'manhatan'"],
        ),
        (
            lambda s: s.replace('name = "plain"\n', 'name = "plain"\nparams = { weight = 2 }\n'),
            ["[[configs]] #1", "weight"],
        ),
        (lambda s: s.replace('domain = "benchgrid"', 'domain = "nosuch"'), ["domain", "'nosuch'"]),
        (lambda s: s.replace("[instances]", "[instances]\nseeds = [1]"), ["exactly one of", "seeds, list"]),
        (lambda s: s.replace("[instances]", '[instances]\nselect = "2-9"'), ["[instances] select", "2-9"]),
        (lambda s: s.replace("[instances]\nlist", "[instances]\nlst"), ["[instances]", "'lst'"]),
        (lambda s: s.split("[[configs]]")[0], ["missing [[configs]]"]),
        (lambda s: s + '[[configs]]\nengine = "astar"\nheuristic = "manhattan"\n', ["'astar-manhattan' comes earlier"]),
        (lambda s: s + "this is not toml", ["not valid TOML"]),
    ],
)
def test_suite_errors_name_the_key(tmp_path, edit, words):
    path = write_suite(tmp_path, edit(GOOD))
    with pytest.raises(InputError) as info:
        load_suite(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path)) or message.startswith("suite file")
    for word in words:
        assert word in message, message


def test_suite_instance_file_missing_and_present(tmp_path):
    base = GOOD.split("[instances]")[0] + '[instances]\nfile = "grids.txt"\n[[configs]]\nengine = "astar"\n'
    path = write_suite(tmp_path, base)
    with pytest.raises(InputError, match=r"\[instances\] file: instance file .*grids.txt not found"):
        load_suite(path)
    (tmp_path / "grids.txt").write_text("a 3 4\nb 4 6\n")
    suite = load_suite(path)
    assert [(i.name, i.options, i.expected_cost) for i in suite.instances] == [("a", {"n": 3}, 4), ("b", {"n": 4}, 6)]
    with pytest.raises(InputError, match="suite file .* not found"):
        load_suite(tmp_path / "absent.toml")


def test_another_instance_file_replaces_the_suites_instances_and_its_select(tmp_path, monkeypatch):
    path = write_suite(tmp_path, GOOD.replace("[instances]", '[instances]\nselect = "2"'))
    assert [i.name for i in load_suite(path).instances] == ["g5"]
    work = tmp_path / "work"
    work.mkdir()
    (work / "mine.txt").write_text("a 3 4\nb 4 6\nc 2 2\n")
    monkeypatch.chdir(work)  # the file is found from where the command runs, not beside the suite
    suite = load_suite(path, instances="mine.txt")
    assert [(i.name, i.options) for i in suite.instances] == [("a", {"n": 3}), ("b", {"n": 4}), ("c", {"n": 2})]
    assert suite.name == "suite on mine" and [c.name for c in suite.configs] == ["plain", "astar-manhattan", "greedy"]
    assert [i.name for i in load_suite(path, instances="mine.txt", select="3,1").instances] == ["c", "a"]
    with pytest.raises(InputError, match=r"^--instances: instance file .*absent.txt not found$"):
        load_suite(path, instances="absent.txt")
    (work / "twice.txt").write_text("a 3 4\na 4 6\n")
    with pytest.raises(InputError, match="^--instances: two instances are called 'a'$"):
        load_suite(path, instances="twice.txt")
    result = cli(str(path), "--instances", "absent.txt")
    assert result.exit_code == 2 and result.output.count("\n") == 1 and result.output.startswith("Error: --instances")
    out = tmp_path / "r.jsonl"  # results of one collection are not resumed as another's
    assert [
        r["suite"] for r in run_suite(load_suite(path, instances="mine.txt", select="1"), jobs=1, output=out).records
    ] == ["suite on mine"] * 3
    (work / "other.txt").write_text("a 3 4\n")
    with pytest.raises(InputError, match="belongs to suite 'suite on mine', not 'suite on other'"):
        run_suite(load_suite(path, instances="other.txt"), jobs=1, output=out, resume=True)


def test_suite_seeds_paths_and_option_layers(tmp_path):
    body = """
domain = "benchgrid"
[options]
n = 3
note = "notes/x.txt"
[instances]
seeds = [4, 7]
[[configs]]
engine = "bfs"
options = { crash = "" }
"""
    suite = load_suite(write_suite(tmp_path, body))
    assert [i.name for i in suite.instances] == ["seed-4", "seed-7"]
    assert suite.options["note"] == tmp_path / "notes/x.txt"
    opts = suite.options_for(suite.configs[0], suite.instances[1])
    assert opts == {"n": 3, "note": tmp_path / "notes/x.txt", "seed": 7, "crash": ""}


def test_parse_select():
    assert parse_select("1-3,7,2", 9, "x") == [1, 2, 3, 7]
    for bad in ("0", "3-1", "1-10", "a", "", "1,,2"):
        with pytest.raises(InputError):
            parse_select(bad, 9, "x")


# -- running ----------------------------------------------------------------------------------


def test_run_writes_complete_records(tmp_path):
    out = tmp_path / "res" / "r.jsonl"
    suite = load_suite(write_suite(tmp_path, GOOD))
    outcome = run_suite(suite, jobs=2, output=out)
    assert outcome.ran == 9 and not outcome.interrupted
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 9 and {(r["config"], r["instance"]) for r in lines} == {
        (c, i) for c in ("plain", "astar-manhattan", "greedy") for i in ("g3", "g5", "g6")
    }
    for r in lines:
        assert RECORD_KEYS <= set(r) and STATS_KEYS == set(r["stats"]), r
        assert r["status"] == "solved" and r["error"] is None
        assert r["cost"] == r["expected_cost"] == len(r["moves"])
        assert r["status"] == "solved"  # the domain's extra "status" does not override
        assert r["stats"]["expanded"] > 0 and r["stats"]["peak_rss_bytes"] > 0
    by = {(r["config"], r["instance"]): r for r in lines}
    assert by["plain", "g5"]["engine"] == "baseline:plain-astar" and by["plain", "g5"]["guarantee"] == "optimal"
    assert by["astar-manhattan", "g6"]["cost_ok"] is True and by["astar-manhattan", "g6"]["index"] == 3
    assert by["greedy", "g6"]["cost_ok"] is None and by["greedy", "g6"]["guarantee"] == "suboptimal"


def test_resume_skips_done_pairs_and_mends_a_torn_line(tmp_path):
    out = tmp_path / "r.jsonl"
    path = write_suite(tmp_path, GOOD)
    first = run_suite(load_suite(path, select="1"), jobs=2, output=out)
    assert first.ran == 3
    with open(out, "a") as f:
        f.write('{"suite": "suite", "config": "pla')  # a run killed mid-write
    again = run_suite(load_suite(path), jobs=2, output=out, resume=True)
    assert again.ran == 6 and again.skipped == 3 and len(again.records) == 9
    records = read_records(out, "suite")
    assert len(records) == 9 and len({(r["config"], r["instance"]) for r in records}) == 9
    done = run_suite(load_suite(path), jobs=2, output=out, resume=True)
    assert done.ran == 0 and done.skipped == 9 and len(done.records) == 9
    with pytest.raises(InputError, match="belongs to suite 'suite', not 'other'"):
        read_records(out, "other")
    with pytest.raises(InputError, match="--resume needs --output"):
        run_suite(load_suite(path), resume=True)


CRASHY = """
domain = "benchgrid"
[instances]
list = [
  { name = "ok1", n = 4, expected_cost = 6 },
  { name = "exit", n = 4, crash = "exit" },
  { name = "raise", n = 4, crash = "raise" },
  { name = "sleep", n = 4, crash = "sleep" },
  { name = "bad-n", n = 0 },
  { name = "ok2", n = 5, expected_cost = 8 },
]
[limits]
timeout_s = 0.3
[[configs]]
engine = "astar"
heuristic = "manhattan"
"""


def test_crashing_and_hanging_workers_are_reported_and_the_run_goes_on(tmp_path):
    out = tmp_path / "r.jsonl"
    started = time.monotonic()
    outcome = run_suite(load_suite(write_suite(tmp_path, CRASHY)), jobs=2, output=out, grace_s=0.3)
    assert time.monotonic() - started < 10
    by = {r["instance"]: r for r in read_records(out, "suite")}
    assert outcome.ran == 6 and set(by) == {"ok1", "exit", "raise", "sleep", "bad-n", "ok2"}
    assert by["ok1"]["status"] == by["ok2"]["status"] == "solved"
    assert by["exit"]["status"] == "error" and "code 3" in by["exit"]["error"]
    assert by["raise"]["status"] == "error" and "RuntimeError: boom" in by["raise"]["error"]
    assert by["bad-n"]["status"] == "error" and "n must be positive" in by["bad-n"]["error"]
    assert by["sleep"]["status"] == "limit" and by["sleep"]["stats"]["limit_reason"] == "killed"
    assert 0.3 <= by["sleep"]["stats"]["elapsed_s"] < 5


def test_memory_hog_is_stopped_at_the_ceiling(tmp_path):
    body = CRASHY.replace("timeout_s = 0.3", "timeout_s = 20\nmax_rss_mb = 150")
    outcome = run_suite(load_suite(write_suite(tmp_path, body), select="6,1"), jobs=1)
    assert [r["status"] for r in outcome.records] == ["solved", "solved"]
    hog = body.replace('{ name = "ok1", n = 4, expected_cost = 6 }', '{ name = "hog", n = 4, crash = "memory" }')
    outcome = run_suite(load_suite(write_suite(tmp_path, hog), select="1"), jobs=1)
    (record,) = outcome.records
    assert record["status"] == "limit" and record["stats"]["limit_reason"] == "memory", record
    assert "killed at" in record["error"]  # the parent's RSS poll


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS backstop is set up on Linux")
def test_one_huge_allocation_meets_the_address_space_ceiling(tmp_path):
    body = CRASHY.replace("timeout_s = 0.3", "timeout_s = 20\nmax_rss_mb = 150").replace(
        '{ name = "ok1", n = 4, expected_cost = 6 }', '{ name = "huge", n = 4, crash = "huge" }'
    )
    (record,) = run_suite(load_suite(write_suite(tmp_path, body), select="1"), jobs=1).records
    assert record["status"] == "limit" and record["stats"]["limit_reason"] == "memory", record
    assert "address-space" in record["error"] and record["guarantee"] is None  # no answer, no promise


def test_interrupt_keeps_finished_results_and_kills_workers(tmp_path):
    out = tmp_path / "r.jsonl"

    class StopAfterFirst:
        def start(self, total, already_done):
            pass

        def finished(self, record):
            raise KeyboardInterrupt

        def tick(self):
            pass

    suite = load_suite(write_suite(tmp_path, CRASHY), select="1,4")
    outcome = run_suite(suite, jobs=2, output=out, listener=StopAfterFirst(), grace_s=30)
    assert outcome.interrupted and outcome.ran == 1
    assert [r["instance"] for r in read_records(out, "suite")] == ["ok1"]
    import multiprocessing

    assert multiprocessing.active_children() == []


# -- the command ---------------------------------------------------------------------------------


def test_command_wrong_expected_cost_exits_1(tmp_path):
    wrong = GOOD.replace('name = "g5", n = 5, expected_cost = 8', 'name = "g5", n = 5, expected_cost = 7')
    result = cli(str(write_suite(tmp_path, wrong)), "--jobs", "2", "--json")
    assert result.exit_code == 1, result.output
    doc = json.loads(result.stdout)
    flagged = {(r["config"], r["instance"]) for r in doc["records"] if r["cost_ok"] is False}
    assert flagged == {("plain", "g5"), ("astar-manhattan", "g5")}  # greedy claims nothing
    assert doc["ok"] is False and len(doc["records"]) == 9
    assert {s["config"]: s["wrong_cost"] for s in doc["summary"]} == {"plain": 1, "astar-manhattan": 1, "greedy": 0}
    text = cli(str(write_suite(tmp_path, wrong)), "--jobs", "2", "--select", "2")
    assert text.exit_code == 1 and "WRONG COST: plain on g5: cost 8, expected 7" in text.stderr


def test_command_inadmissible_heuristic_is_not_judged(tmp_path):
    body = one_config('name = "triple"\nengine = "astar"\nheuristic = "triple"')
    result = cli(str(write_suite(tmp_path, body.replace("expected_cost = 4", "expected_cost = 3"))), "--json")
    (record, *_) = json.loads(result.stdout)["records"]
    assert record["guarantee"] == "suboptimal (inadmissible heuristic)" and record["cost_ok"] is None
    assert result.exit_code == 0


def test_command_text_summary_and_speed_ratio(tmp_path):
    out = tmp_path / "r.jsonl"
    result = cli(str(write_suite(tmp_path, GOOD)), "-o", str(out), "-j", "2")
    assert result.exit_code == 0, result.output
    assert "plain's search time" in result.stdout and "astar-manhattan" in result.stdout
    assert len(out.read_text().splitlines()) == 9
    again = cli(str(write_suite(tmp_path, GOOD)), "-o", str(out), "--resume", "--json")
    doc = json.loads(again.stdout)
    assert again.exit_code == 0 and doc["ran"] == 0 and doc["resumed"] == 9
    plain = next(s for s in doc["summary"] if s["config"] == "plain")
    assert plain["speedup"] == 1.0 and plain["solved"] == 3 and plain["total_cost"] == 22
    assert all(s["reference"] == "plain" for s in doc["summary"])


def test_a_portfolio_configuration_sums_up_its_members(tmp_path):
    """The summary of a portfolio's runs: per member, the answers it gave and its seconds of turns."""
    body = one_config(
        'name = "duo"\nengine = "portfolio"\nheuristic = "manhattan"\nparams = { members = "greedy,astar", solo = 0 }'
    )
    result = cli(str(write_suite(tmp_path, body)), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    (row,) = doc["summary"]
    assert set(row["members"]) <= {"greedy", "astar"}
    assert sum(m["answered"] for m in row["members"].values()) == row["solved"] == 3
    turns = sum(m["seconds"] for r in doc["records"] for m in r["stats"]["members"])
    assert sum(m["seconds"] for m in row["members"].values()) == pytest.approx(turns, abs=0.01)
    text = cli(str(write_suite(tmp_path, body)))
    assert "duo members: " in text.stdout and " answered in " in text.stdout


def test_command_bad_suite_exits_2_with_one_line(tmp_path):
    result = cli(str(write_suite(tmp_path, GOOD.replace("timeout_s", "timeuot_s"))))
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    assert "'timeuot_s'" in result.stderr
    assert cli(str(tmp_path / "nope.toml")).exit_code == 2
    assert cli(str(write_suite(tmp_path, GOOD)), "--timeout", "0").exit_code == 2


def test_command_errors_exit_1(tmp_path):
    result = cli(str(write_suite(tmp_path, CRASHY)), "--select", "3", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["records"][0]["error"] == "RuntimeError: boom"


# -- the baseline engine ------------------------------------------------------------------------


def random_graph(rng: random.Random, n: int, p: float, with_h: bool) -> GraphProblem:
    """A random weighted digraph from 0 to n-1; with_h adds an admissible (halved exact) h."""
    edges = {u: [(v, rng.randint(1, 9)) for v in range(n) if v != u and rng.random() < p] for u in range(n)}
    if not with_h:
        return GraphProblem(edges, 0, [n - 1])
    reverse = {v: [] for v in range(n)}
    for u, vs in edges.items():
        for v, c in vs:
            reverse[v].append((u, c))
    dist = {n - 1: 0}
    heap = [(0, n - 1)]
    while heap:
        d, v = heapq.heappop(heap)
        if d > dist[v]:
            continue
        for u, c in reverse[v]:
            if d + c < dist.get(u, float("inf")):
                dist[u] = d + c
                heapq.heappush(heap, (d + c, u))
    return GraphProblem(edges, 0, [n - 1], h={u: d / 2 for u, d in dist.items()})


@pytest.mark.parametrize("baseline", [plain_astar, textbook_astar])
@pytest.mark.parametrize("seed", range(40))
def test_baselines_are_optimal_on_random_graphs(seed, baseline):
    rng = random.Random(seed)
    problem = random_graph(rng, rng.randint(2, 12), rng.choice([0.15, 0.3, 0.6]), with_h=seed % 2 == 0)
    expected = dijkstra(problem)
    got = baseline(problem)
    assert got.status == expected.status
    if got.solved:
        assert got.cost == expected.cost
        assert replay(problem, got) == got.cost
        assert got.states[0] == 0 and problem.is_goal(got.states[-1])
    assert got.stats.stored >= 1 and got.stats.elapsed_s >= 0


@pytest.mark.parametrize("baseline", [plain_astar, textbook_astar])
def test_baselines_count_like_astar_on_a_grid(baseline):
    from searchkit import astar

    problem = GridProblem(7, "", 1)
    a, b = baseline(problem), astar(problem)
    assert a.cost == b.cost == 12
    assert a.stats.expanded == b.stats.expanded and a.stats.generated == b.stats.generated


# -- executors and the subprocess way to start a worker ------------------------------------------


def test_subprocess_worker_runs_a_task_and_is_killed_at_the_hard_deadline(tmp_path):
    """`run_one` (what a Dask worker calls) starts a fresh interpreter: installed domains only."""
    from searchkit.bench.runner import plan
    from searchkit.bench.watch import Watch, run_one

    body = """
domain = "npuzzle"
[instances]
list = [
  { name = "easy", size = "3", board = "6 1 2 7 8 5 4 3 0", expected_cost = 22 },
  { name = "korf1", size = "4", goal = "blank-first", board = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3" },
  { name = "broken", size = "3", board = "1 2 3 4 5 6 8 7 0" },
]
[[configs]]
engine = "idastar"
heuristic = "manhattan"
"""
    easy, korf1, broken = plan(load_suite(write_suite(tmp_path, body)))
    record = run_one(easy, Watch(None, 30))
    assert record["status"] == "solved" and record["cost"] == 22 and record["cost_ok"] is True
    started = time.monotonic()
    record = run_one(korf1, Watch(None, 0.5))
    assert record["status"] == "limit" and record["stats"]["limit_reason"] == "killed", record
    assert time.monotonic() - started < 10
    record = run_one(broken, Watch(None, 30))
    assert record["status"] == "error" and "unsolvable" in record["error"]


def test_executor_interface_is_what_the_runner_uses(tmp_path):
    """Any object with run/shutdown can carry a suite: here one that runs tasks in order."""
    from searchkit.bench.watch import run_one

    class Serial:
        name = "serial"
        shut = False

        def run(self, tasks, watch, tick=None):
            for task in tasks:
                yield {**run_one(task, watch, start="fork"), "ran_by": self.name}

        def shutdown(self):
            self.shut = True

    executor = Serial()
    outcome = run_suite(
        load_suite(write_suite(tmp_path, GOOD), select="1"), executor=executor, output=tmp_path / "r.jsonl"
    )
    assert executor.shut and outcome.ran == 3
    assert {r["ran_by"] for r in read_records(tmp_path / "r.jsonl", "suite")} == {"serial"}
    assert all(r["status"] == "solved" for r in outcome.records)
