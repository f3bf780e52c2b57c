"""``sokoban-fess-pull``: the FESS search backwards over macro pulls, alone and in the portfolio
(`test_sokoban_fess` solves levels with it as with the forward search)."""

from __future__ import annotations

import pytest
from searchkit_sokoban.board import Board, flood
from searchkit_sokoban.features import Features
from searchkit_sokoban.fess_pull import PullFessSearch, sokoban_fess_pull
from searchkit_sokoban.levels import load_level

from searchkit import InputError, Limits, make_problem
from searchkit.solving import execute, prepare


def problem(level: str, **options):
    return make_problem("sokoban", "nearest-goal", level_file=level, **options)


def test_an_unsolvable_level_ends_without_a_solution(tmp_path):
    (tmp_path / "x.txt").write_text("#####\n#$ .#\n#@  #\n#####\n")  # the box can never be pulled home
    assert sokoban_fess_pull(problem(str(tmp_path / "x.txt"))).status == "no-solution"


def test_the_solved_position_counts_every_box_twice_and_the_start_none():
    search = PullFessSearch(problem("microban:3"))  # no box starts on a goal
    board = search.board
    boxes = board.start_boxes.bit_count()
    assert not board.start_boxes & board.goals
    home = flood(1 << search.start[1], board.floor & ~board.start_boxes, board.width)
    at_start = search.score(board.start_boxes, home)
    assert at_start.unpacked == 0 and at_start.out_of_plan == 0 and at_start.h == 0
    solved = search.score(board.goals, board.floor & ~board.goals)
    assert solved.unpacked == 2 * boxes and solved.h > 0


def test_backwards_the_start_squares_have_their_own_packing_order():
    """Sasquatch II 19 starts with a staircase of boxes: pulled back, its top box must come
    home first (every other one is pushed out past it), and a box home out of turn is out
    of plan, as a goal filled too soon is forwards."""
    board = Board(load_level("sasquatch:19"))
    features = Features(board, board.start_boxes)
    w = board.width
    stair = [(7, 3), (8, 4), (9, 5), (10, 6), (11, 7)]
    order = next(o for o in features.orders if o[0] == 1 << (7 * w + 3))
    assert [layer.bit_count() for layer in order[: len(stair)]] == [1] * len(stair)
    assert order[: len(stair)] == [1 << (r * w + c) for r, c in stair]
    top, second = (1 << (r * w + c) for r, c in stair[:2])
    assert features.packed(top) == (1, 0)
    assert features.packed(second) == (0, 1)  # home before the top one: out of plan
    assert features.packed(top | second) == (2, 0)


def test_each_macro_pull_read_forwards_is_pushes_back_to_its_parent():
    search = PullFessSearch(problem("microban:144"))
    search.step(30)  # some positions deep in the search
    board = search.board
    w, floor, offs = board.width, board.floor, board.offsets
    checked = 0
    for state in list(search.parents)[:40]:
        boxes, player = state
        reach = flood(1 << player, floor & ~boxes, w)
        for pushes, child, region in search.macros.moves(boxes, reach, boxes):
            assert region >> child[1] & 1 and not region & child[0]
            now, at = child[0], region
            for p in reversed(pushes):  # forwards: the last pull is undone first
                dst = p.square + offs[p.direction]
                assert now >> p.square & 1 and not now >> dst & 1 and floor >> dst & 1
                assert at >> (p.square - offs[p.direction]) & 1  # the player reaches the push side
                now ^= (1 << p.square) | (1 << dst)
                at = flood(1 << p.square, floor & ~now, w)
            assert now == boxes and at >> player & 1
            checked += 1
    assert checked > 100


def test_moves_optimisation_is_an_input_error_naming_the_engine():
    with pytest.raises(InputError, match="sokoban-fess-pull counts pushes"):
        sokoban_fess_pull(problem("microban:1", optimize="moves"))


def test_behind_a_cramped_start_it_aims_at_the_gateway_and_the_answer_begins_with_its_pushes():
    search = PullFessSearch(problem("sasquatch:30"))
    assert search.lead_in is not None and search.lead_in[2] > 0 and search.start != search.problem.initial_state()
    search.step()
    assert search.status == "solved"
    pushes, states, cost = search.path()
    assert pushes[: search.lead_in[2]] == list(search.lead_in[0]) and states[0] == search.problem.initial_state()
    assert cost == len(pushes) and len(states) == len(pushes) + 1
    job = prepare("sokoban", {"level_file": "sasquatch:30"}, engine="sokoban-fess-pull")
    assert execute(job, Limits(timeout_s=30)).solved  # replayed on the level text


def test_limits_return_statistics():
    result = sokoban_fess_pull(problem("microban:144"), limits=Limits(max_expanded=20))
    assert result.status == "limit" and result.stats.expanded == 20 and result.stats.stored > 0


@pytest.mark.parametrize(
    ("level", "greedy", "answer"),
    [
        ("microban:93", "nearest-goal<0.05", "search:fess-pull"),
        ("sasquatch:2", "nearest-goal", "greedy:nearest-goal+search:fess-pull"),
    ],
)
def test_in_the_portfolio_it_answers_alone_or_joined_to_a_forward_search(level, greedy, answer):
    """Alone, its path is read from the start; met by the greedy search, the greedy one's path
    to the meeting and its own from there are one answer (replayed by `execute` either way).
    Alone: the greedy search stops after 0.05 CPU seconds, for it solves Microban 93 too
    (about 3 s): the turns are timed, so on a busy machine it could answer first."""
    params = {"members": f"{greedy},search:fess-pull", "shares": "1,1", "solo": 0}
    job = prepare("sokoban", {"level_file": level}, engine="sokoban-portfolio", params=params)
    result = execute(job, Limits(timeout_s=30))
    assert result.solved and result.stats.answered_by == answer
