"""``sokoban-fess-aim``: FESS backwards to an open position, then FESS forwards aimed at it
(`test_sokoban_fess` solves levels with it as with the other FESS searches)."""

from __future__ import annotations

import pytest
from searchkit_sokoban.aim import (
    EARLY_POSITIONS,
    FAR,
    NEAR,
    OPEN_POSITIONS,
    AimLanes,
    AimSearch,
    Lane,
    OpenPullSearch,
    aimed_search,
    sokoban_fess_aim,
)
from searchkit_sokoban.board import Board, bits, flood
from searchkit_sokoban.features import Features
from searchkit_sokoban.hotspots import AimHotspots
from searchkit_sokoban.levels import parse_level
from searchkit_sokoban.packing import Packing

from searchkit import InputError, Limits, Observer, make_problem
from searchkit.result import NO_SOLUTION
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


def test_ordered_aimed_features_fill_a_dead_end_of_the_aim_from_its_end():
    """With ``ordered``, the aim's squares have a packing order as the goals do
    (`Packing.layers_of` with ``aim``): a box on the square at a dead end's mouth seals the square
    behind it, so it waits out of plan till that square is full."""
    board = Board(parse_level("#########\n#@ $ $ .#\n#  .#####\n#########"))
    w = board.width
    end, mouth = 1 << (w + 7), 1 << (w + 6)  # the corridor's last two squares
    aim = end | mouth
    assert Packing.layers_of(board, aim, aim) == [mouth, end]  # the mouth is filled last
    ordered = Features(board, aim=aim, ordered=True)
    assert ordered.packed(board.start_boxes) == (0, 0) and ordered.next_goals(board.start_boxes) == end
    assert ordered.packed(mouth) == (0, 1) and ordered.next_goals(mouth) == end  # out of turn
    assert ordered.packed(end) == (1, 0) and ordered.next_goals(end) == mouth
    assert ordered.packed(aim) == (2, 0)
    assert Features(board, aim=aim).packed(mouth) == (1, 0)  # in any order, it counts


def test_a_box_no_pull_can_move_is_stuck(tmp_path):
    (tmp_path / "x.txt").write_text("######\n#$$. #\n#.  @#\n######\n")
    search = OpenPullSearch(problem(str(tmp_path / "x.txt")))
    board = search.board
    left, right = bits(board.start_boxes)  # the corner box: walls above and left of it
    assert search.stuck(1 << left) == 0  # alone it can be pulled right or down
    assert search.stuck(1 << left | 1 << right | 1 << (left + board.width)) == 1  # boxed in: right, below


def test_aimed_hotspots_count_boxes_off_the_aim_in_the_way_and_aim_squares_no_push_fills():
    board = Board(parse_level("########\n#@     #\n# $  . #\n#      #\n########"))
    w = board.width
    (box,) = bits(board.start_boxes)  # in the open: nothing beside it
    aim = 1 << (box + 2)
    hot = AimHotspots(board, aim)
    assert hot.count(1 << box) == 0
    assert hot.count(1 << (box - 1)) == 1  # beside the wall on its left
    assert hot.count(aim) == 0  # on the aim: nothing to rearrange
    corner = 1 << (w + 1)  # the player's corner square: walls above and to its left
    cornered = AimHotspots(board, corner)
    assert cornered.count(1 << box) == 0  # a box can still be pushed into the corner from below or the right
    walled = 1 << (w + 3) | 1 << (3 * w + 1)  # boxes where the player would stand to push in from either side
    assert cornered.count(1 << box | walled) == 3  # the two boxes touch a wall; the corner cannot be filled


