"""Deadlock detectors and heuristics: must fire on dead boards, never on solvable ones.

The soundness checks enumerate the whole push graph of tiny levels with every detector off,
find each state's true distance to the goal, and check that no detector flags a solvable
state, that both heuristics are admissible, and that the fully pruned successor function
still offers an optimal next push from every solvable state.  On the same graphs the search
prunes exactly the pushes that `Pruning.dead_end` (the game's deadlock warning) calls dead.
"""

from __future__ import annotations

from collections import deque

import pytest
from searchkit_sokoban.board import DIRS, INF, Board, bits, flood
from searchkit_sokoban.corral import pi_corral_boxes
from searchkit_sokoban.deadlocks import CORRAL, DETECTORS, freeze_deadlock, frozen_group, parse_disabled
from searchkit_sokoban.levels import bundled_text, load_level, parse_level, parse_levels
from searchkit_sokoban.packing import Packing
from searchkit_sokoban.problem import SokobanProblem
from searchkit_sokoban.rules import Step, step

TINY = [
    # box against walls, corners, a 2x2 risk
    "#######\n#@    #\n# $$  #\n#  .. #\n#     #\n#######",
    # corral behind a box line
    "######\n#.   #\n#.$$ #\n##   #\n# @  #\n######",
    # tunnel and goal room
    "########\n#   #..#\n# $ $  #\n#  @   #\n########",
    # three boxes, tight
    "######\n# .  #\n# $$ #\n#.$@ #\n#  . #\n######",
    # player-side distances matter (dead end behind the box)
    "#######\n###.###\n#  $  #\n# #@# #\n#     #\n#######",
    # a dead-end column of goals whose mouth needs the corner goal (4,1) empty to push up
    "#######\n#.#####\n#.#####\n# $ $ #\n#.  $@#\n##    #\n#######",
    # a goal room filled from its mouth: boxes frozen on goals, one goal behind the mouth box
    "#########\n#  ######\n#*.*  $@#\n#***#   #\n#***#   #\n#########",
]


