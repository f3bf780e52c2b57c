"""A FESS search's endgame: a compiled A* from a position a few boxes short of the goals or
the aim onto them (`endgame`)."""

from __future__ import annotations

import dataclasses

import pytest
from markers import needs_numba
from searchkit_sokoban import endgame
from searchkit_sokoban.aim import AimSearch
from searchkit_sokoban.board import Board, bits
from searchkit_sokoban.endgame import Endgame
from searchkit_sokoban.fess import (
    FESS_OWN,
    FESS_STRANDED,
    STRANDED_ENDGAME_SHARE,
    STRANDED_ENDGAME_SLACK,
    FessSearch,
)
from searchkit_sokoban.levels import Level
from searchkit_sokoban.lurd import replay_lurd, to_lurd

from searchkit import InputError, make_problem
from searchkit.solving import execute, prepare

pytestmark = needs_numba

# the box on row 1 moves only along it (the wall above): it reaches a goal only once the box
# already on the goal before the row's end has moved on
DEAD_END = "#########\n#@  $ *.#\n#  $  . #\n#       #\n#########"


def problem(level: str):
    return make_problem("sokoban", "nearest-goal", level_file=level)


def replays_onto(board: Board, aim: int, state, pushes) -> bool:
    """Whether ``pushes`` played from ``state`` (as LURD, on a level of its own) end with every box on ``aim``."""
    rows = dataclasses.replace(board.layout, goals=aim).rows(*state)
    level = Level(tuple(rows))
    replay_lurd(level, to_lurd(Board(level), pushes))  # raises on an illegal move or a box off the aim
    return True


def test_it_takes_a_position_two_boxes_short_onto_the_aim_moving_a_box_already_there(tmp_path):
    (tmp_path / "x.txt").write_text(DEAD_END + "\n")
    p = problem(str(tmp_path / "x.txt"))
    board = p.board
    aim = board.goals  # the level's goals as the aim: one box on it, two off
    start = p.initial_state()
    assert (start[0] & aim).bit_count() == aim.bit_count() - 2
    game = Endgame(p, aim)
    game.offer([start], [0])
    found = game.finish(spent=1.0)
    assert found is not None
    state, pushes, end = found
    assert state == start and end[0] == aim
    assert replays_onto(board, aim, state, pushes)
    (on_aim,) = bits(board.start_boxes & aim)
    assert on_aim in {push.square for push in pushes}  # the box already on the row's goal moved


def test_positions_too_far_from_the_aim_wait_not_and_each_is_tried_once(tmp_path):
    (tmp_path / "x.txt").write_text(DEAD_END + "\n")
    p = problem(str(tmp_path / "x.txt"))
    w = p.board.width
    aim = 1 << (3 * w + 2) | 1 << (3 * w + 4) | 1 << (3 * w + 6)  # three squares of row 3: no box there
    start = p.initial_state()
    game = Endgame(p, aim)
    game.offer([start], [0])
    assert not game.waiting  # three boxes off the aim: more than SLACK
    there = (aim, start[1])
    game.offer([there], [0])
    assert game.finish(spent=1.0) == (there, [], there) and aim in game.tried
    game.offer([there], [0])
    assert not game.waiting  # tried before


def test_a_wider_slack_takes_positions_more_boxes_short(tmp_path):
    """Three boxes off the aim wait for a try with a slack of three, not with the usual two,
    and the try puts all three on it."""
    (tmp_path / "x.txt").write_text(DEAD_END + "\n")
    p = problem(str(tmp_path / "x.txt"))
    w = p.board.width
    aim = 1 << (w + 3) | 1 << (w + 7) | 1 << (3 * w + 3)  # the row's boxes apart, the third one down
    start = p.initial_state()
    assert not start[0] & aim
    narrow, wide = Endgame(p, aim), Endgame(p, aim, slack=3)
    narrow.offer([start], [0])
    wide.offer([start], [0])
    assert not narrow.waiting and wide.waiting
    found = wide.finish(spent=1.0)
    assert found is not None and found[2][0] == aim
    assert replays_onto(p.board, aim, start, found[1])


