"""Goal-room macros: boxes pushed into a goal room follow a plan found by a pull search."""

from __future__ import annotations

import random

import pytest

from searchkit import Limits, greedy
from searchkit_sokoban.board import Board
from searchkit_sokoban.domain import SokobanDomain
from searchkit_sokoban.goalroom import GoalRoom, Route
from searchkit_sokoban.levels import parse_level
from searchkit_sokoban.lurd import replay_lurd, to_lurd
from searchkit_sokoban.problem import SokobanProblem

# goals down a dead-end row: the far goal must be filled first
ROW_ROOM = """\
#########
#  ....##
#  ######
## ######
#       #
#       #
#       #
#########"""

# a 2x2 block of goals with storage beside it
BLOCK_ROOM = """\
 ######
##    #
#   ..#
#   ..#
## ####
#      #
#      #
#      #
########"""

# a box already in the room, the player shut in behind it
INSIDE_ROOM = """\
#######
#..   #
#. $@ #
## ####
#      #
#      #
#      #
########"""

TEMPLATES = (ROW_ROOM, BLOCK_ROOM, INSIDE_ROOM)


def _with_boxes(template: str, rng: random.Random) -> str:
    """The template with its goals' worth of boxes (off the walls) and the player below the room."""
    rows = [list(r) for r in template.splitlines()]
    goals = sum(r.count(".") for r in rows) - sum(r.count("$") for r in rows)
    below = [(r, c) for r in range(4, len(rows)) for c, ch in enumerate(rows[r]) if ch == " "]
    around = ((1, 0), (-1, 0), (0, 1), (0, -1))
    open_ = [(r, c) for r, c in below if all(rows[r + dr][c + dc] != "#" for dr, dc in around)]
    picks = rng.sample(open_, goals)
    for r, c in picks:
        rows[r][c] = "$"
    if not any("@" in r for r in rows):
        r, c = rng.choice([sq for sq in below if sq not in picks])
        rows[r][c] = "@"
    return "\n".join("".join(r) for r in rows)


def _solve(board: Board, goalroom: bool):
    p = SokobanProblem(board, "nearest-goal", tunnels=True, goalroom=goalroom)
    return p, greedy(p, limits=Limits(max_expanded=300_000))


def test_the_room_and_its_plan_are_found():
    text = ROW_ROOM.replace("#       #\n#       #\n#       #", "#       #\n# $$$$  #\n#@      #")
    b = Board(parse_level(text))
    room = GoalRoom(b)
    assert divmod(room.entrance, b.width) == (1, 2)  # the smallest room: the row of goals
    assert room.room == b.goals and not room.room & b.start_boxes
    assert len(room.entries) == 4 and room.active
    # the first box in goes to the far end of the row
    first = room.entries[(0, room.entrance + b.width)]
    box = first[0][0]
    for sq, k in first:
        assert sq == box
        box = sq + b.offsets[k]
    assert divmod(box, b.width) == (1, 6)


def test_no_room_when_the_goals_are_not_behind_one_square():
    b = Board(parse_level("#######\n#@$ $ #\n#. . ##\n#######"))
    assert GoalRoom(b).entrance is None and not GoalRoom(b).active


@pytest.mark.parametrize("template", TEMPLATES)
def test_macros_lose_no_solution_and_replay(template):
    """Exhaustive greedy with and without the macros agrees on every random filling."""
    rng = random.Random(template.count("#"))
    solved = routed = 0
    for _ in range(12):
        text = _with_boxes(template, rng)
        b = Board(parse_level(text))
        _p, plain = _solve(b, False)
        p, macro = _solve(b, True)
        assert plain.status != "limit" and macro.status != "limit", text
        assert plain.solved == macro.solved, text
        if macro.solved:
            solved += 1
            routed += any(isinstance(a, Route) for a in macro.actions)
            done = replay_lurd(b.level, to_lurd(b, macro.actions))
            assert done.pushes == macro.cost == sum(a.count for a in macro.actions)
    assert solved >= 3 and routed >= 1


def test_optimal_mode_has_no_macros():
    d = SokobanDomain()
    heuristics = d.builtin_heuristics()
    text_options = {"level_file": "microban", "level": "139"}
    assert d.make_problem({**text_options, "optimal": True}, heuristics["matching"]).room is None
    assert d.make_problem(text_options, heuristics["nearest-goal"]).room is not None


def test_microban_139_is_solved_by_the_room_plan():
    d = SokobanDomain()
    p = d.make_problem({"level_file": "microban", "level": "139"}, d.builtin_heuristics()["nearest-goal"])
    r = greedy(p, limits=Limits(timeout_s=20))
    assert r.solved and any(isinstance(a, Route) for a in r.actions)
    assert replay_lurd(p.board.level, to_lurd(p.board, r.actions)).pushes == r.cost


@pytest.mark.parametrize("number", ["99", "112", "138", "147"])
def test_settled_rooms_keep_microban_levels_solvable(number):
    """Levels an earlier version lost: settled boxes must not be the PI-corral's only pushes,
    and the player shut in the room may move them."""
    d = SokobanDomain()
    p = d.make_problem({"level_file": "microban", "level": number}, d.builtin_heuristics()["nearest-goal"])
    assert p.room is not None
    r = greedy(p, limits=Limits(timeout_s=20))
    assert r.solved
    assert replay_lurd(p.board.level, to_lurd(p.board, r.actions)).pushes == r.cost


def test_a_room_box_in_the_way_leaves_and_the_plan_still_replays():
    """Microban 10: the box beside the entrance must go out first (an exit in the plan)."""
    d = SokobanDomain()
    p = d.make_problem({"level_file": "microban", "level": "10"}, d.builtin_heuristics()["nearest-goal"])
    room, b = p.room, p.board
    assert room is not None and room.prefix
    sq, k = room.prefix[-1]
    assert sq == room.entrance and not room.inside >> (sq + b.offsets[k]) & 1  # pushed out of the room
    assert room.plays(room.prefix, b.start_boxes, b.player_start)
    r = greedy(p, limits=Limits(timeout_s=20))
    assert r.solved and any(isinstance(a, Route) for a in r.actions)
    assert replay_lurd(b.level, to_lurd(b, r.actions)).pushes == r.cost
