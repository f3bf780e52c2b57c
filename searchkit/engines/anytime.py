"""Anytime weighted A* (Hansen & Zhou 2007): an answer soon, better ones while time lasts.

The search is `BestFirstSearch` ordered on ``g + w·h``, so its first answer comes as fast
as weighted A*'s.  It does not stop there: every goal it reaches is an answer, and once one
is known the open list keeps only states whose ``g + h`` (with an admissible ``h``) is
below the incumbent's cost, so each later answer is cheaper.  The least ``g + h`` left open
is a lower bound on the optimal cost (a state of an optimal path is always open at its
optimal ``g``, reopening included); an empty open list proves the incumbent optimal.  A
limit ends the run with the incumbent, ``solved``, and what was proven about it.

Hansen & Zhou measured this against ARA* (decreasing weights, Likhachev et al. 2003) and
found it as good or better on the sliding-tile puzzle and planning; it needs nothing from
the best-first loop but pruning by a bound, where ARA*'s lists of inconsistent states
would change the loop every other engine runs.
"""

from __future__ import annotations

import math
from typing import Any

from ..limits import Limits
from ..observer import Observer
from ..result import LIMIT, NO_SOLUTION, SOLVED, Improvement, Result
from .bestfirst import INF, BestFirstSearch

CHUNK = 1024  # expansions between two looks at the lower bound (a scan of the open list's priorities)


def anytime(
    problem: Any, *, weight: float = 2, limits: Limits | None = None, observer: Observer | None = None
) -> Result:
    """Anytime weighted A* on ``g + weight·h``: answers that improve until one is proven
    optimal or a limit stops the search (then the best so far, ``solved``)."""
    if not (weight >= 1 and math.isfinite(weight)):  # also refuses NaN
        raise ValueError(f"weight must be a finite number of at least 1 (got {weight})")
    search = BestFirstSearch(problem, h_weight=weight, name="anytime", limits=limits, observer=observer)
    run = search.run
    best: tuple[list[Any], list[Any], Any] | None = None
    incumbent, bound = INF, search.lowest_f()
    improvements: list[Improvement] = []
    if observer is not None and search.status is None:
        observer.improved(None, bound)
    while True:
        # before the first answer the bound matters only to a listener (and at the end):
        # without one, the search runs exactly as weighted A* until it reaches a goal
        search.step(CHUNK if best is not None or observer is not None else None)
        if search.status == SOLVED:
            path = search.path()
            search.resume()
            if path[2] < incumbent:
                best, incumbent = path, path[2]
                search.prune(incumbent)
                bound = min(incumbent, max(bound, search.lowest_f()))
                improvements.append(Improvement(run.guard.elapsed(), incumbent, bound))
                if observer is not None:
                    observer.improved(incumbent, bound)
            continue
        if search.status is not None:
            break
        low = min(incumbent, search.lowest_f())
        if low > bound:
            bound = low
            if observer is not None:
                observer.improved(None if best is None else incumbent, bound)
    if search.status == NO_SOLUTION and best is not None:
        bound = incumbent  # nothing left open below the incumbent: it is optimal
    # (no scan after a limit: the state it stopped at has left the open list)
    if best is None:
        result = run.result(search.status or LIMIT, None, **search.counters())
        if search.status == LIMIT:
            result.bound = bound
        return result
    if improvements[-1].bound != bound and observer is not None:
        observer.improved(incumbent, bound)
    result = run.result(SOLVED, best, **search.counters())
    result.bound, result.improvements, result.guarantee = bound, improvements, proven(incumbent, bound)
    return result


def proven(cost: float, bound: float) -> str:
    """The guarantee of an answer of ``cost`` when the optimal cost is at least ``bound``:
    ``optimal``, or ``within R of optimal`` with R = cost / bound rounded up (so it holds)."""
    if bound >= cost:
        return "optimal"
    if bound <= 0:
        return f"suboptimal (cost {cost:g}, no lower bound above 0 proven)"
    ratio = math.ceil(cost / bound * 100 - 1e-9) / 100
    return f"within {ratio:.2f} of optimal (lower bound {bound:g})"
