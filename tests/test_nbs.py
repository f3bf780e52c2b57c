"""NBS and MM against networkx with admissible heuristics in both directions, and beam search's contract.

The registry's contract tests run NBS with a forward heuristic only; here the problem also
offers ``backward_heuristic`` (and sometimes ``min_step_cost``), drawn like the forward one:
exact, consistent (a constant fraction of the true distance) or merely admissible.
"""

from __future__ import annotations

import math

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engines import BIG, Case, assert_optimal, cases

from searchkit import LIMIT, SOLVED, GraphProblem, InputError, Limits, replay, solve


def two_way_problem(case: Case, h: dict, hb: dict, eps: float | None) -> GraphProblem:
    """The case's graph with a heuristic each way (and sometimes ``min_step_cost``)."""
    problem = GraphProblem(case.adjacency(), case.start, case.goals, h=h, hb=hb)
    if eps is not None:
        problem.min_step_cost = eps  # type: ignore[attr-defined]
    return problem


def estimates(draw, case: Case, distances: dict, kind: str) -> dict:
    c = draw(st.floats(0.0, 1.0))
    dead = draw(st.sampled_from([BIG, math.inf]))
    out = {}
    for v in range(case.n):
        if v not in distances:
            out[v] = dead
        elif kind == "exact":
            out[v] = distances[v]
        elif kind == "consistent":
            out[v] = math.floor(c * distances[v])
        else:
            out[v] = distances[v] * draw(st.floats(0.0, 1.0))
    return out


@st.composite
def two_way(draw) -> tuple[Case, GraphProblem]:
    case = draw(cases("int"))
    kinds = st.sampled_from(["consistent", "admissible", "exact"])
    h = estimates(draw, case, case.to_goal(), draw(kinds))
    from_start = nx.single_source_dijkstra_path_length(case.graph(), case.start, weight="weight")
    hb = estimates(draw, case, from_start, draw(kinds))
    eps = min((c for _u, _v, c in case.edges), default=1) if draw(st.booleans()) else None
    return case, two_way_problem(case, h, hb, eps)


@settings(max_examples=400, deadline=None)
@given(two_way(), st.sampled_from(["nbs", "mm"]))
def test_nbs_and_mm_are_optimal_with_heuristics_both_ways(drawn, engine):
    case, problem = drawn
    assert_optimal(case, problem, solve(problem, engine), case.optimum())


def test_nbs_on_a_line_expands_pairs_and_meets():
    edges = {i: [(i + 1, 1)] for i in range(20)}
    problem = GraphProblem(edges, 0, [20], hb={})  # 0 both ways
    result = solve(problem, "nbs")
    assert result.status == SOLVED and result.cost == 20 and result.states == list(range(21))
    assert result.stats.expanded <= 22


@settings(max_examples=200, deadline=None)
@given(cases("int"), st.integers(1, 4), st.sampled_from(["h", "f"]))
def test_beam_answers_are_valid_paths(case, width, order):
    problem = case.problem(h=case.to_goal())
    result = solve(problem, "beam", width=width, order=order)
    if result.status == SOLVED:
        assert result.states[0] == case.start and result.states[-1] in case.goals
        assert math.isclose(replay(problem, result), result.cost)
    else:
        assert case.optimum() is None or (result.status, result.stats.limit_reason) == (LIMIT, "incomplete")


@settings(max_examples=100, deadline=None)
@given(cases("int"))
def test_a_beam_wider_than_the_graph_finds_a_path_iff_one_exists(case):
    result = solve(case.problem(), "beam", width=case.n + 1)
    assert (result.status == SOLVED) == (case.optimum() is not None)


def test_beam_keeps_width_states_per_layer():
    edges = {0: [(i, 1) for i in range(1, 30)], **{i: [(100 + i, 1)] for i in range(1, 30)}}
    problem = GraphProblem(edges, 0, [129], h={i: abs(29 - i) for i in range(1, 30)})
    assert solve(problem, "beam", width=1, order="h").states == [0, 29, 129]
    assert solve(problem, "beam", width=2).stats.stored == 1 + 2 + 1  # start, a layer of 2, the goal


@pytest.mark.parametrize("bad", [0, -3, 1.5, "x"])
def test_beam_width_must_be_a_positive_whole_number(bad):
    with pytest.raises(InputError, match="width"):
        solve(GraphProblem({0: [(1, 1)]}, 0, [1]), "beam", width=bad)


def test_beam_respects_a_node_limit():
    edges = {i: [(i + 1, 1)] for i in range(5000)}
    result = solve(GraphProblem(edges, 0, [5000]), "beam", limits=Limits(max_expanded=100))
    assert result.status == LIMIT and result.stats.expanded == 100


@pytest.mark.parametrize("engine", ["nbs", "mm"])
def test_refuses_a_problem_without_a_backward_heuristic(engine):
    problem = GraphProblem({0: [(1, 1)], 1: [(2, 1)]}, 0, [2], h={0: 2, 1: 1})
    with pytest.raises(InputError, match=f"{engine}.*needs a backward heuristic"):
        solve(problem, engine)
    assert solve(GraphProblem({0: [(1, 1)], 1: [(2, 1)]}, 0, [2], hb={2: 2}), engine).cost == 2


def test_mm_meets_in_the_middle_on_a_line():
    """With h = 0 both ways MM's priority is 2g: each side expands to half the cost."""
    problem = GraphProblem({i: [(i + 1, 1)] for i in range(20)}, 0, [20], hb={})
    result = solve(problem, "mm")
    assert result.status == SOLVED and result.cost == 20 and result.states == list(range(21))
    assert result.stats.expanded <= 22
