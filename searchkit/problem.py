"""The `Problem` protocol: what a domain gives the engines (its members: `Problem`'s docstring)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, Protocol, TypeVar, runtime_checkable

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", covariant=True)


@runtime_checkable
class Problem(Protocol[S, A]):
    """A search problem over hashable states ``S`` with actions ``A``.

    The three required members (``initial_state``, ``is_goal``, ``successors``: any
    iterable of ``(action, next_state, step_cost)`` with positive costs) are enough for
    every blind engine; the optional ones unlock more (``searchkit check`` tests each
    against the others; it cannot tell whether a move is legal in the domain's rules).

    An action is any value the engines never look inside: a solution is replayed by finding
    each action among the successors with ``==`` (so one state's moves should have distinct
    actions), ``predecessors`` names the same value, and output shows it with ``str``
    (``--json`` writes a string or number as itself): a short string or a number is best.

    * ``heuristic(state) -> float`` - an estimate of the remaining cost (admissible for the
      optimal engines), ``float("inf")`` for a dead state.  A problem without one has
      ``heuristic = None`` or no attribute.
    * ``successors_with_h(state, h) -> iterable of (action, child, cost, child_h)`` - the
      incremental heuristic: ``child_h`` computed from the parent's ``h`` and the move, so the
      engines never recompute ``h`` from scratch.  Must agree with ``successors`` and
      ``heuristic``, except that children whose ``h`` is infinite (proven dead) may be left out.
      Any iterable will do.
    * ``goal_states() -> iterable of states`` and ``predecessors(state) -> iterable of
      (action, previous_state, cost)`` - for bidirectional search; ``action`` is the action
      that leads *from* ``previous_state`` *to* ``state``; they must be exactly the steps
      ``successors`` gives into ``state``.  Besides the backward and bidirectional engines,
      every best-first engine (dijkstra, astar, greedy, anytime, and the composite engines
      made of them) rebuilds its path through ``predecessors`` when the problem offers them,
      so it need not store a parent pointer per state.
    * ``backward_heuristic(state) -> float`` - an estimate of the cost from the initial state to
      ``state`` (the heuristic of the problem read backwards: backward search, NBS); admissible
      for NBS and MM to stay optimal (they refuse a problem without one).  A problem may
      carry one only when built with a heuristic (``searchkit check`` tests both kinds).
      ``predecessors_with_h(state, h) -> iterable of (action, previous_state, cost, previous_h)``
      - its incremental form, as ``successors_with_h`` is ``heuristic``'s.
      ``min_step_cost`` - a lower bound on every step cost (NBS).
    * ``describe(state) -> str`` - a human-readable label (tree diagrams, output).
    * ``features(state) -> tuple of ints`` - the state's cell in a feature space, lower is
      better (the ``fess`` engine); ``advisors(state, children, scores) -> indexes`` - the
      children it proposes first, besides the core's advisors (`searchkit.engines.fess`).
    * ``heuristic_admissible = True`` - a promise that ``heuristic`` never overestimates (so it
      is 0 at every goal); IDA* then goal-tests only the children whose ``h`` is 0, and
      ``searchkit.solve`` labels answers ``optimal``.  searchkit sets it from the
      `Heuristic`'s ``admissible`` on the problems ``searchkit.make_problem`` builds and on
      composite engines' variants; the command line labels answers from the `Heuristic`
      itself.
    * ``cycle_check = "parent"`` - a promise that the space is undirected and the goal
      reachable, so depth-first engines need only skip the move straight back.
    * ``preserves_optimality = False`` - the successors may skip optimal paths (macro moves,
      plans, pruning that can cut them); an optimal engine's answer is then labelled
      ``suboptimal``, with ``optimality_lost_by`` (a short text) saying why.
    * ``preserves_solutions = False`` - the successors may cut off every solution (pruning
      that is not proven safe); a search that runs out of states then reports ``limit``
      (``limit_reason`` ``"incomplete"``), not ``no-solution``.
    """

    def initial_state(self) -> S:
        """The state the search starts from."""
        ...

    def is_goal(self, state: S) -> bool:
        """True when ``state`` solves the problem."""
        ...

    def successors(self, state: S) -> Iterable[tuple[A, S, float]]:
        """Every ``(action, next_state, step_cost)`` reachable in one step."""
        ...


def heuristic_of(problem: Any) -> Callable[[Any], float] | None:
    """The problem's heuristic function, or None when it has none."""
    return getattr(problem, "heuristic", None)


def successors_with_h(problem: Any) -> Callable[[Any, float], Iterable[tuple[Any, ...]]]:
    """A successor function yielding ``(action, child, cost, child_h)``.

    Uses the problem's incremental version when it has one, otherwise computes ``h`` of
    each child with ``heuristic`` (or 0 when there is no heuristic).
    """
    return _with_h(getattr(problem, "successors_with_h", None), heuristic_of(problem), problem.successors)


def predecessors_with_h(problem: Any) -> Callable[[Any, float], Iterable[tuple[Any, ...]]]:
    """`successors_with_h` read backwards: ``(action, previous_state, cost, previous_h)`` with
    ``backward_heuristic``, from the problem's ``predecessors_with_h`` when it has one."""
    hb = getattr(problem, "backward_heuristic", None)
    if not callable(hb):
        return _with_h(None, None, problem.predecessors)
    return _with_h(getattr(problem, "predecessors_with_h", None), hb, problem.predecessors)


def _with_h(
    incremental: Callable[[Any, float], Iterable[tuple[Any, ...]]] | None,
    h: Callable[[Any], float] | None,
    steps: Callable[[Any], Iterable[tuple[Any, Any, float]]],
) -> Callable[[Any, float], Iterable[tuple[Any, ...]]]:
    """``incremental`` when the problem has it, else ``steps`` with ``h`` (or 0) of every neighbour."""
    if incremental is not None:
        return incremental
    if h is None:
        return lambda state, _h: [(a, s, c, 0) for a, s, c in steps(state)]
    return lambda state, _h: [(a, s, c, h(s)) for a, s, c in steps(state)]


def can_search_backward(problem: Any) -> bool:
    """True when the problem offers goal states and predecessors."""
    return callable(getattr(problem, "goal_states", None)) and callable(getattr(problem, "predecessors", None))


def preserves_optimality(problem: Any) -> bool:
    """False when the problem says its successors may skip optimal paths."""
    return bool(getattr(problem, "preserves_optimality", True))


def preserves_solutions(problem: Any) -> bool:
    """False when the problem says its successors may cut off every solution."""
    return bool(getattr(problem, "preserves_solutions", True))


def describe(problem: Any, state: Any) -> str:
    """A label for ``state``: the problem's ``describe`` or ``str``."""
    fn = getattr(problem, "describe", None)
    return fn(state) if fn is not None else str(state)


class GraphProblem:
    """A problem over an explicit weighted digraph: ``{node: [(neighbour, cost), ...]}``.

    Handy for teaching and for testing engines against graph algorithms.  Actions are the
    target nodes.  ``h`` is an optional ``{node: estimate}`` mapping of the cost to a goal,
    ``hb`` one of the cost from the start (the backward heuristic; missing nodes: 0).
    """

    def __init__(
        self,
        edges: dict[Any, Any],
        start: Hashable,
        goals: Iterable[Hashable],
        h: dict[Any, Any] | None = None,
        hb: dict[Any, Any] | None = None,
    ):
        self.edges: dict[Any, list[tuple[Any, Any]]] = {}
        for u, vs in edges.items():
            # an action names only its target, so parallel edges are one action: keep the cheapest
            cheapest: dict[Any, Any] = {}
            for v, c in vs:
                if v not in cheapest or c < cheapest[v]:
                    cheapest[v] = c
            self.edges[u] = list(cheapest.items())
        self.start = start
        self.goals = frozenset(goals)
        self._h: dict[Any, float] = dict(h) if h else {}
        # no heuristic at all (not h = 0) when none is given: engines then ignore h
        self.heuristic: Callable[[Any], float] | None = self._estimate if h is not None else None
        self._hb: dict[Any, float] = dict(hb) if hb else {}
        self.backward_heuristic: Callable[[Any], float] | None = self._estimate_back if hb is not None else None
        self._reverse: dict[Any, list[tuple[Any, Any]]] = {}
        for u, vs in self.edges.items():
            for v, c in vs:
                self._reverse.setdefault(v, []).append((u, c))

    def initial_state(self) -> Any:
        return self.start

    def is_goal(self, state: Any) -> bool:
        return state in self.goals

    def successors(self, state: Any) -> list[tuple[Any, Any, Any]]:
        return [(v, v, c) for v, c in self.edges.get(state, ())]

    def _estimate(self, state: Any) -> float:
        return self._h.get(state, 0)

    def _estimate_back(self, state: Any) -> float:
        return self._hb.get(state, 0)

    def goal_states(self) -> Iterable[Any]:
        return iter(self.goals)

    def predecessors(self, state: Any) -> list[tuple[Any, Any, Any]]:
        return [(state, u, c) for u, c in self._reverse.get(state, ())]