@pytest.mark.parametrize("name", ["sasquatch:10", "xsokoban:50", "microban:40"])
def test_the_all_squares_at_once_counts_agree_with_the_square_by_square_rules(name):
    """`OpenPullSearch.stuck` and `AimHotspots.count` shift whole masks; on random box and aim
    sets they count what the rules say square by square."""
    import random

    search = OpenPullSearch(problem(name))
    board = search.board
    floor, offsets = board.floor, board.offsets
    squares = bits(floor)

    def free(x, boxes):
        return 0 <= x < board.size and floor >> x & 1 and not boxes >> x & 1

    rng = random.Random(name)
    for _ in range(300):
        boxes = sum(1 << x for x in rng.sample(squares, rng.randint(1, len(squares) // 2)))
        aim = sum(1 << x for x in rng.sample(squares, rng.randint(1, len(squares) // 2)))
        # a pull moves a box when the square beside it and the one behind that are free
        stuck = sum(1 for x in bits(boxes) if not any(free(x + o, boxes) and free(x + 2 * o, boxes) for o in offsets))
        assert search.stuck(boxes) == stuck
        in_way = sum(1 for x in bits(boxes & ~aim) if not all(free(x + o, boxes) for o in offsets))
        unfillable = sum(
            1 for x in bits(aim & ~boxes) if not any(floor >> (x + o) & 1 and free(x + 2 * o, boxes) for o in offsets)
        )
        assert AimHotspots(board, aim).count(boxes) == in_way + unfillable


@pytest.mark.parametrize("far", [False, True])
def test_equally_open_positions_rank_nearest_the_start_or_farthest_from_the_goals_first(tmp_path, far):
    (tmp_path / "x.txt").write_text("#########\n#@  $  .#\n#########\n")
    search = OpenPullSearch(problem(str(tmp_path / "x.txt")), far=far)
    board = search.board
    (start,) = bits(board.start_boxes)
    (goal,) = bits(board.goals)
    left = board.width + 1  # the player's side of the box
    ranks = [
        search.score(1 << x, flood(1 << left, board.floor & ~(1 << x), board.width)) for x in (start + 1, goal - 1)
    ]
    assert ranks[0][:5] == ranks[1][:5]
    if far:  # minus the pulls from the goal
        assert ranks[0].h == -(goal - start - 1) < ranks[1].h == -1
    else:  # the pulls to the start square
        assert ranks[0].h == 1 < ranks[1].h == goal - 1 - start


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
    search = AimSearch(problem(level), open_positions=6000)
    search.step()
    assert search.status == "solved"
    pushes, states, cost = search.path()
    assert states[0] == search.problem.initial_state() and search.problem.is_goal(states[-1])
    assert cost == len(pushes) == len(states) - 1
    job = prepare("sokoban", {"level_file": level}, engine="sokoban-fess-aim", params={"open_positions": 6000})
    assert execute(job, Limits(timeout_s=30)).solved  # replayed on the level text


@pytest.mark.parametrize("level", ["microban:93", "microban:144", "xsokoban:1"])
def test_set_out_at_once_the_forward_search_meets_a_position_stored_backwards(level):
    search = AimSearch(problem(level), open_positions=0, endgame=False)  # one turn backwards, then forwards
    search.step()
    assert search.status == "solved" and search.met is not None and search.back.knows(search.met)
    pushes, states, cost = search.path()  # `searchkit.engines.paths.joined`
    assert states[0] == search.problem.initial_state() and search.problem.is_goal(states[-1])
    assert search.met in states and cost == len(pushes) == len(states) - 1


def test_a_forward_search_that_runs_out_hands_back_and_the_next_aim_follows():
    """Microban 120's first open positions cannot be reached from the start (the forward
    search runs out of positions): each time the backward search goes on and the forward
    one sets out afresh for the next most open position, till one answers."""
    search = AimSearch(problem("microban:120"), open_positions=0)
    search.step()
    assert search.status == "solved" and len(search.back.taken) > 1
    assert search.expanded > search.back.expanded + (search.ahead.expanded if search.ahead else 0)


def test_limits_return_statistics_of_both_searches():
    result = sokoban_fess_aim(problem("sasquatch:10"), open_positions=15000, limits=Limits(timeout_s=2))
    assert result.status == "limit" and result.stats.expanded > 0 and result.stats.stored > 0


def test_moves_optimisation_is_an_input_error_naming_the_engine():
    with pytest.raises(InputError, match="sokoban-fess-aim counts pushes"):
        sokoban_fess_aim(problem("microban:1", optimize="moves"))


def test_the_members_aim_at_both_rankings_or_at_one():
    def member(name):
        return make_problem("sokoban", "nearest-goal", level_file="microban:144").member_search(name)

    far, near, both = member("fess-aim-far"), member("fess-aim-near"), member("fess-aim")
    assert isinstance(far, AimLanes) and all(lane.back is far.lanes[0].back for lane in far.lanes)
    assert far.lanes[0].back.far is not None and far.lanes[0].name == "fess-aim-far"
    assert isinstance(near, AimSearch) and near.back.far is None
    assert isinstance(both, AimLanes)
    assert [lane.back.far is not None for lane in both.lanes] == [False, True, True, True]
    assert [lane.open_positions for lane in far.lanes] == [EARLY_POSITIONS, OPEN_POSITIONS, EARLY_POSITIONS]
    assert [(lane.ordered, lane.again) for lane in far.lanes] == [(False, False), (False, False), (True, True)]


def test_ordered_makes_every_lane_fill_its_aim_in_a_packing_order():
    def orders(search):
        search.step(1)  # the first lane sets out at once (after 0 stored positions)
        return [lane.ordered for lane in search.lanes], search.lanes[0].ahead.features.orders

    plain = aimed_search(problem("sasquatch:10"), open_positions=0)
    ordered = aimed_search(problem("sasquatch:10"), open_positions=0, ordered=True)
    assert isinstance(plain, AimLanes) and isinstance(ordered, AimLanes)
    (lanes, layers), (ordered_lanes, ordered_layers) = orders(plain), orders(ordered)
    assert lanes == [False, False] and ordered_lanes == [True, True]
    assert len(layers) == 1 and len(layers[0]) == 1  # one layer: any order
    assert sum(len(area) for area in ordered_layers) > len(ordered_layers)  # some area has an order


def test_a_lane_that_aims_again_takes_the_aims_its_ranking_gave_in_order_and_fills_them_in_order():
    class Notes(Observer):
        def __init__(self):
            self.said = []

        def note(self, text):
            self.said.append(text)

    notes = Notes()
    lanes = AimLanes(
        problem("sasquatch:10"), lanes=(Lane(FAR, 200), Lane(FAR, 200, ordered=True, again=True)), observer=notes
    )
    first, again = lanes.lanes
    while first.ahead is None:
        lanes.step(1)
    assert again.ahead is None  # ties go to the first lane
    first.since = first.ahead.stored - 10**9  # the first lane stalls: the other's turn
    while again.ahead is None:
        lanes.step(1)
    assert again.ahead.hotspots.aim == first.ahead.hotspots.aim == first.back.taken[0]
    assert again.ordered and not first.ordered and len(first.back.taken) == 1  # no new aim taken
    aiming = [text for text in notes.said if text.startswith("aiming")]
    assert aiming[0].startswith("aiming at an open position farthest") and aiming[1].startswith("aiming again in order")
    again.ahead.status = NO_SOLUTION  # its way to that aim tried: the next aim is a new one
    again.ahead.fresh = []
    again._ahead(0)
    while again.ahead is None:
        lanes.step(1)
    assert again.ahead.hotspots.aim == first.back.taken[1] != first.back.taken[0]


def test_every_lane_ordered_leaves_out_the_lane_that_would_repeat_another():
    lanes = aimed_search(problem("sasquatch:10"), aims="far", ordered=True)
    assert isinstance(lanes, AimLanes) and [(lane.ordered, lane.again) for lane in lanes.lanes] == [(True, False)] * 2


def test_the_lanes_of_one_ranking_share_its_backward_search_counted_once():
    lanes = AimLanes(problem("sasquatch:10"), lanes=(Lane(NEAR, 0), Lane(FAR, 200), Lane(FAR, 2000)))
    near, early, late = lanes.lanes
    assert early.back is late.back is not near.back and early.owns_back and not late.owns_back
    lanes.step(1)  # nearest the start sets out first
    while early.ahead is None:
        lanes.step(1)
    assert late.ahead is None and early.back.stored < 2000  # the later look is still looking
    while late.ahead is None:
        lanes.step(1)
    aims = early.ahead.hotspots.aim, late.ahead.hotspots.aim
    assert early.back.stored >= 2000 and aims[0] != aims[1] and set(aims) <= set(late.back.taken)  # each its own
    parts = (near.back, near.ahead, early.back, early.ahead, late.ahead)
    assert lanes.expanded == sum(part.expanded for part in parts)


def test_the_aim_is_chosen_after_a_count_of_positions_so_runs_repeat():
    def first_aim():
        search = AimSearch(problem("sasquatch:10"), open_positions=20000)
        while search.ahead is None:
            search.step(16)
        return search.back.taken, search.back.expanded

    assert first_aim() == first_aim()


def test_the_pair_sets_out_nearest_first_then_turns_to_the_search_gaining_latest():
    pair = AimLanes(problem("sasquatch:10"), lanes=(Lane(NEAR, 0), Lane(FAR, 0)))
    near, far = pair.lanes
    assert pair._turn() is near  # nearest the start sets out first
    pair.step(1)
    assert near.ahead is not None and far.ahead is None and pair._turn() is near  # it has not stalled yet
    near.since = near.ahead.stored - 100
    assert pair._turn() is far  # near has stored 100 positions without gaining: far's backward search
    pair.step(1)
    assert far.ahead is not None
    near.since, far.since = near.ahead.stored - 100, far.ahead.stored - 10
    assert pair._turn() is far  # it came nearer its aim 10 positions ago, near 100
    far.since = far.ahead.stored - 1000
    assert pair._turn() is near
    pair.step(50)
    assert pair.expanded == near.expanded + far.expanded > 50 and not pair.done


def test_the_engine_takes_which_aims_and_refuses_others():
    job = prepare("sokoban", {"level_file": "microban:5"}, engine="sokoban-fess-aim", params={"aims": "near"})
    assert execute(job, Limits(timeout_s=30)).solved
    with pytest.raises(InputError, match="aims"):
        prepare("sokoban", {"level_file": "microban:5"}, engine="sokoban-fess-aim", params={"aims": "middle"})


def test_in_the_portfolio_it_answers_where_the_pull_search_alone_does_not():
    """Sasquatch II 11: the pull search alone is lost in the goal room; the member answers
    (with its own backward search, or where its forward search meets the pull search)."""
    params = {"members": "backward:pull,search:fess-aim", "shares": "1,4", "solo": 0}
    job = prepare("sokoban", {"level_file": "sasquatch:11"}, engine="sokoban-portfolio", params=params)
    result = execute(job, Limits(timeout_s=60))
    assert result.solved and "search:fess-aim" in result.stats.answered_by
