"""Closed diagonal deadlocks (`diagonal`) and corral deadlocks proved by search (`corral_search`).

Both must be sound: on tiny levels whose whole push graph is enumerated (the oracle of
`test_sokoban_deadlocks`) neither flags a solvable position, and neither flags any position
along solutions of Microban levels.  Hand-made boards check that they fire where the other
detectors are silent, and stay silent on near misses.
"""

from __future__ import annotations

from functools import cache

import pytest
from searchkit_sokoban.board import bits, flood
from searchkit_sokoban.corral import pi_corral_boxes
from searchkit_sokoban.corral_search import CorralProver
from searchkit_sokoban.deadlocks import CORRAL
from searchkit_sokoban.diagonal import ClosedDiagonal
from searchkit_sokoban.levels import bundled_text, parse_levels
from searchkit_sokoban.problem import SokobanProblem
from test_sokoban_deadlocks import TINY, space

from searchkit import Limits
from searchkit.solving import execute, prepare

# the empty square under the player's corridor is closed by walls and three boxes, none of
# which can move while it stays closed (the box beside it would go into a corner)
DIAGONAL_DEAD = """\
  ####
 ##@ #
## $.##
# $$  #
# . . #
###   #
  #####"""
# near misses: one box lower (nothing is closed), or the player inside the closed square
DIAGONAL_OPEN = """\
  ####
 ##  #
## $.##
#  $  #
# .$. #
###  @#
  #####"""
DIAGONAL_PLAYER_INSIDE = """\
  ####
 ##  #
##@$.##
# $$  #
# . . #
###   #
  #####"""
# the goal above the two boxes can be filled by one of them, but the player never gets there
# to leave the other on a goal: no push opens the area (PI-corral pruning sees pushes in)
CORRAL_DEAD = """\
####
# .#
#$$###
#+   #
#    #
#  ###
####"""
CORRAL_OPEN = """\
####
# .#
#$ ###
#+$  #
#    #
#  ###
####"""
# the empty goal in the column is shut in by boxes on goals, none of which can ever move:
# every box stands on a goal but one, yet the hole can never be filled
SEALED_GOAL = """\
######
#@   #
# $  #
###*##
###*##
###.##
###*##
######"""

# the box can only be pushed left, into a pocket without a goal that ends at a block of boxes
# frozen on goals: the player follows it in, yet the goal on the right is never filled (the
# matching is finite: without the boxes, the block's boxes could go right)
POCKET_BEHIND_FROZEN = """\
##########
#**   $ .#
#**##### #
#   @    #
##########"""


# the first Microban levels with at most 6 boxes (the 8-box checkerboard takes a minute);
# those of 6 boxes take most of a minute each to enumerate, so they run under the slow mark
FIRST = [lv.text() for lv in parse_levels(bundled_text("microban"))[:12]]
ENUMERATED = TINY + [t for t in FIRST if t.count("$") + t.count("*") <= 5]
HEAVY = [t for t in FIRST if t.count("$") + t.count("*") == 6]


@cache
def enumerated(text: str):
    return space(text)


def verdicts(text: str) -> tuple[bool, bool, bool, object]:
    """(solvable, closed diagonal, corral proof, what the older detectors say) for the start."""
    board, states, dist = space(text)
    boxes, player = states[0]
    reach = flood(1 << player, board.floor & ~boxes, board.width)
    diagonal = ClosedDiagonal(board)
    diag = any(diagonal.dead(x, boxes, board.player_start) for x in bits(boxes))
    corral = CorralProver(board).dead(boxes, reach)
    return states[0] in dist, diag, corral, older_verdict(board, boxes, board.player_start)


def older_verdict(board, boxes: int, player: int) -> str | None:
    """What the detectors before these say: the search's pruning without the corral proofs
    (dead squares, freeze, bipartite, then a PI-corral no push enters)."""
    pruning = SokobanProblem(board, "matching", frozenset({CORRAL})).pruning
    found = pruning.dead_end(boxes, player)
    if found is not None:
        return found.detector
    reach = flood(1 << player, board.floor & ~boxes, board.width)
    return CORRAL if pi_corral_boxes(board, boxes, reach, True) == 0 else None


