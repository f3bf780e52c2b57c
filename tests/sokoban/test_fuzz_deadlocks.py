"""Fuzzing the deadlock detectors: on random tiny levels, none flags a solvable position.

The oracle is the level's whole push graph (`test_sokoban_deadlocks.space`, no pruning): a
position is solvable when some push sequence from it reaches the goal.  Every detector
the searches prune with - dead squares, freeze (with goals sealed off by boxes frozen on
goals), bipartite matching, PI-corrals and the corral proofs, closed diagonals - must stay
silent on every solvable position, and the pruned successors of a solvable position must
keep a solvable child.  The fixed tiny levels of the deadlock tests cover what their authors
thought of; random walls, boxes and goals cover the shapes nobody drew (a freeze proof
that named a box twice was found this way).
"""

from __future__ import annotations

import pytest
from fuzzing import HEAVY, PROFILES, Profile, assert_clean, run_cli
from hypothesis import assume
from hypothesis import strategies as st
from searchkit_sokoban.access import access_reach
from searchkit_sokoban.board import Board, bits, flood, pull_flood
from searchkit_sokoban.diagonal import ClosedDiagonal
from searchkit_sokoban.levels import parse_level
from searchkit_sokoban.problem import SokobanProblem
from test_sokoban_deadlocks import space

from searchkit.errors import InputError

MAX_STATES = 20_000  # positions a drawn level may have (its whole push graph is enumerated)


