"""Every answer's label is true: each registered engine on each domain either gives a
replayed answer whose guarantee holds (optimal answers checked against an exhaustive
search) or is refused with one clean line before any search; "no-solution" only from a
search that was complete for the problem."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from searchkit import INCOMPLETE, LIMIT, NO_SOLUTION, SOLVED, GraphProblem, InputError, Limits, solve
from searchkit.plugins import domains, engines
from searchkit.solving import execute, prepare

# small instances every engine finishes quickly, with their optimal costs found by
# breadth-first search (unit step costs: fewest steps is optimal) in `reference`
INSTANCES = {
    "npuzzle": [{"board": "1 2 3 5 0 6 4 7 8"}, {"board": "4 1 3 7 2 6 0 5 8"}],
    "sokoban": [
        {"level_file": "microban:1"},
        {"level_file": "microban:3"},
        {"level_file": "microban:4"},
        {"level_file": "microban:3", "optimal": True},
        {"level_file": "microban:4", "optimal": True},
    ],
}
LIMITS = dict(timeout_s=60)
# the composite engines take their members by parameter: what each is tried with here
MEMBERS = {
    "npuzzle": {"heuristics": "manhattan,linear-conflict", "members": "greedy:manhattan,backward"},
    "sokoban": {"heuristics": "matching,nearest-goal", "members": "nearest-goal,backward:pull"},
}


def reference(domain: str, options: dict) -> float:
    """The optimal cost, by breadth-first search over the plain problem (no heuristic, no macros)."""
    job = prepare(domain, {k: v for k, v in options.items() if k != "optimal"}, "bfs")
    result = execute(job, Limits(**LIMITS))
    assert result.status == SOLVED and result.guarantee.startswith("optimal")
    return result.cost


def engine_domain_pairs():
    return [(e, d) for d in INSTANCES for e in engines()]


@pytest.mark.parametrize("engine,domain", engine_domain_pairs())
def test_every_engine_on_every_domain_is_true_or_refused(engine, domain):
    info = engines()[engine]
    for options in INSTANCES[domain]:
        needed = {name: MEMBERS[domain][name] for name, spec in info.specs.items() if spec.required}
        try:
            job = prepare(domain, dict(options), engine, params=needed)
        except InputError as e:
            message = str(e)
            assert "\n" not in message and engine in message
            # refused only for a reason the engine's description gives
            assert info.refusal(domain) or info.backward, message
            return
        assert info.refusal(domain) is None
        result = execute(job, Limits(**LIMITS))  # replays any solution, or raises
        if engine == "dfs" and result.status == LIMIT:
            assert result.stats.limit_reason in ("depth", "time")
            continue
        assert result.status == SOLVED, (engine, domain, options, result.status, result.stats.limit_reason)
        assert result.guarantee is not None
        if result.guarantee.startswith("optimal"):
            assert result.cost == reference(domain, options), (engine, domain, options, result.guarantee)


def test_sokoban_macros_make_astar_suboptimal_and_optimal_turns_them_off():
    """microban 69: A* on matching with the default macros finds 39 pushes; 37 is optimal."""
    macro = execute(prepare("sokoban", {"level_file": "microban:69"}, "astar", "matching"))
    assert macro.solved and not macro.guarantee.startswith("optimal")
    assert "macros" in macro.guarantee
    exact = execute(prepare("sokoban", {"level_file": "microban:69", "optimal": True}))
    assert exact.solved and exact.guarantee == "optimal" and exact.cost == 37
    assert macro.cost >= exact.cost


def test_sokoban_optimal_label_on_the_command_line():
    base = [sys.executable, "-c", "from searchkit.cli import main; main()", "solve", "sokoban", "microban:69"]
    out = subprocess.run(
        base + ["--engine", "astar", "--heuristic", "matching", "--json"], capture_output=True, text=True, timeout=120
    )
    doc = json.loads(out.stdout)
    assert doc["guarantee"].startswith("suboptimal") and doc["pushes"] == doc["cost"]
    out = subprocess.run(base + ["--optimal", "--json"], capture_output=True, text=True, timeout=120)
    doc = json.loads(out.stdout)
    assert doc["guarantee"] == "optimal" and doc["pushes"] == 37


class _Pruned(GraphProblem):
    """A graph whose successors drop an edge: it says it may lose solutions."""

    preserves_solutions = False


class _Macro(GraphProblem):
    preserves_optimality = False
    optimality_lost_by = "shortcuts"


def test_no_solution_only_from_a_complete_search():
    edges = {"s": [("a", 1)], "a": []}
    assert solve(GraphProblem(edges, "s", ["g"]), "bfs").status == NO_SOLUTION
    for engine in ("bfs", "astar", "greedy", "idastar", "iddfs", "dijkstra"):
        result = solve(_Pruned(edges, "s", ["g"]), engine)
        assert result.status == LIMIT and result.stats.limit_reason == INCOMPLETE, engine


def test_guarantee_is_the_conjunction_of_engine_heuristic_and_problem():
    edges = {"s": [("a", 1), ("g", 5)], "a": [("g", 1)]}
    assert solve(GraphProblem(edges, "s", ["g"]), "astar").guarantee == "optimal"  # no h: Dijkstra
    assert solve(GraphProblem(edges, "s", ["g"]), "bfs").guarantee == "optimal (fewest steps)"
    h = {"s": 1, "a": 1, "g": 0}
    # a library user's own heuristic is not known to be admissible
    assert solve(GraphProblem(edges, "s", ["g"], h), "astar").guarantee == "optimal if the heuristic is admissible"
    promised = GraphProblem(edges, "s", ["g"], h)
    promised.heuristic_admissible = True
    assert solve(promised, "astar").guarantee == "optimal"
    assert solve(promised, "astar", weight=2).guarantee == "suboptimal (weight 2)"
    assert solve(promised, "greedy").guarantee == "suboptimal"
    for engine in ("astar", "dijkstra", "bfs", "idastar"):
        assert solve(_Macro(edges, "s", ["g"]), engine).guarantee == "suboptimal (shortcuts)", engine


def test_domain_specific_engines_are_refused_elsewhere_before_any_search():
    for name, info in engines().items():
        for domain in domains():
            if info.domains and domain not in info.domains:
                with pytest.raises(InputError, match=f"{name}.*works on"):
                    prepare(domain, dict(INSTANCES.get(domain, [{}])[0]), name)


def test_tree_does_not_offer_the_solution_outputs(tmp_path):
    base = [sys.executable, "-c", "from searchkit.cli import main; main()", "tree"]
    for args in (
        ["npuzzle", "--size", "3", "--gif", str(tmp_path / "a.gif")],
        ["npuzzle", "--size", "3", "--boards"],
        ["sokoban", "microban:1", "--png", str(tmp_path / "a.png")],
        ["sokoban", "microban:1", "--frames", str(tmp_path / "f")],
    ):
        out = subprocess.run(base + args + ["-o", str(tmp_path / "t.png")], capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and out.stderr.startswith("Error: No such option"), out.stderr
        assert out.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []
