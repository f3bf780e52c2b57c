"""Replay a solution through the problem's own successor function."""

from __future__ import annotations

import math
from typing import Any

from .result import Result


def replay(problem: Any, result: Result) -> float:
    """Apply ``result.actions`` from the initial state; check states, goal and cost.

    Returns the replayed cost.  Raises AssertionError describing the first wrong step.
    """
    state = problem.initial_state()
    if result.states and result.states[0] != state:
        raise AssertionError("the solution does not start at the initial state")
    cost = 0
    for i, action in enumerate(result.actions):
        options = [(s, c) for a, s, c in problem.successors(state) if a == action]
        if not options:
            raise AssertionError(f"step {i + 1}: action {action!r} is not applicable")
        if result.states and i + 1 < len(result.states):
            wanted = result.states[i + 1]
            matching = [(s, c) for s, c in options if s == wanted]
            if not matching:
                raise AssertionError(f"step {i + 1}: action {action!r} does not lead to the reported state")
            state, c = min(matching, key=lambda sc: sc[1])
        else:
            state, c = min(options, key=lambda sc: sc[1])
        cost += c
    if not problem.is_goal(state):
        raise AssertionError("the solution does not end in a goal state")
    if result.cost is not None and not math.isclose(cost, result.cost, rel_tol=1e-9, abs_tol=1e-9):
        raise AssertionError(f"the solution costs {cost}, the engine reported {result.cost}")
    return cost
