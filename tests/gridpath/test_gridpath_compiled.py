"""The tutorial plugin's compiled rules (``searchkit_gridpath.rules``, chapter 10 of its README):
offered on 4-connected grids only, in the Python successors' order, passing ``searchkit check``,
giving the Python engines' answers and counts, and optional: without numba the plugin runs in
Python.  The plugin is the pip-installed copy (the ``installed`` and ``gridpath`` fixtures).
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest
from markers import needs_numba
from processes import run_with_plugin as run

from searchkit import CompiledRules, InputError, Limits, replay
from searchkit.compiled import NO_NUMBA_ENV

ROOT = Path(__file__).resolve().parents[2]


def problem_of(options: dict, heuristic: str | None = "octile"):
    """The gridpath problem of ``options`` with the domain's heuristic ``heuristic`` (None: none)."""
    from searchkit.plugins import get_domain

    dom = get_domain("gridpath")
    return dom.make_problem(options, dom.heuristics[heuristic] if heuristic else None)


def free_cells(problem) -> list[tuple[int, int]]:
    grid = problem.grid
    return [(x, y) for y in range(grid.height) for x in range(grid.width) if grid.passable(x, y)]


def steps_apart(problem, start: tuple[int, int], goal: tuple[int, int]) -> int | None:
    """The fewest 4-connected steps from ``start`` to ``goal`` (breadth-first over the map's
    passable cells, no code of the plugin's search), None when unreachable."""
    grid = problem.grid
    seen, queue = {start: 0}, deque([start])
    while queue:
        x, y = queue.popleft()
        if (x, y) == goal:
            return seen[(x, y)]
        for nx, ny in ((x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y)):
            if 0 <= nx < grid.width and 0 <= ny < grid.height and grid.passable(nx, ny) and (nx, ny) not in seen:
                seen[(nx, ny)] = seen[(x, y)] + 1
                queue.append((nx, ny))
    return None


def random_pairs(problem, rng: random.Random, count: int, most: int | None = None):
    """``count`` (start, goal, steps) pairs of connected free cells, at most ``most`` steps apart."""
    cells, out = free_cells(problem), []
    while len(out) < count:
        s, g = rng.sample(cells, 2)
        d = steps_apart(problem, s, g)
        if d is not None and (most is None or d <= most):
            out.append((s, g, d))
    return out


# -- without numba: what the plugin offers and that it runs in Python ------------------------------


def test_rules_are_offered_only_where_costs_and_estimates_are_integers(gridpath):
    four = {"scen": Path("gridpath:rooms"), "index": 2, "connectivity": 4}
    eight = {"scen": Path("gridpath:rooms"), "index": 2}
    assert isinstance(problem_of(four).compiled_rules(), CompiledRules)
    assert isinstance(problem_of(four, None).compiled_rules(), CompiledRules)
    assert problem_of(eight).compiled_rules() is None  # diagonals cost sqrt(2)
    assert problem_of(eight, None).compiled_rules() is None
    assert problem_of(four, "euclidean").compiled_rules() is None  # not an integer
    foreign = problem_of(four, None)
    foreign.heuristic = lambda cell: 0.5  # a heuristic another plugin attached
    assert foreign.compiled_rules() is None


