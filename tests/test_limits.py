"""Limits stop every engine, with the right reason and the statistics gathered so far.

Most tests run on the ``counter`` fixture: an infinite space in which only a limit can
end a search, so a missing check shows up as a hang (caught by a watchdog thread).
"""

from __future__ import annotations

import threading
import time

import pytest
from problems import Counter
from registry import GENERIC_ENGINES as ENGINES
from registry import run

from searchkit import LIMIT, SOLVED, GraphProblem, Limits
from searchkit.limits import CHECK_EVERY

WATCHDOG_S = 10.0  # far above any expected run: only a search that ignores its limits gets here


def run_guarded(problem, engine: str, limits: Limits, **params):
    """Run ``solve`` in a daemon thread; fail (instead of hanging) when it does not return."""
    out: dict = {}

    def target():
        t0 = time.perf_counter()
        try:
            out["result"] = run(problem, engine, limits=limits, **params)
        except BaseException as e:  # surfaced below, in the test's thread
            out["error"] = e
        out["wall"] = time.perf_counter() - t0

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(WATCHDOG_S)
    if thread.is_alive():
        limits.interrupt.set()  # let the stray search end instead of eating the CPU
        pytest.fail(f"{engine} ignored its limits for {WATCHDOG_S} s")
    if "error" in out:
        raise out["error"]
    return out["result"], out["wall"]


def assert_stopped(result, reason: str) -> None:
    """A limit result: no solution, the reason, and the work done so far."""
    assert result.status == LIMIT, result
    assert result.stats.limit_reason == reason
    assert (result.actions, result.states, result.cost) == ([], [], None)
    assert result.stats.expanded > 0
    assert result.stats.generated > 0
    assert result.stats.stored > 0
    assert result.stats.elapsed_s > 0


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("n", [1, 5, CHECK_EVERY - 1, CHECK_EVERY, CHECK_EVERY + 1, 2500])
def test_node_limit_is_met_exactly(counter, engine, n):
    result, _wall = run_guarded(counter, engine, Limits(max_expanded=n))
    assert_stopped(result, "nodes")
    assert result.stats.expanded == n


@pytest.mark.parametrize("engine", ENGINES)
def test_zero_node_limit_expands_nothing(counter, engine):
    result, _wall = run_guarded(counter, engine, Limits(max_expanded=0))
    assert (result.status, result.stats.limit_reason, result.stats.expanded) == (LIMIT, "nodes", 0)


@pytest.mark.parametrize("engine", ENGINES)
def test_timeout_stops_an_infinite_search_quickly(counter, engine):
    result, wall = run_guarded(counter, engine, Limits(timeout_s=0.2))
    assert_stopped(result, "time")
    assert 0.2 <= result.stats.elapsed_s <= wall < 2.0
    assert result.stats.expanded > 100  # it really searched until the clock ran out


class SlowCounter(Counter):
    """The counter with 5 ms per expansion, as on a big Sokoban level: a thousand expansions
    between two looks at the clock would overshoot a short limit by seconds."""

    def successors(self, state: int):
        time.sleep(0.005)
        return super().successors(state)

    def predecessors(self, state: int):
        time.sleep(0.005)
        return super().predecessors(state)


@pytest.mark.parametrize("engine", ENGINES)
def test_timeout_is_met_when_expansions_are_slow(engine):
    result, wall = run_guarded(SlowCounter(), engine, Limits(timeout_s=0.1))
    assert_stopped(result, "time")
    # each expansion sleeps 5 ms, so 0.1 s holds at most 20 of them: a search that checks
    # the clock only every `CHECK_EVERY` expansions would run 5 s (bounds generous for a
    # loaded machine)
    assert 0.1 <= result.stats.elapsed_s <= wall < 0.1 + 1.5
    assert result.stats.expanded <= 0.1 / 0.005 + 8, result.stats.expanded


@pytest.mark.parametrize("engine", ENGINES)
def test_stored_limit_reports_states(counter, engine):
    result, _wall = run_guarded(counter, engine, Limits(max_stored=12, timeout_s=WATCHDOG_S / 2))
    assert_stopped(result, "states")
    assert result.stats.stored >= 12


@pytest.mark.parametrize("engine", ["bfs", "bidirectional-bfs", "astar", "idastar"])
def test_rss_limit_reports_memory(counter, engine):
    result, _wall = run_guarded(counter, engine, Limits(max_rss_mb=1, timeout_s=WATCHDOG_S / 2))
    assert_stopped(result, "memory")


@pytest.mark.parametrize("engine", ENGINES)
def test_interrupt_from_another_thread(counter, engine):
    limits = Limits()
    timer = threading.Timer(0.1, limits.interrupt.set)
    timer.start()
    try:
        result, wall = run_guarded(counter, engine, limits)
    finally:
        timer.cancel()
    assert_stopped(result, "interrupted")  # only the timer sets the interrupt: not stopped early
    assert wall < 0.1 + 2.0  # seen within a few checks, with room for a loaded machine


def test_an_interrupt_set_before_the_search_stops_it_at_the_first_check(counter):
    limits = Limits()
    limits.interrupt.set()
    result, _wall = run_guarded(counter, "astar", limits)
    assert_stopped(result, "interrupted")
    assert result.stats.expanded <= CHECK_EVERY


