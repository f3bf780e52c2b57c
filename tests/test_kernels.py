"""The compiled engines (`searchkit.kernels`) against the Python ones and against oracles.

Every test domain here is written twice (`compiled_domains`): a Python problem and compiled
rules listing moves in the order of its successors, so the compiled and the Python engines
must agree on everything they count, not only on the cost.  Every answer is replayed on the
Python problem.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from compiled_domains import (
    Grid,
    Puzzle,
    grid_distances,
    manhattan_table,
    random_board,
    random_grid,
    random_walk,
    solve_exhaustively,
)
from fuzzing import assert_clean, run_cli
from registry import plugin_registered
from typer.testing import CliRunner

from searchkit import Domain, Heuristic, InputError, Limits, Observer, Param, astar, bfs, greedy, hookimpl, idastar
from searchkit.cli import build_app
from searchkit.kernels import CompiledRules, generate, table
from searchkit.kernels.search import compiled_astar, compiled_idastar, warm_up
from searchkit.verify import replay

pytest.importorskip("numba")

TESTS = Path(__file__).parent
ENGINES = {"astar": astar, "idastar": idastar, "greedy": greedy, "bfs": bfs}
COUNTS = ("expanded", "generated", "duplicates", "reopened", "max_frontier", "stored", "iterations")


def both(engine: str, problem, **params):
    """The compiled and the Python run of ``engine`` on ``problem``, both replayed."""
    run = ENGINES[engine]
    fast = run(problem, compiled="on", **params)
    slow = run(problem, compiled="off", **params)
    assert fast.compiled and not slow.compiled
    for result in (fast, slow):
        if result.solved:
            assert replay(problem, result) == result.cost
    return fast, slow


def assert_same(fast, slow) -> None:
    """The same answer and counts; IDA*'s deepest path (``stored``, ``max_frontier``) is read
    at the limit checks, which come at other expansions, so only the answer's depth bounds it."""
    assert (fast.status, fast.cost, fast.actions, fast.states) == (slow.status, slow.cost, slow.actions, slow.states)
    counts = [k for k in COUNTS if fast.engine != "idastar" or k not in ("stored", "max_frontier")]
    assert {k: getattr(fast.stats, k) for k in counts} == {k: getattr(slow.stats, k) for k in counts}
    if fast.engine == "idastar":
        assert fast.stats.stored >= len(fast.actions) + 1 and slow.stats.stored >= len(slow.actions) + 1
    assert fast.stats.limit_reason == slow.stats.limit_reason


# -- the same search as the Python engines -----------------------------------------------------


@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("rules", ["compiled_puzzle_rules", "compiled_puzzle_plain_rules"])
@pytest.mark.parametrize("seed", range(3))
def test_the_8_puzzle_runs_as_the_python_engine(engine, rules, seed):
    board = random_board(3, 3, random.Random(seed))
    fast, slow = both(engine, Puzzle(board, 3, 3, rules=rules))
    assert fast.solved
    assert_same(fast, slow)


@pytest.mark.parametrize("engine", ["astar", "idastar", "greedy"])
def test_the_15_puzzle_runs_as_the_python_engine(engine):
    board = random_walk(4, 4, 60, random.Random(7))
    fast, slow = both(engine, Puzzle(board, 4, 4))
    assert fast.solved
    assert_same(fast, slow)


@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("seed", range(6))
def test_a_cost_grid_runs_as_the_python_engine(engine, seed):
    """Costs 1-9 and an admissible but inconsistent heuristic (A* reopens states)."""
    rng = random.Random(seed)
    costs, start, goal = random_grid(14, 11, rng)
    hv = [v if c % 3 == 0 else 0 for c, v in enumerate(manhattan_table(14, 11, costs, goal))]
    fast, slow = both(engine, Grid(14, 11, costs, start, goal, hv))
    assert_same(fast, slow)


