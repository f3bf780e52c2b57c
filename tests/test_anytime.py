"""The anytime engine: answers that only improve, bounds that always hold, and a limit that
ends the run with the best answer (``solved``) and what was proven about it."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_engines import SETTINGS, cases_with_h, check_solution
from typer.testing import CliRunner

from searchkit import LIMIT, NO_SOLUTION, SOLVED, GraphProblem, InputError, Limits, Observer, make_problem, solve
from searchkit.cli import build_app
from searchkit.engines.anytime import anytime, proven
from searchkit.solving import execute, prepare

B38 = "13 1 2 5 11 6 9 4 0 8 3 12 14 10 7 15"


class Improvements(Observer):
    def __init__(self) -> None:
        self.events: list[tuple[float | None, float]] = []

    def improved(self, cost: float | None, bound: float) -> None:
        self.events.append((cost, bound))


def admissible(problem: GraphProblem) -> GraphProblem:
    problem.heuristic_admissible = True  # type: ignore[attr-defined]
    return problem


@SETTINGS
@given(st.sampled_from(["int", "float"]).flatmap(cases_with_h), st.sampled_from([1, 1.5, 3]), st.integers(1, 40))
def test_bound_below_optimal_below_incumbent_at_any_stop(drawn, weight, max_expanded):
    """Against networkx: whatever stops it, bound <= optimal <= cost; answers only improve
    and bounds only rise; run to the end, the answer is optimal and proven so."""
    case, _kind, h = drawn
    optimum = case.optimum()
    for limits in (None, Limits(max_expanded=max_expanded)):
        problem = admissible(case.problem(h))
        log = Improvements()
        result = solve(problem, "anytime", limits=limits, observer=log, weight=weight)
        if optimum is None:
            assert result.status in (NO_SOLUTION, LIMIT)
            continue
        if result.status == LIMIT:  # stopped before its first answer
            assert limits is not None and result.cost is None
            assert result.bound is not None and result.bound <= optimum + 1e-9
            continue
        cost = check_solution(case, problem, result)
        assert result.bound <= optimum + 1e-9 <= cost + 2e-9
        costs = [i.cost for i in result.improvements]
        bounds = [i.bound for i in result.improvements]
        assert costs == sorted(costs, reverse=True) and len(set(costs)) == len(costs)
        assert bounds == sorted(bounds) and costs[-1] == result.cost
        assert all(i.bound <= optimum + 1e-9 for i in result.improvements)
        assert [c for c, _b in log.events if c is not None][-1] == result.cost
        assert [b for _c, b in log.events] == sorted(b for _c, b in log.events)
        if result.stats.limit_reason is None:
            assert math.isclose(cost, optimum, abs_tol=1e-9)
            assert result.bound == result.cost and result.guarantee == "optimal"
        else:
            assert result.guarantee == proven(result.cost, result.bound)


def test_a_limit_after_the_first_answer_is_solved_with_its_bound():
    problem = make_problem("npuzzle", board=B38, heuristic="manhattan")
    result = solve(problem, "anytime", limits=Limits(max_expanded=2000), weight=2)
    assert (result.status, result.stats.limit_reason) == (SOLVED, "nodes")
    assert result.cost > 38 > result.bound > 0
    assert result.guarantee == proven(result.cost, result.bound)
    assert result.guarantee.startswith("within ") and result.guarantee.endswith(f"(lower bound {result.bound:g})")
    assert result.stats.expanded == 2000


def test_the_38_move_board_is_proven_optimal():
    problem = make_problem("npuzzle", board=B38, heuristic="manhattan")
    log = Improvements()
    result = solve(problem, "anytime", observer=log, weight=2)
    assert (result.status, result.cost, result.bound, result.guarantee) == (SOLVED, 38, 38, "optimal")
    assert result.improvements[0].cost == solve(problem, "astar", weight=2).cost  # the same first answer
    assert log.events[-1] == (38, 38)


def test_the_guarantee_rounds_the_ratio_up():
    assert proven(53, 50) == "within 1.06 of optimal (lower bound 50)"
    assert proven(107, 100.5) == "within 1.07 of optimal (lower bound 100.5)"  # 1.0647 -> 1.07, never 1.06
    assert proven(10, 10) == proven(10, 11) == "optimal"
    assert proven(5, 0).startswith("suboptimal")


@pytest.mark.parametrize("heuristic, optimal", [("packing", True), ("matching", False)])
def test_a_bound_from_an_inadmissible_heuristic_or_macro_moves_proves_nothing(heuristic, optimal):
    job = prepare("sokoban", {"level_file": "microban:2", "optimal": optimal}, "anytime", heuristic)
    result = execute(job, Limits(max_expanded=300))
    assert result.status == SOLVED
    assert result.bound is None and result.guarantee.startswith("suboptimal (")
    job = prepare("sokoban", {"level_file": "microban:2", "optimal": True}, "anytime", "matching")
    result = execute(job)
    assert (result.bound, result.guarantee) == (result.cost, "optimal")


@pytest.mark.parametrize("weight", [0, -1, 0.5, float("nan"), float("inf"), "x"])
def test_bad_weights_are_refused(weight):
    problem = GraphProblem({"s": [("g", 1)]}, "s", ["g"], h={"s": 1})
    with pytest.raises(InputError, match="weight"):
        solve(problem, "anytime", weight=weight)
    with pytest.raises(ValueError, match="weight"):
        anytime(problem, weight=weight if isinstance(weight, float) else 0.5)


@pytest.mark.parametrize("weight", ["0", "-2", "abc", "nan"])
def test_the_command_line_refuses_bad_weights_in_one_line(weight):
    r = CliRunner().invoke(build_app(), ["solve", "npuzzle", "--size", "3", "-e", "anytime", "-P", f"weight={weight}"])
    assert r.exit_code == 2 or r.exception is not None
    r = CliRunner().invoke(build_app(), ["solve", "npuzzle", "--size", "3", "-e", "anytime", "-w", weight])
    assert r.exit_code == 2 or r.exception is not None


def test_json_lists_every_improvement():
    args = ["solve", "npuzzle", "--board", B38, "-e", "anytime", "-H", "manhattan", "--json"]
    doc = json.loads(CliRunner().invoke(build_app(), args).stdout)
    assert (doc["status"], doc["cost"], doc["bound"], doc["guarantee"]) == ("solved", 38, 38, "optimal")
    assert [set(i) for i in doc["improvements"]] == [{"time_s", "cost", "bound"}] * len(doc["improvements"])
    assert doc["improvements"][-1]["cost"] == 38 and len(doc["improvements"]) >= 2
    times = [i["time_s"] for i in doc["improvements"]]
    assert times == sorted(times)
    doc = json.loads(CliRunner().invoke(build_app(), [*args[:5], "astar", *args[6:]]).stdout)
    assert (doc["bound"], doc["improvements"]) == (None, [])


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 3000))
@example(1)  # stopped before the first answer
@example(3000)  # stopped after it
def test_a_node_limit_mid_way_keeps_the_best_answer(n):
    problem = make_problem("npuzzle", board="8 6 7 2 5 4 3 0 1", heuristic="manhattan")
    result = solve(problem, "anytime", limits=Limits(max_expanded=n), weight=3)
    assert result.stats.expanded <= n and result.stats.limit_reason == "nodes"
    if result.status == SOLVED:
        assert result.bound <= 31 <= result.cost
    else:  # no answer yet: nothing to keep
        assert result.status == LIMIT and result.cost is None and not result.actions