@pytest.mark.parametrize("field", ["max_expanded", "timeout_s", "max_stored", "max_rss_mb"])
def test_negative_limits_are_refused(field):
    with pytest.raises(ValueError, match=field):
        Limits(**{field: -1})
    with pytest.raises(ValueError, match=field):
        Limits(**{field: float("nan")})  # NaN compares false with everything: never reached
    Limits(**{field: 0})  # zero is a legal (if useless) limit


@pytest.mark.parametrize("engine", ENGINES)
def test_limits_that_are_not_reached_change_nothing(engine):
    problem = GraphProblem({"s": [("a", 1), ("b", 1)], "a": [("g", 1)], "b": [("a", 1)]}, "s", ["g"])
    free = run(problem, engine)
    limited = run(problem, engine, limits=Limits(max_expanded=100, timeout_s=60, max_stored=100, max_rss_mb=10**6))
    assert free.status == limited.status == SOLVED
    assert (free.states, free.cost) == (limited.states, limited.cost) == (["s", "a", "g"], 2)
    assert limited.stats.limit_reason is None


@pytest.mark.parametrize("engine", ENGINES)
def test_node_limit_before_the_goal_is_a_limit_not_no_solution(engine):
    """A chain of 30 states: 5 expansions cannot reach the goal, but it exists."""
    chain = {i: [(i + 1, 1)] for i in range(30)}
    result = run(GraphProblem(chain, 0, [30]), engine, limits=Limits(max_expanded=5))
    assert (result.status, result.stats.limit_reason) == (LIMIT, "nodes")


def test_a_path_deeper_than_the_stack_is_a_memory_limit(counter):
    """DFS recursion has a ceiling; reaching it must end the search, not raise."""
    result, _wall = run_guarded(counter, "dfs", Limits(), depth=10**6)
    assert_stopped(result, "memory")


TABLE_FREE = {"dfs", "iddfs", "idastar"}  # engines that store no table of states


@pytest.mark.parametrize("engine", [e for e in ENGINES if e not in TABLE_FREE])
def test_a_memory_limit_stops_a_search_before_its_table_grows_past_it(counter, engine, monkeypatch):
    """A dictionary of states grows in one step, holding its old and new tables for a
    moment: the limit counts the step as taken before it comes (`searchkit.tables`), so a
    search whose memory reading stays flat (here 0) still stops, with the table not grown
    past the limit.  A table's first growth claiming 2 MiB comes at 43,691 states (tables
    of one size growing together claim it sooner)."""
    import importlib

    monkeypatch.setattr(importlib.import_module("searchkit.limits"), "current_rss_bytes", lambda: 0)
    result, _wall = run_guarded(counter, engine, Limits(max_rss_mb=2, timeout_s=WATCHDOG_S / 2))
    assert_stopped(result, "memory")
    assert 5_000 < result.stats.stored <= 2 * 43_690  # two directions' tables at most


def test_the_guard_counts_memory_about_to_be_claimed_as_taken(monkeypatch):
    import importlib

    monkeypatch.setattr(importlib.import_module("searchkit.limits"), "current_rss_bytes", lambda: 900 * 2**20)
    guard = Limits(max_rss_mb=1000).guard()
    assert guard.check(1, 1) is None
    assert guard.check(2, 1, ahead=99 * 2**20) is None
    assert guard.check(3, 1, ahead=100 * 2**20) == "memory"
    assert guard.ahead == 100 * 2**20
    assert Limits().guard().check(4, 1, ahead=2**40) is None  # no memory limit: nothing to count against


def test_the_guard_counts_the_memory_taken_since_the_last_check_as_taken_again(monkeypatch):
    """Memory a search stores between two checks it stores again before the next: a reading
    100 MiB up on the last stops 100 MiB short of the limit.  An interval in which a table
    may have stepped (the last check counted one ``ahead``) is no measure of the next."""
    import importlib

    readings = iter(mib * 2**20 for mib in (500, 600, 850, 860, 890, 895))
    monkeypatch.setattr(importlib.import_module("searchkit.limits"), "current_rss_bytes", lambda: next(readings))
    guard = Limits(max_rss_mb=1000).guard()
    assert guard.check(1, 1) is None and guard.drift == 0  # nothing to compare with yet
    assert guard.check(2, 1, ahead=10 * 2**20) is None and guard.drift == 100 * 2**20
    assert guard.check(3, 1) is None and guard.drift == 0  # 250 MiB, but a table may have stepped
    assert guard.check(4, 1) is None and guard.drift == 10 * 2**20
    assert guard.check(5, 1) is None  # 890 + 30 < 1000
    assert guard.check(6, 1, ahead=100 * 2**20) == "memory"  # 895 + 5 + 100


def test_a_watched_search_is_freed_without_the_cycle_collector(counter):
    """A search watches its own tables through its `Run` (`Run.watch`) by a weak reference:
    dropped, it is freed at once, its millions of states with it, not at the next sweep of
    the cycle collector."""
    import gc
    import weakref

    from searchkit import BestFirstSearch

    gc.disable()
    try:
        search = BestFirstSearch(counter, limits=Limits(max_rss_mb=10_000))
        search.step(100)
        assert [*search.run.tables()] == [search]
        ref = weakref.ref(search)
        del search
        assert ref() is None
    finally:
        gc.enable()