def test_building_the_rules_imports_neither_numba_nor_the_rules_module(installed):
    code = (
        "import sys; from pathlib import Path; from searchkit.plugins import get_domain; "
        "d = get_domain('gridpath'); "
        "p = d.make_problem({'scen': Path('gridpath:maze'), 'index': 3, 'connectivity': 4}, d.heuristics['octile']); "
        "r = p.compiled_rules(); "
        "print(r.module, 'numba' in sys.modules, 'searchkit_gridpath.rules' in sys.modules)"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(installed), os.environ.get("PYTHONPATH", "")]))
    env.pop("SEARCHKIT_LOAD_PLUGINS", None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["searchkit_gridpath.rules", "False", "False"]


def test_without_numba_the_engines_run_in_python(installed):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(installed), os.environ.get("PYTHONPATH", "")]))
    env[NO_NUMBA_ENV] = "1"
    env.pop("SEARCHKIT_LOAD_PLUGINS", None)

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-c", "from searchkit.cli import main; main()", *args]
        return subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)

    args = ["solve", "gridpath", "--scen", "gridpath:maze", "--index", "3", "--connectivity", "4", "--json"]
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["compiled"] is False and doc["status"] == "solved" and doc["connectivity"] == 4
    on = cli(*args, "-P", "compiled=on")
    assert on.returncode == 2 and on.stderr.startswith("Error: ") and "numba is not available" in on.stderr
    assert on.stderr.count("\n") == 1, on.stderr


def test_compiled_on_an_eight_connected_grid_is_one_line_error(installed):
    done = run(installed, "solve", "gridpath", "--scen", "gridpath:maze", "--index", "3", "-P", "compiled=on")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1, done.stderr
    assert "compiled=on" in done.stderr and "no compiled rules" in done.stderr


def test_instance_sources_take_four_connectivity(gridpath, tmp_path):
    from searchkit.plugins import get_domain

    dom = get_domain("gridpath")
    plain = dom.load_instances("gridpath:rooms", tmp_path)
    four = dom.load_instances("gridpath:rooms?connectivity=4", tmp_path)
    assert [i.name for i in four] == [i.name for i in plain]
    assert all(i.options["connectivity"] == 4 and i.expected_cost is None for i in four)
    assert all("connectivity" not in i.options and i.expected_cost is not None for i in plain)
    assert [i.expected_cost for i in dom.load_instances("gridpath:rooms?connectivity=8", tmp_path)] == [
        i.expected_cost for i in plain
    ]
    for bad in ("gridpath:rooms?connectivity=6", "gridpath:rooms?size=4", "gridpath:rooms?"):
        with pytest.raises(InputError) as info:
            dom.load_instances(bad, tmp_path)
        assert "\n" not in str(info.value) and "connectivity=4" in str(info.value)


# -- with numba: the rules against the Python problem -----------------------------------------------