@st.composite
def tiny_levels(draw: st.DrawFn, max_boxes: int = 3) -> str:
    """A walled rectangle of up to 6 x 6 squares with random inner walls, 1 to ``max_boxes``
    boxes and as many goals (a box may start on a goal), and the player on a free square."""
    rows, cols = draw(st.integers(3, 6)), draw(st.integers(3, 6))
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    walls = set(draw(st.sets(st.sampled_from(squares), max_size=len(squares) // 3)))
    floor = [s for s in squares if s not in walls]
    assume(len(floor) >= max_boxes + 1)
    k = draw(st.integers(1, max_boxes))
    picked = draw(st.permutations(floor))
    boxes, player = set(picked[:k]), picked[k]
    goals = set(draw(st.lists(st.sampled_from(floor), min_size=k, max_size=k, unique=True)))
    lines = ["#" * (cols + 2)]
    for r in range(rows):
        line = "#"
        for c in range(cols):
            s = (r, c)
            if s in walls:
                line += "#"
            elif s == player:
                line += "+" if s in goals else "@"
            elif s in boxes:
                line += "*" if s in goals else "$"
            else:
                line += "." if s in goals else " "
        lines.append(line + "#")
    lines.append("#" * (cols + 2))
    return "\n".join(lines)


def board_of(text: str) -> Board:
    """The board of a drawn level; the draw is discarded when the level is refused (e.g. a
    box the player can never reach)."""
    try:
        return Board(parse_level(text))
    except InputError:
        assume(False)
        raise  # not reached: assume(False) discards the draw


def check_detectors(text: str) -> None:
    board = board_of(text)
    assume(not board.impossible)
    _board, states, dist = space(text)
    assume(len(states) <= MAX_STATES)
    problem = SokobanProblem(board, "matching")
    pruning = problem.pruning
    diagonal = ClosedDiagonal(board)
    for boxes, player in states:
        if (boxes, player) not in dist:
            continue
        shown = "\n".join(board.render(boxes, player))
        found = pruning.dead_end(boxes, player)
        assert found is None, f"{found} on a solvable position:\n{shown}"
        assert not any(diagonal.dead(x, boxes, player) for x in bits(boxes)), f"closed diagonal:\n{shown}"
        reach = flood(1 << player, board.floor & ~boxes, board.width)
        assert not pruning.prover.dead(boxes, reach), f"corral proof on a solvable position:\n{shown}"
        if dist[(boxes, player)]:
            kids = [c for _a, c, _cost in problem.successors((boxes, player))]
            assert any(c in dist for c in kids), f"pruning removed every solvable push:\n{shown}"


@pytest.mark.parametrize("profile", PROFILES)
def test_no_detector_flags_a_solvable_position_of_a_random_level(profile: Profile) -> None:
    profile.run(tiny_levels(), check_detectors, examples=60, deadline_s=20.0)


@pytest.mark.slow
def test_no_detector_flags_a_solvable_position_with_four_boxes() -> None:
    HEAVY.run(tiny_levels(max_boxes=4), check_detectors, examples=40, deadline_s=60.0)


def square_by_square_pulls(seed: int, free: int, offsets) -> int:
    """The squares a lone box can be pushed to ``seed`` from, one square at a time."""
    seen, stack = 1 << seed, [seed]
    while stack:
        x = stack.pop()
        for o in offsets:
            n = x + o
            if free >> n & 1 and free >> (n + o) & 1 and not seen >> n & 1:
                seen |= 1 << n
                stack.append(n)
    return seen


def check_pull_flood(text: str, data: st.DataObject) -> None:
    board = board_of(text)
    floor = bits(board.floor)
    walls = data.draw(st.sets(st.sampled_from(floor)))  # e.g. boxes frozen on goals
    free = board.floor & ~sum(1 << x for x in walls)
    for seed in bits(free):
        expected = square_by_square_pulls(seed, free, board.offsets)
        assert pull_flood(1 << seed, free, board.width) == expected, (seed, sorted(walls))


@pytest.mark.parametrize("profile", PROFILES)
def test_the_bit_parallel_pulls_are_the_square_by_square_ones(profile: Profile) -> None:
    profile.run(
        st.tuples(tiny_levels(), st.data()), lambda drawn: check_pull_flood(*drawn), examples=60, deadline_s=20.0
    )


def test_a_level_with_every_goal_sealed_off_has_no_solution(tmp_path) -> None:
    """Found by the fuzzing above: no goal on the player's floor left the distance tables
    empty, and building the heuristic failed."""
    level = tmp_path / "sealed.txt"
    level.write_text("########\n#####$@#\n#.#    #\n##     #\n########\n")
    outcome = run_cli("solve", "sokoban", str(level))
    assert_clean(outcome, allowed=(3,))
    assert "no solution" in outcome.out


def box_and_player_reach(goal: int, free: int, offsets) -> int:
    """The squares a lone box can be pushed onto ``goal`` from with the player anywhere:
    every (box, player) state that leads there, walked back one step or pull at a time."""
    states = {(goal, p) for p in bits(free) if p != goal}
    stack = list(states)
    while stack:
        box, player = stack.pop()
        before = [(box, player + o) for o in offsets if free >> (player + o) & 1 and player + o != box]
        # the box came from the player's square, pushed by a player one square further back
        before += [(player, player - o) for o in offsets if box == player + o and free >> (player - o) & 1]
        for state in before:
            if state not in states:
                states.add(state)
                stack.append(state)
    return 1 << goal | sum(1 << box for box in {box for box, _player in states})


def check_access_reach(text: str, data: st.DataObject) -> None:
    board = board_of(text)
    assume(board.goal_list)
    walls = sum(1 << g for g in data.draw(st.sets(st.sampled_from(board.goal_list))))  # boxes on goals
    free = board.floor & ~walls
    reaches = access_reach(walls, board)
    open_goals = [g for g in board.goal_list if not walls >> g & 1]
    assert len(reaches) == len(open_goals)
    for goal, reach in zip(open_goals, reaches):
        assert reach == box_and_player_reach(goal, free, board.offsets), (goal, walls)
        assert reach & ~pull_flood(1 << goal, free, board.width) == 0  # never more than the walls alone allow


@pytest.mark.parametrize("profile", PROFILES)
def test_a_goals_access_reach_is_every_box_and_player_state_that_leads_to_it(profile: Profile) -> None:
    profile.run(
        st.tuples(tiny_levels(), st.data()), lambda drawn: check_access_reach(*drawn), examples=60, deadline_s=20.0
    )


@st.composite
def goal_options(draw: st.DrawFn) -> tuple[list[int], list[int], dict[int, int] | None]:
    """Two option lists for the same goals (per goal a mask of the boxes that can reach it;
    the second one a push later: a box gone, a box come) and a start matching for it taken
    from the first, as `sealed_off` hands `matching` the last one."""
    from searchkit_sokoban.deadlocks import matching

    goals = draw(st.integers(1, 7))
    before = [draw(st.integers(0, (1 << 9) - 1)) for _ in range(goals)]
    gone, come = draw(st.integers(0, 8)), draw(st.integers(0, 8))
    after = [(r & ~(1 << gone)) | (draw(st.booleans()) << come) for r in before]
    return before, after, matching(before)


def check_matching(drawn: tuple[list[int], list[int], dict[int, int] | None]) -> None:
    import networkx as nx
    from searchkit_sokoban.deadlocks import matching

    _before, options, start = drawn
    graph = nx.Graph()
    graph.add_nodes_from(("goal", g) for g in range(len(options)))
    graph.add_edges_from((("goal", g), ("box", b)) for g, r in enumerate(options) for b in bits(r))
    goals = [("goal", g) for g in range(len(options))]
    size = len(nx.bipartite.maximum_matching(graph, top_nodes=goals)) // 2
    held = {bit: goal for bit, goal in (start or {}).items() if options[goal] & bit}  # the pairs that still hold
    unmatched = [goal for goal in range(len(options)) if goal not in held.values()]
    for given in (None, (held, unmatched)):
        owner = matching(options) if given is None else matching(options, *given)
        assert (owner is not None) == (size == len(options)), (options, given)
        if owner is not None:  # a box of its own for every goal, one it can reach
            assert sorted(owner.values()) == list(range(len(options)))
            assert all(options[goal] & bit for bit, goal in owner.items())


@pytest.mark.parametrize("profile", PROFILES)
def test_hall_matching_from_nothing_or_from_the_last_one_is_a_maximum_matching(profile: Profile) -> None:
    """`matching`, made afresh or repaired from the matching before a push, finds a box for
    every goal exactly when networkx's maximum matching does."""
    profile.run(goal_options(), check_matching, examples=200, deadline_s=20.0)
