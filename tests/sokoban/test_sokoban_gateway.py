"""Gateways: positions near the start that every solution passes through."""

from __future__ import annotations

from collections import deque

import pytest
from searchkit_sokoban.board import Board
from searchkit_sokoban.gateway import find_gateway
from searchkit_sokoban.levels import load_level, parse_level
from searchkit_sokoban.problem import SokobanProblem

from searchkit import Limits
from searchkit.solving import execute, prepare

LEVELS = [
    "#######\n#@    #\n# $$  #\n#  .. #\n#     #\n#######",
    "######\n#.   #\n#.$$ #\n##   #\n# @  #\n######",
    "#######\n#.#####\n#.#####\n# $ $ #\n#.  $@#\n##    #\n#######",
    # the player starts shut in below boxes it must push up into the room
    "#########\n#       #\n#    $. #\n#   ## .#\n### #####\n###$#####\n###@#####\n#########",
    "#########\n#       #\n# $   . #\n#   ##. #\n### #####\n###$#####\n###@#####\n#########",
    "##########\n#      . #\n#  $  .  #\n#   ## . #\n### ######\n###$######\n###$######\n###@######\n##########",
]
SHUT_IN = LEVELS[3]


def plain(text: str) -> SokobanProblem:
    return SokobanProblem(Board(parse_level(text)), None)


def reaches_goal(problem: SokobanProblem, avoid=None) -> bool:
    start = problem.initial_state()
    if start == avoid:
        return False
    seen = {start}
    queue = deque(seen)
    while queue:
        state = queue.popleft()
        if problem.is_goal(state):
            return True
        for _a, child, _c in problem.successors(state):
            if child not in seen and child != avoid:
                seen.add(child)
                queue.append(child)
    return False


@pytest.mark.parametrize("budget", [3, 8, 20, 60])
@pytest.mark.parametrize("text", LEVELS)
def test_every_solution_passes_through_the_gateway(text, budget):
    problem = plain(text)
    found = find_gateway(problem, budget)
    if found is None:
        return
    actions, states = found
    assert states[0] == problem.initial_state() and len(actions) == len(states) - 1 > 0
    for state, action, after in zip(states, actions, states[1:]):
        assert any(a == action and c == after for a, c, _cost in problem.successors(state))
    # exhaustive check of the claim: with the gateway removed the goal is out of reach
    assert not reaches_goal(problem, avoid=states[-1])


def test_a_shut_in_start_yields_a_gateway_and_an_open_one_none():
    problem = plain(SHUT_IN)
    assert reaches_goal(problem)
    actions, states = find_gateway(problem, 8)
    assert len(actions) == 3  # up the shaft three times: then the player is out
    assert find_gateway(problem, 1000) is None  # the goal lies within the budget
    assert find_gateway(plain(LEVELS[0]), 60) is None


def test_microban_153_gateway_is_where_the_player_gets_out():
    board = Board(load_level("microban:153"))
    problem = SokobanProblem(board, None)
    actions, states = find_gateway(problem)
    assert len(actions) == 10
    outside = 2 * board.width + 6  # row 2, column 6: the corridor beyond the start room
    assert problem.region(states[-1]) >> outside & 1
    assert not any(problem.region(s) >> outside & 1 for s in states[:-1])


def test_the_gateway_search_gives_up_past_its_children_limit(monkeypatch):
    # it runs before any search's limits apply: a level of hundreds of boxes must not hold it
    problem = SokobanProblem(Board(load_level("microban:153")), None)
    generated = []
    real = problem.successors

    def counted(state):
        children = real(state)
        generated.append(len(children))
        return children

    monkeypatch.setattr(problem, "successors", counted)
    assert find_gateway(problem) is not None
    needed = sum(generated)
    generated.clear()
    assert find_gateway(problem, children_limit=needed // 2) is None
    assert needed // 2 < sum(generated) <= needed // 2 + max(generated)


def test_the_gateway_search_gives_up_past_its_cpu_seconds(monkeypatch):
    # where each push is costly to prune the positions alone are no bound (Sasquatch III 46:
    # 11.8 s); the clock is read after each expansion
    from searchkit_sokoban import gateway

    problem = SokobanProblem(Board(load_level("microban:153")), None)
    ticks = iter(range(1000))
    monkeypatch.setattr(gateway, "process_time", lambda: next(ticks))  # one "second" a reading
    assert find_gateway(problem, seconds=5) is None
    assert next(ticks) == 7  # the start's reading, then six expansions, the sixth past 5 s
    monkeypatch.setattr(gateway, "process_time", lambda: 0.0)
    assert find_gateway(problem, seconds=5) is not None  # the same search with time to spare


@pytest.mark.slow
def test_the_default_engine_solves_microban_153_in_ten_seconds():
    job = prepare("sokoban", {"level_file": "microban:153"})
    result = execute(job, Limits(timeout_s=10))  # execute replays the LURD on the level text
    assert result.solved


def test_aim_is_remembered_per_board_and_detectors_off(monkeypatch):
    from searchkit_sokoban import gateway

    calls = []
    real = gateway.find_gateway
    monkeypatch.setattr(gateway, "find_gateway", lambda problem, budget: calls.append(budget) or real(problem, budget))
    board = Board(load_level("microban:153"))
    first = gateway.aim(SokobanProblem(board, None))
    assert first[0] is not None and first[1] != SokobanProblem(board, None).initial_state()
    assert gateway.aim(SokobanProblem(board, None)) is first and calls == [gateway.GATEWAY_BUDGET]
    gateway.aim(SokobanProblem(board, None, frozenset({"freeze"})))
    gateway.aim(SokobanProblem(Board(load_level("microban:153")), None))  # another board asks again
    assert len(calls) == 3


@pytest.mark.slow
def test_the_default_engine_keeps_its_time_limit_on_a_level_of_hundreds_of_boxes(tmp_path):
    import random
    import time

    rng = random.Random(2)
    side = 60
    inner = [(r, c) for r in range(2, side - 2) for c in range(2, side - 2)]
    rng.shuffle(inner)
    boxes, goals = set(inner[:250]), set(inner[250:500])
    rows = ["#" * side]
    for r in range(1, side - 1):
        cells = (
            "@" if (r, c) == (1, 1) else "$" if (r, c) in boxes else "." if (r, c) in goals else " "
            for c in range(1, side - 1)
        )
        rows.append("#" + "".join(cells) + "#")
    rows.append("#" * side)
    level = tmp_path / "crowd.txt"
    level.write_text("\n".join(rows) + "\n")
    began = time.monotonic()
    result = execute(prepare("sokoban", {"level_file": str(level), "no_improve": True}), Limits(timeout_s=3))
    assert not result.solved and result.stats.limit_reason == "time"
    assert time.monotonic() - began < 30  # the set-up (boards, gateway) before the limit holds too
