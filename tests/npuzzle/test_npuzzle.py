"""The n-puzzle domain: boards, solvability, heuristics, engines and limits."""

from __future__ import annotations

import itertools
import random
from collections import deque

import pytest
from searchkit_npuzzle.board import is_solvable, make_goal, parse_size, random_board, scrambled_board
from searchkit_npuzzle.domain import NPuzzleDomain
from searchkit_npuzzle.heuristics import BUILTIN
from searchkit_npuzzle.problem import NPuzzleProblem

from searchkit import Heuristic, InputError, Limits, replay
from searchkit.solving import execute, prepare


def reachable(width: int, height: int, goal: tuple) -> set:
    """Every board reachable from the goal (moves are reversible), by BFS."""
    problem = NPuzzleProblem(width, height, goal, goal)
    start = problem.initial_state()
    seen = {start}
    queue = deque([start])
    while queue:
        for _a, s, _c in problem.successors(queue.popleft()):
            if s not in seen:
                seen.add(s)
                queue.append(s)
    return {problem.decode(s) for s in seen}


@pytest.mark.parametrize("width,height", [(2, 2), (3, 2), (2, 3), (3, 3)])
@pytest.mark.parametrize("goal_spec", ["blank-last", "blank-first"])
def test_parity_rule_matches_reachability(width, height, goal_spec):
    goal = make_goal(goal_spec, width, height)
    reach = reachable(width, height, goal)
    n = width * height
    boards = list(itertools.permutations(range(n)))
    assert len(reach) * 2 == len(boards)
    if goal_spec == "blank-first" and n == 9:  # every 3x3 board is checked for blank-last already
        boards = random.Random(n).sample(boards, 30000)
    for board in boards:
        assert is_solvable(board, goal, width) == (board in reach)


def test_parity_with_an_odd_goal():
    goal = (2, 1, 3, 4, 5, 6, 7, 8, 0)  # itself an odd permutation of the usual goal
    reach = reachable(3, 3, goal)
    rng = random.Random(3)
    for _ in range(2000):
        board = tuple(rng.sample(range(9), 9))
        assert is_solvable(board, goal, 3) == (board in reach)


@pytest.fixture(scope="module")
def exact_8puzzle_distances():
    """Exact distance to the goal of all 181,440 boards (BFS from the goal)."""
    goal = make_goal(None, 3, 3)
    problem = NPuzzleProblem(3, 3, goal, goal)
    start = problem.initial_state()
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        d = dist[s] + 1
        for _a, t, _c in problem.successors(s):
            if t not in dist:
                dist[t] = d
                queue.append(t)
    assert len(dist) == 181440
    return problem, dist


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_heuristics_are_admissible_and_consistent_on_the_whole_8puzzle(exact_8puzzle_distances, name):
    base, dist = exact_8puzzle_distances
    problem = NPuzzleProblem(3, 3, base.goal, base.goal)
    BUILTIN[name][0](problem)
    h = problem.heuristic
    values = {state: h(state) for state in dist}
    succ = problem.successors_with_h
    for state, d in dist.items():
        hv = values[state]
        assert 0 <= hv <= d, (problem.decode(state), hv, d)
        for _a, child, _c, ch in succ(state, hv):
            assert ch == values[child]  # the incremental value is the true value
            assert abs(hv - ch) <= 1  # consistent for unit moves
    assert values[problem.goal_state] == 0


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_incremental_heuristics_on_15puzzle_walks(name):
    rng = random.Random(7)
    goal = make_goal(None, 4, 4)
    problem = NPuzzleProblem(4, 4, random_board(goal, 4, rng), goal)
    BUILTIN[name][0](problem)
    state = problem.initial_state()
    hv = problem.heuristic(state)
    for _ in range(500):
        _a, state, _c, hv = rng.choice(problem.successors_with_h(state, hv))
        assert hv == problem.heuristic(state)


def test_encode_decode_round_trip():
    rng = random.Random(1)
    for w, h in [(2, 2), (3, 3), (4, 4), (5, 5), (3, 5), (8, 8)]:
        goal = make_goal(None, w, h)
        board = random_board(goal, w, rng)
        problem = NPuzzleProblem(w, h, board, goal)
        assert problem.decode(problem.initial_state()) == board


KNOWN_8 = [("8 6 7 2 5 4 3 0 1", 31), ("6 4 7 8 5 0 3 2 1", 31), ("1 2 3 4 5 6 7 8 0", 0), ("1 2 3 4 5 6 0 7 8", 2)]


@pytest.mark.parametrize("board,length", KNOWN_8)
@pytest.mark.parametrize(
    "engine,heuristic",
    [
        ("astar", "manhattan"),
        ("astar", "linear-conflict"),
        ("idastar", "linear-conflict"),
        ("bidirectional-bfs", None),
        ("nbs", "manhattan"),
        ("bfs", None),
        ("dijkstra", None),
    ],
)
def test_optimal_lengths_on_known_8puzzles(board, length, engine, heuristic):
    job = prepare("npuzzle", {"board": board}, engine, heuristic)
    result = execute(job)
    assert result.status == "solved"
    assert result.cost == length == len(result.actions)
    assert replay(job.problem, result) == length