@needs_numba
def test_check_holds_the_rules_to_the_problem(installed):
    done = run(installed, "check", "gridpath", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(done.stdout)
    assert doc["failed"] == 0
    compiled = next(c for c in doc["checks"] if c["name"] == "compiled rules agree with the problem")
    assert compiled["status"] == "pass", compiled  # on the 4-connected check instance
    assert any("connectivity=4" in i for i in doc["instances"]), doc["instances"]


@needs_numba
def test_moves_come_in_the_order_of_successors_with_their_actions(gridpath):
    import numpy as np
    from searchkit_gridpath import rules as compiled

    rng = random.Random(76)
    for name in ("maze", "rooms"):
        problem = problem_of({"scen": Path(f"gridpath:{name}"), "index": 1, "connectivity": 4})
        rules = problem.compiled_rules()
        out = np.zeros(rules.max_moves, dtype=np.int64)
        for x, y in rng.sample(free_cells(problem), 60):
            cell = problem.cell(x, y)
            words = rules.encode(cell)
            n = compiled.moves(words, rules.context, out)
            got = []
            for m in out[:n]:
                child = words.copy()
                cost = compiled.apply(child, int(m), rules.context)
                got.append((rules.action(int(m), words), rules.decode(child), cost))
            assert got == problem.successors(cell), (name, x, y)
            assert compiled.h(words, rules.context) == problem.heuristic(cell)
            assert compiled.is_goal(words, rules.context) == problem.is_goal(cell)


@needs_numba
@pytest.mark.parametrize("engine", ["astar", "bfs", "idastar"])
def test_compiled_and_python_engines_agree_on_random_instances(gridpath, engine):
    """The same cost (the breadth-first oracle's step count), the same counts, answers that
    replay, on random 4-connected start and goal cells of the shipped maps."""
    from searchkit.solving import execute, prepare

    rng = random.Random(f"gridpath-{engine}")
    heuristic = None if engine == "bfs" else "octile"
    most = 14 if engine == "idastar" else None  # IDA* re-expands a grid's many equal paths
    maps = ("maze", "rooms") if engine == "idastar" else ("maze", "rooms", "rooms-large")
    data = Path(gridpath.__file__).parent / "data"
    for name in maps:
        base = problem_of({"scen": Path(f"gridpath:{name}"), "index": 1, "connectivity": 4})
        for (sx, sy), (gx, gy), steps in random_pairs(base, rng, 4, most):
            options = {"map": data / f"{name}.map", "start": f"{sx},{sy}", "goal": f"{gx},{gy}", "connectivity": 4}
            answers = {}
            for mode in ("on", "off"):
                job = prepare("gridpath", options, engine, heuristic, {"compiled": mode})
                result = execute(job, Limits(max_expanded=500_000))  # the core replays the answer
                assert result.solved and result.compiled == (mode == "on"), (name, options, mode)
                assert replay(job.problem, result) == result.cost == steps, (name, options, mode)
                answers[mode] = result
            # the same expansions; the paths may differ among the optimal ones (the Python A*
            # rebuilds its path through predecessors, the compiled one keeps parents)
            fast, slow = answers["on"], answers["off"]
            counts = ("expanded", "generated", "duplicates") + (("stored",) if engine != "idastar" else ())
            assert [getattr(fast.stats, k) for k in counts] == [getattr(slow.stats, k) for k in counts], options


@needs_numba
def test_json_says_compiled_for_four_connected_astar(installed):
    base = ["solve", "gridpath", "--scen", "gridpath:maze", "--index", "3", "--connectivity", "4", "--engine", "astar"]
    fast = run(installed, *base, "--json")
    slow = run(installed, *base, "--json", "-P", "compiled=off")
    eight = run(installed, "solve", "gridpath", "--scen", "gridpath:maze", "--index", "3", "--json")
    assert fast.returncode == slow.returncode == eight.returncode == 0, fast.stderr + slow.stderr + eight.stderr
    fast_doc, slow_doc, eight_doc = json.loads(fast.stdout), json.loads(slow.stdout), json.loads(eight.stdout)
    assert fast_doc["compiled"] is True and slow_doc["compiled"] is False and eight_doc["compiled"] is False
    assert fast_doc["cost"] == slow_doc["cost"] and fast_doc["stats"]["expanded"] == slow_doc["stats"]["expanded"]
    assert fast_doc["guarantee"] == "optimal" and not math.isclose(eight_doc["cost"], fast_doc["cost"])


@needs_numba
def test_bench_suite_runs_both_ways_with_the_same_costs(gridpath, installed, tmp_path):
    out = tmp_path / "c.jsonl"
    done = run(installed, "bench", "configs/gridpath-compiled.toml", "-o", str(out), "-j", "2", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["ok"] and set(doc["configs"]) >= {"astar-python", "astar-compiled"}
    costs: dict[str, set] = {}
    for r in doc["records"]:
        assert r["status"] == "solved" and r["connectivity"] == 4 and r["cost_ok"] is None, r
        costs.setdefault(r["instance"], set()).add(r["cost"])
    assert len(costs) == 12 and all(len(c) == 1 for c in costs.values()), costs
    # and they are the fewest 4-connected steps (a breadth-first oracle over the map), on a few
    for instance in ("maze-large-1", "maze-large-6", "maze-large-12"):
        index = int(instance.rsplit("-", 1)[1])
        problem = problem_of({"scen": Path("gridpath:maze-large"), "index": index, "connectivity": 4}, None)
        assert costs[instance] == {steps_apart(problem, problem.start_xy, problem.goal_xy)}, instance
