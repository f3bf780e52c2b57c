"""``sokoban-compiled`` and ``search:compiled``: the push search in compiled code (numba).

The oracle is the whole push graph of tiny levels (`test_sokoban_deadlocks.space`): from
every reachable position, A* in the kernel must find the true push distance when there is
one and run out of positions when there is none (its pruning is sound); weighted answers
must replay; the Python A* on the same bound must agree on Microban's optimal costs.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markers import needs_numba
from searchkit_sokoban import heuristics
from searchkit_sokoban.board import INF, Board, bits, flood
from searchkit_sokoban.compiled_search import DISABLE_ENV, CompiledPushSearch, weights_of
from searchkit_sokoban.heuristics import MATCHING, RowCosts
from searchkit_sokoban.levels import bundled_text, parse_level, parse_levels
from searchkit_sokoban.problem import SokobanProblem
from test_sokoban_deadlocks import TINY, space

from searchkit import InputError, Limits, make_problem
from searchkit.result import LIMIT, NO_SOLUTION, SOLVED
from searchkit.solving import execute, prepare

pytestmark = needs_numba

LEVELS = TINY + [lv.text() for lv in parse_levels(bundled_text("microban"))[:3]]


def replays(board: Board, start, pushes) -> bool:
    """Whether ``pushes`` are legal from ``start`` in turn and leave every box on a goal."""
    boxes, player = start
    for p in pushes:
        o = board.offsets[p.direction]
        src, dst = p.square, p.square + o
        reach = flood(1 << player, board.floor & ~boxes, board.width)
        if not (boxes >> src & 1 and reach >> (src - o) & 1 and (board.floor & ~boxes) >> dst & 1):
            return False
        boxes ^= (1 << src) | (1 << dst)
        player = src
    return boxes == board.goals


@pytest.mark.parametrize("ties", ["newest", "oldest"])
@pytest.mark.parametrize("text", LEVELS)
def test_astar_finds_every_true_distance_and_proves_every_dead_position(text, ties):
    board, states, dist = space(text)
    problem = SokobanProblem(board, "matching")
    for s in states:
        search = CompiledPushSearch(problem, start=s, ties=ties)
        search.step()
        if s in dist:
            assert search.status == SOLVED, s
            pushes, path_states, cost = search.path()
            assert cost == dist[s] and len(path_states) == cost + 1
            assert replays(board, s, pushes)
        else:
            assert search.status == NO_SOLUTION, s


@pytest.mark.parametrize("ties", ["newest", "oldest"])
@pytest.mark.parametrize("weight", [1.5, 3.0])
@pytest.mark.parametrize("text", LEVELS)
def test_weighted_answers_replay_within_the_weight(text, weight, ties):
    board, _states, dist = space(text)
    problem = SokobanProblem(board, "matching")
    search = CompiledPushSearch(problem, weight=weight, ties=ties)
    search.step()
    assert search.status == SOLVED
    pushes, _states, cost = search.path()
    assert replays(board, problem.initial_state(), pushes)
    assert dist[problem.initial_state()] <= cost <= weight * dist[problem.initial_state()]


@pytest.mark.parametrize("number", [2, 5, 10, 20, 33, 50])
def test_the_same_optimal_costs_as_the_python_astar(number):
    level = f"microban:{number}"
    compiled = execute(prepare("sokoban", {"level_file": level}, engine="sokoban-compiled"), Limits(timeout_s=30))
    python = execute(
        prepare("sokoban", {"level_file": level, "optimal": True}, engine="astar", heuristic="matching"),
        Limits(timeout_s=30),
    )
    assert compiled.solved and python.solved  # execute replays the LURD on the level text
    assert compiled.cost == python.cost
    assert compiled.guarantee == "optimal"


def test_the_tie_order_is_a_parameter_newest_first_by_default():
    """Newest first goes on from the last position pushed (the core's ``ties``): on a
    weighted run it expands other positions than oldest first; a bad order is one line."""
    counts = {}
    for ties in ("newest", "oldest", None):
        params = {"weight": 3.0} if ties is None else {"weight": 3.0, "ties": ties}
        job = prepare("sokoban", {"level_file": "microban:60"}, engine="sokoban-compiled", params=params)
        result = execute(job, Limits(timeout_s=30))
        assert result.solved
        counts[ties] = result.stats.expanded
    assert counts[None] == counts["newest"] != counts["oldest"]
    with pytest.raises(InputError, match="ties"):
        prepare("sokoban", {"level_file": "microban:1"}, engine="sokoban-compiled", params={"ties": "sideways"})


def test_pruning_switched_off_keeps_the_costs():
    level = "microban:10"
    costs = set()
    for off in (None, "corral", "freeze", "all"):
        options = {"level_file": level, "no_deadlock": off} if off else {"level_file": level}
        result = execute(prepare("sokoban", options, engine="sokoban-compiled"), Limits(timeout_s=30))
        assert result.solved
        costs.add(result.cost)
    assert len(costs) == 1


def test_limits_stop_it_with_its_counts():
    job = prepare("sokoban", {"level_file": "microban:144"}, engine="sokoban-compiled")
    result = execute(job, Limits(max_expanded=2000))
    assert result.status == LIMIT and result.stats.limit_reason == "nodes"
    assert result.stats.expanded >= 2000 and result.stats.stored > 0


def test_a_capped_search_stops_at_its_states():
    """The table stops growing once it holds about twice ``max_states`` (here its first
    size, 49,152 rows): a limit, reason memory, where the uncapped search goes on."""
    problem = SokobanProblem(Board(parse_levels(bundled_text("microban"))[143]), "matching")
    search = CompiledPushSearch(problem, max_states=20_000)
    search.step()
    assert search.status == LIMIT and search.driver.run.reason == "memory"
    assert 40_000 <= search.stored <= search.table.capacity == 49_152
    free = CompiledPushSearch(problem)
    free.step(search.expanded // 8 + 1000)
    assert free.status is None and free.stored > search.stored


def test_it_is_a_member_of_the_portfolio():
    job = prepare(
        "sokoban", {"level_file": "microban:20"}, engine="sokoban-portfolio", params={"members": "search:compiled"}
    )
    result = execute(job, Limits(timeout_s=30))
    assert result.solved and result.stats.answered_by == "search:compiled"


def test_weights_are_exact_fractions_never_above_the_weight():
    assert weights_of(1.0) == (1, 1)
    assert weights_of(3.0) == (1, 3)
    assert weights_of(1.5) == (2, 3)
    wg, wh = weights_of(2**0.5)
    assert wh / wg <= 2**0.5 and abs(wh / wg - 2**0.5) < 0.01
    with pytest.raises(InputError):
        weights_of(0.5)


def test_moves_mode_is_refused():
    with pytest.raises(InputError, match="pushes"):
        execute(prepare("sokoban", {"level_file": "microban:1", "optimize": "moves"}, engine="sokoban-compiled"))


def test_without_numba_the_engine_says_how_to_get_it_and_the_member_is_left_out(monkeypatch):
    monkeypatch.setenv(DISABLE_ENV, "1")
    board = Board(parse_level(TINY[0]))
    with pytest.raises(InputError, match="numba"):
        CompiledPushSearch(SokobanProblem(board, "matching"))
    job = prepare(
        "sokoban",
        {"level_file": "microban:2"},
        engine="sokoban-portfolio",
        params={"members": "nearest-goal,search:compiled"},
    )
    result = execute(job, Limits(timeout_s=30))
    assert result.solved and result.stats.answered_by == "greedy:nearest-goal"


def test_the_start_is_kept_in_the_kernel_as_the_python_search_keys_it():
    board = Board(parse_level(TINY[2]))
    problem = SokobanProblem(board, "matching")
    search = CompiledPushSearch(problem)
    boxes, player = problem.initial_state()
    words = [int(w) for w in search.table.keys[0]]
    assert sum(w << (64 * i) for i, w in enumerate(words[:-1])) == boxes and bits(boxes)
    assert words[-1] == player


def test_a_stored_position_is_known_and_its_path_leads_there():
    board = Board(parse_levels(bundled_text("microban"))[143])
    problem = SokobanProblem(board, "matching")
    search = CompiledPushSearch(problem)
    search.step(200)
    assert search.stored > 100 and search.status is None
    for index in (1, search.stored // 2, search.stored - 1):
        state = search._decode(index)
        assert search.knows(state)
        pushes, states, cost = search.path_to(state)
        g = int(search.table.g[index])
        assert states[-1] == state and cost == len(pushes) == (g if g >= 0 else -g - 1)
    boxes, player = problem.initial_state()
    assert not search.knows((boxes, player + 1000))


def test_it_meets_the_pull_search_both_ways_and_the_joined_path_solves_the_level():
    """The pull search's positions are looked up in the kernel's table (and remembered);
    a position the kernel stores later that the pull search had reached is listed in
    ``fresh``: on Microban 100 that is how they meet, as a portfolio would step them."""
    from searchkit.engines.backward import backward_search
    from searchkit.engines.paths import joined

    main = make_problem("sokoban", "nearest-goal", level_file="microban:100")
    pull = backward_search(main.variant("pull"), order="greedy", name="backward")
    search = CompiledPushSearch(main, weight=3.0)
    pull.fresh, search.fresh = [], []
    met = None
    for _ in range(3000):
        search.step(1)
        pull.step(4)
        assert not any(search.knows(s) for s in pull.fresh)  # not this way round here
        met = next((s for s in search.fresh if pull.knows(s)), None)
        pull.fresh, search.fresh = [], []
        if met is not None or search.done or pull.done:
            break
    assert met is not None and met != main.initial_state() and not search.done
    pushes, states, cost = joined(search, pull, met)
    assert replays(main.board, main.initial_state(), pushes) and cost == len(pushes)


def test_its_rules_prune_as_the_problem_says_and_its_bound_always_proves():
    """Freeze, corral and dead-square pruning follow the problem's detectors; the matching
    bound's infinity is a proof whatever they say: such a child is never queued."""
    from searchkit_sokoban import push_rules
    from searchkit_sokoban.compiled_rules import push_rules_of

    board = Board(parse_level(TINY[0]))
    geo = push_rules_of(SokobanProblem(board, None)).context[7]
    assert geo[push_rules.FREEZE] and geo[push_rules.CORRAL] and geo[push_rules.DEAD]
    off = SokobanProblem(board, None, frozenset({"bipartite", "corral", "dead-squares"}))
    geo = push_rules_of(off).context[7]
    assert geo[push_rules.FREEZE] and not geo[push_rules.CORRAL] and not geo[push_rules.DEAD]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_compiled_matching_agrees_with_scipys(data):
    """`RowCosts.matching` past COMPILE_AFTER misses (numba) gives SciPy's minimum, also with
    more targets than boxes and with pairs no push joins (INF: a deadlock when no perfect
    assignment is left)."""
    ncols = data.draw(st.integers(1, 12))
    cell = st.one_of(st.just(INF), st.integers(0, 40))
    rows = data.draw(st.lists(st.one_of(st.none(), st.tuples(*[cell] * ncols)), min_size=ncols, max_size=3 * ncols))
    keyed = [k for k, row in enumerate(rows) if row]
    scipy_costs, compiled = RowCosts(rows, ncols, MATCHING), RowCosts(rows, ncols, MATCHING)
    compiled._compile()
    for _ in range(5):
        keys = data.draw(st.lists(st.sampled_from(keyed), min_size=1, max_size=ncols, unique=True)) if keyed else []
        assert compiled.matching(keys) == scipy_costs.matching(keys)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_the_compiled_matching_matches_again_only_what_changed(data):
    """A search asks for sibling positions, a box or two moved from the last: the compiled
    matching starts from its last assignment (`push_kernel.row_matching`), and its answers
    are still SciPy's, whether the keys come sorted or not, and when their number changes."""
    ncols = data.draw(st.integers(3, 12))
    cell = st.one_of(st.just(INF), st.integers(0, 40))
    rows = data.draw(st.lists(st.tuples(*[cell] * ncols), min_size=2 * ncols, max_size=3 * ncols))
    scipy_costs, compiled = RowCosts(rows, ncols, MATCHING), RowCosts(rows, ncols, MATCHING)
    compiled._compile()
    keys = data.draw(st.lists(st.integers(0, len(rows) - 1), min_size=3, max_size=ncols, unique=True))
    for _ in range(12):
        moved = data.draw(st.integers(0, 3))  # 0: the number of keys changes
        if moved == 0:
            keys = data.draw(st.lists(st.integers(0, len(rows) - 1), min_size=1, max_size=ncols, unique=True))
        for _ in range(moved):
            free = [k for k in range(len(rows)) if k not in keys]
            keys[data.draw(st.integers(0, len(keys) - 1))] = data.draw(st.sampled_from(free))
        if data.draw(st.booleans()):
            keys.sort()
        assert compiled.matching(keys) == scipy_costs.matching(keys)


def test_a_search_that_asks_often_takes_the_compiled_matching(monkeypatch):
    """SciPy answers the first misses (no kernel to load on small levels), the kernel the rest."""
    monkeypatch.setattr(heuristics, "COMPILE_AFTER", 3)
    rows = [(1, 2, 9), (1, 3, 9), (1, 9, 2), (9, 1, 1)]
    costs = RowCosts(rows, 3, MATCHING)
    answers = [costs.matching(keys) for keys in ([0, 1], [0, 2], [1, 2, 3], [0, 1, 2], [0, 3])]
    assert costs._compiled is not None
    assert answers == [3, 3, 4, 5, 2]
