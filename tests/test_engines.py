"""Every engine against networkx on hundreds of random small digraphs.

Optimal engines must match ``nx.shortest_path_length`` (cost, or steps for the engines
that are optimal in steps); every solution is checked step by step twice - by
`searchkit.replay` and by an independent walk over the edge list - and unreachable goals
must give ``no-solution``.
"""

from __future__ import annotations

import importlib
import math
import time
from dataclasses import dataclass

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from registry import GENERIC_ENGINES, PARAMS, missing_examples, run, usable

import searchkit
from searchkit import LIMIT, NO_SOLUTION, SOLVED, GraphProblem, InputError, Limits, replay, solve
from searchkit.plugins import engines

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# what the registry promises, with each engine's example parameters: the oracle holds every
# registered engine to its own label
COST_OPTIMAL = [n for n in GENERIC_ENGINES if engines()[n].guarantee(PARAMS[n]) == "optimal"]
STEP_OPTIMAL = [n for n in GENERIC_ENGINES if engines()[n].guarantee(PARAMS[n]) == "optimal (fewest steps)"]
COMPLETE = [n for n in GENERIC_ENGINES if engines()[n].complete]
BIG = 10**6  # h of states that cannot reach a goal (or infinity): any value is admissible there


@dataclass
class Case:
    """A random graph with its oracle view."""

    n: int
    edges: list  # (u, v, cost), parallel edges and self-loops allowed
    start: int
    goals: frozenset

    def adjacency(self) -> dict:
        adj: dict = {}
        for u, v, c in self.edges:
            adj.setdefault(u, []).append((v, c))
        return adj

    def graph(self) -> nx.MultiDiGraph:
        g = nx.MultiDiGraph()
        g.add_nodes_from(range(self.n))
        g.add_weighted_edges_from(self.edges)
        return g

    def problem(self, h: dict | None = None) -> GraphProblem:
        return GraphProblem(self.adjacency(), self.start, self.goals, h=h)

    def optimum(self, weight: str | None = "weight"):
        """min over goals of ``nx.shortest_path_length``; None when no goal is reachable."""
        g = self.graph()
        best = None
        for goal in self.goals:
            try:
                d = nx.shortest_path_length(g, self.start, goal, weight=weight)
            except nx.NetworkXNoPath:
                continue
            best = d if best is None else min(best, d)
        return best

    def forward_problem(self, h: dict | None = None) -> ForwardOnly:
        return ForwardOnly(self.problem(h))

    def to_goal(self) -> dict:
        """Exact distance from every node to its nearest goal (reversed-graph Dijkstra)."""
        return nx.multi_source_dijkstra_path_length(self.graph().reverse(), set(self.goals), weight="weight")


class ForwardOnly:
    """A problem without ``predecessors``: best-first search must keep parent pointers."""

    def __init__(self, inner: GraphProblem):
        self.initial_state, self.is_goal, self.successors = inner.initial_state, inner.is_goal, inner.successors
        self.heuristic = inner.heuristic


COSTS = {
    "unit": st.just(1),
    "int": st.integers(1, 9),
    "float": st.one_of(st.integers(1, 9), st.floats(0.01, 10.0, allow_nan=False, allow_infinity=False)),
    "nonneg": st.one_of(st.just(0), st.integers(0, 5), st.floats(0.0, 5.0)),
}


@st.composite
def cases(draw, costs: str = "int", max_nodes: int = 12) -> Case:
    n = draw(st.integers(2, max_nodes))
    node = st.integers(0, n - 1)
    m = draw(st.integers(0, 4 * n))  # up to dense: many alternative paths catch more bugs
    edges = draw(st.lists(st.tuples(node, node, COSTS[costs]), min_size=m, max_size=m))
    if edges:  # parallel copies with other costs, ahead of or after the original
        for i, cost, ahead in draw(
            st.lists(st.tuples(st.integers(0, len(edges) - 1), COSTS[costs], st.booleans()), max_size=n)
        ):
            u, v, _c = edges[i]
            edges.insert(i if ahead else len(edges), (u, v, cost))
    start = draw(node)
    goals = draw(st.frozensets(node, min_size=1, max_size=3))
    return Case(n, edges, start, goals)


@st.composite
def cases_with_h(draw, costs: str = "int") -> tuple[Case, str, dict]:
    """A case and an admissible heuristic of one of three kinds.

    ``consistent``: ``floor(c * d)`` (int costs) or ``c * d``, ``c`` one constant in
    [0, 1]; ``admissible``: ``d`` times a random factor per node, usually inconsistent, so
    A* must reopen; ``exact``: ``d`` itself.  ``d`` is the true distance to a goal.
    """
    case = draw(cases(costs))
    kind = draw(st.sampled_from(["consistent", "admissible", "exact"]))
    d = case.to_goal()
    c = draw(st.floats(0.0, 1.0))
    dead = draw(st.sampled_from([BIG, math.inf]))
    h = {}
    for v in range(case.n):
        if v not in d:
            h[v] = dead
        elif kind == "exact":
            h[v] = d[v]
        elif kind == "consistent":
            h[v] = math.floor(c * d[v]) if costs in ("int", "unit") else c * d[v]
        else:
            h[v] = d[v] * draw(st.floats(0.0, 1.0))
    return case, kind, h


