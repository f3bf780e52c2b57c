"""The specialised n-puzzle IDA*: optimal like the generic engines, same counts in Python and
compiled, limits honoured, and the easiest Korf instances solved with 5-5-5 databases."""

from __future__ import annotations

import random

import pytest
from project import ROOT
from searchkit_npuzzle import fastida
from searchkit_npuzzle.board import random_board, scrambled_board
from searchkit_npuzzle.compiled import DISABLE_ENV
from searchkit_npuzzle.domain import NPuzzleDomain
from searchkit_npuzzle.korf import KORF_GOAL, load_korf100

from searchkit import Limits, Observer, astar, replay

try:
    import numba  # noqa: F401

    HAVE_NUMBA = True
except ImportError:
    HAVE_NUMBA = False

GOAL3 = tuple(range(1, 9)) + (0,)
# the ten Korf instances with the fewest nodes under 5-5-5 (1-based numbers)
KORF_EASY10 = (9, 12, 19, 30, 31, 42, 47, 55, 71, 97)


pytestmark = pytest.mark.usefixtures("private_pdb_cache")


def make(board, goal, heuristic, width=3, height=3):
    """The problem exactly as the domain builds it (heuristic wiring included)."""
    domain = NPuzzleDomain()
    options = {"size": f"{width}x{height}", "board": " ".join(map(str, board)), "goal": " ".join(map(str, goal))}
    return domain.make_problem(options, domain.heuristics[heuristic])


def run(problem, python: bool, monkeypatch, **kw):
    with monkeypatch.context() as m:
        if python:
            m.setenv(DISABLE_ENV, "1")
        return fastida.npuzzle_idastar(problem, **kw)


@pytest.mark.parametrize("heuristic", ["manhattan", "linear-conflict", "pdb-8"])
def test_optimal_like_astar_and_same_counts_both_ways(heuristic, monkeypatch):
    rng = random.Random(11)
    for _ in range(4):
        board = random_board(GOAL3, 3, rng)
        problem = make(board, GOAL3, heuristic)
        expected = astar(make(board, GOAL3, "manhattan")).cost
        a = run(problem, True, monkeypatch)
        b = run(problem, False, monkeypatch)
        assert a.solved and a.cost == expected == len(a.actions)
        replay(problem, a)
        assert a.actions == b.actions
        assert (a.stats.expanded, a.stats.generated, a.stats.iterations) == (
            b.stats.expanded,
            b.stats.generated,
            b.stats.iterations,
        )


def test_pdb_is_at_least_as_informed_as_manhattan(monkeypatch):
    board = random_board(GOAL3, 3, random.Random(12))
    pdb_run = run(make(board, GOAL3, "pdb-8"), False, monkeypatch)
    md_run = run(make(board, GOAL3, "manhattan"), False, monkeypatch)
    assert pdb_run.cost == md_run.cost
    assert pdb_run.stats.expanded == pdb_run.cost  # exact: straight down the solution
    assert md_run.stats.expanded > pdb_run.stats.expanded


def test_rectangular_board_and_solved_start(monkeypatch):
    goal = tuple(range(1, 12)) + (0,)
    board = scrambled_board(goal, 4, 3, 30, random.Random(13))
    problem = make(board, goal, "manhattan", 4, 3)
    expected = astar(problem).cost
    for python in (True, False):
        r = run(problem, python, monkeypatch)
        assert r.cost == expected
        replay(problem, r)
    r = run(make(goal, goal, "linear-conflict", 4, 3), False, monkeypatch)
    assert r.solved and r.cost == 0 and r.actions == [] and len(r.states) == 1


@pytest.mark.parametrize("python", [True, False])
def test_node_limit_is_exact(python, monkeypatch):
    board, _ = load_korf100()[0]
    problem = make(board, KORF_GOAL, "manhattan", 4, 4)
    r = run(problem, python, monkeypatch, limits=Limits(max_expanded=5000))
    assert r.status == "limit" and r.stats.limit_reason == "nodes" and r.stats.expanded == 5000


def test_interrupt_stops_the_compiled_search(monkeypatch):
    board, _ = load_korf100()[0]
    problem = make(board, KORF_GOAL, "manhattan", 4, 4)
    limits = Limits()
    limits.interrupt.set()
    r = run(problem, False, monkeypatch, limits=limits)
    assert r.status == "limit" and r.stats.limit_reason == "interrupted"


class Recorder(Observer):
    def __init__(self):
        self.expanded, self.bounds, self.kinds = 0, [], {}

    def expand(self, state, g, h):
        self.expanded += 1

    def generate(self, parent, action, child, g, h, kind):
        self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def iteration(self, bound):
        self.bounds.append(bound)


def test_observer_sees_every_node(monkeypatch):
    board = random_board(GOAL3, 3, random.Random(14))
    problem = make(board, GOAL3, "manhattan")
    seen = Recorder()
    r = run(problem, False, monkeypatch, observer=seen)
    assert seen.expanded == r.stats.expanded
    assert sum(seen.kinds.values()) == r.stats.generated
    assert len(seen.bounds) == r.stats.iterations and seen.bounds == sorted(seen.bounds)


def test_other_heuristics_fall_back_to_the_generic_engine(monkeypatch):
    board = random_board(GOAL3, 3, random.Random(15))
    problem = make(board, GOAL3, "hamming")
    r = run(problem, False, monkeypatch)
    assert r.solved and r.cost == astar(make(board, GOAL3, "manhattan")).cost


def test_korf_easiest_ten_suite_with_555():
    """configs/korf10-555.toml, run the way a bench worker runs each instance (no fork)."""
    from searchkit.bench.suite import load_suite
    from searchkit.solving import execute, prepare

    suite = load_suite(ROOT / "configs" / "korf10-555.toml")
    assert suite.indices == list(KORF_EASY10)
    (config,) = suite.configs
    for instance in suite.instances:
        job = prepare(suite.domain, suite.options_for(config, instance), config.engine, config.heuristic)
        r = execute(job, suite.limits.to_limits())  # replays the solution
        assert r.solved and r.cost == instance.expected_cost, instance.name


def test_korf100_suite_is_complete():
    from searchkit.bench.suite import load_suite

    suite = load_suite(ROOT / "configs" / "korf100.toml", validate=False)
    assert len(suite.instances) == 100 and sum(i.expected_cost for i in suite.instances) == 5305
    assert suite.options["goal"] == "blank-first"


@pytest.mark.skipif(not HAVE_NUMBA, reason="compares against the compiled kernel")
def test_korf_counts_agree_python_and_compiled(monkeypatch):
    board, length = load_korf100()[1]  # instance 2: ~0.16 M nodes with 5-5-5
    problem = make(board, KORF_GOAL, "pdb-555", 4, 4)
    a = run(problem, True, monkeypatch)
    b = run(problem, False, monkeypatch)
    assert a.cost == b.cost == length
    assert (a.stats.expanded, a.stats.generated) == (b.stats.expanded, b.stats.generated)


@pytest.mark.slow
def test_korf100_all_optimal_with_663():
    instances = load_korf100()
    total = 0
    for board, length in instances:
        problem = make(board, KORF_GOAL, "pdb-663", 4, 4)
        r = fastida.npuzzle_idastar(problem)
        assert r.cost == length
        total += r.cost
    assert total == 5305
