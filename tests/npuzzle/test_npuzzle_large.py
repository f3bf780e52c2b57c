"""Boards of 5x5 and larger: the 24-puzzle pattern databases, their packed-state lookups,
Korf & Felner's 24-puzzle instances, the suboptimal defaults and their guarantee."""

from __future__ import annotations

import random

import pytest
from project import ROOT
from searchkit_npuzzle import fastida, pdb
from searchkit_npuzzle.board import is_solvable, scrambled_board
from searchkit_npuzzle.compiled import DISABLE_ENV
from searchkit_npuzzle.domain import NPuzzleDomain
from searchkit_npuzzle.korf import KORF24_GOAL, load_korf24
from searchkit_npuzzle.pdb.packed import packed_lookups
from searchkit_npuzzle.problem import NPuzzleProblem

from searchkit import InputError, Limits
from searchkit.solving import execute, prepare

# cheap to build (a 3-tile group over 25 cells has 303,600 abstract states), so the normal
# run checks the 5x5 builder, reflection and packed lookups without the 4-minute pdb-55554
SMALL_5X5 = pdb.Partition(
    "pdb-test-5x5-333",
    5,
    5,
    ((1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12), (13, 14, 15), (16, 17, 18), (19, 20, 21), (22, 23, 24)),
    "eight 3-tile groups, for tests",
)
GOALS = {
    "blank-first": tuple(range(25)),
    "blank-last": tuple(range(1, 25)) + (0,),
    # blank off the diagonal: no mirrored lookup
    "blank-mid-row": tuple(range(1, 12)) + (0,) + tuple(range(12, 25)),
}


pytestmark = pytest.mark.usefixtures("private_pdb_cache")


def walk(problem: NPuzzleProblem, steps: int, rng: random.Random) -> list[int]:
    """States of a random walk from the problem's start."""
    state = problem.initial_state()
    out = [state]
    for _ in range(steps):
        state = rng.choice(problem.successors(state))[1]
        out.append(state)
    return out


# -- Korf & Felner's 24-puzzle instances --------------------------------------------------------


def test_korf24_instances_are_the_published_set():
    data = load_korf24()
    assert len(data) == 50 and len({b for b, _ in data}) == 50
    lengths = [length for _, length in data]
    assert sum(lengths) == 5039 and min(lengths) == 81 and max(lengths) == 114  # mean 100.78, as published
    assert data[0] == ((14, 5, 9, 2, 18, 8, 23, 19, 12, 17, 15, 0, 10, 20, 4, 6, 11, 21, 1, 7, 24, 3, 16, 22, 13), 95)
    problem = NPuzzleProblem(5, 5, KORF24_GOAL, KORF24_GOAL)
    md = problem.manhattan_table()
    for board, length in data:
        assert is_solvable(board, KORF24_GOAL, 5)
        h = sum(md[t][p] for p, t in enumerate(board))
        assert h <= length and (length - h) % 2 == 0  # every move changes Manhattan by one


def test_korf24_loads_as_bundled_instances():
    domain = NPuzzleDomain()
    instances = domain.load_instances("npuzzle:korf24", ROOT)
    assert len(instances) == 50 and instances[0].expected_cost == 95 and instances[-1].expected_cost == 113
    assert instances[0].options["board"].startswith("14 5 9 2 18")
    with pytest.raises(InputError, match="korf100, korf24"):
        domain.load_instances("npuzzle:korf25", ROOT)


def test_npuzzle24_suite_reads_and_uses_korfs_goal():
    from searchkit.bench.suite import load_suite

    suite = load_suite(ROOT / "configs" / "npuzzle24.toml", validate=False)
    assert len(suite.instances) == 50 and suite.options["goal"] == "blank-first"
    assert {c.engine for c in suite.configs} == {"astar", "npuzzle-wida"}
    assert all(c.heuristic == "pdb-55554" for c in suite.configs)


def test_npuzzle_large_suite_reads():
    from searchkit.bench.suite import load_suite

    suite = load_suite(ROOT / "configs" / "npuzzle-large.toml", validate=False)
    sizes = {i.options["size"] for i in suite.instances}
    assert sizes == {"6", "7", "8"} and suite.limits.timeout_s == 10


