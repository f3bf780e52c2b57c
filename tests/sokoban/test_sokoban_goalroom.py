"""Goal-room macros: boxes pushed into a goal room follow a plan found by a pull search."""

from __future__ import annotations

import random

import pytest
from searchkit_sokoban import goalroom
from searchkit_sokoban.board import Board, flood
from searchkit_sokoban.domain import SokobanDomain
from searchkit_sokoban.goalroom import GoalRoom, Route
from searchkit_sokoban.levels import bundled_text, parse_level, parse_levels
from searchkit_sokoban.lurd import replay_lurd, to_lurd
from searchkit_sokoban.problem import SokobanProblem

from searchkit import Limits, greedy

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


def _play(board: Board, steps: tuple, boxes: int, player: int) -> int:
    """``boxes`` after the pushes ``steps``, asserting each is legal (box there, square
    beyond free, the player able to walk round to push it)."""
    for sq, k in steps:
        o = board.offsets[k]
        free = board.floor & ~boxes
        assert boxes >> sq & 1 and free >> (sq + o) & 1, (sq, k)
        assert flood(1 << player, free, board.width) >> (sq - o) & 1, (sq, k)
        boxes ^= (1 << sq) | (1 << (sq + o))
        player = sq
    return boxes


def _boards_with_rooms() -> dict[str, Board]:
    rng = random.Random(7)
    boards = {name: Board(parse_level(_with_boxes(t, rng))) for name, t in zip(("row", "block", "inside"), TEMPLATES)}
    levels = parse_levels(bundled_text("microban"), "microban")
    boards.update({f"microban-{n}": Board(levels[n - 1]) for n in (10, 139, 141)})
    return boards


ROOM_BOARDS = _boards_with_rooms()


@pytest.mark.parametrize("name", ROOM_BOARDS)
def test_the_plan_replays_legally_and_fills_the_room(name):
    """The prefix from the start, then each planned entry (a box pushed in from its square
    outside, the player behind it) from what the room then holds, play box by box and end
    with every goal filled; what each entry leaves is a settled room."""
    board = ROOM_BOARDS[name]
    room = GoalRoom(board)
    assert room.active, name
    e, inside = room.entrance, room.inside
    boxes = _play(board, room.prefix, board.start_boxes & room.room, board.player_start) & inside
    for _ in range(len(room.entries)):
        if boxes == board.goals:
            break
        src, steps = next((src, steps) for (held, src), steps in room.entries.items() if held == boxes)
        assert steps[0] == (src, board.offsets.index(e - src))  # it starts with the push onto the entrance
        boxes = _play(board, steps, boxes | 1 << src, 2 * src - e) & inside
        assert boxes in room.settled
    assert boxes == board.goals


def test_no_plan_when_a_goal_cannot_be_filled():
    """The goal is round a corner at the end of a corridor: no box can be pushed onto it,
    so the pull search runs out of states and the room gets no plan and no macros."""
    b = Board(parse_level(" #####\n #. ##\n ## ##\n### ###\n#  $ @#\n#     #\n#######"))
    room = GoalRoom(b)
    assert room.entrance is not None and room.room == b.goals
    assert not room.entries and not room.prefix and not room.settled and not room.active


def test_the_plan_search_gives_up_at_its_state_limit(monkeypatch):
    """Microban 141's plan takes a few thousand states: under a lower limit (checked every
    thousand or so expansions) there is no plan."""
    b = Board(parse_levels(bundled_text("microban"), "microban")[140])
    assert GoalRoom(b).active
    monkeypatch.setattr(goalroom, "MAX_PLAN_STATES", 500)
    room = GoalRoom(b)
    assert room.entrance is not None and not room.active and not room.entries