def matching_cost(rows: list[tuple[int, ...]]) -> int:
    """The oracle: cheapest assignment of boxes to distinct goals by SciPy (INF when none exists)."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    m = np.array(rows, dtype=np.int64)
    r, c = linear_sum_assignment(m)
    total = int(m[r, c].sum())
    return total if total < INF else INF


def square(board: Board, r: int, c: int) -> int:
    return r * board.width + c


def space(level_text: str):
    """Every reachable state with no pruning, and its true push distance (None = dead)."""
    board = Board(parse_level(level_text))
    raw = SokobanProblem(board, None, frozenset(DETECTORS))
    start = raw.initial_state()
    children: dict = {}
    queue = deque([start])
    children[start] = None
    order = []
    while queue:
        s = queue.popleft()
        order.append(s)
        kids = [c for _a, c, _k in raw.successors(s)]
        children[s] = kids
        for c in kids:
            if c not in children:
                children[c] = None
                queue.append(c)
    parents: dict = {s: [] for s in order}
    for s in order:
        for c in children[s]:
            parents[c].append(s)
    dist = {s: 0 for s in order if raw.is_goal(s)}
    queue = deque(dist)
    while queue:
        s = queue.popleft()
        for p in parents[s]:
            if p not in dist:
                dist[p] = dist[s] + 1
                queue.append(p)
    return board, order, dist


@pytest.mark.parametrize("text", TINY + [lv.text() for lv in parse_levels(bundled_text("microban"))[:3]])
def test_detectors_never_prune_a_solvable_state(text):
    board, states, dist = space(text)
    full = SokobanProblem(board, "matching")
    nearest = SokobanProblem(board, "nearest-goal")
    solvable = [s for s in states if s in dist]
    assert solvable, "the test level must be solvable"
    dead_seen = 0
    for s in states:
        boxes, player = s
        if s not in dist:
            dead_seen += 1
            continue
        d = dist[s]
        assert not any(board.is_dead[x] for x in bits(boxes)), "a box of a solvable state is on a dead square"
        for x in bits(boxes):
            assert not freeze_deadlock(x, boxes, board), "freeze fired on a solvable state"
        assert full.heuristic(s) <= d, "matching is not admissible"
        rows = [board.rowdist[x][board.comp_of(x, player)] for x in bits(boxes)]
        assert full.heuristic(s) == matching_cost(rows), "the nearest-goal shortcut disagrees with SciPy"
        assert nearest.heuristic(s) <= full.heuristic(s)
        if d:
            reach = full.region(s)
            assert pi_corral_boxes(board, boxes, reach, True) != 0, "corral called a solvable state dead"
            kids = [c for _a, c, _cost in full.successors(s)]
            assert any(dist.get(c) == d - 1 for c in kids), "pruning removed every optimal push"
    assert dead_seen, "the test level should have dead states too"


SWITCHES = [
    frozenset(),
    frozenset({"dead-squares"}),
    frozenset({"freeze"}),
    frozenset({"bipartite"}),
    frozenset({"corral"}),
    frozenset({"dead-squares", "bipartite"}),
    frozenset(DETECTORS),
]


def test_the_search_prunes_exactly_what_dead_end_says():
    """Every push the rule allows from every state: the search generates its child unless
    `dead_end` names a detector (corral restrictions aside); a corral deadlock (found when
    the search expands a state) leaves no child at all."""
    fired = {name: 0 for name in DETECTORS}
    for text in TINY + [lv.text() for lv in parse_levels(bundled_text("microban"))[:2]]:
        board, states, _dist = space(text)
        for disabled in SWITCHES:
            for heuristic in ("matching", "nearest-goal"):
                p = SokobanProblem(board, heuristic, disabled, clusters=True)
                pruning = p.pruning
                for s in states:
                    boxes, _player = s
                    reach = p.region(s)
                    kids = {c for _a, c, _cost, _h in p.successors_with_h(s, 0)}
                    barrier = pruning.corral_barrier(boxes, reach)
                    if barrier == 0:
                        assert not kids
                        continue
                    for stand in bits(reach):
                        for k, letter in enumerate(DIRS):
                            moved = step(board, boxes, stand, letter.upper())
                            if not isinstance(moved, Step):
                                continue
                            src = moved.player
                            why = pruning.dead_end(moved.boxes, src, pushed=src + board.offsets[k])
                            kept = (barrier is None or barrier >> src & 1) and (why is None or why.detector == CORRAL)
                            child = (moved.boxes, p._normal(moved.boxes, src))
                            assert (child in kids) == kept, (text, disabled, heuristic, why)
                            if why is not None:
                                assert why.detector not in disabled
                                fired[why.detector] += 1
    assert all(fired.values()), fired


def test_dead_squares_fire_in_corners_not_on_goals_or_open_floor():
    board = Board(parse_level("######\n#@   #\n# $  #\n#   .#\n######"))
    assert board.is_dead[square(board, 1, 1)] and board.is_dead[square(board, 1, 4)]
    assert board.is_dead[square(board, 1, 2)]  # along the top wall, no goal on it
    assert not board.is_dead[square(board, 3, 4)]  # the goal
    assert not board.is_dead[square(board, 2, 2)]


def test_freeze_fires_on_2x2_block_and_wall_pairs():
    board = Board(parse_level("#######\n#@    #\n#  $$ #\n#  $$ #\n# ....#\n#######"))
    boxes = board.start_boxes
    assert freeze_deadlock(square(board, 2, 3), boxes, board)
    # two boxes side by side against the top wall, one off goal
    board = Board(parse_level("#######\n# $$  #\n#   @ #\n# ..  #\n#######"))
    assert freeze_deadlock(square(board, 1, 2), board.start_boxes, board)


def test_freeze_does_not_fire_when_a_box_can_still_move():
    board = Board(parse_level("#######\n#@    #\n#  $$ #\n#   $ #\n# ... #\n#######"))
    assert not freeze_deadlock(square(board, 2, 3), board.start_boxes, board)
    # a frozen 2x2 block all on goals is fine
    board = Board(parse_level("######\n#**  #\n#**  #\n#  @ #\n######"))
    assert not freeze_deadlock(square(board, 1, 1), board.start_boxes, board)
    # a single box against a wall can slide along it
    board = Board(parse_level("#######\n#  $ .#\n#  @  #\n#######"))
    assert not freeze_deadlock(square(board, 1, 3), board.start_boxes, board)


def test_a_box_frozen_on_the_goal_at_a_corridor_mouth_seals_the_goals_behind_it():
    # the corner goal (4,1) filled first: nothing can be pushed up the column any more
    board = Board(parse_level("#######\n#.#####\n#.#####\n# $ $ #\n#*   @#\n##    #\n#######"))
    assert freeze_deadlock(square(board, 4, 1), board.start_boxes, board)
    # the same box once the column is full: alive
    board = Board(parse_level("#######\n#*#####\n#*#####\n#     #\n#*   @#\n##    #\n#######"))
    assert not freeze_deadlock(square(board, 4, 1), board.start_boxes, board)
    board = Board(parse_level("#######\n#*#####\n#.#####\n# $   #\n#*   @#\n##    #\n#######"))
    assert freeze_deadlock(square(board, 4, 1), board.start_boxes, board)  # (2,1) is sealed


def test_a_push_that_takes_the_last_box_away_from_a_goal_behind_frozen_boxes_is_dead():
    # Sasquatch II 4: boxes frozen on the goals of the left column above (9,10) leave that goal
    # to a box pushed up from (10,10) or right from (9,9); the last box that could has just
    # gone through it to (9,11).  The pushed box is not frozen: only the new check sees it.
    text = "\n".join(
        [
            "       #####",
            "     ###   #",
            "#### #     ####",
            "#  ###     #  #",
            "#    ###      #",
            "# *#     ## # #",
            "## #####$#**# ##",
            " #    ## #**#  #",
            " ##    # #*.   #",
            "# ##  $#  +*####",
            " # ##    #  #",
            "  # ####   ##",
            "   #   #####",
        ]
    )
    board = Board(parse_level(text))
    pushed = square(board, 9, 11)
    boxes = board.start_boxes
    assert pushed not in frozen_group(pushed, boxes, board)
    assert not freeze_deadlock(pushed, boxes, board)
    dead = SokobanProblem(board).pruning.dead_end(boxes, square(board, 9, 10), pushed)
    assert dead is not None and dead.detector == "freeze"
    assert "seal a goal or a box off (after the push of the box at row 10, column 12)" in str(dead)
    # one push earlier, the box still on (9,10), this cut of the level is dead too, though each
    # empty goal alone has a box that can reach it: (8,11) and (9,11) share that one box
    # (Hall's test, `matching`).  A breadth-first search of the cut with no pruning agrees
    # (no solution in its 139,759 positions)
    before = boxes ^ (1 << pushed) | (1 << square(board, 9, 10))
    dead = SokobanProblem(board).pruning.dead_end(before, square(board, 9, 9), square(board, 9, 10))
    assert dead is not None and dead.detector == "freeze"


def _alive_by(reach: list[int], loose: int, hall: bool) -> bool:
    """What `sealed_off` says with these reach sets: each goal has a box that can reach it,
    each box a goal, and (``hall``) the goals a box of their own each."""
    from searchkit_sokoban.deadlocks import matching

    options = [r & loose for r in reach]
    union = 0
    for r in options:
        union |= r
    return all(options) and not loose & ~union and (not hall or matching(options) is not None)


@pytest.mark.parametrize(
    "text, only",
    [
        # two goals have one box between them that can reach them (Hall's condition)
        ("######\n#  ###\n##.  #\n##.$*#\n#    #\n#*$#@#\n## ###\n######", "hall"),
        # the walls alone let the loose box, pushed left to (2,1), go on up onto the goal
        # (1,1); to push it up the player must stand on (3,1), which the box, the walls and
        # the box frozen on (4,1) shut off
        ("#####\n#+# #\n# $ #\n# #*#\n#*  #\n#####", "access"),
    ],
)
def test_goals_behind_boxes_frozen_on_goals_are_sealed_only_when_dead(text, only):
    """Every position of a small level that `sealed_off` calls dead is dead in the level's
    whole push graph, and on some of them only one of its tests sees it: Hall's condition
    (`matching`; each goal alone has a box that can reach it), or the player's way round to
    each push (`access_reach`; the walls alone, with Hall's condition, let every goal have a
    box)."""
    from searchkit_sokoban.access import access_reach
    from searchkit_sokoban.deadlocks import FrozenOnGoals, goal_reach, sealed_off

    board, order, dist = space(text)
    frozen_on_goals = FrozenOnGoals(board)
    only_one = 0
    for state in order:
        boxes = state[0]
        frozen = frozen_on_goals(boxes)
        if not frozen or not sealed_off(frozen, boxes, board):
            continue
        assert dist.get(state) is None, state
        loose = boxes & ~frozen
        if only == "hall":
            only_one += _alive_by(access_reach(frozen, board), loose, hall=False)
        else:
            only_one += _alive_by(goal_reach(frozen, board), loose, hall=True)
    assert only_one > 0


def test_a_goal_room_filled_from_its_mouth_stays_alive():
    # pushing the mouth box left fills the goal behind it: the frozen group names boxes twice
    # (reached along both axes), which once summed to a wrong mask and sealed a live room
    board = Board(parse_level("#########\n#  ######\n#*.*  $@#\n#***#   #\n#***#   #\n#########"))
    src, dst = square(board, 2, 3), square(board, 2, 2)
    boxes = board.start_boxes ^ (1 << src) | (1 << dst)
    group = frozen_group(dst, boxes, board)
    assert dst in group and len(group) == len(set(group))
    assert not freeze_deadlock(dst, boxes, board)
    problem = SokobanProblem(board)
    assert problem.pruning.dead_end(boxes, square(board, 2, 4), dst) is None


@pytest.mark.parametrize("name", ["sasquatch:17", "sasquatch:50", "xsokoban:1", "microban:93"])
def test_the_boxes_frozen_on_goals_are_those_a_proof_names(name):
    # FrozenOnGoals settles a box with no box beside it from the walls and dead squares
    # alone and proves only the others: the same mask as a proof tried from every box
    import random

    from searchkit_sokoban.board import mask_of
    from searchkit_sokoban.deadlocks import FrozenOnGoals

    board = Board(load_level(name))
    frozen, floor, rng = FrozenOnGoals(board), bits(board.floor), random.Random(name)
    for _ in range(300):
        boxes = mask_of(rng.sample(floor, rng.randint(1, len(floor))))
        on_goals, proved = boxes & board.goals, 0
        for x in bits(on_goals):
            proved |= mask_of(frozen_group(x, on_goals, board))
        assert frozen(boxes) == proved


def test_a_lone_box_on_a_goal_is_frozen_in_a_corner_only():
    from searchkit_sokoban.deadlocks import FrozenOnGoals

    board = Board(parse_level("######\n#*   #\n#  * #\n#  @ #\n######"))
    corner, middle = square(board, 1, 1), square(board, 2, 3)
    assert board.fixed_alone >> corner & 1 and not board.fixed_alone >> middle & 1
    assert FrozenOnGoals(board)(board.start_boxes) == 1 << corner


def test_bipartite_deadlock_is_an_infinite_matching():
    # both boxes lie against the top wall: each alone reaches the top-left goal, never the other
    board = Board(parse_level("########\n#.$ $  #\n#      #\n#   .@ #\n########"))
    p = SokobanProblem(board, "matching")
    s = p.initial_state()
    assert SokobanProblem(board, "nearest-goal").heuristic(s) < INF
    assert p.heuristic(s) == float("inf")
    assert matching_cost([(3, INF), (4, INF)]) >= INF
    assert matching_cost([(3, 5), (INF, 2)]) == 5
    assert matching_cost([(1, 2, 3), (2, 1, 3), (3, 3, 1)]) == 3


def test_corral_restricts_to_inward_pushes():
    # the goals behind the box pair can only be filled by pushing the pair up
    board = Board(parse_level("######\n#..###\n#$$  #\n#  @ #\n######"))
    p = SokobanProblem(board, "matching")
    s = p.initial_state()
    barrier = pi_corral_boxes(board, s[0], p.region(s), True)
    assert barrier == (1 << square(board, 2, 1)) | (1 << square(board, 2, 2))


def test_corral_without_inward_push_is_dead():
    # the top-left goal sits behind a box that no push can move up; the other box is free
    board = Board(parse_level("#######\n#.#####\n#$  $.#\n## @  #\n#######"))
    p = SokobanProblem(board, "nearest-goal", frozenset({"dead-squares"}))
    s = p.initial_state()
    assert pi_corral_boxes(board, s[0], p.region(s), False) == 0
    assert p.successors(s) == []
    unpruned = SokobanProblem(board, "nearest-goal", frozenset({"dead-squares", "corral"}))
    assert unpruned.successors(s) != []


def test_parse_disabled():
    assert parse_disabled("freeze, corral") == {"freeze", "corral"}
    assert parse_disabled("all") == set(DETECTORS)
    with pytest.raises(Exception, match="unknown deadlock detector"):
        parse_disabled("freeze,nope")


@pytest.mark.parametrize("text", TINY + [lv.text() for lv in parse_levels(bundled_text("microban"))[:3]])
def test_incremental_estimates_and_player_regions_match_a_fresh_computation(text):
    """Children's h (table deltas) equals h from scratch; the shortcut regions equal a flood."""
    board, states, _dist = space(text)
    problems = [
        SokobanProblem(board, "nearest-goal"),
        SokobanProblem(board, "matching"),
        SokobanProblem(board, "nearest-goal", packing=True),
    ]
    for s in states:
        boxes, _player = s
        for p in problems:
            h = p.heuristic(s)
            if h >= INF:
                continue
            for _a, child, _c, ch in p.successors_with_h(s, h):
                assert ch == p.heuristic(child), (p.h_name, p.packing)
                region = flood(1 << child[1], board.floor & ~child[0], board.width)
                assert child[1] == (region & -region).bit_length() - 1
                assert p._regions.get(child, region) == region  # kept for the child's expansion