def check_solution(case: Case, problem: GraphProblem, result) -> float:
    """Walk ``result`` over the edge list (not through the problem) and replay it too."""
    assert result.status == SOLVED
    cheapest: dict = {}
    for u, v, c in case.edges:
        cheapest[u, v] = min(c, cheapest.get((u, v), math.inf))
    states, actions = result.states, result.actions
    assert len(states) == len(actions) + 1
    assert states[0] == case.start
    assert states[-1] in case.goals
    cost = 0
    for u, action, v in zip(states, actions, states[1:]):
        assert (u, v) in cheapest, f"no edge {u} -> {v}"
        assert action == v  # GraphProblem's actions name the target node
        cost += cheapest[u, v]
    assert math.isclose(result.cost, cost, rel_tol=1e-9, abs_tol=1e-9)
    assert math.isclose(replay(problem, result), cost, rel_tol=1e-9, abs_tol=1e-9)
    return cost


def assert_optimal(case: Case, problem: GraphProblem, result, optimum, steps: bool = False) -> None:
    if optimum is None:
        assert result.status == NO_SOLUTION, result
        assert result.cost is None and result.actions == [] and result.states == []
        return
    check_solution(case, problem, result)
    if steps:
        assert len(result.actions) == optimum
    else:
        assert math.isclose(result.cost, optimum, rel_tol=1e-9, abs_tol=1e-9), (result.cost, optimum)


class ExpandCounter(searchkit.Observer):
    def __init__(self):
        self.times: dict = {}

    def expand(self, state, g, h):
        self.times[state] = self.times.get(state, 0) + 1


# -- optimal in cost ------------------------------------------------------------------------


@SETTINGS
@given(st.sampled_from(["int", "float"]).flatmap(cases))
def test_dijkstra_matches_networkx(case):
    optimum = case.optimum()
    for problem in (case.problem(), case.forward_problem()):
        assert_optimal(case, problem, searchkit.dijkstra(problem), optimum)


@SETTINGS
@given(st.sampled_from(["int", "float"]).flatmap(cases_with_h))
def test_cost_optimal_engines_match_networkx(drawn):
    """Every engine the registry calls cost-optimal, with an admissible heuristic."""
    case, kind, h = drawn
    optimum = case.optimum()
    problem = case.problem(h)
    expanded = ExpandCounter()
    astar = searchkit.astar(problem, observer=expanded)
    assert_optimal(case, problem, astar, optimum)
    if kind != "admissible" and all(isinstance(c, int) for _u, _v, c in case.edges):
        # consistent (and exact arithmetic): a state is settled when first expanded
        assert max(expanded.times.values(), default=0) <= 1
    for engine in COST_OPTIMAL:
        assert_optimal(case, problem, run(problem, engine), optimum)
    forward = case.forward_problem(h)
    assert_optimal(case, forward, searchkit.astar(forward), optimum)


@SETTINGS
@given(st.integers(3, 12).flatmap(lambda n: cases("nonneg", max_nodes=n)))
def test_zero_cost_edges_keep_optimal_engines_right(case):
    """Zero-cost cycles must not confuse the path rebuilt from stored costs."""
    optimum = case.optimum()
    h = {v: 0.5 * d for v, d in case.to_goal().items()}
    for result_of in (searchkit.dijkstra, searchkit.astar, searchkit.idastar):
        for problem in (case.problem(h), case.forward_problem(h)):
            assert_optimal(case, problem, result_of(problem), optimum)


@pytest.mark.parametrize("engine", ["dijkstra", "astar", "greedy"])
def test_a_float_cost_and_a_zero_cost_cycle_end(engine):
    """-1 - g does not round-trip for this g: an expanded-state mark built from it made the
    zero-cost cycle s-t-s look cheaper every time round, and the search never ended."""
    g = 3.6891047325008457
    problem = GraphProblem({"S": [("s", g)], "s": [("t", 0)], "t": [("s", 0), ("G", 1)]}, "S", ["G"])
    result = solve(problem, engine, limits=Limits(max_expanded=100))
    assert (result.status, result.states, result.cost, result.stats.reopened) == (
        "solved",
        ["S", "s", "t", "G"],
        g + 1,
        0,
    )


@pytest.mark.parametrize("engine", ["dijkstra", "astar", "greedy"])
def test_path_rebuild_backs_out_of_a_zero_cost_cycle(engine):
    """``q`` fits as s's predecessor (g 1 + 0 <= 1) but leads nowhere but back to ``s``."""
    problem = GraphProblem({"q": [("s", 0)], "S": [("s", 1)], "s": [("q", 0), ("G", 1)]}, "S", ["G"])
    result = run(problem, engine)
    assert (result.states, result.actions, result.cost) == (["S", "s", "G"], ["s", "G"], 2)


@SETTINGS
@given(cases_with_h("float"), st.sampled_from([1.5, 2, 3.25]))
def test_weighted_astar_is_within_its_weight(drawn, weight):
    case, _kind, h = drawn
    optimum = case.optimum()
    for problem in (case.problem(h), case.forward_problem(h)):
        result = searchkit.astar(problem, weight=weight)
        if optimum is None:
            assert result.status == NO_SOLUTION
        else:
            cost = check_solution(case, problem, result)
            assert cost <= weight * optimum + 1e-9


# -- optimal in steps -----------------------------------------------------------------------


