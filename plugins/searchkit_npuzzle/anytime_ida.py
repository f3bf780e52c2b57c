"""Weighted IDA* made anytime: after the first answer, restarts at lower weights, each cut
by the incumbent's cost, until the time or node limit or a proof of optimality.

IDA* keeps nothing between searches, so each restart begins afresh; what makes a restart
affordable is the cap: every node whose ``g + h`` (admissible ``h``) reaches the
incumbent's cost is cut for good, so a restart only looks where a cheaper answer can be.
The weight falls by `WEIGHT_STEP` a restart down to 1, where IDA* proves bounds: each
iteration starts only when no path has ``g + h`` below its bound, so that bound (or the
root's estimate before) is a lower bound on the optimal cost, and a capped search that
runs out proves the incumbent optimal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from searchkit import LIMIT, NO_SOLUTION, SOLVED, Result, Run
from searchkit.engines.anytime import proven
from searchkit.result import Improvement

WEIGHT_STEP = 0.05  # how far the weight falls per restart


def improve(
    problem: Any,
    run: Run,
    first: Result,
    weight: float,
    capped: Callable[[float, Any, float], Result],
) -> Result:
    """``first`` (an answer of weight ``weight``, its work already in ``run``) improved while
    ``run``'s limits last.  ``capped(w, limits, cap)`` is one weighted IDA* at weight ``w``
    that returns only answers cheaper than ``cap``, its ``bound`` what it proved about them."""
    observer = run.observer
    assert first.cost is not None, "improve() starts from a solved result"
    incumbent: float = first.cost
    best = (first.actions, first.states, incumbent)
    h0 = problem.heuristic(problem.initial_state()) if problem.heuristic is not None else 0
    bound: float = min(incumbent, h0)
    improvements = [Improvement(run.guard.elapsed(), incumbent, bound)]
    if observer is not None:
        observer.improved(incumbent, bound)
    w = weight
    while bound < incumbent:
        w = max(1.0, round(w - WEIGHT_STEP, 6))
        stage = capped(w, run.rest(), incumbent)
        run.absorb(stage.stats)
        raised = max(bound, min(incumbent, stage.bound or 0))
        if stage.status == NO_SOLUTION:
            raised = incumbent  # nothing cheaper below the cap anywhere
        elif stage.status == SOLVED and stage.cost is not None and stage.cost < incumbent:
            best, incumbent = (stage.actions, stage.states, stage.cost), stage.cost
            raised = min(raised, incumbent)
            improvements.append(Improvement(run.guard.elapsed(), incumbent, raised))
        if raised > bound or stage.status == SOLVED:
            bound = raised
            if observer is not None:
                observer.improved(incumbent, bound)
        if stage.status == LIMIT:
            break
    run.reason = run.reason if bound < incumbent else None
    result = run.result(SOLVED, best)
    result.bound, result.improvements, result.guarantee = bound, improvements, proven(incumbent, bound)
    return result
