"""The default Sokoban engine: greedy search on several guides at once, taking turns.

Greedy best-first on one heuristic fails on levels another solves at once: nearest-goal is
cheap and rarely misled, matching sees boxes competing for goals, and the packing guide
fills goal rooms deepest-first.  Restarting one search after another repeats work, so this
engine keeps one search with one open list per guide (Fast Downward's *alternation*): every
new state goes into each list with that guide's estimate, and the lists take turns giving
the next state to expand.  A state is expanded once whichever list it comes from, so the
cost over the best single guide is at most a factor of the number of guides, and usually
much less because the lists share their progress.

Goal tests happen on generation (greedy gains nothing by waiting).  Honours every
`Limits` field.  A problem without `successors_with_guides` gets plain greedy search.
"""

from __future__ import annotations

from heapq import heappop, heappush
from typing import Any

from searchkit import LIMIT, NO_SOLUTION, SOLVED, InputError, Limits, Result, Stats, greedy, path_from_links

from .heuristics import MATCHING, NEAREST, PACKING

GUIDES = (MATCHING, NEAREST, PACKING)
DEFAULT_GUIDES = ",".join(GUIDES)  # the first one's infinity is a deadlock: it prunes


def portfolio(problem: Any, *, limits: Limits | None = None, observer=None,
              guides: str = DEFAULT_GUIDES) -> Result:
    """Alternate greedy open lists, one per guide (comma list: matching, nearest-goal, packing)."""
    if not callable(getattr(problem, "successors_with_guides", None)) or problem.heuristic is None:
        return greedy(problem, limits=limits, observer=observer)
    names = [n.strip() for n in guides.split(",") if n.strip()]
    unknown = [n for n in names if n not in GUIDES]
    if unknown or not names:
        raise InputError(f"unknown guide {', '.join(unknown) or '(none)'} (known: {', '.join(GUIDES)})")
    fns = problem.guides(names)
    guard = (limits or Limits()).guard()
    expand = problem.successors_with_guides
    is_goal = problem.is_goal
    k = len(fns)

    start = problem.initial_state()
    parent: dict = {start: None}  # state -> (previous state, action, step cost)
    expanded_set: set = set()
    queues: list[list] = [[] for _ in range(k)]
    for q in queues:
        q.append((0, 0, start))
    seq = 1
    expanded = generated = duplicates = 0
    max_frontier = 1
    next_check = guard.next_check(0)
    status, goal, reason = NO_SOLUTION, None, None
    if is_goal(start):
        status, goal = SOLVED, start
    turn = 0
    while status is not SOLVED:
        state = None
        for _ in range(k):  # the next list with an unexpanded state, in turn
            q = queues[turn]
            turn = turn + 1 if turn + 1 < k else 0
            while q:
                cand = heappop(q)[2]
                if cand not in expanded_set:
                    state = cand
                    break
            if state is not None:
                break
        if state is None:
            break  # every list is empty: the reachable space is exhausted
        if expanded >= next_check:
            reason = guard.check(expanded, len(parent))
            if observer is not None:
                observer.progress(expanded, generated, 0)
            if reason is not None:
                status = LIMIT
                break
            next_check = guard.next_check(expanded)
        expanded += 1
        expanded_set.add(state)
        for action, child, cost, hs in expand(state, fns):
            generated += 1
            if child in parent:
                duplicates += 1
                continue
            parent[child] = (state, action, cost)
            if is_goal(child):
                status, goal = SOLVED, child
                break
            for q, h in zip(queues, hs):
                heappush(q, (h, seq, child))
            seq += 1
        frontier = len(parent) - len(expanded_set)
        if frontier > max_frontier:
            max_frontier = frontier

    stats = Stats(expanded=expanded, generated=generated, duplicates=duplicates, max_frontier=max_frontier,
                  stored=len(parent), elapsed_s=guard.elapsed(), peak_rss_bytes=guard.peak_rss,
                  limit_reason=reason)
    if status != SOLVED:
        return Result(status, stats=stats, engine="sokoban-portfolio")
    actions, states, total = path_from_links(parent, {goal: None}, goal)
    return Result(SOLVED, actions, states, total, stats, "sokoban-portfolio")
