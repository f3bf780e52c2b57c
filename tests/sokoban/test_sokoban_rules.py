"""The one rule of a move (`rules`): what it allows, that the search's pushes are its pushes,
and that the replay, the pictures and the game refuse the same moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from searchkit_sokoban.board import DIRS, Board, Layout, bits, flood
from searchkit_sokoban.game import SokobanGame
from searchkit_sokoban.goalroom import expand_route
from searchkit_sokoban.levels import bundled_text, parse_level, parse_levels
from searchkit_sokoban.lurd import replay_lurd
from searchkit_sokoban.picture import grid_of, replay_positions
from searchkit_sokoban.problem import SokobanProblem
from searchkit_sokoban.rules import (
    BLOCKED,
    INTO_BOX,
    INTO_WALL,
    NO_BOX,
    NOT_A_LETTER,
    Step,
    free_squares,
    illegal,
    pullable,
    pushable,
    step,
    unstep,
)

MICROBAN = parse_levels(bundled_text("microban"))
LEVEL = """\
#######
#. $  #
#@$$ .#
#   . #
#######
"""


def sq(layout, r: int, c: int) -> int:
    return r * layout.width + c


def test_step_walks_pushes_and_says_why_not():
    lay = Layout.of(parse_level(LEVEL))
    boxes, player = lay.boxes, lay.player
    assert player == sq(lay, 2, 1)
    assert step(lay, boxes, player, "u") == Step(boxes, sq(lay, 1, 1), False)
    for letter, why in (
        ("l", INTO_WALL),
        ("L", INTO_WALL),
        ("r", INTO_BOX),
        ("R", BLOCKED),
        ("U", NO_BOX),
        ("x", NOT_A_LETTER),
        ("", NOT_A_LETTER),
        ("ru", NOT_A_LETTER),
        (None, NOT_A_LETTER),
    ):
        assert step(lay, boxes, player, letter) == why, letter
    # not strict (the game): the case does not matter, a box ahead is pushed if it can go
    assert step(lay, boxes, player, "U", strict=False) == Step(boxes, sq(lay, 1, 1), False)
    assert step(lay, boxes, player, "r", strict=False) == BLOCKED
    below = step(lay, boxes, player, "d").player
    beside = step(lay, boxes, below, "r").player  # (3, 2), under the box on (2, 2)
    pushed = step(lay, boxes, beside, "U")
    assert pushed == Step(boxes ^ (1 << sq(lay, 2, 2)) ^ (1 << sq(lay, 1, 2)), sq(lay, 2, 2), True)
    assert step(lay, boxes, beside, "u", strict=False) == pushed
    assert unstep(lay, pushed.boxes, pushed.player, "U") == (boxes, beside)
    assert unstep(lay, boxes, below, "d") == (boxes, player)
    # the box on (1, 2) now has the box on (1, 3) beyond it: blocked; a box against the wall too
    assert step(lay, pushed.boxes, sq(lay, 1, 1), "R") == BLOCKED
    assert step(lay, boxes, sq(lay, 2, 4), "L") == BLOCKED
    assert illegal(3, "x", NOT_A_LETTER) == "move 3: 'x' is not a LURD letter"
    assert illegal(3, "R", BLOCKED) == "move 3 (R): the box is blocked"


def test_pushable_is_step_for_many_boxes_at_once():
    board = Board(parse_level(LEVEL))
    boxes = board.start_boxes
    free = free_squares(board, boxes)
    reach = flood(1 << board.player_start, free, board.width)
    for k, o in enumerate(board.offsets):
        expected = 0
        for p in bits(reach):
            moved = step(board, boxes, p, DIRS[k].upper())
            if isinstance(moved, Step):
                expected |= 1 << moved.player  # the pushed box stood where the player now is
        assert pushable(boxes, reach, free, o) == expected, DIRS[k]


def test_pullable_is_a_push_undone_for_many_boxes_at_once():
    """A box is pullable by ``o`` from the player's region exactly when, after the pull, the
    player's push the opposite way (`step`) is legal and brings the position back."""
    rng = random.Random(7)
    for level in MICROBAN[:40]:
        board = Board(level)
        floor = bits(board.floor)
        for _ in range(5):
            boxes = sum(1 << x for x in rng.sample(floor, min(len(floor) - 1, len(board.goal_list))))
            free = free_squares(board, boxes)
            reach = flood(1 << rng.choice(bits(free)), free, board.width)
            for k, o in enumerate(board.offsets):
                expected = 0
                for stand in bits(reach):
                    x = stand - o  # the box the player pulls as it walks on by o
                    walk = step(board, boxes, stand, DIRS[k])
                    if not (boxes >> x & 1 and isinstance(walk, Step)):
                        continue
                    pulled = boxes ^ (1 << x) ^ (1 << stand)
                    back = step(board, pulled, walk.player, DIRS[k ^ 1].upper())  # the push that undoes it
                    assert isinstance(back, Step) and (back.boxes, back.player) == (boxes, stand)
                    expected |= 1 << x
                assert pullable(boxes, reach, free, o) == expected, DIRS[k]


