"""The reverse (pull) search: from the solved position back to the start, read as pushes."""

from __future__ import annotations

from itertools import permutations

import pytest
from searchkit_sokoban.board import INF, Board, bits, flood
from searchkit_sokoban.levels import load_level, parse_level
from searchkit_sokoban.lurd import replay_lurd, to_lurd
from searchkit_sokoban.problem import SokobanProblem
from searchkit_sokoban.pull import PULL, PULL_GUIDES, PullProblem

from searchkit import BestFirstSearch, Limits, backward_search, forward_path, greedy

TINY = [
    "#######\n#@    #\n# $$  #\n#  .. #\n#     #\n#######",
    "######\n#.   #\n#.$$ #\n##   #\n# @  #\n######",
    "######\n# .  #\n# $$ #\n#.$@ #\n#  . #\n######",
    "#######\n#.#####\n#.#####\n# $ $ #\n#.  $@#\n##    #\n#######",
    # unsolvable: the box can only slide along the top wall, the goal is below it
    "######\n#$ @ #\n#  . #\n######",
]


def run(problem: SokobanProblem, budget: int = 100_000, gateway: int = 0, guides=PULL_GUIDES[PULL]) -> BestFirstSearch:
    """The core's greedy backward search of the pull problem, stepped as a portfolio does."""
    search = backward_search(PullProblem(problem, gateway, guides), order="greedy")
    while not search.step(64) and search.expanded < budget:
        pass
    return search


@pytest.mark.parametrize("guides", PULL_GUIDES)
@pytest.mark.parametrize("gateway", [0, 4, 12, 40])
@pytest.mark.parametrize("text", TINY)
def test_pull_solves_exactly_the_solvable_tiny_levels_and_its_pushes_replay(text, gateway, guides):
    board = Board(parse_level(text))
    problem = SokobanProblem(board, "nearest-goal")
    forward = greedy(problem, limits=Limits(max_expanded=100_000))
    search = run(problem, gateway=gateway, guides=PULL_GUIDES[guides])
    assert (search.goal is not None) == forward.solved
    if forward.solved:
        actions, states, cost = forward_path(search)
        assert states[0] == problem.initial_state() and problem.is_goal(states[-1])
        done = replay_lurd(board.level, to_lurd(board, actions))
        assert done.pushes == cost == len(actions)
    else:
        assert search.status == "no-solution"  # exhausted: no way back to the start


@pytest.mark.parametrize("number", [146])
def test_pull_solves_levels_that_defeat_greedy_nearest_goal_forwards(number):
    board = Board(load_level(f"microban:{number}"))
    problem = SokobanProblem(board, "nearest-goal", tunnels=True, goalroom=True)
    assert not greedy(problem, limits=Limits(max_expanded=20_000)).solved
    search = run(problem, budget=20_000)
    assert search.goal is not None
    actions, _states, cost = forward_path(search)
    assert replay_lurd(board.level, to_lurd(board, actions)).pushes == cost


def test_an_already_solved_level_needs_no_pull():
    board = Board(parse_level("#####\n#@*.#\n#  $#\n#####".replace(".", " ").replace("$", "*")))
    search = run(SokobanProblem(board, "nearest-goal"))
    assert search.goal is not None and forward_path(search)[0] == []


@pytest.mark.parametrize("level", ["microban:93", "microban:153", "xsokoban:3", "sasquatch:7"])
def test_every_pulled_position_keeps_a_whole_region_of_the_free_floor(level):
    """The regions the pulls work out without a flood fill are whole regions: a flood from
    their lowest square, between the boxes, gives them back exactly."""
    board = Board(load_level(level))
    pull = PullProblem(SokobanProblem(board, "nearest-goal"))
    search = backward_search(pull, order="greedy")
    search.step(300)
    assert len(pull._regions) > 300
    for (boxes, low), region in pull._regions.items():
        assert (region & -region).bit_length() - 1 == low
        assert flood(region & -region, board.floor & ~boxes, board.width) == region


@pytest.mark.parametrize("level", ["xsokoban:1", "sasquatch:1", "sasquatch:3"])
def test_the_pull_estimates_are_nearest_start_square_and_the_best_assignment(level):
    """On every position the pulls reach: nearest-goal is each box's fewest pulls to its
    nearest start square, summed; matching the least sum over the ways to give each box a
    start square of its own (by brute force), and a position with none is never made."""
    board = Board(load_level(level))
    pull = PullProblem(SokobanProblem(board, "nearest-goal"), guides=PULL_GUIDES[PULL])
    starts = bits(pull.start[0])
    dist = {t: pull_distances(board, t) for t in starts}
    search = backward_search(pull, order="greedy")
    search.step(200)
    assert len(search.g_of) > 20
    for boxes, _low in search.g_of:
        xs = bits(boxes)
        near = sum(min(dist[t].get(x, INF) for t in starts) for x in xs)
        best = min(sum(dist[t].get(x, INF) for x, t in zip(xs, p)) for p in permutations(starts))
        assert pull.backward_heuristic((boxes, 0)) == min(near, INF)
        assert pull.backward_guides[0]((boxes, 0)) == best < INF