def test_packing_order_fills_a_dead_end_corridor_from_the_back():
    board = Board(parse_level("#######\n#..   #\n###$$ #\n  #  @#\n  #####"))
    pack = Packing(board)
    back, front = square(board, 1, 1), square(board, 1, 2)
    assert pack.layers == [1 << front, 1 << back] and pack.ordered
    p = SokobanProblem(board, "nearest-goal", packing=True)
    near = SokobanProblem(board, "nearest-goal")
    other = 1 << square(board, 2, 4)
    parked = ((1 << front) | other, square(board, 3, 3))
    at_back = ((1 << back) | other, square(board, 3, 3))
    assert near.heuristic(parked) == near.heuristic(at_back)  # nearest-goal sees no difference
    assert p.heuristic(parked) > p.heuristic(at_back)  # the packing guide wants the back goal first
    assert p.heuristic(((1 << front) | (1 << back), square(board, 3, 3))) == 0
    assert not Packing(Board(parse_level("#####\n#@$.#\n#####"))).ordered


def test_packing_order_lets_the_last_box_come_round_a_detour():
    """Sasquatch II 7: a row of ten goals under a wall, closed at its left end. With the
    other nine goals full no box can be pulled off any goal back to a start square (the way
    back needs the player in the row), so the order takes the goals whose box can leave to a
    square the start boxes can be pushed to: the row fills from its closed end, which a box
    can only reach along the empty row. Before, the goals nearest the boxes were guessed
    last and the closed end came eighth."""
    from searchkit_sokoban.board import mask_of
    from searchkit_sokoban.packing import leaves_to

    board = Board(load_level("sasquatch:7"))
    goals, sources = board.goals, board.start_boxes & ~board.goals
    strict = [g for g in bits(goals) if leaves_to(board, g, goals & ~(1 << g), sources, True)]
    assert strict == []  # the first test finds no last goal: the second one decides
    outside = mask_of(board.pushes_from(sources)) & ~goals
    layers = Packing(board).layers
    assert len(layers) > 2
    for g in bits(layers[0]):  # each of the last ones can leave to where boxes come from
        assert leaves_to(board, g, goals & ~(1 << g), outside, True)
    row = sorted(bits(goals))
    assert layers[-1] == 1 << row[0]  # the closed end of the row is filled first
    # then the row from left to right, each before every goal right of it but the entrance's
    first = {g: i for i, layer in enumerate(reversed(layers)) for g in bits(layer)}
    assert [first[g] for g in row[:6]] == sorted(first[g] for g in row[:6])