def test_astar_reopens_as_the_python_engine():
    """Reopenings happen on these grids: the comparison above covers them."""
    reopened = 0
    for seed in range(6):
        rng = random.Random(seed)
        costs, start, goal = random_grid(14, 11, rng)
        hv = [v if c % 3 == 0 else 0 for c, v in enumerate(manhattan_table(14, 11, costs, goal))]
        reopened += astar(Grid(14, 11, costs, start, goal, hv), compiled="on").stats.reopened
    assert reopened > 0


@pytest.mark.parametrize("weight", [2, 3])
def test_weighted_astar_runs_as_the_python_engine(weight):
    for seed in range(4):
        rng = random.Random(seed)
        costs, start, goal = random_grid(14, 11, rng)
        fast, slow = both(
            "astar", Grid(14, 11, costs, start, goal, manhattan_table(14, 11, costs, goal)), weight=weight
        )
        assert_same(fast, slow)


def test_a_weight_that_is_no_whole_number_keeps_its_bound():
    for seed in range(4):
        rng = random.Random(seed)
        costs, start, goal = random_grid(14, 11, rng)
        problem = Grid(14, 11, costs, start, goal, manhattan_table(14, 11, costs, goal))
        fast, slow = both("astar", problem, weight=1.5)
        best = grid_distances(14, 11, costs, goal)[start]
        assert fast.status == slow.status
        if fast.solved:
            assert fast.cost <= 1.5 * best


# -- optimal against oracles ---------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["astar", "idastar"])
@pytest.mark.parametrize("seed", range(8))
def test_optimal_costs_on_grids_against_dijkstra(engine, seed):
    rng = random.Random(100 + seed)
    costs, start, goal = random_grid(16, 12, rng, walls=0.3)
    best = grid_distances(16, 12, costs, goal)[start]
    result = ENGINES[engine](Grid(16, 12, costs, start, goal, manhattan_table(16, 12, costs, goal)), compiled="on")
    if best == float("inf"):
        assert result.status == "no-solution"
    else:
        assert result.solved and result.cost == best


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (2, 4), (4, 2)])
@pytest.mark.parametrize("engine", list(ENGINES))
def test_fewest_moves_on_small_puzzles_against_exhaustive_search(shape, engine):
    width, height = shape
    rng = random.Random(width * 10 + height)
    for _ in range(3):
        problem = Puzzle(random_board(width, height, rng), width, height)
        moves = solve_exhaustively(problem)[problem.goal]
        result = ENGINES[engine](problem, compiled="on")
        assert result.solved and replay(problem, result) == result.cost
        if engine != "greedy":
            assert result.cost == moves


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["astar", "idastar", "bfs"])
def test_fewest_moves_on_8_puzzles_against_exhaustive_search(engine):
    rng = random.Random(5)
    for _ in range(10):
        problem = Puzzle(random_board(3, 3, rng), 3, 3)
        result = ENGINES[engine](problem, compiled="on")
        assert result.cost == solve_exhaustively(problem)[problem.goal]


@pytest.mark.slow
def test_15_puzzles_from_long_walks_run_as_the_python_astar():
    rng = random.Random(11)
    for _ in range(4):
        fast, slow = both("astar", Puzzle(random_walk(4, 4, 80, rng), 4, 4))
        assert_same(fast, slow)


def test_a_goal_walled_off_is_no_solution():
    costs = [1] * 25
    for c in (7, 11, 13, 17):  # around cell 12
        costs[c] = 0
    problem = Grid(5, 5, costs, 0, 12, manhattan_table(5, 5, costs, 12))
    for engine in ENGINES:
        fast, slow = both(engine, problem)
        assert fast.status == slow.status == "no-solution"
        assert fast.stats.expanded == slow.stats.expanded


def test_dead_states_are_never_expanded():
    """A heuristic's dead cells (negative in the rules, infinite in Python) cut the search
    the same way while a goal is reachable."""
    rng = random.Random(3)
    costs, start, goal = random_grid(14, 11, rng, walls=0.1)
    dist = grid_distances(14, 11, costs, goal)
    hv = manhattan_table(14, 11, costs, goal)
    hv = [-1 if c % 7 == 0 and c not in (start, goal) else v for c, v in enumerate(hv)]
    problem = Grid(14, 11, costs, start, goal, hv)
    for engine in ("astar", "greedy", "idastar"):
        fast, slow = both(engine, problem)
        assert fast.status == slow.status and fast.cost == slow.cost
        if fast.solved and engine != "greedy":
            assert fast.cost >= dist[start]