# -- the partition and the packed lookups --------------------------------------------------------


def test_pdb_55554_partition_covers_the_24_puzzle():
    part = pdb.PARTITIONS["pdb-55554"]
    pdb.check_partition(part.groups, 25, part.name)
    assert sorted(map(len, part.groups)) == [4, 5, 5, 5, 5]
    assert pdb.parse_partition("55554", 5, 5) is part
    with pytest.raises(InputError, match="5x5"):
        pdb.get_database("pdb-55554", 4, 4, tuple(range(16)))
    # the blank-last goal gets the same shapes, turned 180 degrees
    last = pdb.goal_groups(part.groups, 5, 5, GOALS["blank-last"])
    assert last[0] == (18, 19, 20, 23, 24)


@pytest.mark.parametrize("goal_name", list(GOALS))
def test_packed_lookups_match_the_reference_and_are_incremental(goal_name):
    goal = GOALS[goal_name]
    db = pdb.load_or_build(SMALL_5X5, goal, progress=False)
    assert (db.mirror is not None) == (goal_name != "blank-mid-row")
    rng = random.Random(goal_name)
    problem = NPuzzleProblem(5, 5, scrambled_board(goal, 5, 5, 200, rng), goal)
    h, successors_with_h = packed_lookups(db, problem)
    state = problem.initial_state()
    hv = h(state)
    for _ in range(1500):
        assert hv == h(state) == db.value(problem.decode(state))
        children = successors_with_h(state, hv)
        assert [(a, s, c) for a, s, c, _ in children] == problem.successors(state)
        for _a, child, _c, child_h in children:
            assert child_h == h(child)
        _a, state, _c, hv = rng.choice(children)


def test_pdb_heuristic_attaches_its_incremental_successors():
    domain = NPuzzleDomain()
    heuristic = pdb.pdb_heuristics()["pdb-8"]
    problem = domain.make_problem({"size": "3", "seed": 4}, heuristic)
    fn = problem.heuristic
    state = problem.initial_state()
    assert [c[3] for c in fn.successors_with_h(state, fn(state))] == [fn(s) for _a, s, _c in problem.successors(state)]


def test_small_5x5_databases_are_admissible_and_consistent():
    """Exact distances of boards near the goal (A* + Manhattan) bound the estimate."""
    goal = GOALS["blank-last"]
    db = pdb.load_or_build(SMALL_5X5, goal, progress=False)
    rng = random.Random(7)
    for scramble in (6, 10, 14, 18, 20, 20):
        options = {"size": "5", "scramble": scramble, "seed": rng.randrange(10**6)}
        job = prepare("npuzzle", options, "astar", "manhattan")
        result = execute(job)
        problem = job.problem
        h, _ = packed_lookups(db, problem)
        for i, state in enumerate(result.states):  # the optimal path: exact distances along it
            exact = result.cost - i
            assert h(state) <= exact
        for a, b in zip(result.states, result.states[1:]):  # consistency: h drops by at most 1 a move
            assert abs(h(a) - h(b)) <= 1


# -- defaults and guarantees ---------------------------------------------------------------------


def test_larger_boards_defaults(monkeypatch):
    domain = NPuzzleDomain()
    if fastida.compiled_kernel_available():
        assert domain.defaults({"size": "5"}) == (
            "npuzzle-wida",
            "pdb-55554",
            {"weight": fastida.WIDA_WEIGHT, "max_weight": fastida.WIDA_MAX_WEIGHT, "improve": True},
        )
    monkeypatch.setenv(DISABLE_ENV, "1")  # no compiled kernel: weighted A*
    assert domain.defaults({"size": "5"}) == ("astar", "pdb-55554", {"weight": 1.6})
    assert domain.defaults({"size": "4x5"}) == ("astar", "linear-conflict", {"weight": 2})
    for size in ("6", "7", "8", "5x6", "12"):
        assert domain.defaults({"size": size})[0] == "npuzzle-stages"