@SETTINGS
@given(cases("unit"))
def test_unit_cost_engines_match_networkx(case):
    optimum = case.optimum()
    for engine in COST_OPTIMAL + STEP_OPTIMAL:
        problem = case.problem()
        assert_optimal(case, problem, run(problem, engine), optimum)


@SETTINGS
@given(cases("float"))
def test_step_optimal_engines_find_fewest_steps_on_weighted_graphs(case):
    """On any costs bfs, bidirectional-bfs and iddfs minimise steps and report true costs."""
    steps = case.optimum(weight=None)
    for engine in STEP_OPTIMAL:
        problem = case.problem()
        assert_optimal(case, problem, run(problem, engine), steps, steps=True)


# -- complete but not optimal ---------------------------------------------------------------


@SETTINGS
@given(st.sampled_from(["int", "float"]).flatmap(cases_with_h))
def test_complete_engines_find_a_valid_path_iff_one_exists(drawn):
    """Every registered engine that calls itself complete, greedy and the composites included."""
    case, _kind, h = drawn
    reachable = case.optimum() is not None
    for problem in (case.problem(h), case.problem(), case.forward_problem(h)):
        for engine in filter(lambda e: usable(e, problem), COMPLETE):
            result = run(problem, engine)
            if reachable:
                check_solution(case, problem, result)
            else:
                assert result.status == NO_SOLUTION, engine


def has_simple_path_longer_than(case: Case, depth: int) -> bool:
    """True when some cycle-free path from the start has ``depth + 1`` steps."""
    adj = {u: {v for v, _c in vs if v != u} for u, vs in case.adjacency().items()}

    def extend(u, on_path, length):
        if length > depth:
            return True
        return any(v not in on_path and extend(v, on_path | {v}, length + 1) for v in adj.get(u, ()))

    return extend(case.start, {case.start}, 0)


@SETTINGS
@given(cases("float"), st.integers(0, 6))
def test_dfs_respects_its_depth_limit(case, depth):
    """Solved within the limit when a goal lies within it; otherwise ``limit`` exactly when
    the limit cut a path off, ``no-solution`` when the space was exhausted."""
    problem = case.problem()
    result = searchkit.dfs(problem, depth=depth)
    steps = case.optimum(weight=None)
    if steps is not None and steps <= depth:
        check_solution(case, problem, result)
        assert len(result.actions) <= depth
    elif has_simple_path_longer_than(case, depth):
        assert result.status == LIMIT
        assert result.stats.limit_reason == "depth"
    else:
        assert result.status == NO_SOLUTION
        assert result.stats.limit_reason is None


@SETTINGS
@given(cases("float"))
def test_dfs_with_a_deep_limit_is_complete(case):
    """A limit no cycle-free path reaches makes dfs decide reachability exactly."""
    problem = case.problem()
    result = searchkit.dfs(problem, depth=case.n)
    if case.optimum() is None:
        assert result.status == NO_SOLUTION
    else:
        check_solution(case, problem, result)


# -- edge cases named in the issue -----------------------------------------------------------

ENGINES = GENERIC_ENGINES


def test_every_required_parameter_has_an_example():
    """A registered engine with a required parameter is tested only once it has an example."""
    assert missing_examples() == []
    assert {"alternation", "portfolio", "backward", "astar"} <= set(GENERIC_ENGINES)


@pytest.mark.parametrize("engine", ENGINES)
def test_start_is_a_goal(engine):
    problem = GraphProblem({"s": [("s", 1), ("a", 1)], "a": [("s", 1)]}, "s", {"s", "a"}, h={"a": 1})
    result = run(problem, engine)
    assert (result.status, result.actions, result.states, result.cost) == (SOLVED, [], ["s"], 0)
    assert replay(problem, result) == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_self_loops_parallel_edges_and_several_goals(engine):
    """The cheap parallel edge is the one paid for, self-loops are harmless, and the
    nearest of several goals is found."""
    edges = {
        "s": [("s", 1), ("a", 7), ("a", 2), ("a", 3)],
        "a": [("a", 0.5), ("g1", 4), ("g1", 1), ("b", 1)],
        "b": [("g2", 9)],
    }
    problem = GraphProblem(edges, "s", ["g1", "g2"], h={"s": 3, "a": 1})
    result = run(problem, engine)
    assert result.states == ["s", "a", "g1"]
    assert result.actions == ["a", "g1"]
    assert result.cost == 3
    assert replay(problem, result) == 3


@pytest.mark.parametrize("engine", ENGINES)
def test_unreachable_goal_is_no_solution(engine):
    """Three states on each side of the gap, so forward and backward searches both work."""
    edges = {"s": [("a", 1), ("s", 1)], "a": [("s", 2), ("b", 1)], "g": [("s", 1)], "d": [("c", 1)], "c": [("g", 1)]}
    problem = GraphProblem(edges, "s", ["g"])
    result = run(problem, engine)
    assert result.stats.expanded >= 3
    if not engines()[engine].complete:  # an incomplete engine (beam) proves nothing by running out
        assert (result.status, result.stats.limit_reason) == (LIMIT, "incomplete")
        return
    assert result.status == NO_SOLUTION
    assert result.stats.limit_reason is None