def test_a_path_deeper_than_the_first_arrays():
    """A corridor of 200 cells: IDA*'s path arrays (64 deep at first) grow; the tables grow."""
    costs = [1] * 200
    problem = Grid(200, 1, costs, 0, 199, manhattan_table(200, 1, costs, 199))
    for engine in ENGINES:
        fast, slow = both(engine, problem)
        assert fast.cost == 199
        assert_same(fast, slow)


# -- limits -----------------------------------------------------------------------------------------

HARD = random_board(4, 4, random.Random(2))  # a 15-puzzle beyond 3 million A* states


@pytest.mark.parametrize("engine", list(ENGINES))
def test_a_node_limit_stops_at_the_same_expansion(engine):
    limits = dict(max_expanded=3000)
    fast = ENGINES[engine](Puzzle(HARD, 4, 4), compiled="on", limits=Limits(**limits))
    slow = ENGINES[engine](Puzzle(HARD, 4, 4), compiled="off", limits=Limits(**limits))
    assert fast.status == "limit" and fast.stats.limit_reason == "nodes"
    assert_same(fast, slow)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_a_time_limit_stops_with_statistics(engine):
    result = ENGINES[engine](Puzzle(HARD, 4, 4), compiled="on", limits=Limits(timeout_s=0))
    assert result.status == "limit" and result.stats.limit_reason == "time" and result.compiled
    assert result.stats.expanded > 0


@pytest.mark.parametrize("engine", ["astar", "bfs"])
def test_a_state_limit_stops_near_it(engine):
    result = ENGINES[engine](Puzzle(HARD, 4, 4), compiled="on", limits=Limits(max_stored=20_000))
    assert result.status == "limit" and result.stats.limit_reason == "states"
    assert 20_000 <= result.stats.stored <= 20_000 + 4


@pytest.mark.parametrize("engine", ["astar", "bfs"])
def test_a_table_that_cannot_grow_stops_with_a_limit(engine, monkeypatch):
    grows = []

    def no_room(self, n, rehash_fn):
        grows.append(n)
        raise MemoryError

    monkeypatch.setattr(table.Table, "grow", no_room)
    result = ENGINES[engine](Puzzle(HARD, 4, 4), compiled="on")
    assert grows and result.status == "limit" and result.stats.limit_reason == "memory"
    assert result.stats.stored == grows[0] and result.stats.expanded > 0


def test_a_memory_limit_stops_before_the_table_grows_past_it():
    from searchkit.limits import current_rss_bytes

    astar(Puzzle(HARD, 4, 4), compiled="on", limits=Limits(max_expanded=10))  # numba and the kernels loaded first
    ceiling = current_rss_bytes() / 2**20 + 40  # room for a table of a few MB, not for its doubling to 100s
    result = astar(Puzzle(HARD, 4, 4), compiled="on", limits=Limits(max_rss_mb=ceiling))
    assert result.status == "limit" and result.stats.limit_reason == "memory"
    assert result.stats.stored > 10_000


@pytest.mark.parametrize("engine", ["idastar", "astar"])
def test_an_interrupt_from_another_thread_stops_the_search(engine):
    limits = Limits(max_stored=5_000_000)
    heard = threading.Event()

    class Ears(Observer):
        progressed = 0

        def progress(self, expanded, generated, best_f):
            self.progressed += 1
            heard.set()

    def press_ctrl_c():
        heard.wait(60)
        limits.interrupt.set()

    presser = threading.Thread(target=press_ctrl_c)
    presser.start()
    ears = Ears()
    result = ENGINES[engine](Puzzle(HARD, 4, 4), compiled="on", limits=limits, observer=ears)
    presser.join()
    assert result.status == "limit" and result.stats.limit_reason == "interrupted"
    assert ears.progressed >= 1 and result.stats.expanded > 0


