"""The parking plan (`parking`): a packing order in which a box may wait inside the goal area."""

from __future__ import annotations

import pytest
from searchkit_sokoban.board import Board, bits
from searchkit_sokoban.features import Features, areas
from searchkit_sokoban.levels import load_level, parse_level
from searchkit_sokoban.parking import Plan, Step, plan_of

from searchkit import Limits
from searchkit.solving import execute, prepare

# two goals at the end of a bay: a box on either seals the other's way out with the player
# beside it, so backwards one box must first be pulled aside (parked) for the other to leave
BAY = """\
  ####
###  ####
#     $ #
# #  #$ #
# . .#@ #
#########"""


def plans(board: Board) -> list[Plan | None]:
    return [plan_of(board, area) for area in areas(board.goals, board.width)]


def replay(plan: Plan, goals: int) -> None:
    """Play the steps forwards: a box arrives on an empty square, from outside or from the
    square its step names; the boxes end on the goals; ``until`` names the step moving it on."""
    boxes = 0
    for i, step in enumerate(plan.steps):
        assert not boxes >> step.to & 1
        if step.source >= 0:
            assert boxes >> step.source & 1
            boxes &= ~(1 << step.source)
        boxes |= 1 << step.to
        if step.until >= 0:
            assert plan.steps[step.until].source == step.to and step.until > i
    assert boxes == goals
    assert [s.wave for s in plan.steps] == sorted(s.wave for s in plan.steps)


def test_a_box_is_parked_where_two_goals_block_each_other():
    board = Board(parse_level(BAY))
    (plan,) = plans(board)
    assert plan is not None and plan.parks == 1
    replay(plan, board.goals)
    assert len(plan.steps) == board.goals.bit_count() + plan.parks


@pytest.mark.parametrize(
    "level", ["microban:3", "microban:11", "microban:99", "sasquatch:6", "sasquatch:26", "xsokoban:15"]
)
def test_plans_replay_forwards(level):
    """Each of these levels has a plan for every goal area, and each plan replays."""
    board = Board(load_level(level))
    for area, plan in zip(areas(board.goals, board.width), plans(board), strict=True):
        assert plan is not None, f"no plan for the goal area {area:#x}"
        replay(plan, area)


def test_the_count_follows_the_plan_and_excuses_a_box_moved_on():
    """Step 0 parks a box on square 1 until step 2 moves it to 3; step 1 fills 2 alongside."""
    steps = [Step(1, -1, 0, 2), Step(2, -1, 0, -1), Step(3, 1, 1, -1)]
    plan = Plan(steps)
    assert plan.count(0) == (0, 0, 0b110)  # nothing done: the first wave is due
    assert plan.count(0b100) == (1, 0, 0b10)  # one of the first wave's two
    assert plan.count(0b110)[:2] == (2, 0)
    assert plan.count(0b1100) == (3, 0, 0)  # the parked box has moved on: every step done
    assert plan.count(0b1000) == (0, 1, 0b110)  # the last square filled first is ahead of the plan


def test_features_use_a_plan_only_where_a_box_parks():
    board = Board(parse_level(BAY))
    parked, layered = Features(board, parking=True), Features(board)
    assert len(parked.plans) == 1 and parked.orders == [] and parked.total == 3
    assert layered.plans == [] and layered.total == 2
    plain = Board(load_level("microban:1"))
    assert Features(plain, parking=True).orders == Features(plain).orders
    for goal in bits(board.goals):  # a box on a goal alone: the plan counts it as the layers do or ahead
        assert parked.packed(1 << goal)[0] <= 1


@pytest.mark.parametrize("level", ["microban:3", "microban:12", "microban:99"])
def test_fess_with_a_parking_plan_solves_and_replays(level):
    job = prepare("sokoban", {"level_file": level}, engine="sokoban-fess", params={"parking": True, "stranded": True})
    result = execute(job, Limits(timeout_s=30))  # execute replays the LURD on the level text
    assert result.solved and result.engine == "sokoban-fess"


def test_a_box_parks_on_the_nearest_square_that_lets_another_leave():
    """Sasquatch II 6: the box parked goes a few squares, not off across the level (parked
    where it freed the most, FESS alone was out of time at 60 s; parked nearest, it solves it)."""
    board = Board(load_level("sasquatch:6"))
    parked = [step for plan in plans(board) if plan is not None for step in plan.steps if step.source >= 0]
    assert parked
    for step in parked:
        (row, col), (to_row, to_col) = divmod(step.source, board.width), divmod(step.to, board.width)
        assert abs(row - to_row) + abs(col - to_col) <= 3


def test_the_defaults_stranded_member_packs_by_a_parking_plan():
    from searchkit_sokoban.fess import FESS_OWN, FESS_STRANDED

    from searchkit import make_problem

    p = make_problem("sokoban", None, level_file="sasquatch:6")
    stranded, own = p.member_search(FESS_STRANDED), p.member_search(FESS_OWN)
    assert (
        stranded.features.plans and stranded.total == stranded.features.total > stranded.problem.board.goals.bit_count()
    )
    assert not own.features.plans and own.total == own.problem.board.goals.bit_count()


NO_PARKING = [f"microban:{n}" for n in range(1, 31) if n not in (3, 11, 12, 22, 24, 29)]


@pytest.mark.parametrize("level", [*NO_PARKING, "xsokoban:1", "xsokoban:5", "sasquatch:28"])
def test_where_no_box_parks_the_plan_is_the_packing_orders_layers(level):
    board = Board(load_level(level))
    parked = Features(board, parking=True)
    assert not parked.plans and parked.orders == Features(board).orders
