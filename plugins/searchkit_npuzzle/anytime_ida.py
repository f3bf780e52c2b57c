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

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from searchkit import LIMIT, NO_SOLUTION, SOLVED, Limits, Result, Run
from searchkit.engines.anytime import proven
from searchkit.result import Improvement

WEIGHT_STEP = 0.05  # how far the weight falls per restart
PROBE_SHARE = 0.1  # of the time (or nodes) left after the first answer: IDA* at weight 1, for a bound


def _stages(run: Run, weight: float) -> Iterator[tuple[float, Limits, bool]]:
    """The restarts: ``(weight, limits, probe)``.  First a probe at weight 1 with a share of
    what is left, whose completed iterations prove a lower bound early (the weight-1 stage at
    the end of the descent may never come on a big board), then the descent from ``weight``."""
    rest = run.rest()
    if PROBE_SHARE > 0 and weight > 1:
        yield 1.0, _share(rest, PROBE_SHARE), True
    w = weight
    while True:
        w = max(1.0, round(w - WEIGHT_STEP, 6))
        yield w, run.rest(), False


def _share(limits: Limits, share: float) -> Limits:
    """``limits`` with ``share`` of their time and expansions."""
    return replace(
        limits,
        timeout_s=None if limits.timeout_s is None else limits.timeout_s * share,
        max_expanded=None if limits.max_expanded is None else int(limits.max_expanded * share),
    )


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
    for w, limits, probe in _stages(run, weight):
        if bound >= incumbent:
            break
        reason = run.reason
        stage = capped(w, limits, incumbent)
        run.absorb(stage.stats)
        if probe:  # the probe's own share running out is no limit of the run
            run.reason = reason
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
        if stage.status == LIMIT and not probe:
            break
    run.reason = run.reason if bound < incumbent else None
    result = run.result(SOLVED, best)
    result.bound, result.improvements, result.guarantee = bound, improvements, proven(incumbent, bound)
    return result