def test_guarantee_strings(monkeypatch):
    monkeypatch.setenv(DISABLE_ENV, "1")  # the default without the compiled kernel: weighted A*
    job = prepare("npuzzle", {"size": "5", "seed": 1}, heuristic="linear-conflict")
    assert job.engine.name == "astar" and job.guarantee == "suboptimal (weight 1.6)"
    assert prepare("npuzzle", {"size": "5", "seed": 1}, "astar", "linear-conflict").guarantee == "optimal"
    assert (
        prepare("npuzzle", {"size": "5", "seed": 1}, "astar", "linear-conflict", {"weight": 3}).guarantee
        == "suboptimal (weight 3)"
    )
    assert prepare("npuzzle", {"size": "4", "seed": 1}, heuristic="manhattan").guarantee == "optimal"
    assert prepare("npuzzle", {"size": "7", "seed": 1}).guarantee == "suboptimal"


def test_weighted_astar_solves_a_24_puzzle_with_linear_conflict(monkeypatch):
    monkeypatch.setenv(DISABLE_ENV, "1")  # the default without the compiled kernel: weighted A*
    job = prepare("npuzzle", {"size": "5", "scramble": 80, "seed": 3}, heuristic="linear-conflict")
    result = execute(job, Limits(timeout_s=60))
    assert result.solved  # execute replays the moves: the path is checked


@pytest.mark.parametrize(
    "options",
    [
        {"size": "8", "seed": 1},
        {"size": "7", "seed": 2, "goal": "blank-first"},
        {"size": "6x9", "seed": 3},
        {"size": "3x9", "seed": 4},
        {"size": "6", "seed": 5, "goal": " ".join(map(str, range(1, 15))) + " 0 " + " ".join(map(str, range(15, 36)))},
    ],
)
def test_default_solves_large_boards_line_by_line(options):
    job = prepare("npuzzle", options)
    assert job.engine.name == "npuzzle-stages" and job.guarantee == "suboptimal"
    result = execute(job, Limits(timeout_s=60))  # execute replays the moves: the path is checked
    assert result.solved and result.stats.iterations > 1


def test_line_by_line_respects_limits():
    job = prepare("npuzzle", {"size": "8", "seed": 1})
    result = execute(job, Limits(max_expanded=500))
    assert result.status == "limit" and result.stats.limit_reason is not None


# -- the real 24-puzzle databases: minutes to build, so only with -m slow ------------------------


@pytest.mark.slow
def test_pdb_55554_is_admissible_near_the_goal_and_below_korfs_lengths():
    goal = KORF24_GOAL
    db = pdb.get_database("pdb-55554", 5, 5, goal, progress=False)
    for board, length in load_korf24():
        assert db.value(board) <= length
    rng = random.Random(11)
    for scramble in (10, 14, 18, 20):
        job = prepare(
            "npuzzle",
            {"size": "5", "goal": "blank-first", "scramble": scramble, "seed": rng.randrange(10**6)},
            "npuzzle-idastar",
            "manhattan",
        )
        result = execute(job)
        for i, state in enumerate(result.states):
            assert db.value(job.problem.decode(state)) <= result.cost - i


@pytest.mark.slow
@pytest.mark.timeout(1200)  # about 3 minutes here, databases built first
def test_default_solves_korf24_instances_within_the_bound():
    data = load_korf24()
    for index in (0, 24, 49):
        board, length = data[index]
        job = prepare("npuzzle", {"board": " ".join(map(str, board)), "goal": "blank-first"})
        assert job.heuristic.name == "pdb-55554"
        result = execute(job, Limits(timeout_s=60))
        assert result.solved and length <= result.cost <= job.params["weight"] * length


@pytest.mark.slow
def test_large_suite_solves_everything_within_its_limit():
    from searchkit.bench.runner import run_suite
    from searchkit.bench.suite import load_suite

    suite = load_suite(ROOT / "configs" / "npuzzle-large.toml")
    suite.configs = [c for c in suite.configs if c.name == "stages"]
    outcome = run_suite(suite, jobs=1)
    assert all(r["status"] == "solved" for r in outcome.records)
