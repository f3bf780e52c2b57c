"""The `sokoban-alternate` engine (the default): one search alone, then several by time shares."""

from __future__ import annotations

import pytest

from searchkit import InputError, Limits, greedy
from searchkit.solving import execute, prepare
from searchkit_sokoban.alternate import alternate
from searchkit_sokoban.board import Board
from searchkit_sokoban.levels import load_level
from searchkit_sokoban.problem import SokobanProblem


def problem(n: int, heuristic: str = "nearest-goal") -> SokobanProblem:
    return SokobanProblem(Board(load_level(f"microban:{n}")), heuristic, tunnels=True)


@pytest.mark.parametrize("guide", ["nearest-goal", "matching", "greedy:matching"])
def test_one_guide_is_plain_greedy(guide):
    """Alone, a guide's search expands what the core greedy engine expands, in the same order."""
    mine = alternate(problem(36), guides=guide, shares="1")
    core = greedy(problem(36, guide.rpartition(":")[2]))
    assert mine.solved and core.solved
    assert (mine.stats.expanded, mine.cost) == (core.stats.expanded, core.cost)


def test_an_astar_member_finds_the_short_solution_greedy_misses():
    """Level 146 has a 14-push solution that greedy search loses among misleading deep states."""
    result = alternate(problem(146), guides="astar:matching", shares="1", limits=Limits(timeout_s=20))
    assert result.solved and result.cost == 14


@pytest.mark.parametrize("n", [1, 5, 36, 77])
def test_solutions_replay(n):
    job = prepare("sokoban", {"level_file": f"microban:{n}"}, "sokoban-alternate", "nearest-goal")
    result = execute(job, Limits(timeout_s=20))  # execute replays the LURD on the level text
    assert result.solved and result.engine == "sokoban-alternate"


def test_the_others_join_after_the_solo_start():
    alone = greedy(problem(36))
    assert alternate(problem(36)).stats.expanded == alone.stats.expanded  # solved while alone
    both = alternate(problem(36), guides="nearest-goal,matching", shares="1,1", solo=0)
    assert both.solved and both.stats.stored > alone.stats.stored  # the other stored states too


@pytest.mark.slow
def test_the_others_join_and_can_win():
    """Level 144 defeats greedy nearest-goal; greedy on matching, joining after the solo start, solves it."""
    result = alternate(problem(144), guides="nearest-goal,matching,astar:matching", shares="1,2,2",
                       limits=Limits(timeout_s=60))
    assert result.solved


@pytest.mark.parametrize("text", ["#####\n#$ .#\n#@  #\n#####", "#######\n#. $ @#\n# $   #\n#  #. #\n#######"])
def test_unsolvable_levels_end_without_a_solution(text):
    from searchkit_sokoban.levels import parse_level

    p = SokobanProblem(Board(parse_level(text)), "nearest-goal", tunnels=True)
    assert alternate(p, limits=Limits(timeout_s=10)).status == "no-solution"


def test_limits_and_bad_parameters():
    result = alternate(problem(144), limits=Limits(max_expanded=3000))
    assert result.status == "limit" and result.stats.expanded <= 3000 + 64
    with pytest.raises(InputError):
        alternate(problem(1), shares="2")
    with pytest.raises(InputError):
        alternate(problem(1), guides="packing,matching", shares="1,1")
    with pytest.raises(InputError):
        alternate(problem(1), guides="dfs:matching", shares="1")
    with pytest.raises(InputError):
        alternate(problem(1), guides="nearest-goal", shares="0")
    with pytest.raises(InputError):
        alternate(problem(1), solo=-1)


def test_the_domain_default_is_this_engine():
    job = prepare("sokoban", {"level_file": "microban:2"})
    assert job.engine.name == "sokoban-alternate" and job.heuristic.name == "nearest-goal"
    assert prepare("sokoban", {"level_file": "microban:2", "optimal": True}).engine.name == "astar"