def test_progress_and_iterations_reach_the_observer():
    seen = {"progress": 0, "bounds": []}

    class Watch(Observer):
        def progress(self, expanded, generated, best_f):
            seen["progress"] += 1

        def iteration(self, bound):
            seen["bounds"].append(bound)

    problem = Puzzle(random_walk(4, 4, 60, random.Random(7)), 4, 4)
    result = idastar(problem, compiled="auto", observer=Watch())
    slow_bounds = []

    class Bounds(Observer):
        def iteration(self, bound):
            slow_bounds.append(bound)

    idastar(problem, compiled="off", observer=Bounds())
    assert result.compiled and seen["progress"] > 0 and seen["bounds"] == slow_bounds


# -- choosing ---------------------------------------------------------------------------------------


def test_auto_runs_compiled_and_off_runs_python():
    problem = Puzzle(random_board(3, 3, random.Random(0)), 3, 3)
    assert astar(problem).compiled
    assert not astar(problem, compiled="off").compiled


def test_an_observer_of_every_node_gets_the_python_engine_under_auto():
    class Nodes(Observer):
        def expand(self, state, g, h):
            pass

    problem = Puzzle(random_board(3, 3, random.Random(0)), 3, 3)
    assert not astar(problem, observer=Nodes()).compiled


def test_compiled_on_without_rules_is_one_line_error(counter):
    for engine in ENGINES.values():
        with pytest.raises(InputError, match="offers no compiled rules") as e:
            engine(counter, compiled="on")
        assert "\n" not in str(e.value)


def test_compiled_on_without_numba_is_one_line_error(monkeypatch):
    monkeypatch.setenv("SEARCHKIT_NO_NUMBA", "1")
    problem = Puzzle(random_board(3, 3, random.Random(0)), 3, 3)
    with pytest.raises(InputError, match="numba is not available") as e:
        astar(problem, compiled="on")
    assert "\n" not in str(e.value)
    assert not astar(problem).compiled  # auto: the Python engine


def test_a_bad_choice_is_refused():
    with pytest.raises(InputError, match="compiled must be one of"):
        bfs(Puzzle(random_board(3, 3, random.Random(0)), 3, 3), compiled="yes")


def _rules(problem, **changes):
    fields = dict(problem.compiled_rules().__dict__, **changes)
    return CompiledRules(**fields)


@pytest.mark.parametrize(
    "changes,why",
    [
        ({"width": 0}, "a state of 0 words"),
        ({"width": 65}, "a state of 65 words"),
        ({"max_moves": 300}, "max_moves 300"),
        ({"context": ()}, "non-empty tuple"),
        ({"context": ([1, 2],)}, "tuple of numpy arrays"),
        ({"module": "no_such_rules_module"}, "cannot import"),
        ({"module": "compiled_domains"}, "lack moves, apply, h, is_goal"),
        ({"encode": lambda state: [state, state]}, "encode gave"),
    ],
)
def test_bad_rules_are_refused_in_one_line(changes, why):
    problem = Puzzle(random_board(3, 3, random.Random(0)), 3, 3)
    with pytest.raises(InputError, match=why) as e:
        compiled_astar(problem, _rules(problem, **changes))
    assert "\n" not in str(e.value)


def test_costs_beyond_the_tables_are_refused():
    costs = [2**30] * 5
    problem = Grid(5, 1, costs, 0, 4)
    with pytest.raises(InputError, match="beyond the compiled tables"):
        astar(problem, compiled="on")


