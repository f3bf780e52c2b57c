"""Backward search: best-first from the goal states over ``predecessors``.

Some problems are easy the other way round: where goals must be reached in a strict order
(a Sokoban goal room), a forward search heads for the nearest goal and seals the rest, and
read from the end the order comes for free.  `Reversed` presents a problem backwards (its
roots are the goal states, its steps the predecessors, its goal the start), any
`BestFirstSearch` runs on it, and the path comes back in forward order.

A problem may offer ``backward_heuristic(state)``, an estimate of the cost from the start
to ``state`` (and ``predecessors_with_h(state, h)`` to compute it incrementally); without
one the search is uniform-cost.  ``newest_first = True`` asks greedy backward search to
break ties of the estimate towards the newest state.  ``backward_guides``, a list of further
estimates ``f(state)``, makes greedy backward search an alternation (see `alternation`): one
open list per estimate, taking turns, one closed list; a state any of them puts at infinity
is dropped.  ``backward_explore = True`` adds type-based exploration to those turns (a queue
that draws a random ``(h, g)`` type, `typequeue`), for plateaus.  A problem may also start
its backward search from a later state than its own start: ``lead_in``, an ``(actions,
states, cost)`` path from the real start to its ``initial_state``, is put in front of every
answer.
"""

from __future__ import annotations

from typing import Any

from ..limits import Limits
from ..observer import Observer
from ..problem import can_search_backward
from ..result import SOLVED, Result
from .bestfirst import BestFirstSearch, Order, by_estimate, by_h, by_type

ORDERS = ("greedy", "astar", "dijkstra")


class Reversed:
    """``problem`` read from its goals back to its start."""

    def __init__(self, problem: Any):
        self.problem = problem
        self.start = problem.initial_state()
        h = getattr(problem, "backward_heuristic", None)
        self.heuristic = h if callable(h) else None
        with_h = getattr(problem, "predecessors_with_h", None)
        self.successors_with_h = with_h if callable(with_h) and self.heuristic is not None else None
        self.heuristic_admissible = bool(getattr(problem, "backward_heuristic_admissible", False))
        self.preserves_solutions = getattr(problem, "preserves_solutions", True)

    def initial_state(self) -> Any:  # a search over this view starts from the goal states
        return next(iter(self.problem.goal_states()))

    def roots(self) -> list[Any]:
        return list(self.problem.goal_states())

    def is_goal(self, state: Any) -> bool:
        return bool(state == self.start)

    def successors(self, state: Any) -> Any:
        return self.problem.predecessors(state)


def backward_search(
    problem: Any,
    *,
    order: str = "greedy",
    weight: float = 1,
    name: str = "backward",
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> BestFirstSearch:
    """A steppable best-first search of ``problem`` backwards (see `forward_path`)."""
    if not can_search_backward(problem):
        raise ValueError(f"{name} needs a problem with goal_states() and predecessors()")
    view = Reversed(problem)
    weights: dict[str, Any]
    if order == "dijkstra":
        weights = {"h_weight": 0}
    elif order == "astar":
        weights = {"h_weight": weight}
    else:
        weights = {"g_weight": 0, "reopen": False, "goal_on_generation": True}
        if getattr(problem, "newest_first", False):  # ties of h: the newest first
            weights.update(lifo=True, order=by_h)
        orders: list[Order] = [by_h, *map(by_estimate, getattr(problem, "backward_guides", None) or ())]
        if getattr(problem, "backward_explore", False):
            orders.append(by_type)
        if len(orders) > 1:
            weights["orders"] = orders
    return BestFirstSearch(view, starts=view.roots(), name=name, limits=limits, observer=observer, **weights)


def forward_path(search: BestFirstSearch) -> tuple[list[Any], list[Any], Any]:
    """The answer of a finished backward search as ``(actions, states, cost)`` from the start."""
    return forwards(search.problem.problem, *search.path())


def forwards(problem: Any, actions: list[Any], states: list[Any], cost: Any) -> tuple[list[Any], list[Any], Any]:
    """A path found backwards (goal ... start, each action leading forwards) turned round,
    behind the problem's ``lead_in`` when it has one."""
    actions, states = actions[::-1], states[::-1]
    lead = getattr(problem, "lead_in", None)
    if lead:
        lead_actions, lead_states, lead_cost = lead
        cost = cost + lead_cost
        actions = list(lead_actions) + actions
        states = list(lead_states[:-1]) + states
    return actions, states, cost


def backward(
    problem: Any,
    *,
    order: str = "dijkstra",
    weight: float = 1,
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """Best-first search from the goal states back to the start (``order``: greedy, astar on
    the problem's ``backward_heuristic``, or dijkstra); the answer in forward order."""
    search = backward_search(problem, order=order, weight=weight, limits=limits, observer=observer)
    search.step()
    result = search.result()
    if result.status == SOLVED:
        result.actions, result.states, result.cost = forwards(problem, result.actions, result.states, result.cost)
    return result
