"""``sokoban-pull-compiled`` and ``search:pull-compiled``: the greedy pull search in compiled code.

The oracle is the whole push graph of tiny levels (`test_sokoban_deadlocks.space`): the
search must answer exactly where the start can reach the goals and run out of positions
where it cannot (its pruning is sound), its answers replaying from the start; and it must
be the Python pull search (`pull`) over arrays: the same positions expanded in the same
order, so the same answers.
"""

from __future__ import annotations

import pytest
from markers import needs_numba
from searchkit_sokoban.board import Board
from searchkit_sokoban.compiled_pull import COMPILED_PULLS, PULL_COMPILED, CompiledPullSearch, without_numba
from searchkit_sokoban.compiled_search import DISABLE_ENV
from searchkit_sokoban.gateway import GATEWAY_BUDGET
from searchkit_sokoban.levels import load_level, parse_level
from searchkit_sokoban.lurd import replay_lurd, to_lurd
from searchkit_sokoban.problem import SokobanProblem
from searchkit_sokoban.pull import PULL, PULL_GUIDES, PullProblem
from test_sokoban_compiled import replays
from test_sokoban_deadlocks import TINY, space
from test_sokoban_pull import TINY as PULL_TINY

from searchkit import BestFirstSearch, Limits, backward_search, forward_path, make_problem
from searchkit.engines.paths import joined
from searchkit.engines.portfolio import first_known
from searchkit.kernels.codes import ASKED
from searchkit.result import LIMIT, NO_SOLUTION, SOLVED
from searchkit.solving import execute, prepare

pytestmark = needs_numba


@pytest.mark.parametrize("lists", [1, 2])
@pytest.mark.parametrize("gateway", [0, 12])
@pytest.mark.parametrize("text", TINY + PULL_TINY)
def test_it_answers_exactly_the_solvable_tiny_levels_and_its_pushes_replay(text, gateway, lists):
    board, _states, dist = space(text)
    problem = SokobanProblem(board, None)
    search = CompiledPullSearch(problem, lists=lists, gateway=gateway)
    search.step()
    start = problem.initial_state()
    if start in dist:
        assert search.status == SOLVED
        pushes, states, cost = search.path()
        assert states[0] == start and problem.is_goal(states[-1]) and cost == len(pushes)
        assert replays(board, start, pushes)
    else:
        assert search.status == NO_SOLUTION  # every pull from the solved positions tried: a proof


@pytest.mark.parametrize(
    "level", ["microban:100", "microban:146", "microban:153", pytest.param("sasquatch:15", marks=pytest.mark.slow)]
)
def test_it_is_the_python_pull_search_in_the_same_order(level):
    """Both open lists, the ties to the newest, the pulls by direction then box: the kernel
    expands what the Python search expands, so it answers with the same pushes."""
    board = Board(load_level(level))
    problem = SokobanProblem(board, None)
    python = backward_search(PullProblem(problem, GATEWAY_BUDGET, PULL_GUIDES[PULL]), order="greedy")
    python.step()
    search = CompiledPullSearch(problem)
    search.step()
    assert python.status == search.status == SOLVED
    assert search.expanded == python.expanded
    pushes = search.path()[0]
    assert pushes == forward_path(python)[0]
    done = replay_lurd(board.level, to_lurd(board, pushes))
    assert done.pushes == len(pushes)