def test_idastar_finds_a_goal_whose_heuristic_is_not_zero():
    """An inadmissible heuristic may be positive at a goal: IDA* must still stop there."""
    problem = GraphProblem({0: [(1, 1)], 1: [(2, 1)], 2: [(3, 1)]}, 0, [2], h={1: 1, 2: 1, 3: 0})
    result = searchkit.idastar(problem)
    assert result.states == [0, 1, 2]
    assert replay(problem, result) == 2


# -- the library entry point ------------------------------------------------------------------


def test_solve_passes_parameters_to_the_engine():
    """Weight 2 makes A* follow h into a dearer path that weight 1 would reject."""
    edges = {"s": [("a", 1), ("b", 2)], "a": [("g", 3)], "b": [("g", 1)]}
    problem = GraphProblem(edges, "s", ["g"], h={"a": 0, "b": 1})
    assert solve(problem, "astar").cost == 3
    weighted = solve(problem, "astar", weight=2)
    assert weighted.engine == "astar"
    assert (weighted.states, weighted.cost) == (["s", "a", "g"], 4)
    assert replay(problem, weighted) == 4
    assert solve(problem, "dfs", depth=1).status == LIMIT


def test_solve_rejects_bad_names_and_parameters():
    problem = GraphProblem({"s": [("g", 1)]}, "s", ["g"])
    with pytest.raises(InputError, match="unknown engine 'nope'"):
        solve(problem, "nope")
    for weight in (0.5, float("nan"), "heavy"):
        with pytest.raises(InputError, match="weight"):
            solve(problem, "astar", weight=weight)
    with pytest.raises(InputError, match="depth"):
        solve(problem, "dfs", depth=-1)
    with pytest.raises(InputError, match="bfs.*no parameter weight"):
        solve(problem, "bfs", weight=2)


@pytest.mark.parametrize("engine", ["bidirectional-bfs", "nbs", "mm"])
def test_bidirectional_needs_a_backward_problem(engine):
    class Forward:
        def initial_state(self):
            return 0

        def is_goal(self, s):
            return s == 1

        def successors(self, s):
            return [("+", s + 1, 1)]

    with pytest.raises(ValueError, match="goal states and predecessors"):
        solve(Forward(), engine)
    assert solve(Forward(), "bfs").states == [0, 1]


@pytest.mark.parametrize("engine", ENGINES)
def test_results_name_their_engine_and_time(engine):
    problem = GraphProblem({"s": [("g", 1)]}, "s", ["g"])
    result = run(problem, engine)
    assert result.engine == engine
    assert result.stats.elapsed_s > 0
    assert (len(result), result.solved) == (1, True)


def test_the_registry_promises_what_the_engines_keep():
    """The guarantees printed to users; the oracle tests above hold the engines to them."""
    assert set(COST_OPTIMAL) == {"dijkstra", "astar", "idastar", "backward", "anytime", "nbs", "mm"}
    assert engines()["anytime"].guarantee({"weight": 3}) == "optimal"  # run to the end; a Result says more
    assert set(STEP_OPTIMAL) == {"bfs", "bidirectional-bfs", "iddfs"}
    info = engines()
    assert info["astar"].guarantee() == "optimal"
    assert info["astar"].guarantee({"weight": 2}) == "suboptimal (weight 2)"
    assert info["idastar"].guarantee(admissible=False) == "suboptimal (inadmissible heuristic)"
    assert info["dijkstra"].guarantee(admissible=False) == "optimal"  # it ignores h
    assert info["bfs"].guarantee() == "optimal (fewest steps)"
    assert info["greedy"].guarantee() == info["dfs"].guarantee() == "suboptimal"
    assert info["bidirectional-bfs"].backward and not info["bfs"].backward


@SETTINGS
@given(cases_with_h("int"), st.integers(1, 5), st.booleans())
def test_a_search_stepped_in_small_budgets_is_the_search_run_at_once(drawn, budget, lifo):
    """Pausing puts the next state back where it was: the same expansions in the same order."""
    from searchkit import BestFirstSearch, Observer

    case, _kind, h = drawn

    class Order(Observer):
        def __init__(self):
            self.seen = []

        def expand(self, state, g, h):
            self.seen.append((state, g))

    runs = []
    for step in (None, budget):
        log = Order()
        search = BestFirstSearch(case.problem(h), lifo=lifo, observer=log, reopen=not lifo)
        while not search.step(step):
            pass
        runs.append((log.seen, search.result().status, search.result().cost))
    assert runs[0] == runs[1]


def test_a_portfolio_member_can_be_the_problems_own_search():
    """``search:NAME`` steps whatever ``member_search`` makes (here a Dijkstra run); None
    leaves it out; a problem without ``member_search`` is refused."""
    edges = {"s": [("a", 1), ("b", 2)], "a": [("g", 3)], "b": [("g", 1)]}

    class Own(GraphProblem):
        def member_search(self, name, observer=None):
            if name == "none":
                return None
            return searchkit.BestFirstSearch(self, h_weight=0, name=name, observer=observer)

    problem = Own(edges, "s", ["g"], h={"a": 0, "b": 1})
    result = solve(problem, "portfolio", members="search:mine")
    assert result.cost == 3 and result.stats.answered_by == "search:mine" and replay(problem, result) == 3
    both = solve(problem, "portfolio", members="greedy,search:none", solo=0)
    assert both.solved and both.stats.answered_by == "greedy"
    with pytest.raises(InputError, match="member_search"):
        solve(GraphProblem(edges, "s", ["g"]), "portfolio", members="search:mine")


