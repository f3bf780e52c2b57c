"""Labels that tell the truth (issue 75): no guarantee without an answer, the defaults as they
run, stops by stored states called so, domain engines refused by `solve` as by the CLI, a
plugin whose predecessors disagree with its successors named as such, and the search's time
apart from the optimizer's, with word of a compilation as it starts."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import replace
from multiprocessing import Pipe
from pathlib import Path

import pytest
from registry import plugin_registered
from typer.testing import CliRunner

from searchkit import Domain, EngineInfo, Heuristic, InputError, Limits, Param, astar, hookimpl
from searchkit.cli import build_app
from searchkit.compiled import compile_notices, numba_available
from searchkit.errors import PluginError
from searchkit.plugins import engines
from searchkit.solving import execute, make_problem, prepare, solve

BOARD = "8 6 7 2 5 4 3 0 1"  # 31 moves
EASY = "1 2 3 4 0 6 7 5 8"  # 2 moves
TESTS = Path(__file__).resolve().parent


def cli(*args: str):
    return CliRunner().invoke(build_app(), list(args))


# -- a tiny domain: a line 0 -> 1 -> ... -> n, for the tests' own plugins -----------------------------
class Line:
    """States ``0..n``, the goal ``n``; ``lying`` predecessors name states no successor leads from."""

    def __init__(self, n: int = 4, lying: bool = False):
        self.n, self.lying = n, lying

    def initial_state(self) -> int:
        return 0

    def is_goal(self, state: int) -> bool:
        return state == self.n

    def successors(self, state: int):
        return [("+1", state + 1, 1)] if state < self.n else []

    def heuristic(self, state: int) -> float:
        return self.n - state

    def goal_states(self):
        return [self.n]

    def predecessors(self, state: int):
        if self.lying:
            return [("+1", state + 10, 1)]
        return [("+1", state - 1, 1)] if state > 0 else []


class LineDomain(Domain):
    name = "testline"
    params = [Param("n", int, 4), Param("lying", bool, False), Param("polish", float, 0.0)]

    def builtin_heuristics(self):
        return {"left": Heuristic("left")}

    def make_problem(self, options, heuristic):
        return Line(options["n"], options["lying"])

    def improve(self, problem, result, options, seconds_left, stop=None):
        """An optimizer that takes ``polish`` seconds and, as Sokoban's did, adds them to the
        search's time."""
        if not options["polish"]:
            return result
        time.sleep(options["polish"])
        stats = replace(result.stats, elapsed_s=result.stats.elapsed_s + options["polish"])
        return replace(result, stats=stats)


def compiling_engine(problem, *, limits=None, observer=None):
    """A* after compiling a fresh numba function (so a compilation starts on every run)."""
    import numba

    numba.njit(lambda x: x + 1)(1)
    return astar(problem, limits=limits, observer=observer)


class _Plugin:
    @hookimpl
    def register_domains(self, register):
        register(LineDomain())

    @hookimpl
    def register_engines(self, register):
        register(
            EngineInfo("test-jit", compiling_engine, "A* that compiles first", "required", "cost", warm_up=lambda: None)
        )


@pytest.fixture(autouse=True, scope="module")
def line_domain():
    """The test plugin registered, and ``searchkit solve testline`` added to the app (whose
    installed domains' commands are made first, once a process) for this module only."""
    with plugin_registered(_Plugin(), "test-issue-labels"):
        yield


def main(*args: str) -> subprocess.CompletedProcess[str]:
    """The real entry point (`searchkit.cli.main`) in a fresh process with the test plugin."""
    script = (
        f"import sys; sys.path.insert(0, {str(TESTS)!r}); import test_issue_labels as t; "
        "from searchkit.plugins import get_plugin_manager; get_plugin_manager().register(t._Plugin(), name='t'); "
        f"from searchkit.cli import main; sys.argv = ['searchkit', *{list(args)!r}]; main()"
    )
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)


# -- 1. no answer, no guarantee ---------------------------------------------------------------------
def test_a_limit_without_an_answer_promises_nothing_in_the_library(counter):
    problem = make_problem("npuzzle", size="4", seed=1, heuristic="manhattan")
    stopped = solve(problem, "astar", limits=Limits(max_expanded=10))
    assert stopped.status == "limit" and stopped.guarantee is None
    assert solve(counter, "astar", limits=Limits(max_expanded=50)).guarantee is None
    job = prepare("npuzzle", {"size": "4", "seed": 1}, "astar", "manhattan")
    assert job.guarantee_of(execute(job, Limits(max_expanded=10))) is None
    answered = solve(make_problem("npuzzle", board=EASY, heuristic="manhattan"), "astar")
    assert answered.status == "solved" and answered.guarantee == "optimal"  # answers keep their label


