"""The reverse (pull) search: from the solved position back to the start, read as pushes."""

from __future__ import annotations

import pytest

from searchkit import Limits, greedy
from searchkit.solving import execute, prepare
from searchkit_sokoban.alternate import alternate
from searchkit_sokoban.board import Board
from searchkit_sokoban.levels import load_level, parse_level
from searchkit_sokoban.lurd import replay_lurd, to_lurd
from searchkit_sokoban.problem import SokobanProblem
from searchkit_sokoban.pull import PullSearch

TINY = [
    "#######\n#@    #\n# $$  #\n#  .. #\n#     #\n#######",
    "######\n#.   #\n#.$$ #\n##   #\n# @  #\n######",
    "######\n# .  #\n# $$ #\n#.$@ #\n#  . #\n######",
    "#######\n#.#####\n#.#####\n# $ $ #\n#.  $@#\n##    #\n#######",
    # unsolvable: the box can only slide along the top wall, the goal is below it
    "######\n#$ @ #\n#  . #\n######",
]


def run(problem: SokobanProblem, budget: int = 100_000, gateway: int = 0) -> PullSearch:
    search = PullSearch(problem, gateway)
    while search.goal is None and not search.step(64) and search.expanded < budget:
        pass
    return search


@pytest.mark.parametrize("gateway", [0, 4, 12, 40])
@pytest.mark.parametrize("text", TINY)
def test_pull_solves_exactly_the_solvable_tiny_levels_and_its_pushes_replay(text, gateway):
    board = Board(parse_level(text))
    problem = SokobanProblem(board, "nearest-goal")
    forward = greedy(problem, limits=Limits(max_expanded=100_000))
    search = run(problem, gateway=gateway)
    assert (search.goal is not None) == forward.solved
    if forward.solved:
        actions, states, cost = search.path()
        assert states[0] == problem.initial_state() and problem.is_goal(states[-1])
        done = replay_lurd(board.level, to_lurd(board, actions))
        assert done.pushes == cost == len(actions)
    else:
        assert not search.open  # exhausted: no way back to the start


@pytest.mark.parametrize("number", [144, 146])
def test_pull_solves_levels_that_defeat_greedy_nearest_goal_forwards(number):
    board = Board(load_level(f"microban:{number}"))
    problem = SokobanProblem(board, "nearest-goal", tunnels=True, goalroom=True)
    assert not greedy(problem, limits=Limits(max_expanded=20_000)).solved
    search = run(problem, budget=20_000)
    assert search.goal is not None
    actions, _states, cost = search.path()
    assert replay_lurd(board.level, to_lurd(board, actions)).pushes == cost


def test_an_already_solved_level_needs_no_pull():
    board = Board(parse_level("#####\n#@*.#\n#  $#\n#####".replace(".", " ").replace("$", "*")))
    search = PullSearch(SokobanProblem(board, "nearest-goal"))
    assert search.goal is not None and search.path()[0] == []


def test_the_default_engine_uses_it_and_execute_replays_the_answer():
    job = prepare("sokoban", {"level_file": "microban:146"})
    result = execute(job, Limits(timeout_s=20))  # execute replays the LURD on the level text
    assert result.solved and result.engine == "sokoban-alternate"


def test_moves_mode_leaves_the_pull_search_out():
    problem = SokobanProblem(Board(load_level("microban:3")), "nearest-goal", optimize="moves")
    result = alternate(problem, guides="nearest-goal,pull", shares="1,1", solo=0)
    assert result.solved
    with pytest.raises(ValueError):
        alternate(problem, guides="pull", shares="1")
    job = prepare("sokoban", {"level_file": "microban:3", "optimize": "moves"})
    assert execute(job, Limits(timeout_s=20)).solved