def test_a_portfolio_says_what_each_member_did():
    """``stats.members``: each member's turns, in the order they joined, adding up to the
    portfolio's expansions; members that never joined are not listed."""
    edges = {i: [(i + 1, 1)] for i in range(60)}
    problem = GraphProblem(edges, 0, [60])
    result = solve(problem, "portfolio", members="dijkstra,backward,greedy@1000", solo=0)
    assert result.solved
    names = [m["member"] for m in result.stats.members]
    assert names == ["dijkstra", "backward"]
    assert sum(m["expanded"] for m in result.stats.members) == result.stats.expanded
    assert all(m["seconds"] >= 0 and not m["retired"] for m in result.stats.members)
    assert solve(problem, "astar").stats.members is None  # one search: nothing to break down


def test_a_portfolio_is_described_from_its_member_string():
    """What ``searchkit engines`` says of a portfolio comes from the string that decides it."""
    spec = "nearest-goal<10,backward:pull*3,search:fess@3,astar:matching@3<20*0.5,astar:guide@3"
    words = searchkit.describe_members(spec, {"fess": "FESS", "guide": "the guide"})
    assert words == (
        "greedy on nearest-goal till 10 s, greedy backwards on pull (3 shares);"
        " from 3 s: FESS, astar on matching till 20 s (0.5 shares), astar the guide"
    )
    with pytest.raises(InputError):
        searchkit.describe_members("")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_a_meeting_portfolio_answers_iff_a_path_exists(case):
    """With ``meet`` a forward and a backward member that reach one state answer together:
    the joined path is a real one (walked over the edge list and replayed)."""
    problem = case.problem()
    result = solve(problem, "portfolio", members="dijkstra,backward", solo=0, meet=True)
    if case.optimum() is None:
        assert result.status == NO_SOLUTION
    else:
        check_solution(case, problem, result)


def test_searches_that_meet_answer_before_either_crosses_alone():
    """On a long line each member alone would walk all of it; meeting, they answer halfway,
    and the answer names both."""
    n = 400
    edges = {i: [(i + 1, 1), (i - 1, 1)] for i in range(1, n)} | {0: [(1, 1)]}
    problem = GraphProblem(edges, 0, [n])
    alone = solve(problem, "portfolio", members="dijkstra,backward", solo=0)
    met = solve(problem, "portfolio", members="dijkstra,backward", solo=0, meet=True)
    assert met.stats.answered_by == "dijkstra+backward" and alone.stats.answered_by in ("dijkstra", "backward")
    assert met.cost == alone.cost == n and replay(problem, met) == n
    assert met.states == list(range(n + 1))
    assert met.stats.expanded < 0.75 * alone.stats.expanded


def test_a_meeting_asks_a_search_with_knows_any_once_for_the_whole_list():
    """A search in compiled code answers a list of states in one call (``knows_any``, the
    index of the first it reached); the portfolio asks it so, and ``knows`` otherwise."""
    from searchkit.engines.portfolio import first_known

    class Known:
        def __init__(self, reached):
            self.reached, self.calls = set(reached), []

        def knows(self, state):
            self.calls.append(state)
            return state in self.reached

    class Batched(Known):
        def knows_any(self, states):
            self.calls.append(list(states))
            return next((i for i, s in enumerate(states) if s in self.reached), -1)

    one, batched = Known({3, 5}), Batched({3, 5})
    assert first_known(one, [1, 2, 5, 3]) == first_known(batched, [1, 2, 5, 3]) == 5
    assert one.calls == [1, 2, 5] and batched.calls == [[1, 2, 5, 3]]
    assert first_known(one, [7, 8]) is None and first_known(batched, [7, 8]) is None


def test_backward_guides_make_greedy_backward_search_an_alternation():
    """A problem's ``backward_guides`` get open lists of their own, taking turns with the
    backward heuristic's: the guide's favourite is expanded second, though the heuristic
    puts it last, and a state any estimate puts at infinity is never expanded."""
    from searchkit import Observer
    from searchkit.engines.backward import backward_search

    edges = {"s": [("a", 1), ("b", 1), ("d", 1)], "a": [("g", 1)], "b": [("g", 1)], "d": [("g", 1)]}

    class Guided(GraphProblem):
        newest_first = True

    class Order(Observer):
        def __init__(self):
            self.seen = []

        def expand(self, state, g, h):
            self.seen.append(state)

    hb = {"s": 0, "a": 1, "b": 3, "d": 2}
    guide = {"g": 0, "s": 0, "a": 2, "b": 1, "d": math.inf}
    runs = {}
    for guides in ([], [guide.__getitem__]):
        problem = Guided(edges, "s", ["g"], hb=hb)
        problem.backward_guides = guides
        log = Order()
        search = backward_search(problem, observer=log)
        search.step()
        runs[len(guides)] = log.seen
        assert search.status == SOLVED and search.path()[1] == ["g", search.path()[1][1], "s"]
    # one list: the goal, then a (h 1) finds s as it is generated
    assert runs[0] == ["g", "a"]
    # two lists: the goal from the first, b (guide 1) from the second; d (guide inf) dropped
    assert runs[1] == ["g", "b"]