def test_idastar_needs_undo(tmp_path, monkeypatch):
    (tmp_path / "no_undo_rules.py").write_text("from compiled_grid_rules import apply, h, is_goal, moves\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    costs = [1] * 5
    problem = Grid(5, 1, costs, 0, 4)
    rules = _rules(problem, module="no_undo_rules")
    with pytest.raises(InputError, match="lack undo"):
        compiled_idastar(problem, rules)
    assert compiled_astar(problem, rules).cost == 4


# -- the generated modules and numba's cache -----------------------------------------------------------


def test_a_changed_rules_module_gets_a_new_generated_module(tmp_path, monkeypatch):
    import importlib
    import linecache

    source = (TESTS / "compiled_grid_rules.py").read_text()
    (tmp_path / "grid_rules_copy.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(tmp_path / "cache"))
    present = {"moves", "apply", "undo", "h", "is_goal"}
    module = importlib.import_module("grid_rules_copy")
    before = generate.generated_path("grid_rules_copy", present)
    (tmp_path / "grid_rules_copy.py").write_text(source.replace("return ctx[2][np.int64(s[0])]", "return 0"))
    linecache.checkcache()
    importlib.reload(module)
    after = generate.generated_path("grid_rules_copy", present)
    assert before != after and before.parent == after.parent == tmp_path / "cache" / "kernels"
    costs = [1] * 5
    problem = Grid(5, 1, costs, 0, 4, hv=[4, 3, 2, 1, 0])
    assert compiled_astar(problem, _rules(problem, module="grid_rules_copy")).cost == 4
    assert after.exists() and not before.exists()
    stamp = after.stat().st_mtime_ns
    generate._loaded.clear()
    generate._by_rules.clear()
    compiled_astar(problem, _rules(problem, module="grid_rules_copy"))
    assert after.stat().st_mtime_ns == stamp  # written once


def test_a_changed_template_gets_a_new_name():
    text = generate.module_source("compiled_grid_rules", {"moves", "apply", "h", "is_goal"})
    assert generate.file_stem("compiled_grid_rules", text) != generate.file_stem("compiled_grid_rules", text + "#")


def test_warm_up_loads_every_kernel_a_search_calls_from_python():
    """After `warm_up`, no kernel a driver calls is loaded later (in a forked worker, in its time)."""
    problem = Puzzle(random_walk(4, 4, 10, random.Random(5)), 4, 4)
    rules = problem.compiled_rules()
    warm_up(problem, rules)
    mod = generate.loaded(rules)
    called = ("bestfirst_kernel", "ida_pruning_kernel", "bfs_kernel", "find_slot", "add_slot", "bq_push", "rehash")
    called += ("bq_rehash", "ask_kernel", "reask", "trace_moves", "root_of", "replay_moves")
    assert [name for name in called if not getattr(mod, name).signatures] == []


FRESH = """
import json, sys, time
from compiled_domains import Puzzle, random_walk
import random
from searchkit import astar, bfs, idastar, Limits
from searchkit.kernels import generate

problem = Puzzle(random_walk(4, 4, 40, random.Random(3)), 4, 4)
began = time.perf_counter()
results = [e(problem, compiled="on", limits=Limits(max_expanded=2000)) for e in (astar, idastar, bfs)]
seconds = time.perf_counter() - began
(mod,) = generate._loaded.values()
names = ("bestfirst_kernel", "ida_pruning_kernel", "bfs_kernel", "find_slot", "add_slot", "bq_push", "rehash")
stats = {n: (sum(getattr(mod, n).stats.cache_hits.values()), sum(getattr(mod, n).stats.cache_misses.values()))
         for n in names}
print(json.dumps({"stats": stats, "seconds": seconds, "compiled": [r.compiled for r in results]}))
"""


def test_a_warm_cache_compiles_nothing_in_a_fresh_process(tmp_path):
    env = dict(
        os.environ,
        SEARCHKIT_CACHE_DIR=str(tmp_path),
        PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    )
    env.pop("NUMBA_DISABLE_JIT", None)
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout.splitlines()[-1]))
    first, second = runs
    assert all(first["compiled"]) and all(second["compiled"])
    assert any(misses for _hits, misses in first["stats"].values())  # the first process compiled
    for name, (hits, misses) in second["stats"].items():
        assert misses == 0, (name, hits, misses)
        if first["stats"][name][1]:  # compiled in the first process (rehash runs only when a table grows)
            assert hits >= 1, (name, hits, misses)
    assert second["stats"]["bestfirst_kernel"][0] and second["stats"]["ida_pruning_kernel"][0]
    assert len(list((tmp_path / "kernels").glob("compiled_puzzle_rules__*.py"))) == 1


