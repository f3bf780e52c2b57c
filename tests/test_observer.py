"""Observer events agree with the statistics, and they show A*'s open-list order.

A recording observer is the only way to see *which* states an engine expanded and in what
order, so the tie-breaking rule (equal f: lower h first, then first in first out) and the
skipping of stale open entries are tested through it.
"""

from __future__ import annotations

from collections import Counter as Tally

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from registry import GENERIC_ENGINES, run

import searchkit
from searchkit import GraphProblem, Limits, Observer, solve
from searchkit.limits import CHECK_EVERY
from searchkit.observer import Observers


class Recorder(Observer):
    """Keeps every event, in order."""

    def __init__(self):
        self.expanded: list = []  # (state, g, h)
        self.generated: list = []  # (parent, action, child, g, h, kind)
        self.bounds: list = []
        self.progress_calls: list = []

    def expand(self, state, g, h):
        self.expanded.append((state, g, h))

    def generate(self, parent, action, child, g, h, kind):
        self.generated.append((parent, action, child, g, h, kind))

    def iteration(self, bound):
        self.bounds.append(bound)

    def progress(self, expanded, generated, best_f):
        self.progress_calls.append((expanded, generated))

    def kinds(self) -> Tally:
        return Tally(kind for *_rest, kind in self.generated)

    def order(self) -> list:
        return [s for s, _g, _h in self.expanded]


BEST_FIRST = ["dijkstra", "astar", "greedy"]


@st.composite
def graphs(draw) -> GraphProblem:
    n = draw(st.integers(2, 10))
    node = st.integers(0, n - 1)
    edges: dict = {}
    for u, v, c in draw(st.lists(st.tuples(node, node, st.integers(1, 9)), max_size=3 * n)):
        edges.setdefault(u, []).append((v, c))
    h = {v: draw(st.integers(0, 6)) for v in range(n)}  # arbitrary: counts must agree anyway
    return GraphProblem(edges, draw(node), draw(st.frozensets(node, min_size=1, max_size=2)), h=h)


@settings(max_examples=80, deadline=None)
@given(graphs(), st.sampled_from(BEST_FIRST + ["bfs"]))
def test_best_first_and_bfs_events_match_stats(problem, engine):
    rec = Recorder()
    stats = solve(problem, engine, observer=rec).stats
    kinds = rec.kinds()
    assert len(rec.expanded) == stats.expanded
    assert len(rec.generated) == stats.generated
    assert kinds["duplicate"] == stats.duplicates
    assert kinds["reopened"] == stats.reopened
    assert set(kinds) <= {"new", "duplicate", "improved", "reopened"}
    # every generate event comes from a state already expanded
    seen = set()
    i = 0
    for parent, *_rest in rec.generated:
        while parent not in seen and i < len(rec.expanded):
            seen.add(rec.expanded[i][0])
            i += 1
        assert parent in seen


@settings(max_examples=150, deadline=None)
@given(graphs(), st.sampled_from(GENERIC_ENGINES))
def test_every_engine_reports_every_expansion(problem, engine):
    """Every registered engine, composites included (their members' events are theirs)."""
    rec = Recorder()
    result = run(problem, engine, observer=rec)
    assert len(rec.expanded) == result.stats.expanded
    assert len(rec.generated) <= result.stats.generated
    if engine != "bidirectional-bfs":
        assert len(rec.bounds) == result.stats.iterations


class EventLog(Observer):
    """expand and generate events in the order they came."""

    def __init__(self):
        self.events: list = []

    def expand(self, state, g, h):
        self.events.append(("expand", state, state, g))

    def generate(self, parent, action, child, g, h, kind):
        self.events.append(("generate", parent, child, g))


@settings(max_examples=150, deadline=None)
@given(graphs(), st.sampled_from(GENERIC_ENGINES))
def test_every_engine_reports_path_costs_as_g(problem, engine):
    """g in an event is the path cost from the root of its search (the start, or a goal for
    a backward side), never a step count, whatever the engine counts internally."""
    log = EventLog()
    run(problem, engine, observer=log)
    roots = {problem.initial_state(), *problem.goal_states()}
    g_of: dict = {}  # state -> g of its latest expansion
    generated_g: dict = {}  # state -> g values it was generated with
    for kind, parent, child, g in log.events:
        if kind == "expand":
            assert g in generated_g.get(child, set()) or (child in roots and g == 0), (engine, child, g)
            g_of[child] = g
        else:
            steps = {c for _a, s, c in problem.successors(parent) if s == child}
            steps |= {c for _a, s, c in problem.predecessors(parent) if s == child}
            assert g - g_of[parent] in steps, (engine, parent, child, g, g_of[parent])
            generated_g.setdefault(child, set()).add(g)


class BoundLog(Observer):
    """Per iteration: its bound and the f of every child it pruned."""

    def __init__(self):
        self.iterations: list = []  # [bound, [pruned f, ...]]

    def iteration(self, bound):
        self.iterations.append([bound, []])

    def generate(self, parent, action, child, g, h, kind):
        if kind == "pruned":
            self.iterations[-1][1].append(g + h)


@settings(max_examples=100, deadline=None)
@given(graphs())
def test_idastar_next_bound_is_the_smallest_pruned_f(problem):
    """The rule that makes IDA* optimal: each bound is the least f the last pass cut off."""
    log = BoundLog()
    result = searchkit.idastar(problem, observer=log)
    for (_bound, pruned), (next_bound, _next_pruned) in zip(log.iterations, log.iterations[1:]):
        assert next_bound == min(pruned)
    if result.status == "no-solution" and log.iterations:
        assert log.iterations[-1][1] == []  # it ends only when nothing was cut off