def plateau(depth: int) -> tuple[dict, dict]:
    """A trap and a way out: from ``s`` a binary tree of ``2**depth`` dead ends all estimated
    1 (a plateau), and beside it a chain of five states estimated 2 that ends at the goal."""
    edges: dict = {"s": [(("t", 1), 1), (("w", 1), 1)]}
    h: dict = {"s": 3, "goal": 0}
    for k in range(1, 2**depth):
        h["t", k] = 1
        if 2 * k < 2**depth:
            edges["t", k] = [(("t", 2 * k), 1), (("t", 2 * k + 1), 1)]
    for i in range(1, 6):
        h["w", i] = 2
        edges["w", i] = [(("w", i + 1) if i < 5 else "goal", 1)]
    return edges, h


def test_type_based_exploration_leaves_a_plateau_greedy_search_digs_through():
    """Greedy search on the estimate expands the whole plateau before the way out; a
    type-based queue taking turns draws the way out's (h, g) types as often as the
    plateau's, so it answers after a few dozen expansions, and its path is a real one."""
    from searchkit.engines.bestfirst import BestFirstSearch, by_h, by_type

    edges, h = plateau(10)
    problem = GraphProblem(edges, "s", ["goal"], h=h)
    greedy = searchkit.greedy(problem)
    assert greedy.status == SOLVED and greedy.stats.expanded > 2**10
    search = BestFirstSearch(problem, g_weight=0, reopen=False, goal_on_generation=True, orders=[by_h, by_type])
    search.step()
    result = search.result()
    assert result.status == SOLVED and replay(problem, result) == 6
    assert result.states == ["s", *(("w", i) for i in range(1, 6)), "goal"]
    assert result.stats.expanded < 100


def test_backward_explore_adds_a_type_queue_to_greedy_backward_search():
    """``backward_explore`` on a backward problem: the same plateau read backwards (the
    trap hangs off the goal) is left as fast, the answer in forward order."""
    from searchkit.engines.backward import backward_search
    from searchkit.engines.typequeue import TypeQueue

    edges, h = plateau(10)
    back: dict = {}  # every edge turned round: the goal's trap is the start's plateau
    for u, vs in edges.items():
        for v, c in vs:
            back.setdefault(v, []).append((u, c))
    for explore in (False, True):
        problem = GraphProblem(back, "goal", ["s"], hb=h)
        problem.backward_explore = explore
        search = backward_search(problem)
        assert any(isinstance(q, TypeQueue) for q in search.heaps or ()) == explore
        search.step()
        assert search.status == SOLVED
        assert (search.expanded < 100) == explore
        assert search.path()[1] == ["s", *(("w", i) for i in range(1, 6)), "goal"]


@SETTINGS
@given(cases("int"))
def test_type_based_exploration_is_complete(case):
    """Taking turns with a type queue, greedy search still finds a path exactly when one
    exists (networkx says), a real one, each state expanded at most once."""
    from searchkit.engines.bestfirst import BestFirstSearch, by_h, by_type

    to_goal = case.to_goal()
    h = {v: to_goal.get(v, BIG) for v in range(case.n)}
    problem = case.problem(h)
    expanded = ExpandCounter()
    search = BestFirstSearch(
        problem, g_weight=0, reopen=False, goal_on_generation=True, orders=[by_h, by_type], observer=expanded
    )
    search.step()
    result = search.result()
    if case.optimum() is None:
        assert result.status == NO_SOLUTION
    else:
        check_solution(case, problem, result)
    assert max(expanded.times.values(), default=0) <= 1


class _Hoarder:
    """A member search that never ends and stores ``rate`` states a step (a step costs a
    fixed time); ``log`` keeps its expansions, which outlive it."""

    problem = None
    status = None
    generated = duplicates = reopened = frontier = 0
    done = False

    pace = 0.0001  # seconds a step

    def __init__(self, name, rate, log):
        self.name, self.rate, self.log = name, rate, log
        self.expanded = self.stored = 0

    def step(self, budget=None):
        until = time.perf_counter() + self.pace
        while time.perf_counter() < until:
            pass
        self.expanded += 1
        self.stored += self.rate
        self.log[self.name] = self.expanded
        return False