def test_the_tries_keep_within_their_share_of_the_forward_search_time():
    p = problem("microban:2")
    board = p.board
    game = Endgame(p, board.goals)
    game.used = 1.0
    game.offer([(board.goals, p.initial_state()[1])], [0])
    assert game.finish(spent=1.0) is None and game.waiting  # 1 s of 1 s used: it waits
    assert game.finish(spent=1.0 / endgame.SHARE) is not None


def test_a_search_may_give_its_tries_a_smaller_share():
    p = problem("microban:2")
    board = p.board
    game = Endgame(p, board.goals, share=0.05)
    game.used = 0.1
    game.offer([(board.goals, p.initial_state()[1])], [0])
    assert game.finish(spent=1.0) is None and game.waiting  # 0.1 s of 1 s used: more than a twentieth
    assert game.finish(spent=2.0) is not None


def test_the_defaults_stranded_member_has_an_endgame_with_a_small_share_and_a_wide_slack():
    """`fess-stranded` in the default portfolio tries its endgame with `STRANDED_ENDGAME_SHARE`
    of its time, on positions up to `STRANDED_ENDGAME_SLACK` boxes short; the other plain
    FESS members have none."""
    p = problem("microban:2")
    goals = p.board.goals.bit_count()
    stranded = p.member_search(FESS_STRANDED)
    assert stranded.endgame is not None and stranded.endgame.share == STRANDED_ENDGAME_SHARE < endgame.SHARE
    assert stranded.endgame.least == goals - STRANDED_ENDGAME_SLACK and STRANDED_ENDGAME_SLACK > endgame.SLACK
    assert p.member_search(FESS_OWN).endgame is None
    alone = FessSearch(p, endgame=True).endgame  # asked for alone: the usual share and slack
    assert alone.share == endgame.SHARE and alone.least == goals - endgame.SLACK


@pytest.mark.parametrize("aimed", [True, pytest.param(False, marks=pytest.mark.slow)])  # False: 13 s
def test_a_search_answers_through_its_endgame_and_the_whole_path_replays(monkeypatch, aimed):
    """Every position tried at once: the aimed search meets the backward search where the
    endgame put its boxes on the aim, FESS towards the goals is solved there."""
    monkeypatch.setattr(endgame, "SLACK", 99)
    monkeypatch.setattr(endgame, "SHARE", 99.0)
    p = problem("microban:144")
    search = AimSearch(p, open_positions=0) if aimed else FessSearch(p, endgame=True)
    search.step()
    assert search.status == "solved"
    forward = search.ahead if aimed else search
    assert forward.joins and (search.met if aimed else search.goal) in forward.joins
    pushes, states, cost = search.path()
    assert states[0] == p.initial_state() and p.is_goal(states[-1]) and cost == len(pushes) == len(states) - 1
    replay_lurd(p.board.level, to_lurd(p.board, pushes))  # every box on a goal at the end


def test_without_numba_or_asked_not_to_it_has_no_endgame(monkeypatch):
    p = problem("microban:2")
    assert FessSearch(p).endgame is None and FessSearch(p, endgame=True).endgame is not None
    assert AimSearch(p, endgame=False).endgame is False
    monkeypatch.setattr(Endgame, "available", staticmethod(lambda: False))
    assert FessSearch(p, endgame=True).endgame is None


def test_the_engine_still_solves_and_replays_with_it():
    job = prepare("sokoban", {"level_file": "microban:120"}, engine="sokoban-fess-aim", params={"open_positions": 0})
    assert execute(job, None).solved  # replayed on the level text


@pytest.mark.parametrize("engine", ["sokoban-fess", "sokoban-fess-aim"])
def test_the_engines_take_endgame_on_or_off_and_refuse_other_values(engine):
    for value in ("true", "false"):
        job = prepare("sokoban", {"level_file": "microban:5"}, engine=engine, params={"endgame": value})
        assert execute(job, None).solved
    with pytest.raises(InputError, match="endgame"):
        prepare("sokoban", {"level_file": "microban:5"}, engine=engine, params={"endgame": "maybe"})
