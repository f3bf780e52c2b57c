"""Rebuilding solution paths from what the engines stored."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import PluginError


def check_hint(domain: str = "DOMAIN") -> str:
    """Where to look when a problem's successors and predecessors disagree."""
    return f"`searchkit check {domain}` tests a domain's successors and predecessors"


CHECK_HINT = check_hint()  # in messages raised where the domain is not known (`solving.execute` names it)


def _short(state: Any) -> str:
    """A state as text of a readable length, for an error message."""
    text = repr(state)
    return text if len(text) <= 80 else text[:77] + "..."


def step_between(problem: Any, parent: Any, child: Any, only: Any = None) -> tuple[Any, float]:
    """The cheapest ``(action, cost)`` leading from ``parent`` to ``child`` (by action ``only``).

    Raises `PluginError` when none does: the search reached ``child`` from ``parent``, so the
    problem's successors (or predecessors, when the step came from them) broke the contract."""
    best = None
    for action, state, cost in problem.successors(parent):
        if state == child and (only is None or action == only) and (best is None or cost < best[1]):
            best = (action, cost)
    if best is None:
        raise PluginError(
            f"no successor of state {_short(parent)} leads to {_short(child)}, which the search reached from it: "
            f"the problem's successors changed between two calls, or its predecessors disagree with them "
            f"({CHECK_HINT})"
        )
    return best


def path_from_parents(problem: Any, parents: dict[Any, Any], goal: Any) -> tuple[list[Any], list[Any], float]:
    """Follow ``parents[state] -> previous state`` back from ``goal``."""
    states = [goal]
    s = parents[goal]
    while s is not None:
        states.append(s)
        s = parents[s]
    states.reverse()
    actions: list[Any] = []
    cost: float = 0
    for a, b in zip(states, states[1:]):
        action, c = step_between(problem, a, b)
        actions.append(action)
        cost += c
    return actions, states, cost


def path_from_costs(problem: Any, g_of: dict[Any, Any], start: Any, goal: Any) -> tuple[list[Any], list[Any], float]:
    """Walk back from ``goal`` through predecessors whose stored cost fits.

    A predecessor ``p`` with ``g(p) + c(p, s) <= g(s)`` always exists (the one that set
    ``g(s)``: stored costs only decrease), so the walk needs no parent pointers; this is
    what lets A* keep one dictionary entry per state.  With zero-cost cycles a fitting
    predecessor can lead to a dead end (every fitting predecessor of it already on the
    walk), so the walk backs up and tries the next one; the chain of setters guarantees
    that it reaches ``start`` when ``predecessors`` inverts ``successors``, and a
    `PluginError` naming the first dead end says that it does not.
    """

    def cost(state: Any) -> Any:  # best-first search marks expanded states with -g
        g = g_of.get(state)
        return g if g is None or g >= 0 else -g

    def fitting(state: Any) -> Iterator[tuple[Any, Any, Any]]:
        """The stored predecessors whose cost fits, the closest fit first (the tolerance is
        for float sums; an exact fit must win over one a rounding error away)."""
        gs = cost(state)
        fits = [
            (gp + c, i, action, p, c)
            for i, (action, p, c) in enumerate(problem.predecessors(state))
            if (gp := cost(p)) is not None and gp + c <= gs + 1e-9
        ]
        fits.sort(key=lambda f: (abs(gs - f[0]), f[1]))  # the one that set g(state) fits exactly
        return iter([(action, p, c) for _f, _i, action, p, c in fits])

    walk = [(goal, fitting(goal))]
    steps: list[Any] = []  # steps[i] = (action, cost) from walk[i + 1] to walk[i]
    seen = {goal}
    stuck = None  # the first state none of whose predecessors fits
    while walk[-1][0] != start:
        s, preds = walk[-1]
        for action, p, c in preds:
            if p not in seen:
                seen.add(p)
                walk.append((p, fitting(p)))
                steps.append((action, c))
                break
        else:
            stuck = s if stuck is None else stuck
            walk.pop()
            if not walk:
                raise PluginError(
                    f"the problem's predecessors disagree with its successors at state {_short(stuck)}: "
                    "none of the predecessors it gives is a state the search reached at a cost that fits, so "
                    f"the path to the goal cannot be rebuilt ({CHECK_HINT})"
                )
            steps.pop()
    states = [s for s, _preds in reversed(walk)]
    actions = [a for a, _c in reversed(steps)]
    return actions, states, sum(c for _a, c in steps)


def path_from_links(
    start_side: dict[Any, Any], goal_side: dict[Any, Any], meet: Any
) -> tuple[list[Any], list[Any], float]:
    """Join a forward and a backward link map at ``meet``.

    ``start_side[s] = (previous, action, cost)`` and ``goal_side[s] = (next, action, cost)``,
    ``None`` at the roots.
    """
    back_states, back_actions, back_cost = _follow(start_side, meet)
    on_states, on_actions, on_cost = _follow(goal_side, meet)
    back_states.reverse()
    back_actions.reverse()
    return back_actions + on_actions, [*back_states, meet, *on_states], back_cost + on_cost


def _follow(links: dict[Any, Any], state: Any) -> tuple[list[Any], list[Any], float]:
    """The states, actions and cost met following ``links`` from ``state`` to a root."""
    states: list[Any] = []
    actions: list[Any] = []
    cost: float = 0
    link = links[state]
    while link is not None:
        state, action, c = link
        states.append(state)
        actions.append(action)
        cost += c
        link = links[state]
    return states, actions, cost


def joined(forward: Any, backward: Any, state: Any) -> tuple[list[Any], list[Any], Any]:
    """One path through ``state``: the forward search's path to it, then the backward
    search's from it (its ``path_to`` runs from a goal back to ``state``, so it is read in
    reverse).  Both searches offer ``path_to(state) -> (actions, states, cost)``."""
    actions, states, cost = forward.path_to(state)
    back_actions, back_states, back_cost = backward.path_to(state)
    return actions + back_actions[::-1], states + back_states[::-1][1:], cost + back_cost
