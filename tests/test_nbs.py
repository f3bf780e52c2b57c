"""NBS against networkx with admissible heuristics in both directions, and beam search's contract.

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


class TwoWay(GraphProblem):
    """A graph problem with a heuristic each way."""

    def __init__(self, case: Case, h: dict, hb: dict, eps: float | None):
        super().__init__(case.adjacency(), case.start, case.goals, h=h)
        self._hb = hb
        if eps is not None:
            self.min_step_cost = eps

    def backward_heuristic(self, state: int) -> float:
        return self._hb.get(state, 0)


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
def two_way(draw) -> tuple[Case, TwoWay]:
    case = draw(cases("int"))
    kinds = st.sampled_from(["consistent", "admissible", "exact"])
    h = estimates(draw, case, case.to_goal(), draw(kinds))
    from_start = nx.single_source_dijkstra_path_length(case.graph(), case.start, weight="weight")
    hb = estimates(draw, case, from_start, draw(kinds))
    eps = min((c for _u, _v, c in case.edges), default=1) if draw(st.booleans()) else None
    return case, TwoWay(case, h, hb, eps)


@settings(max_examples=400, deadline=None)
@given(two_way())
def test_nbs_is_optimal_with_heuristics_both_ways(drawn):
    case, problem = drawn
    assert_optimal(case, problem, solve(problem, "nbs"), case.optimum())


def test_nbs_on_a_line_expands_pairs_and_meets():
    edges = {i: [(i + 1, 1)] for i in range(20)}
    problem = GraphProblem(edges, 0, [20])
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