@pytest.mark.parametrize(
    "members, rates, retired",
    [
        ("search:big,search:small,search:tiny", {"big": 4, "small": 2, "tiny": 1}, ["big", "small"]),
        # big stores the most, but small the most for its share
        ("search:big*4,search:small,search:tiny", {"big": 2, "small": 3, "tiny": 1}, ["small", "big"]),
    ],
)
def test_a_portfolio_short_of_memory_retires_the_member_storing_the_most_for_its_share(
    monkeypatch, members, rates, retired
):
    """At `RETIRE_AT` of the memory limit the member storing the most states for its share
    leaves (freed, its expansions still counted), the next only once the rest store as many
    again; the last one searching stays till the limit stops it."""
    import gc
    import weakref

    from searchkit import Observer

    alive: weakref.WeakSet = weakref.WeakSet()
    log: dict[str, int] = {}

    class Hoarders:
        def member_search(self, name, observer=None):
            search = _Hoarder(name, rates[name], log)
            alive.add(search)
            return search

    unit = 1024  # bytes a stored state takes, in this test's memory

    def rss():
        return unit * sum(s.stored for s in alive)

    monkeypatch.setattr(importlib.import_module("searchkit.limits"), "current_rss_bytes", rss)
    notes = []

    class Notes(Observer):
        def note(self, text):
            notes.append((text.split()[2], sorted(s.name for s in alive)))

    result = solve(Hoarders(), "portfolio", members=members, solo=0, limits=Limits(max_rss_mb=16), observer=Notes())
    gc.collect()
    assert result.status == LIMIT and result.stats.limit_reason == "memory"
    # by the second, the first one retired is freed
    first, second = retired
    assert notes == [(f"search:{first}", ["big", "small", "tiny"]), (f"search:{second}", sorted({second, "tiny"}))]
    assert result.stats.expanded == sum(log.values())
    # the last one filled the memory alone, to within the growth of one interval between checks
    # (which the guard counts as taken again, `Guard.drift`)
    assert log["tiny"] >= 0.9 * 16 * 1024 * 1024 / unit
    # the retired are listed too, in the order the members joined, with what they did
    listed = {m["member"]: m for m in result.stats.members}
    assert list(listed) == ["search:big", "search:small", "search:tiny"]
    assert {n for n, m in listed.items() if m["retired"]} == {f"search:{first}", f"search:{second}"}
    assert sum(m["expanded"] for m in listed.values()) == result.stats.expanded
    # without a memory limit nobody leaves: all three search to the end
    notes.clear()
    log.clear()
    solve(Hoarders(), "portfolio", members=members, solo=0, limits=Limits(max_expanded=3000), observer=Notes())
    assert not notes and sum(log.values()) == 3000 and min(log.values()) > 200


class _Said(_Hoarder):
    """A hoarder that says what its states take (``memory_bytes``), as a compiled search does."""

    each = 256

    @property
    def memory_bytes(self):
        return self.stored * self.each


def test_a_stop_by_what_the_members_stored_since_the_last_check_retires_the_heaviest_instead(monkeypatch):
    """The limit counts what the members stored since the last check as taken again
    (`Guard.drift`). Where one interval stores more than the fifth of the limit between
    `RETIRE_AT` and the limit (a loaded machine, a small limit), the check after the mark
    already stops, with the memory read still below the limit: the member holding the most
    for its share retires then instead (`Retirement.make_room`), as it would have at the
    mark. A reading over the limit is a stop."""
    from searchkit.engines.portfolio import Member, Retirement
    from searchkit.engines.run import Run

    monkeypatch.setattr(importlib.import_module("searchkit.limits"), "current_rss_bytes", lambda: 0)
    limits = Limits(max_rss_mb=100)
    retirement = Retirement(limits)
    crew = []
    for name, stored in (("big", 50_000), ("small", 20_000), ("tiny", 10_000)):
        search = _Hoarder(name, 1, {})
        search.stored = stored
        crew.append(Member(search, lambda state: (state,), 1.0, f"search:{name}"))
    live = list(crew)
    run = Run("portfolio", limits)
    run.reason, run.guard.rss, run.guard.drift = "memory", 90 * 2**20, 15 * 2**20
    assert retirement.make_room(run, 80_000, crew, live, None)
    assert run.reason is None and [m.label for m in live] == ["search:small", "search:tiny"]
    run.reason, run.guard.rss = "memory", 101 * 2**20
    assert not retirement.make_room(run, 30_000, crew, live, None)
    assert run.reason == "memory" and len(live) == 2


def test_a_portfolio_short_of_memory_weighs_members_by_the_memory_they_hold(monkeypatch):
    """A member storing many cheap states (it says their bytes) is not the first to leave when
    another's fewer states hold more memory: those are weighed at the bytes a state the
    process's memory gives the members that do not say (XSokoban 28 once passed the limit
    at 188 s of 600: the compiled pull search, 1.7 million states of about 120 bytes, was
    retired first, and its states counted as room for as many of FESS's)."""
    import weakref

    from searchkit import Observer

    alive: weakref.WeakSet = weakref.WeakSet()
    log: dict[str, int] = {}
    rates = {"cheap": 8, "dear": 2, "tiny": 1}
    dear_each = 16384  # bytes a state of the members that do not say

    class Hoarders:
        def member_search(self, name, observer=None):
            search = (_Said if name == "cheap" else _Hoarder)(name, rates[name], log)
            search.pace = 0.001  # slow steps: the limit checks (every 50 ms) see memory grow little between them
            alive.add(search)
            return search

    def rss():
        return sum(s.memory_bytes if isinstance(s, _Said) else s.stored * dear_each for s in alive)

    monkeypatch.setattr(importlib.import_module("searchkit.limits"), "current_rss_bytes", rss)
    notes = []

    class Notes(Observer):
        def note(self, text):
            notes.append(text.split()[2])

    members = "search:cheap,search:dear,search:tiny"
    # about 770 steps to 80 % of the limit, dear leaves; about 1,000 more, tiny leaves
    limits = Limits(max_rss_mb=16, max_expanded=2600)
    result = solve(Hoarders(), "portfolio", members=members, solo=0, limits=limits, observer=Notes())
    assert result.status == LIMIT
    # cheap stores the most states (8 a step) but holds the least: 2 KiB a step against
    # dear's 32 and tiny's 16; it is the one left searching
    assert notes == ["search:dear", "search:tiny"]
    listed = {m["member"]: m for m in result.stats.members}
    assert not listed["search:cheap"]["retired"] and listed["search:cheap"]["stored"] > listed["search:dear"]["stored"]