def pull_distances(board: Board, target: int) -> dict[int, int]:
    """Fewest pulls from each square to ``target`` on the empty board, by a plain search of pulls."""
    w = board.width
    dist, frontier = {target: 0}, [target]
    while frontier:
        nxt = []
        for y in frontier:  # a pull takes a box from y - o to y, the player from y to y + o
            for o in (-w, w, -1, 1):
                x = y - o
                if board.floor >> x & 1 and board.floor >> (y + o) & 1 and x not in dist:
                    dist[x] = dist[y] + 1
                    nxt.append(x)
        frontier = nxt
    return dist


def test_both_estimates_in_turns_solve_what_nearest_start_square_alone_does_not():
    """Sasquatch II 41: the boxes' nearest start squares crowd together, so nearest-goal
    alone wanders; with matching's open list taking turns the pulls find the start."""
    board = Board(load_level("sasquatch:41"))
    problem = SokobanProblem(board, "nearest-goal", tunnels=True, goalroom=True)
    alone = run(problem, budget=30_000, guides=PULL_GUIDES[f"{PULL}-nearest-goal"])
    assert alone.goal is None
    search = run(problem, budget=30_000)
    assert search.goal is not None
    actions, _states, cost = forward_path(search)
    assert replay_lurd(board.level, to_lurd(board, actions)).pushes == cost


def test_the_layer_guide_fills_the_deepest_unfinished_layer_first():
    """`LayerGuide` (the forward packing guide's and the pull search's start-order guide's):
    boxes on targets of the deepest layer with an empty target, or of deeper ones, are
    settled; every other box - one parked on a later layer's target too - costs ``step``
    plus its distance to that layer."""
    from searchkit_sokoban.packing import LayerGuide

    # targets 10, 11, 12 filled in that order (layer 0, 12, is filled last); keys are squares
    rows: list[tuple[int, ...] | None] = [None] * 20
    rows[10], rows[11], rows[12] = (0, 1, 2), (1, 0, 1), (2, 1, 0)
    rows[5] = (5, 6, 7)
    guide = LayerGuide(rows, [10, 11, 12], [1 << 12, 1 << 11, 1 << 10])
    step = guide.step
    assert step == 8  # one more than the farthest box's distance to a layer
    boxes = [10, 11, 12]
    assert guide.cost(boxes, sum(1 << x for x in boxes)) == 0
    # 10 empty: the boxes on 11 and 12 wait out of turn, the box on 5 heads for 10
    boxes = [5, 11, 12]
    assert guide.cost(boxes, sum(1 << x for x in boxes)) == (step + 5) + (step + 1) + (step + 2)
    # 10 full: it is settled, and layer 1 (11) is next
    boxes = [10, 5, 12]
    assert guide.cost(boxes, sum(1 << x for x in boxes)) == (step + 6) + (step + 1)


def test_the_start_order_guide_is_nought_at_the_start_and_orders_a_cramped_start():
    """``pull-packing``: a third open list whose guide fills the start squares in their own
    packing order (`Packing.start_layers_of`), the deepest squares of a cramped start first."""
    from searchkit_sokoban.pull import PULL_PACKING

    board = Board(load_level("sasquatch:24"))
    pull = PullProblem(SokobanProblem(board, "nearest-goal"), guides=PULL_GUIDES[PULL_PACKING])
    start_order = pull.backward_guides[-1]
    assert start_order(pull.start) == 0
    assert len(pull.backward_guides) == 2  # matching's list and the start order's
    search = backward_search(pull, order="greedy")
    search.step(300)
    assert all(0 < start_order(s) < INF for s in search.g_of if s[0] != pull.start[0])


def test_no_position_whose_boxes_lack_start_squares_of_their_own_is_expanded():
    """The matching guide's dead end (the board's INF) is the core's infinity, so the
    alternation drops the position: before, the nearest-goal list, on which it is finite,
    expanded it (Microban 153: one at the 12,380th expansion, aimed at the gateway)."""
    import math

    from searchkit_sokoban.gateway import GATEWAY_BUDGET

    board = Board(load_level("microban:153"))
    pull = PullProblem(SokobanProblem(board, "nearest-goal"), GATEWAY_BUDGET)
    search = backward_search(pull, order="greedy")
    search.step(13_000)
    (matching,) = pull.backward_guides
    expanded = [state for state, g in search.g_of.items() if g < 0]
    assert len(expanded) > 12_900 and all(matching(state) < math.inf for state in expanded)
    assert any(matching(state) == math.inf for state in search.g_of)  # met, and dropped
