"""The default Sokoban engine: greedy search under two heuristics, taking turns.

Greedy best-first on ``nearest-goal`` and on ``matching`` fail on different levels (the
first is cheaper per node and less misled by goal rooms, the second sees competing boxes),
so neither alone is the best default.  This engine runs them in turns with a doubling
expansion budget (restarting each run), which costs at most a small constant factor over
the better of the two on every level.  It honours every `Limits` field and returns one
`Result` whose stats add up all runs.
"""

from __future__ import annotations

import copy
import time
from typing import Any

from searchkit import LIMIT, NO_SOLUTION, SOLVED, Limits, Result, Stats, greedy

from .heuristics import MATCHING, NEAREST, RowCosts

FIRST_BUDGET = 4000


def _with_heuristic(problem: Any, kind: str) -> Any:
    if problem.h_name == kind:
        return problem
    other = copy.copy(problem)
    other.h_name = kind
    other._costs = RowCosts(problem.board, kind).cost
    return other


def portfolio(problem: Any, *, limits: Limits | None = None, observer=None, budget: int = FIRST_BUDGET) -> Result:
    """Alternate greedy(nearest-goal) and greedy(matching) with doubling budgets."""
    limits = limits or Limits()
    if getattr(problem, "_costs", None) is None:  # no heuristic of ours: plain greedy
        return greedy(problem, limits=limits, observer=observer)
    start = time.perf_counter()
    problems = [_with_heuristic(problem, NEAREST), _with_heuristic(problem, MATCHING)]
    total = Stats()
    spent = 0
    while True:
        for p in problems:
            cap = budget
            if limits.max_expanded is not None:
                cap = min(cap, limits.max_expanded - spent)
            timeout = None
            if limits.timeout_s is not None:
                timeout = limits.timeout_s - (time.perf_counter() - start)
            if cap <= 0 or (timeout is not None and timeout <= 0):
                total.limit_reason = "nodes" if cap <= 0 else "time"
                return _finish(Result(LIMIT), total, start)
            run = greedy(p, limits=Limits(max_expanded=cap, timeout_s=timeout, max_stored=limits.max_stored,
                                          max_rss_mb=limits.max_rss_mb, interrupt=limits.interrupt),
                         observer=observer)
            spent += run.stats.expanded
            _add(total, run.stats)
            if run.status in (SOLVED, NO_SOLUTION):
                return _finish(run, total, start)
            if run.stats.limit_reason != "nodes" or (limits.max_expanded is not None and spent >= limits.max_expanded):
                total.limit_reason = run.stats.limit_reason
                return _finish(Result(LIMIT), total, start)
            total.iterations += 1
        budget *= 2


def _add(total: Stats, s: Stats) -> None:
    total.expanded += s.expanded
    total.generated += s.generated
    total.duplicates += s.duplicates
    total.reopened += s.reopened
    total.max_frontier = max(total.max_frontier, s.max_frontier)
    total.stored = max(total.stored, s.stored)
    total.peak_rss_bytes = max(total.peak_rss_bytes, s.peak_rss_bytes)


def _finish(result: Result, total: Stats, start: float) -> Result:
    total.elapsed_s = time.perf_counter() - start
    if result.status != LIMIT:
        total.limit_reason = None
    result.stats = total
    result.engine = "sokoban-portfolio"
    return result