def test_a_limit_without_an_answer_promises_nothing_on_the_command_line():
    # the Python A* (the compiled one's header adds "(compiled)": tests/test_kernels.py)
    off = ["-P", "compiled=off"]
    args = ["solve", "npuzzle", "--size", "4", "--seed", "1", "--engine", "astar", "--heuristic", "manhattan", *off]
    r = cli(*args, "--max-nodes", "10", "--json")
    assert r.exit_code == 3 and json.loads(r.stdout)["guarantee"] is None
    r = cli(*args, "--max-nodes", "10")
    header = next(line for line in r.stdout.splitlines() if line.startswith("engine "))
    assert header == "engine astar · heuristic manhattan · compiled off"
    r = cli("solve", "npuzzle", "--board", EASY, "--engine", "astar", "--heuristic", "manhattan", *off)
    assert r.exit_code == 0 and "engine astar · heuristic manhattan · compiled off · optimal" in r.stdout


def test_a_limit_without_an_answer_promises_nothing_in_the_web_app():
    from searchkit.serve.searches import Spec, search_worker

    ends = []
    for board, cap in ((BOARD, 10), (EASY, 1000)):
        mine, theirs = Pipe()
        spec = Spec("npuzzle", {"board": board}, "astar", "manhattan", cap, 1)
        search_worker(spec, theirs)  # a few small messages: the pipe holds them
        theirs.close()
        try:
            while True:
                message = mine.recv()
                if "end" in message:
                    ends.append(message["end"])
        except EOFError:  # the worker closed its end
            pass
    assert [(e["status"], e["guarantee"]) for e in ends] == [("limit", None), ("solved", "optimal")]
    watch = (Path(__file__).parents[1] / "searchkit" / "serve" / "static" / "watch.js").read_text()
    assert '${end.guarantee ? ` · ${end.guarantee}` : ""}' in watch  # the pane shows none when there is none


# -- 3. the defaults' labels -----------------------------------------------------------------------------
def test_an_escalating_weight_is_labelled_from_its_start_to_its_ceiling():
    wida = engines()["npuzzle-wida"]
    assert wida.guarantee({"weight": 1.5, "max_weight": 2.5}).startswith("suboptimal (weight 1.5, raised up to 2.5")


def test_a_parameter_acting_only_under_a_limit_is_shown_only_under_one():
    wida = engines()["npuzzle-wida"]
    params = {"weight": 1.5, "improve": True}
    assert wida.in_effect(params, None) == wida.in_effect(params, Limits(max_stored=5)) == {"weight": 1.5}
    assert wida.in_effect(params, Limits(timeout_s=5)) == wida.in_effect(params, Limits(max_expanded=5)) == params
    args = ["solve", "npuzzle", "--board", BOARD, "--engine", "npuzzle-wida", "-P", "improve=true"]
    assert "improve" not in next(line for line in cli(*args).stdout.splitlines() if line.startswith("engine "))
    limited = cli(*args, "--max-nodes", "100000").stdout
    assert "improve True" in next(line for line in limited.splitlines() if line.startswith("engine "))
    listing = cli("domains").stdout
    if "npuzzle-wida" in listing:  # the 5x5 default where the compiled kernel runs
        assert "improve True with --timeout or --max-nodes" in listing and "suboptimal (weight 2.5)" not in listing


def test_a_stop_by_stored_states_says_states(counter):
    assert solve(counter, "bfs", limits=Limits(max_stored=20)).stats.limit_reason == "states"
    assert solve(counter, "bfs", limits=Limits(max_rss_mb=1)).stats.limit_reason == "memory"
    r = cli("solve", "npuzzle", "--board", BOARD, "--engine", "bfs", "--max-states", "5")
    assert r.exit_code == 3 and "limit reached (states)" in r.stdout