def test_a_stored_position_is_known_and_its_pulls_lead_there_from_a_solved_position():
    board = Board(load_level("microban:153"))
    problem = SokobanProblem(board, None)
    search = CompiledPullSearch(problem, gateway=0)
    search.step(100)
    assert search.status is None and search.stored > 500
    for index in (search.stored // 2, search.stored - 1):
        state = search._decode(index)
        assert search.knows(state)
        pushes, states, cost = search.path_to(state)
        assert states[0][0] == board.goals and states[-1] == state and cost == len(pushes)
        # read from ``state``, the pushes undo the pulls in reverse: back to the solved boxes
        assert replays(board, state, pushes[::-1])


def test_a_capped_search_stops_at_its_states():
    problem = SokobanProblem(Board(load_level("sasquatch:44")), None)
    search = CompiledPullSearch(problem, max_states=20_000)
    before = search.memory_bytes
    search.step()
    # the table stops growing once it holds twice that (its first already does)
    assert search.status == LIMIT and search.driver.run.reason == "memory" and search.stored <= search.table.capacity
    assert search.table.capacity >= 40_000 and search.stored > search.table.capacity - 4 * 20
    # what it says it holds (a portfolio's memory limit weighs members by it): its arrays,
    # grown with its positions, at least a position's row for each stored
    per_row = search.table.keys.itemsize * search.table.keys.shape[1]
    assert search.memory_bytes > before and search.memory_bytes >= search.stored * per_row
    assert search.growth_ahead(10**9) == 0  # full for good: its arrays never double again


def test_it_foresees_its_arrays_doubling():
    """A memory limit counts a growth ahead as taken (`searchkit.tables`): every doubling of
    the arrays was foreseen before the step that made it, and took no more than foreseen."""
    problem = SokobanProblem(Board(load_level("sasquatch:44")), None)
    search = CompiledPullSearch(problem)
    within = 4096  # more than a step of one expansion (8 in the kernel) can store
    doublings = 0
    while doublings < 3 and search.status is None:
        rows, held, stored = search.table.capacity, search.memory_bytes, search.stored
        foreseen = search.growth_ahead(within)
        search.step(1)
        assert search.stored - stored < within
        if search.table.capacity > rows:
            doublings += 1
            assert foreseen > 0 and search.memory_bytes - held <= foreseen
    assert doublings == 3
    assert search.growth_ahead(0) == 0  # just doubled: far from full


@pytest.mark.parametrize("name", COMPILED_PULLS)
def test_it_is_a_member_of_the_portfolio(name):
    job = prepare(
        "sokoban",
        {"level_file": "microban:153"},
        engine="sokoban-portfolio",
        params={"members": f"nearest-goal,search:{name}", "solo": 0.0},
    )
    result = execute(job, Limits(timeout_s=60))
    assert result.solved and f"search:{name}" in result.stats.answered_by
    assert [m["member"] for m in result.stats.members] == ["greedy:nearest-goal", f"search:{name}"]


@pytest.mark.parametrize("level", ["microban:100", "microban:146"])  # met each way round
def test_it_meets_a_forward_search_and_the_joined_path_solves_the_level(level):
    """The forward search's positions are asked in one call a turn (`knows_any`) and
    remembered by fingerprint; a position the kernel stores later whose fingerprint was
    asked is listed in ``fresh``, and the forward search's ``knows`` says whether it is
    one it reached: either way round they meet as a portfolio would step them."""
    main = make_problem("sokoban", "nearest-goal", level_file=level)
    forward = BestFirstSearch(main, g_weight=0, reopen=False, goal_on_generation=True)
    pull = CompiledPullSearch(main)
    forward.fresh, pull.fresh = [], []
    met = None
    for _ in range(20_000):
        forward.step(8)
        pull.step(1)
        met = first_known(pull, forward.fresh) or first_known(forward, pull.fresh)
        forward.fresh, pull.fresh = [], []
        if met is not None or forward.done or pull.done:
            break
    assert met is not None and pull.sc[ASKED] > 0
    actions, states, cost = joined(forward, pull, met)
    assert states[0] == main.initial_state() and main.is_goal(states[-1])
    assert replay_lurd(main.board.level, to_lurd(main.board, actions)).pushes == cost


def test_the_engine_answers_alone_and_limits_stop_it():
    job = prepare("sokoban", {"level_file": "microban:146"}, engine="sokoban-pull-compiled")
    assert execute(job, Limits(timeout_s=60)).solved
    stopped = execute(
        prepare("sokoban", {"level_file": "sasquatch:44"}, engine="sokoban-pull-compiled"), Limits(max_expanded=5000)
    )
    assert stopped.status == LIMIT and stopped.stats.limit_reason == "nodes" and stopped.stats.expanded >= 5000


def test_without_numba_the_core_portfolio_leaves_the_member_out(monkeypatch):
    monkeypatch.setenv(DISABLE_ENV, "1")
    job = prepare(
        "sokoban",
        {"level_file": "microban:2"},
        engine="portfolio",
        params={"members": f"nearest-goal,search:{PULL_COMPILED}", "solo": 0.0},
    )
    result = execute(job, Limits(timeout_s=30))
    assert result.solved and result.stats.answered_by == "greedy:nearest-goal"
    assert [m["member"] for m in result.stats.members] == ["greedy:nearest-goal"]


def test_without_numba_the_default_runs_the_python_pull_searches_in_their_place(monkeypatch):
    from searchkit_sokoban.engines import PORTFOLIO_MEMBERS

    assert without_numba(PORTFOLIO_MEMBERS) == PORTFOLIO_MEMBERS  # numba here: as it is
    monkeypatch.setenv(DISABLE_ENV, "1")
    python = without_numba(PORTFOLIO_MEMBERS)
    assert "compiled" not in python and python.count("backward:") == len(COMPILED_PULLS)
    assert without_numba("search:pull-compiled@3*2,search:pull-nearest-goal-compiled<10") == (
        "backward:pull@3*2,backward:pull-nearest-goal<10"
    )
    # Microban 146 defeats greedy nearest-goal forwards: the pull search answers it
    result = execute(prepare("sokoban", {"level_file": "microban:146"}), Limits(timeout_s=60))
    assert result.solved and "backward:pull-nearest-goal" in result.stats.answered_by


def test_a_level_solved_at_the_start_needs_no_pull():
    board = Board(parse_level("#####\n#@* #\n#####"))
    search = CompiledPullSearch(SokobanProblem(board, None), gateway=0)
    assert search.status == SOLVED and search.path()[0] == []