def test_iddfs_reports_each_bound():
    chain = GraphProblem({i: [(i + 1, 5)] for i in range(4)}, 0, [4])
    rec = Recorder()
    result = searchkit.iddfs(chain, observer=rec)
    assert rec.bounds == [0, 1, 2, 3, 4]  # the goal, 4 steps away, is within the fifth bound
    assert result.stats.iterations == 5
    assert result.cost == 20


@pytest.mark.parametrize("engine", GENERIC_ENGINES)
def test_events_match_stats_when_a_limit_stops_the_search(counter, engine):
    rec = Recorder()
    stats = run(counter, engine, limits=Limits(max_expanded=2 * CHECK_EVERY + 5), observer=rec).stats
    assert stats.limit_reason == "nodes"
    assert len(rec.expanded) == stats.expanded == 2 * CHECK_EVERY + 5
    if engine in BEST_FIRST + ["bfs"]:
        assert len(rec.generated) == stats.generated
    else:  # depth-first engines count children they skip without an event
        assert len(rec.generated) <= stats.generated
    # progress comes at the limit checks: a few of them, in order, the last one at the stop
    counts = [e for e, _g in rec.progress_calls]
    assert len(counts) >= 2 and counts == sorted(counts) and counts[-1] == stats.expanded


def test_astar_breaks_f_ties_on_lower_h():
    """s's children all have f = 3.  The one with the lowest h goes first; then the goal,
    reached with f = 3 and h = 0, goes before the child with h = 2, which is never expanded."""
    edges = {"s": [("a", 1), ("b", 2), ("c", 3)], "a": [("g", 2)], "b": [("g", 1)], "c": [("g", 1)]}
    problem = GraphProblem(edges, "s", ["g"], h={"s": 3, "a": 2, "b": 1, "c": 0})
    rec = Recorder()
    result = searchkit.astar(problem, observer=rec)
    assert rec.order() == ["s", "c", "b"]
    assert result.cost == 3  # s-b-g, or s-a-g: as cheap, rebuilt from the stored costs


def test_astar_breaks_f_and_h_ties_first_in_first_out():
    """Children with equal f and h come off the open list in the order they were generated,
    not by name and not last-in-first-out; a later child with the same f and lower h
    (``z``) overtakes them."""
    edges = {
        "s": [("x3", 1), ("x1", 1), ("x2", 1)],
        "x3": [("y", 0), ("z", 1), ("g", 2)],
        "x1": [("g", 2)],
        "x2": [("g", 2)],
        "y": [("g", 2)],
        "z": [("g", 1)],
    }
    h = {"s": 2, "x1": 1, "x2": 1, "x3": 1, "y": 1, "z": 0}  # admissible: true distances are 3, 2, 2, 2, 2, 1
    rec = Recorder()
    result = searchkit.astar(GraphProblem(edges, "s", ["g"], h=h), observer=rec)
    assert rec.order() == ["s", "x3", "z", "x1", "x2", "y"]
    assert result.cost == 3


def test_stale_open_entries_are_skipped():
    """``a`` enters the open list at g = 5, then at g = 2: the g = 5 entry comes off the
    queue before the goal and must be dropped, not expanded again."""
    edges = {"s": [("a", 5), ("b", 1)], "b": [("a", 1)], "a": [("g", 10)]}
    for engine in ("dijkstra", "astar"):
        rec = Recorder()
        result = solve(GraphProblem(edges, "s", ["g"]), engine, observer=rec)
        assert rec.expanded == [("s", 0, None), ("b", 1, None), ("a", 2, None)]  # no h computed
        assert result.stats.expanded == 3
        assert (result.states, result.cost) == (["s", "b", "a", "g"], 12)


def test_inconsistent_heuristic_reopens_and_stays_optimal():
    """h(a) = 6 is admissible (a is 6 from the goal) but inconsistent (h(s) = 0): A* first
    reaches b the dear way, then must reopen b (and g) when a's cheaper path shows up."""
    edges = {"s": [("a", 1), ("b", 3)], "a": [("b", 1)], "b": [("g", 5)]}
    problem = GraphProblem(edges, "s", ["g"], h={"s": 0, "a": 6, "b": 0})
    rec = Recorder()
    result = searchkit.astar(problem, observer=rec)
    assert rec.expanded == [("s", 0, 0), ("b", 3, 0), ("a", 1, 6), ("b", 2, 0)]
    # two cheaper paths re-queue a known state (b, expanded, and g, still open); only b's
    # is a reopening: an expanded state put back on the open list
    assert rec.kinds()["reopened"] == 1 == result.stats.reopened and rec.kinds()["improved"] == 1
    assert (result.states, result.cost) == (["s", "a", "b", "g"], 7)
    # each state is expanded at most once per g, and only again at a lower g
    last: dict = {}
    for state, g, _h in rec.expanded:
        assert g < last.get(state, float("inf"))
        last[state] = g


def test_observers_fan_out_and_skip_none():
    one, two = Recorder(), Recorder()
    problem = GraphProblem({"s": [("a", 1)], "a": [("g", 1)]}, "s", ["g"])
    result = searchkit.idastar(problem, observer=Observers(one, None, two))
    assert one.expanded == two.expanded and len(one.expanded) == result.stats.expanded
    assert one.generated == two.generated and one.bounds == two.bounds == [0, 1, 2]


def test_a_consistent_heuristic_never_reopens():
    """Manhattan is consistent: A* on the 8-puzzle improves open paths but reopens nothing."""
    from searchkit import make_problem

    result = searchkit.astar(make_problem("npuzzle", board="8 6 7 2 5 4 3 0 1", heuristic="manhattan"))
    assert result.cost == 31 and result.stats.reopened == 0
