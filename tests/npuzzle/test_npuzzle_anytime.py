"""``npuzzle-wida -P improve=true``: restarts at lower weights capped by the incumbent,
compiled or not: answers only improve, bounds hold, and given the nodes it proves the
answer optimal; without a limit it answers as before."""

from __future__ import annotations

import random

import pytest
from searchkit_npuzzle import fastida
from searchkit_npuzzle.board import random_board
from test_npuzzle_wida import GOAL3, GOAL4, make, run

from searchkit import Limits, Observer, bfs, idastar


class Improvements(Observer):
    def __init__(self) -> None:
        self.events: list[tuple[float | None, float]] = []

    def improved(self, cost: float | None, bound: float) -> None:
        self.events.append((cost, bound))


@pytest.mark.parametrize("compiled", [False, True])
def test_improving_8_puzzles_ends_proven_optimal(compiled, monkeypatch):
    rng = random.Random(5)
    for _ in range(5):
        board = random_board(GOAL3, 3, rng)
        optimal = bfs(make(board, GOAL3, "manhattan", 3)).cost
        log = Improvements()
        r = run(
            make(board, GOAL3, "manhattan", 3),
            compiled,
            monkeypatch,
            weight=3,
            improve=True,
            limits=Limits(max_expanded=10**7),
            observer=log,
        )
        assert (r.status, r.cost, r.bound, r.guarantee) == ("solved", optimal, optimal, "optimal")
        costs = [i.cost for i in r.improvements]
        assert costs == sorted(costs, reverse=True) and costs[-1] == optimal
        assert log.events[-1] == (optimal, optimal)
        assert [b for _c, b in log.events] == sorted(b for _c, b in log.events)


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("nodes", [3000, 30_000, 300_000])
def test_a_node_limit_keeps_the_best_answer_and_a_true_bound(compiled, nodes, monkeypatch):
    board = random_board(GOAL4, 4, random.Random(9))
    problem = make(board, GOAL4, "manhattan", 4)
    optimal = idastar(make(board, GOAL4, "manhattan", 4)).cost
    r = run(problem, compiled, monkeypatch, weight=2, improve=True, limits=Limits(max_expanded=nodes))
    if r.status == "solved":
        assert r.bound <= optimal <= r.cost and r.stats.expanded <= nodes
        assert r.guarantee == ("optimal" if r.bound == r.cost else fastida_proven(r.cost, r.bound))
    else:
        assert r.stats.limit_reason == "nodes"


def fastida_proven(cost: float, bound: float) -> str:
    from searchkit.engines.anytime import proven

    return proven(cost, bound)


def test_without_a_limit_it_answers_as_before(monkeypatch):
    board = random_board(GOAL3, 3, random.Random(6))
    plain = run(make(board, GOAL3, "manhattan", 3), False, monkeypatch, weight=2)
    improving = run(make(board, GOAL3, "manhattan", 3), False, monkeypatch, weight=2, improve=True)
    assert (plain.cost, plain.stats.expanded, improving.bound, improving.improvements) == (
        improving.cost,
        improving.stats.expanded,
        None,
        [],
    )


def test_the_5x5_default_improves_and_says_how_good(monkeypatch):
    domain = fastida  # the default's parameters
    from searchkit_npuzzle.domain import NPuzzleDomain

    full = {p.name: p.default for p in NPuzzleDomain().params}
    if not domain.compiled_kernel_available():
        pytest.skip("the 5x5 default is weighted A* without numba")
    assert NPuzzleDomain().defaults(dict(full, size="5"))[2]["improve"] is True


@pytest.mark.parametrize("compiled", [False, True])
def test_the_weight_1_probe_proves_a_tighter_bound_early(compiled, monkeypatch):
    """A share of the nodes goes to IDA* at weight 1 first: its finished iterations prove
    more than the root's estimate, which is all the descent proves when its weight-1 stage
    never comes."""
    from searchkit_npuzzle import anytime_ida

    board = random_board(GOAL4, 4, random.Random(9))
    optimal = idastar(make(board, GOAL4, "manhattan", 4)).cost
    root = make(board, GOAL4, "manhattan", 4)
    h0 = root.heuristic(root.initial_state())
    bounds = {}
    for share in (0.0, anytime_ida.PROBE_SHARE):
        monkeypatch.setattr(anytime_ida, "PROBE_SHARE", share)
        r = run(
            make(board, GOAL4, "manhattan", 4),
            compiled,
            monkeypatch,
            weight=2.5,
            improve=True,
            limits=Limits(max_expanded=20_000),
        )
        assert r.status == "solved" and r.bound <= optimal <= r.cost
        bounds[share] = r.bound
    assert bounds[0.0] == h0 < bounds[anytime_ida.PROBE_SHARE]
