"""Alternation: one greedy search guided by several heuristics, their open lists taking turns.

Greedy best-first on one heuristic fails where another succeeds at once; restarting one
search after another repeats work.  Alternation (Röger & Helmert, ICAPS 2010, as in Fast
Downward) keeps one search with one open list per heuristic: every new state goes into
each list with that heuristic's estimate, and the lists take turns giving the next state
to expand.  A state is expanded once whichever list it comes from (one closed list), so
the cost over the best single heuristic is at most a factor of the number of lists, and
usually much less because the lists share their progress.

The heuristics are named by parameter (``-P heuristics=a,b``) and taken from
``problem.variant(name)``, the same instance guided by another heuristic (the command
line gives every domain's problems one).  An infinite estimate from any of them marks a
state no goal can be reached from: it is dropped.  Goal tests happen on generation.  The
search is the core's `BestFirstSearch` with one ordering per heuristic (``orders``).
``explore=true`` adds type-based exploration (`typequeue`): one more queue in the turns,
drawing a random ``(h, g)`` type of the first heuristic and a random state of it, so a
plateau of equal estimates does not hold the search in one corner.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..limits import Limits
from ..observer import Observer
from ..problem import heuristic_of
from ..result import Result
from .bestfirst import BestFirstSearch, Order, by_estimate, by_h, by_type


def guided_variants(problem: Any, names: str, engine: str) -> list[Any]:
    """The problems for a comma list of heuristic names (`InputError` when it cannot be)."""
    wanted = [n.strip() for n in str(names).split(",") if n.strip()]
    if not wanted:
        raise InputError(f"{engine} needs heuristics to take turns: -P heuristics=NAME,NAME")
    variant = getattr(problem, "variant", None)
    if not callable(variant):
        raise InputError(f"{engine} needs a problem offering variant(heuristic); this one does not")
    out = []
    for name in wanted:
        p = variant(name)
        if heuristic_of(p) is None:
            raise InputError(f"{engine}: heuristic {name!r} gives no estimates here")
        out.append(p)
    return out


def alternation(
    problem: Any,
    *,
    heuristics: str = "",
    explore: bool = False,
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """Greedy best-first with one open list per heuristic (comma list), taking turns (and a
    type-based queue with ``explore``)."""
    variants = guided_variants(problem, heuristics, "alternation")
    # the first heuristic comes incrementally with the successors; the others are asked
    guides = [heuristic_of(p) for p in variants[1:]]  # none is None: guided_variants checked
    orders: list[Order] = [by_h, *(by_estimate(h) for h in guides if h is not None)]
    if explore:
        orders.append(by_type)
    search = BestFirstSearch(
        variants[0],
        orders=orders,
        reopen=False,
        goal_on_generation=True,
        name="alternation",
        limits=limits,
        observer=observer,
    )
    search.step()
    return search.result()