# -- 5. solve() refuses another domain's engine as the CLI does ----------------------------------------
@pytest.mark.parametrize("engine", ["npuzzle-idastar", "npuzzle-wida", "sokoban-portfolio", "sokoban-compiled"])
def test_solve_refuses_an_engine_of_another_domain_as_the_cli_does(engine):
    domain = engines()[engine].domains[0]
    with pytest.raises(InputError) as caught:
        solve(make_problem("testline"), engine)
    r = cli("solve", "testline", "--engine", engine)
    assert isinstance(r.exception, InputError) and str(caught.value) == str(r.exception)
    assert str(caught.value) == f"engine {engine!r} works on {domain} only, not on testline"
    with pytest.raises(InputError, match=f"works on {domain} only, not on this problem"):
        solve(Line(), engine)


def test_solve_runs_a_domain_engine_on_its_own_domain():
    from searchkit_npuzzle.board import make_goal, parse_tiles
    from searchkit_npuzzle.problem import NPuzzleProblem

    assert solve(make_problem("npuzzle", board=BOARD, heuristic="manhattan"), "npuzzle-idastar").cost == 31
    built = NPuzzleProblem(3, 3, parse_tiles(BOARD), make_goal(None, 3, 3), "manhattan")  # not by make_problem
    assert solve(built, "npuzzle-idastar").cost == 31


def test_solve_refuses_the_tutorial_engine_on_the_n_puzzle(gridpath):
    with pytest.raises(InputError, match="engine 'jps' works on gridpath only, not on npuzzle"):
        solve(make_problem("npuzzle", board=BOARD), "jps")


# -- 6. predecessors that disagree with successors ---------------------------------------------------------
def test_lying_predecessors_are_named_in_the_library():
    with pytest.raises(PluginError) as caught:
        solve(Line(lying=True), "astar")
    message = str(caught.value)
    assert "predecessors disagree with its successors at state 4" in message and "searchkit check" in message
    assert solve(Line(), "astar").cost == 4


def test_lying_predecessors_are_one_error_line_exit_1_on_the_command_line():
    p = main("solve", "testline", "--lying", "--engine", "astar")
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 1 and len(lines) == 1, p.stderr
    assert lines[0].startswith("Error: domain 'testline': the problem's predecessors disagree with its successors")
    assert "`searchkit check testline`" in lines[0] and "internal failure" not in lines[0]
    assert main("solve", "testline", "--engine", "astar").returncode == 0


# -- 12. the search's time apart from the optimizer's; word of a compilation -----------------------------
def test_the_optimizers_time_is_counted_apart_from_the_search():
    job = prepare("testline", {"polish": 0.3}, "astar", "left")
    result = execute(job, None)
    assert result.stats.improve_s >= 0.3 > result.stats.elapsed_s
    assert result.stats.expansions_per_s == result.stats.expanded / result.stats.elapsed_s
    r = cli("solve", "testline", "--polish", "0.3", "--json")
    stats = json.loads(r.stdout)["stats"]
    assert stats["improve_s"] >= 0.3 > stats["elapsed_s"]
    text = cli("solve", "testline", "--polish", "0.3").stdout
    assert " s search · " in text and "improving the answer" in text


def test_sokoban_reports_its_optimizer_apart():
    r = cli("solve", "sokoban", "microban:1", "--improve-time", "0.2", "--json")
    d = json.loads(r.stdout)
    assert d["status"] == "solved" and d["stats"]["improve_s"] >= d["improve_s"] - 0.001 > 0  # improve_s: rounded


@pytest.mark.skipif(not numba_available(), reason="needs numba")
def test_a_compilation_is_announced_once_as_it_starts():
    import numba

    told: list[str] = []
    with compile_notices(told.append) as compiles:
        numba.njit(lambda x: x + 1)(1)
        numba.njit(lambda x: x + 2)(1)
    numba.njit(lambda x: x + 3)(1)  # after: nobody listens
    assert len(told) == 1 and compiles.seconds > 0
    r = cli("solve", "testline", "--engine", "test-jit", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["status"] == "solved"  # stdout: the JSON alone
    stats = json.loads(r.stdout)["stats"]
    assert 0 < stats["compile_s"] <= stats["elapsed_s"]  # the compilation, counted apart from the rates
    lines = [line for line in r.stderr.splitlines() if "compiling" in line]
    assert len(lines) == 1 and lines[0].startswith("test-jit: compiling its numba code"), r.stderr
    assert "compiling" not in cli("solve", "testline", "--engine", "astar").stderr