def test_15puzzle_generic_engines_agree():
    board = "13 1 2 5 11 6 9 4 0 8 3 12 14 10 7 15"  # optimal 38
    for engine, h in [("astar", "manhattan"), ("idastar", "linear-conflict")]:
        result = execute(prepare("npuzzle", {"board": board}, engine, h))
        assert result.cost == 38


def test_weighted_astar_is_bounded_and_says_so():
    job = prepare("npuzzle", {"board": "8 6 7 2 5 4 3 0 1"}, "astar", "linear-conflict", {"weight": 2})
    result = execute(job)
    assert result.solved and 31 <= result.cost <= 62
    assert job.guarantee == "suboptimal (weight 2)"


def test_korf_goal_blank_first():
    job = prepare("npuzzle", {"board": "1 2 0 3 4 5 6 7 8", "goal": "blank-first"}, "astar", "manhattan")
    assert execute(job).cost == 2


def test_limits_return_limit_with_stats():
    job = prepare("npuzzle", {"size": "4", "seed": 5}, "astar", "manhattan")
    result = execute(job, Limits(max_expanded=500))
    assert result.status == "limit" and result.stats.limit_reason == "nodes"
    assert result.stats.expanded == 500
    # a random 24-puzzle: far beyond 0.2 s, compiled or not (a 15-puzzle may solve compiled in time)
    job = prepare("npuzzle", {"size": "5", "seed": 5}, "idastar", "manhattan")
    result = execute(job, Limits(timeout_s=0.2))
    assert result.status == "limit" and result.stats.limit_reason == "time" and result.stats.expanded > 0


def test_random_boards_are_solvable_and_seeded():
    domain = NPuzzleDomain()
    a = domain.make_problem({"size": "4", "seed": 42}, None)
    b = domain.make_problem({"size": "4", "seed": 42}, None)
    assert a.start == b.start and is_solvable(a.start, a.goal, 4)
    for w in range(2, 9):
        goal = make_goal(None, w, w)
        for seed in range(5):
            assert is_solvable(random_board(goal, w, random.Random(seed)), goal, w)
            assert is_solvable(scrambled_board(goal, w, w, 40, random.Random(seed)), goal, w)


def test_scramble_length_bounds_the_solution():
    job = prepare("npuzzle", {"size": "4", "scramble": 20, "seed": 3}, "astar", "linear-conflict")
    result = execute(job)
    assert result.solved and result.cost <= 20


@pytest.mark.parametrize(
    "options,message",
    [
        ({"board": "1 2 3 4 5 6 7 8"}, "is not square"),
        ({"board": "1 2 3 4 5 6 7 8 8"}, "twice"),
        ({"board": "1 2 3 4 5 6 7 8 9"}, "outside 0..8"),
        ({"board": "1 2 3 4 5 6 7 x 0"}, "not a whole number"),
        ({"board": "1 2 3 4 5 6 8 7 0"}, "unsolvable"),
        ({"size": "3", "board": "1 2 3 0"}, "needs 9"),
        ({"size": "1"}, "at least 2"),
        ({"size": "1000"}, "at most"),
        ({"size": "3", "goal": "1 2 3"}, "goal has 3 tiles"),
        ({"size": "3", "scramble": -1}, "negative"),
        ({"size": "3", "scramble": 10**9}, "at most 1,000,000"),
    ],
)
def test_bad_input_is_one_clear_error(options, message):
    with pytest.raises(InputError, match=message):
        prepare("npuzzle", options, "astar", "manhattan")


def test_a_heuristic_without_make_is_one_clear_error():
    # another plugin's heuristic reaches the problem only through its make function
    dom = NPuzzleDomain()
    dom.with_heuristic(Heuristic("borrowed"))
    with pytest.raises(InputError, match="heuristic 'borrowed' has no make function"):
        dom.make_problem({"board": "1 2 3 4 0 6 7 5 8"}, dom.heuristics["borrowed"])


def test_rectangular_boards():
    assert parse_size("3x5") == (3, 5)
    job = prepare("npuzzle", {"size": "3x2", "seed": 1}, "astar", "manhattan")
    ref = execute(prepare("npuzzle", {"size": "3x2", "board": " ".join(map(str, job.problem.start))}, "bfs"))
    assert execute(job).cost == ref.cost


def test_backward_manhattan_is_admissible_and_consistent_on_8puzzle_walks():
    """Manhattan to the start board never overestimates the distance from the start, and
    changes by at most one per move (checked on breadth-first distances from random starts)."""
    rng = random.Random(5)
    goal = make_goal(None, 3, 3)
    for _ in range(5):
        problem = NPuzzleProblem(3, 3, random_board(goal, 3, rng), goal)
        start = problem.initial_state()
        dist, queue = {start: 0}, deque([start])
        while queue and len(dist) < 3000:
            s = queue.popleft()
            hs = problem.backward_heuristic(s)
            assert hs <= dist[s]
            for _a, t, _c in problem.successors(s):
                assert abs(problem.backward_heuristic(t) - hs) <= 1
                if t not in dist:
                    dist[t] = dist[s] + 1
                    queue.append(t)
        assert problem.backward_heuristic(start) == 0
