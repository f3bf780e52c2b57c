"""``sokoban-fess-aim``: FESS backwards to an open position, then FESS forwards aimed at it
(`test_sokoban_fess` solves levels with it as with the other FESS searches)."""

from __future__ import annotations

import pytest
from searchkit_sokoban.aim import AimSearch, OpenPullSearch, sokoban_fess_aim
from searchkit_sokoban.board import Board, bits, flood
from searchkit_sokoban.features import Features
from searchkit_sokoban.levels import parse_level

from searchkit import InputError, Limits, make_problem
from searchkit.solving import execute, prepare


def problem(level: str, **options):
    return make_problem("sokoban", "nearest-goal", level_file=level, **options)


def test_aimed_features_count_boxes_on_the_aim_in_any_order():
    board = Board(parse_level("#######\n#@$ $.#\n#  . $#\n#   . #\n#######"))
    a, b, c = bits(board.start_boxes)
    aim = 1 << a | 1 << b | 1 << (c + board.width)  # two start squares and one below the third box
    features = Features(board, aim=aim)
    assert features.packed(board.start_boxes) == (2, 0)
    assert features.next_goals(board.start_boxes) == 1 << (c + board.width)
    assert features.packed(aim) == (3, 0) and features.next_goals(aim) == 0
    assert not features.count_stranded


def test_a_box_no_pull_can_move_is_stuck(tmp_path):
    (tmp_path / "x.txt").write_text("######\n#$$. #\n#.  @#\n######\n")
    search = OpenPullSearch(problem(str(tmp_path / "x.txt")))
    board = search.board
    left, right = bits(board.start_boxes)  # the corner box: walls above and left of it
    assert search.stuck(1 << left) == 0  # alone it can be pulled right or down
    assert search.stuck(1 << left | 1 << right | 1 << (left + board.width)) == 1  # boxed in: right, below


def test_the_aims_are_the_best_ranked_positions_off_the_goals_each_given_once():
    search = OpenPullSearch(problem("microban:144"))
    search.step(200)
    board = search.board
    ranks = [rank for rank, _boxes in search.best]
    assert ranks == sorted(ranks) and len({boxes for _r, boxes in search.best}) == len(ranks) > 1
    best = ranks[0]
    assert best.unpacked >= 1  # the floor regions: at least the player's
    checked = 0
    for state in list(search.parents)[:300]:
        if not search.knows(state) or state[0] == board.goals:
            continue
        region = flood(1 << state[1], board.floor & ~state[0], board.width)
        assert search.score(state[0], region) >= best
        checked += 1
    assert checked > 50
    first = search.aim()
    assert first is not None and first != board.goals and first.bit_count() == board.goals.bit_count()
    assert search.aim() != first and first in search.taken


@pytest.mark.parametrize("level", ["microban:2", "microban:93", "sasquatch:1"])
def test_a_meeting_joins_the_forward_path_to_the_backward_one_and_it_replays(level):
    search = AimSearch(problem(level), open_seconds=0.2)
    search.step()
    assert search.status == "solved"
    pushes, states, cost = search.path()
    assert states[0] == search.problem.initial_state() and search.problem.is_goal(states[-1])
    assert cost == len(pushes) == len(states) - 1
    job = prepare("sokoban", {"level_file": level}, engine="sokoban-fess-aim", params={"open_seconds": 0.2})
    assert execute(job, Limits(timeout_s=30)).solved  # replayed on the level text


@pytest.mark.parametrize("level", ["microban:93", "microban:144", "xsokoban:1"])
def test_set_out_at_once_the_forward_search_meets_a_position_stored_backwards(level):
    search = AimSearch(problem(level), open_seconds=0)  # one turn backwards, then forwards
    search.step()
    assert search.status == "solved" and search.met is not None and search.back.knows(search.met)
    pushes, states, cost = search.path()  # `searchkit.engines.paths.joined`
    assert states[0] == search.problem.initial_state() and search.problem.is_goal(states[-1])
    assert search.met in states and cost == len(pushes) == len(states) - 1


def test_a_forward_search_that_runs_out_hands_back_and_the_next_aim_follows():
    """Microban 120's first open positions cannot be reached from the start (the forward
    search runs out of positions): each time the backward search goes on and the forward
    one sets out afresh for the next most open position, till one answers."""
    search = AimSearch(problem("microban:120"), open_seconds=0)
    search.step()
    assert search.status == "solved" and len(search.back.taken) > 1
    assert search.expanded > search.back.expanded + (search.ahead.expanded if search.ahead else 0)


def test_limits_return_statistics_of_both_searches():
    result = sokoban_fess_aim(problem("sasquatch:10"), open_seconds=0.5, limits=Limits(timeout_s=2))
    assert result.status == "limit" and result.stats.expanded > 0 and result.stats.stored > 0


def test_moves_optimisation_is_an_input_error_naming_the_engine():
    with pytest.raises(InputError, match="sokoban-fess-aim counts pushes"):
        sokoban_fess_aim(problem("microban:1", optimize="moves"))


def test_in_the_portfolio_it_answers_where_the_pull_search_alone_does_not():
    """Sasquatch II 11: the pull search alone is lost in the goal room; the member answers
    (with its own backward search, or where its forward search meets the pull search)."""
    params = {"members": "backward:pull,search:fess-aim", "shares": "1,4", "solo": 0}
    job = prepare("sokoban", {"level_file": "sasquatch:11"}, engine="sokoban-portfolio", params=params)
    result = execute(job, Limits(timeout_s=60))
    assert result.solved and "search:fess-aim" in result.stats.answered_by
