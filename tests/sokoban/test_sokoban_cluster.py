"""Cluster deadlocks (`cluster.ClusterProver`): sound on whole push graphs, and finding what
the other detectors miss.

The oracle is `space` (test_sokoban_deadlocks): every state of a tiny level with no pruning
and its true distance to the goal, so "dead" means no push sequence solves it.
"""

from __future__ import annotations

import pytest
from searchkit_sokoban.board import Board, bits
from searchkit_sokoban.cluster import ClusterProver
from searchkit_sokoban.deadlocks import CLUSTER
from searchkit_sokoban.levels import bundled_text, parse_level, parse_levels
from searchkit_sokoban.problem import SokobanProblem
from test_sokoban_deadlocks import TINY, space

LEVELS = TINY + [lv.text() for lv in parse_levels(bundled_text("microban"))[:3]]

# dead, though no box is frozen, no corral is shut and every box has a goal of its own: the
# box at (3,1) can only go down, onto the corner goal, and the column above it is then sealed
COLUMN = "#######\n#.#####\n#.#####\n#$ $@ #\n#.$   #\n##    #\n#######"
# Microban 2 with its two boxes pushed against the top wall: neither can ever get below it
TOP_WALL = "  ####\n###@ ####\n# $ $   #\n# #  #  #\n# . .#  #\n#########"


@pytest.mark.parametrize("text", LEVELS)
def test_never_fires_on_a_solvable_state_and_fires_on_dead_ones(text):
    board, states, dist = space(text)
    prover = ClusterProver(board)
    fired = 0
    for boxes, player in states:
        dead = any(prover.dead(x, player, boxes) for x in bits(boxes))
        solvable = (boxes, player) in dist
        assert not (dead and solvable), "a cluster deadlock on a solvable state"
        fired += dead
    if len(bits(board.start_boxes)) > 1:
        assert fired, "no dead state found on a level with several boxes"


@pytest.mark.parametrize("text", [TOP_WALL])
def test_finds_deadlocks_no_other_detector_finds(text):
    board = Board(parse_level(text))
    boxes, player = board.start_boxes, board.player_start
    _board, _states, dist = space(text)
    start = SokobanProblem(board, "matching").initial_state()
    assert start not in dist, "the oracle says the start is dead"
    others = SokobanProblem(board, "matching", frozenset({CLUSTER}), clusters=True).pruning
    assert others.dead_end(boxes, player) is None
    assert SokobanProblem(board, "matching").pruning.dead_end(boxes, player) is None  # off unless asked
    why = SokobanProblem(board, "matching", clusters=True).pruning.dead_end(boxes, player)
    assert why is not None and why.detector == CLUSTER
    assert "can never all reach goals" in str(why)


def test_a_column_sealed_by_the_box_going_down_is_dead_by_the_corral_proof():
    # the corral proof finds COLUMN dead with the cluster detector off: the freeze rule its pushes
    # use calls dead a push beside a box frozen off goal whichever box it froze
    # (`freeze_rule.freeze_dead`)
    board = Board(parse_level(COLUMN))
    _board, _states, dist = space(COLUMN)
    assert SokobanProblem(board, "matching").initial_state() not in dist, "the oracle says the start is dead"
    others = SokobanProblem(board, "matching", frozenset({CLUSTER}), clusters=True).pruning
    assert others.dead_end(board.start_boxes, board.player_start) is not None


def test_a_dead_search_remembers_every_position_it_met():
    board = Board(parse_level(TOP_WALL))
    prover = ClusterProver(board)
    boxes, player = board.start_boxes, board.player_start
    box = bits(boxes)[0]
    assert prover.dead(box, player, boxes)
    assert prover.searches == prover.proved == 1
    assert sum(prover.known.values()) > 1  # the start and the positions it leads to
    assert prover.dead(box, player, boxes) and prover.searches == 1  # asked again: remembered


def test_a_lone_box_or_boxes_on_goals_are_not_searched():
    board = Board(parse_level("#######\n#@    #\n# $ * #\n#  .  #\n#     #\n#######"))
    prover = ClusterProver(board)
    boxes = board.start_boxes
    for x in bits(boxes):
        assert not prover.dead(x, board.player_start, boxes)
    board = Board(parse_level("#######\n#@    #\n# $   #\n#   . #\n#     #\n#######"))
    prover = ClusterProver(board)
    assert not prover.dead(bits(board.start_boxes)[0], board.player_start, board.start_boxes)
    assert prover.searches == 0


def test_the_cluster_is_the_boxes_linked_within_two_squares_cut_to_the_nearest():
    rows = ["###########", "#@        #", "# $ $  $  #", "#   $     #", "# ....    #", "#         #", "###########"]
    board = Board(parse_level("\n".join(rows)))
    w = board.width
    sq = lambda r, c: r * w + c  # noqa: E731
    boxes = board.start_boxes
    assert board.goals.bit_count() == 4
    linked = ClusterProver(board).cluster(sq(2, 2), boxes)
    assert linked == (1 << sq(2, 2)) | (1 << sq(2, 4)) | (1 << sq(3, 4))  # (2,7) is three columns away
    assert ClusterProver(board, max_boxes=2).cluster(sq(2, 2), boxes) == (1 << sq(2, 2)) | (1 << sq(2, 4))
    assert ClusterProver(board).cluster(sq(2, 7), boxes) == 1 << sq(2, 7)


def test_the_game_warns_of_a_cluster_deadlock_and_the_search_leaves_it_to_the_others():
    from searchkit_sokoban.game import SokobanGame

    level = parse_level(TOP_WALL)
    game = SokobanGame(level)
    warning = game.deadlock()
    assert warning is not None and "(cluster)" in warning
    assert SokobanGame(level, disabled=frozenset({CLUSTER})).deadlock() is None
    assert SokobanProblem(Board(level), "matching").pruning.clusters is None


@pytest.mark.parametrize("number", [2, 5, 10])
def test_astar_with_cluster_proofs_finds_the_same_optimal_cost(number):
    from searchkit import replay, solve

    level = parse_levels(bundled_text("microban"))[number - 1]
    costs = {}
    for clusters in (False, True):
        problem = SokobanProblem(Board(level), "matching", clusters=clusters)
        result = solve(problem, "astar")
        assert result.status == "solved"
        assert replay(problem, result) == result.cost
        costs[clusters] = result.cost
    assert costs[True] == costs[False]


def test_cluster_deadlocks_option_turns_the_proofs_on_for_the_searches():
    from searchkit_sokoban.domain import SokobanDomain

    domain = SokobanDomain()
    heuristic = domain.builtin_heuristics()["matching"]
    plain = domain.make_problem({"level_file": "microban:2"}, heuristic)
    proved = domain.make_problem({"level_file": "microban:2", "cluster_deadlocks": True}, heuristic)
    assert plain.pruning.clusters is None
    assert proved.pruning.clusters is not None
    assert proved.variant("nearest-goal").pruning.clusters is not None  # the portfolio's members too
    off = {"level_file": "microban:2", "cluster_deadlocks": True, "no_deadlock": "cluster"}
    assert domain.make_problem(off, heuristic).pruning.clusters is None
