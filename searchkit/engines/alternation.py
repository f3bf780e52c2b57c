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
state no goal can be reached from: it is dropped.  Goal tests happen on generation.
"""

from __future__ import annotations

from heapq import heappop, heappush
from typing import Any

from ..errors import InputError
from ..limits import Limits
from ..observer import Observer
from ..problem import heuristic_of, successors_with_h
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .paths import path_from_parents
from .run import Run

INF = float("inf")


def guided_variants(problem: Any, names: str, engine: str) -> list:
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


def alternation(problem: Any, *, heuristics: str = "", limits: Limits | None = None,
                observer: Observer | None = None) -> Result:
    """Greedy best-first with one open list per heuristic (comma list), taking turns."""
    variants = guided_variants(problem, heuristics, "alternation")
    succ = successors_with_h(variants[0])
    others = [heuristic_of(p) for p in variants[1:]]
    fns = [heuristic_of(p) for p in variants]
    run = Run("alternation", limits, observer)
    is_goal = problem.is_goal
    start = problem.initial_state()
    parents: dict = {start: None}
    closed: set = set()
    queues: list[list] = [[] for _ in variants]
    hs = [f(start) for f in fns]
    if INF not in hs:
        for q, h in zip(queues, hs):
            q.append((h, 0, 0, hs[0], start))  # (estimate, order, g, first heuristic's h, state)
    seq = 1
    expanded = generated = duplicates = 0
    max_frontier = 1
    status, goal = NO_SOLUTION, None
    if is_goal(start):
        status, goal = SOLVED, start
    k, turn = len(queues), 0
    while status is NO_SOLUTION:
        entry = None
        for _ in range(k):  # the next list, in turn, that still holds an unexpanded state
            q = queues[turn]
            turn = turn + 1 if turn + 1 < k else 0
            while q:
                candidate = heappop(q)
                if candidate[4] not in closed:
                    entry = candidate
                    break
            if entry is not None:
                break
        if entry is None:
            break  # every list is empty: the reachable space is exhausted
        if expanded >= run.next_check and run.limit_reached(expanded, generated, len(parents)):
            status = LIMIT
            break
        h, _seq, g, h_first, state = entry
        expanded += 1
        closed.add(state)
        if observer is not None:
            observer.expand(state, g, h)
        for action, child, cost, h0 in succ(state, h_first):  # incremental on the first heuristic
            generated += 1
            if child in parents:
                duplicates += 1
                if observer is not None:
                    observer.generate(state, action, child, g + cost, h0, "duplicate")
                continue
            parents[child] = state
            if observer is not None:
                observer.generate(state, action, child, g + cost, h0, "new")
            if is_goal(child):
                status, goal = SOLVED, child
                break
            estimates = [h0] + [f(child) for f in others]
            if INF in estimates:
                continue
            for q, est in zip(queues, estimates):
                heappush(q, (est, seq, g + cost, h0, child))
            seq += 1
        frontier = len(parents) - len(closed)
        if frontier > max_frontier:
            max_frontier = frontier
    path = path_from_parents(problem, parents, goal) if status == SOLVED else None
    return run.result(status, path, expanded=expanded, generated=generated, duplicates=duplicates,
                      max_frontier=max_frontier, stored=len(parents))