COUNTED = """
import json, random
from compiled_domains import Puzzle, random_walk
from searchkit import astar, bfs, idastar, Limits
from searchkit.kernels import generate

problem = Puzzle(random_walk(3, 3, 20, random.Random(5)), 3, 3)
for engine in (astar, idastar, bfs):
    assert engine(problem, compiled="on", limits=Limits(max_expanded=500)).compiled
(mod,) = generate._loaded.values()
names = ("bestfirst_kernel", "ida_pruning_kernel", "bfs_kernel")
calls = {n: sum(ir.count(f"@NRT_{op}(") - ir.count(f"define linkonce_odr void @NRT_{op}(")
                for ir in getattr(mod, n).inspect_llvm().values() for op in ("incref", "decref"))
         for n in names}
print(json.dumps(calls))
"""


def test_the_kernels_count_no_references(tmp_path):
    """The kernels run without numba's reference counting (atomic operations on every array
    the rules pass around): compiled afresh, their code calls neither ``NRT_incref`` nor
    ``NRT_decref`` (numba's inspection needs code compiled in the process, not cached)."""
    env = dict(
        os.environ,
        SEARCHKIT_CACHE_DIR=str(tmp_path / "kernels"),
        NUMBA_CACHE_DIR=str(tmp_path / "numba"),
        PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    )
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run([sys.executable, "-c", COUNTED], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    calls = json.loads(done.stdout.splitlines()[-1])
    assert calls == {"bestfirst_kernel": 0, "ida_pruning_kernel": 0, "bfs_kernel": 0}


def test_warm_up_compiles_every_kernel():
    problem = Puzzle(random_board(3, 3, random.Random(0)), 3, 3)
    warm_up(problem, problem.compiled_rules())
    mod = generate.loaded(problem.compiled_rules())
    # the puzzle's rules offer inverse, h_after and cost: its IDA* prunes before moving
    for name in ("bestfirst_kernel", "ida_pruning_kernel", "bfs_kernel"):
        assert getattr(mod, name).signatures


# -- the command line ----------------------------------------------------------------------------------


class _PuzzleDomain(Domain):
    name = "kpuzzle"
    params = [Param("board", str, "1 2 3 4 5 6 0 7 8")]

    def builtin_heuristics(self):
        return {"manhattan": Heuristic("manhattan", admissible=True)}

    def make_problem(self, options, heuristic):
        return Puzzle([int(t) for t in options["board"].split()], 3, 3)


class _Plugin:
    @hookimpl
    def register_domains(self, register):
        register(_PuzzleDomain())


@pytest.fixture
def kpuzzle():
    with plugin_registered(_Plugin(), "test-kpuzzle"):
        yield


@pytest.mark.usefixtures("kpuzzle")
@pytest.mark.parametrize("engine", list(ENGINES))
def test_the_json_says_which_ran(engine):
    runner = CliRunner()
    docs = {}
    for choice in ("auto", "off"):
        done = runner.invoke(build_app(), ["solve", "kpuzzle", "-e", engine, "-P", f"compiled={choice}", "--json"])
        assert done.exit_code == 0, done.output
        docs[choice] = json.loads(done.stdout)
    assert docs["auto"]["compiled"] is True and docs["off"]["compiled"] is False
    assert docs["auto"]["cost"] == docs["off"]["cost"] and docs["auto"]["guarantee"] == docs["off"]["guarantee"]
    text = runner.invoke(build_app(), ["solve", "kpuzzle", "-e", engine])
    assert f"engine {engine} (compiled)" in text.stdout


def test_compiled_on_for_a_domain_without_rules_is_one_error_line():
    outcome = run_cli("solve", "npuzzle", "--board", "1 2 3 4 0 6 7 5 8", "-e", "astar", "-P", "compiled=on")
    assert_clean(outcome)
    assert outcome.code == 2 and "offers no compiled rules" in outcome.err