class _Grower(_Hoarder):
    """A hoarder whose table grows at ``at`` states, claiming ``claim`` bytes in one step
    (`searchkit.tables`), as a dictionary of millions of states does."""

    at, claim = 6000, 64 * 2**20

    def growth_ahead(self, within):
        return self.claim if self.stored + within >= self.at else 0


def test_a_portfolio_retires_the_member_whose_table_would_grow_past_the_memory_limit(monkeypatch):
    """A table about to grow past the limit stops a search before the step, not after (the
    default passed a 2,000 MiB limit by 134 MiB at XSokoban's 10 minutes): in a portfolio
    the member about to claim it leaves and the others search on; alone, it stops."""
    import weakref

    from searchkit import Observer
    from searchkit.engines.run import MIN_WITHIN

    alive: weakref.WeakSet = weakref.WeakSet()
    log: dict[str, int] = {}

    class Hoarders:
        def member_search(self, name, observer=None):
            search = (_Grower if name == "grows" else _Hoarder)(name, 1, log)
            alive.add(search)
            return search

    monkeypatch.setattr(
        importlib.import_module("searchkit.limits"), "current_rss_bytes", lambda: 1024 * sum(s.stored for s in alive)
    )
    notes = []

    class Notes(Observer):
        def note(self, text):
            notes.append(text.split()[2])

    limits = Limits(max_rss_mb=16)
    result = solve(
        Hoarders(), "portfolio", members="search:big,search:grows,search:tiny", solo=0, limits=limits, observer=Notes()
    )
    assert result.status == LIMIT and result.stats.limit_reason == "memory"
    # it left before the step, memory far from short (a step is foreseen `MIN_WITHIN` states ahead)
    assert notes[0] == "search:grows" and 6000 - MIN_WITHIN <= log["grows"] < 6000
    assert log["big"] + log["tiny"] > 10_000  # the others searched on to the limit
    # alone it stops there, far below the memory read at the limit
    log.clear()
    result = solve(Hoarders(), "portfolio", members="search:grows", solo=0, limits=limits)
    assert result.stats.limit_reason == "memory" and 6000 - MIN_WITHIN <= result.stats.expanded < 6000


class _Slow:
    """A member search whose every expansion takes ``pace`` seconds; ``budgets`` keeps what
    each turn allowed."""

    problem = None
    status = None
    generated = duplicates = reopened = frontier = stored = 0
    done = False

    def __init__(self, pace):
        self.pace, self.expanded, self.budgets = pace, 0, []

    def step(self, budget=None):
        self.budgets.append(budget)
        until = time.perf_counter() + self.pace * (budget or 1)
        while time.perf_counter() < until:
            pass
        self.expanded += budget or 1
        return False


def test_a_slow_member_takes_turns_its_pace_does_in_turn_seconds(monkeypatch):
    """A turn is at most `BATCH` expansions and, once a member's pace is known, no more than
    it does in `TURN_SECONDS`: the limits are checked between turns, so a member taking a
    second an expansion (a FESS search on a level of 160 boxes) overran a 60 s limit by 15 s."""
    portfolio_module = importlib.import_module("searchkit.engines.portfolio")
    monkeypatch.setattr(portfolio_module, "TURN_SECONDS", 0.05)
    slow, fast = _Slow(0.02), _Slow(0.001)  # the fast one's 32 expansions: 0.032 s

    class Two:
        def member_search(self, name, observer=None):
            return slow if name == "slow" else fast

    result = solve(Two(), "portfolio", members="search:slow,search:fast", solo=0, limits=Limits(timeout_s=2.0))
    assert result.status == LIMIT and result.stats.limit_reason == "time"
    # counted, not timed: the turns the members were given fit in the limit (a loaded machine
    # makes each turn slower, never longer in expansions)
    assert sum(slow.budgets) * slow.pace + sum(fast.budgets) * fast.pace <= 2.0 + 2 * slow.pace
    assert slow.budgets[0] == 1 and fast.budgets[0] == 1  # a first turn tells the pace
    assert len(slow.budgets) > 3 and max(slow.budgets[1:]) <= 2  # 0.05 s at 0.02 s an expansion
    assert max(fast.budgets) > 20  # a fast member's turns are as before


def test_a_turn_ends_at_the_deadline_not_a_turn_past_it():
    """Near the deadline a turn is what the member's pace does in the time left: a FESS
    search's first 32 expansions on a dense level took 1.6 s and ended a 4 s limit at 4.8 s."""
    slow = _Slow(0.02)  # 32 expansions: 0.64 s, past the 0.3 s limit

    class One:
        def member_search(self, name, observer=None):
            return slow

    result = solve(One(), "portfolio", members="search:slow", solo=0, limits=Limits(timeout_s=0.3))
    assert result.stats.limit_reason == "time"
    # counted, not timed: the expansions granted fit in the limit, a turn of 0.02 s past it at
    # most (a turn of 32 expansions would be 0.64 s)
    assert sum(slow.budgets) * slow.pace <= 0.3 + 2 * slow.pace, slow.budgets
    assert slow.budgets[0] == 1 and max(slow.budgets) < 0.3 / 0.02 + 2