def test_a_closed_diagonal_is_dead_where_the_older_detectors_are_silent():
    # the corral proof sees it too: the barrier with the box jammed beside it cannot move
    assert verdicts(DIAGONAL_DEAD) == (False, True, True, None)


@pytest.mark.parametrize("text", [DIAGONAL_OPEN, DIAGONAL_PLAYER_INSIDE])
def test_near_misses_of_a_closed_diagonal_are_alive(text):
    assert verdicts(text) == (True, False, False, None)


def test_a_corral_no_push_sequence_opens_is_dead():
    assert verdicts(CORRAL_DEAD) == (False, False, True, None)


def test_a_corral_that_a_push_opens_is_alive():
    assert verdicts(CORRAL_OPEN) == (True, False, False, None)


def test_an_empty_goal_shut_in_by_boxes_on_goals_is_dead():
    """The freeze test sees it when the last box pushed is one of the frozen ones; the
    proof sees it whichever box moved last."""
    assert verdicts(SEALED_GOAL) == (False, False, True, "freeze")


def test_a_box_that_can_only_go_into_a_dead_pocket_is_dead():
    """The proof treats boxes frozen on goals as walls and, for a barrier of one box,
    searches on after the player steps into the area behind the box."""
    assert verdicts(POCKET_BEHIND_FROZEN) == (False, False, True, None)


@pytest.mark.parametrize("text", [CORRAL_DEAD, DIAGONAL_DEAD])
def test_the_search_and_the_deadlock_notice_use_the_proofs(text):
    """The push search prunes what the proofs find, and the game's notice names it."""
    board, states, _dist = enumerated(text)
    boxes, player = states[0]
    problem = SokobanProblem(board, "matching")
    assert problem.successors(problem.initial_state()) == []
    assert problem.pruning.dead_end(boxes, player).detector == CORRAL


@pytest.mark.parametrize("text", ENUMERATED + [pytest.param(t, marks=pytest.mark.slow) for t in HEAVY])
def test_neither_flags_a_solvable_position(text):
    board, states, dist = enumerated(text)
    diagonal, prover = ClosedDiagonal(board), CorralProver(board)
    for boxes, player in states:
        reach = flood(1 << player, board.floor & ~boxes, board.width)
        flagged = prover.dead(boxes, reach) or any(diagonal.dead(x, boxes, player) for x in bits(boxes))
        assert not flagged or (boxes, player) not in dist, "\n".join(board.render(boxes, player))


def test_they_find_deadlocks_the_older_detectors_miss():
    """Over the enumerated levels, some dead positions are caught by these alone."""
    found = 0
    for text in ENUMERATED:
        board, states, dist = enumerated(text)
        diagonal, prover = ClosedDiagonal(board), CorralProver(board)
        for boxes, player in states:
            if (boxes, player) in dist or older_verdict(board, boxes, player) is not None:
                continue
            reach = flood(1 << player, board.floor & ~boxes, board.width)
            found += prover.dead(boxes, reach) or any(diagonal.dead(x, boxes, player) for x in bits(boxes))
    assert found >= 10


@pytest.mark.parametrize("number", range(1, 156, 14))
def test_no_position_along_a_microban_solution_is_flagged(number):
    job = prepare("sokoban", {"level_file": f"microban:{number}"})
    result = execute(job, Limits(timeout_s=20))
    assert result.solved
    board = job.problem.board
    diagonal, prover = ClosedDiagonal(board), CorralProver(board)
    for boxes, player in result.states:
        reach = flood(1 << player, board.floor & ~boxes, board.width)
        assert not prover.dead(boxes, reach)
        assert not any(diagonal.dead(x, boxes, player) for x in bits(boxes))