def test_the_layout_is_the_boards():
    for level in MICROBAN[::10]:
        lay, board = Layout.of(level), Board(level)
        assert (lay.floor, lay.width, lay.offsets, lay.player) == (
            board.floor,
            board.width,
            board.offsets,
            board.player_start,
        )
        assert board.start_boxes == lay.boxes & lay.floor and board.goals == lay.goals & lay.floor
        assert [r.rstrip() for r in lay.rows(lay.boxes, lay.player)] == level.text().splitlines()


def _replay_action(board, state, action, moves_mode: bool):
    """Play one action of the search (a push, a tunnel run or a goal-room route) with `step`."""
    boxes, player = state
    for src, k, count in expand_route(action):
        stand = src - board.offsets[k]
        assert flood(1 << player, free_squares(board, boxes), board.width) >> stand & 1, "the player cannot get there"
        player = stand
        for _ in range(count):
            moved = step(board, boxes, player, DIRS[k].upper())
            assert isinstance(moved, Step), moved
            boxes, player = moved.boxes, moved.player
    if not moves_mode:
        region = flood(1 << player, free_squares(board, boxes), board.width)
        player = (region & -region).bit_length() - 1
    return boxes, player


@pytest.mark.parametrize("level", MICROBAN[::6], ids=lambda lv: lv.label)
def test_every_push_the_search_generates_replays_through_step(level):
    """From random positions: each child of the search, macros included, is where `step` takes the boxes."""
    board = Board(level)
    rng = random.Random(level.number)
    for problem in (
        SokobanProblem(board, "nearest-goal", tunnels=True, goalroom=True),
        SokobanProblem(board, "matching", optimize="moves"),
    ):
        state, seen = problem.initial_state(), 0
        for _ in range(40):
            kids = problem.successors(state)
            for action, child, _cost in kids:
                assert _replay_action(board, state, action, problem.moves) == child, (str(action), level.label)
                seen += 1
            state = rng.choice(kids)[1] if kids else problem.initial_state()
        assert seen


def _illegal_everywhere(level, lurd: str):
    """Each prefix of ``lurd`` followed by each letter: what replay, pictures and the game say."""
    lay, grid = Layout.of(level), grid_of(level)
    boxes, player = lay.boxes, lay.player
    game = SokobanGame(level)
    checked = 0
    for i in range(len(lurd) + 1):
        for letter in DIRS + DIRS.upper():
            why = step(lay, boxes, player, letter)
            moves = lurd[:i] + letter
            if isinstance(why, Step):
                continue
            message = illegal(i + 1, letter, why)
            with pytest.raises(AssertionError) as replayed:
                replay_lurd(level, moves)
            with pytest.raises(ValueError) as pictured:
                replay_positions(grid, moves)
            assert str(replayed.value) == str(pictured.value) == message
            loose = step(lay, boxes, player, letter, strict=False)
            recorded = game.apply(letter)
            if isinstance(loose, Step):  # the wrong case: the game makes the move, recorded in the right one
                assert why in (INTO_BOX, NO_BOX) and loose == step(lay, boxes, player, letter.swapcase())
                assert recorded == letter.swapcase()
                game.revert(recorded)
            else:
                assert recorded is None and loose in (INTO_WALL, BLOCKED)
            assert (game.box_bits, game.square) == (boxes, player)
            checked += 1
        if i < len(lurd):
            moved = step(lay, boxes, player, lurd[i])
            boxes, player = moved.boxes, moved.player
            assert game.play(lurd[i]) and game.history[-1] == lurd[i]
    return checked


def test_replay_pictures_and_game_refuse_the_same_moves():
    level = parse_level("  ####\n###  ####\n#     $ #\n# #  #$ #\n# . .#@ #\n#########\n")
    assert _illegal_everywhere(level, "ruuLLLulDrrrrddlUruLLLddllluurRDrdLuuurDD") > 100
    assert _illegal_everywhere(parse_level(LEVEL), "dr") > 5


@given(st.integers(0, 1 << 1200))
def test_bits_reads_a_mask_of_any_size_a_byte_at_a_time(mask):
    """`bits` (a byte table) names the squares a bit at a time would, ascending."""
    squares = [x for x in range(mask.bit_length()) if mask >> x & 1]
    assert bits(mask) == squares
    assert sum(1 << x for x in bits(mask)) == mask
