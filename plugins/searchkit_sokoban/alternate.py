"""The default Sokoban engine: independent greedy searches on different guides, in turns.

Greedy best-first on one heuristic fails on levels another solves at once (on Microban,
nearest-goal solves 151 levels in 10 s, matching solves level 144 that nearest-goal
cannot).  Sharing one closed list between the guides (`portfolio.py`) lets each search
steal the other's states and spoil its order; restarting one search after another
repeats work.  This engine keeps one whole greedy search per guide, each with its own
open and closed lists, and steps them in turns by a fixed share of the time (``shares=
"2,1"``: two seconds of nearest-goal per second of matching; time, not expansions,
because a matching node costs 2-10 nearest-goal ones).  A level the best guide solves
in ``t`` seconds alone takes about ``t * total / share`` plus ~0.5 s to build matching.

Measured on Microban at 10 s per level (2 cores, loaded): shares 1,1 solve 152 (144
too) where greedy nearest-goal solves 151, but levels 93 and 122 go from 2-4 s to 8-9 s,
so a busier machine loses them; shares 2,1 solve 151.  Hence not the domain default.

Goal tests happen on generation.  Honours every `Limits` field, counting the states
stored by all searches.  A problem without ``variant`` gets plain greedy search.
"""

from __future__ import annotations

from heapq import heappop, heappush
from time import perf_counter
from typing import Any

from searchkit import LIMIT, NO_SOLUTION, SOLVED, Limits, Result, Stats, greedy

from .heuristics import MATCHING, NEAREST

DEFAULT_GUIDES = f"{NEAREST},{MATCHING}"
DEFAULT_SHARES = "1,1"
BATCH = 32  # expansions per turn: fewer switches between the searches
WARMUP = 2048  # expansions of the first guide alone before the others start


class _Greedy:
    """One greedy best-first search that can be stepped; ties go to the lower depth."""

    def __init__(self, problem: Any):
        self.problem = problem
        self.succ = problem.successors_with_h
        start = problem.initial_state()
        h = problem.heuristic(start)
        self.parent: dict = {start: None}  # state -> (previous state, action, step cost)
        self.open: list = [] if h == float("inf") else [(h, 0, 0, start)]
        self.seq = 0
        self.spent = 0.0  # seconds spent expanding
        self.expanded = self.generated = self.duplicates = 0
        self.goal = start if problem.is_goal(start) else None

    def step(self, count: int) -> bool:
        """Expand up to ``count`` states; True when the search ends (goal found or exhausted)."""
        open_, parent, succ, is_goal = self.open, self.parent, self.succ, self.problem.is_goal
        for _ in range(count):
            if not open_:
                return True
            h, g, _seq, state = heappop(open_)
            self.expanded += 1
            g += 1
            for action, child, cost, ch in succ(state, h):
                self.generated += 1
                if child in parent:
                    self.duplicates += 1
                    continue
                parent[child] = (state, action, cost)
                if is_goal(child):
                    self.goal = child
                    return True
                self.seq += 1
                heappush(open_, (ch, g, self.seq, child))
        return False

    def path(self) -> tuple[list, list, float]:
        actions, states, total = [], [self.goal], 0
        link = self.parent[self.goal]
        while link is not None:
            prev, action, cost = link
            actions.append(action)
            states.append(prev)
            total += cost
            link = self.parent[prev]
        actions.reverse()
        states.reverse()
        return actions, states, total


def alternate(problem: Any, *, limits: Limits | None = None, observer=None,
              guides: str = DEFAULT_GUIDES, shares: str = DEFAULT_SHARES) -> Result:
    """Greedy searches on ``guides`` (comma list of heuristics) stepped in turns by ``shares``."""
    if not callable(getattr(problem, "variant", None)) or problem.heuristic is None:
        return greedy(problem, limits=limits, observer=observer)
    names = [n.strip() for n in guides.split(",") if n.strip()]
    unknown = [n for n in names if n not in (NEAREST, MATCHING)]
    if unknown or not names:
        raise ValueError(f"unknown guide {', '.join(unknown) or '(none)'} (known: {NEAREST}, {MATCHING})")
    try:
        weights = [int(s) for s in str(shares).split(",")]
    except ValueError:
        weights = []
    if len(weights) != len(names) or min(weights) < 1:
        raise ValueError(f"shares must be {len(names)} positive whole numbers, one per guide (got {shares!r})")
    guard = (limits or Limits()).guard()
    searches = [_Greedy(problem.variant(names[0]))]
    status, winner, reason = NO_SOLUTION, None, None
    if searches[0].goal is not None:
        status, winner = SOLVED, searches[0]
    # each search prunes only dead positions: one running out of states (or starting on a
    # dead one) proves the level unsolvable
    exhausted = not searches[0].open
    live = [(searches[0], weights[0])]
    expanded = max_frontier = 0
    next_check = guard.next_check(0)
    waiting = list(zip(names[1:], weights[1:]))
    while winner is None and not exhausted:
        if waiting and expanded >= WARMUP:
            # the other guides join once the first has had a start: easy levels never pay
            # for building them (the matching tables and SciPy's import take ~0.5 s)
            for name, w in waiting:
                s = _Greedy(problem.variant(name))
                searches.append(s)
                if s.goal is not None:
                    status, winner = SOLVED, s
                live.append((s, w))
            waiting = []
            if winner is not None:
                break
        pair = min(live, key=lambda sw: sw[0].spent / sw[1])  # the one most behind its share
        s = pair[0]
        began = perf_counter()
        done = s.step(BATCH)
        s.spent += perf_counter() - began
        if s.goal is not None:
            status, winner = SOLVED, s
        elif done:
            exhausted = True
        expanded = sum(s.expanded for s in searches)
        max_frontier = max(max_frontier, sum(len(s.open) for s in searches))
        if winner is None and expanded >= next_check:
            reason = guard.check(expanded, sum(len(s.parent) for s in searches))
            if observer is not None:
                observer.progress(expanded, sum(s.generated for s in searches), 0)
            if reason is not None:
                status = LIMIT
                break
            next_check = guard.next_check(expanded)

    stats = Stats(expanded=sum(s.expanded for s in searches), generated=sum(s.generated for s in searches),
                  duplicates=sum(s.duplicates for s in searches),
                  max_frontier=max_frontier, stored=sum(len(s.parent) for s in searches),
                  elapsed_s=guard.elapsed(), peak_rss_bytes=guard.peak_rss, limit_reason=reason)
    if status != SOLVED:
        return Result(status, stats=stats, engine="sokoban-alternate")
    actions, states, total = winner.path()
    return Result(SOLVED, actions, states, total, stats, "sokoban-alternate")
