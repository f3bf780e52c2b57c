"""The default Sokoban engine: a forward and a backward search sharing the time.

Greedy best-first forwards on nearest-goal solves most levels at once but fails where the
goals must be filled in a strict order; the same greedy search run backwards from the
solved position (`pull.py`) gets that order for free and fails elsewhere.  On Microban
(10 s per level) forwards misses 144, 146 and 153, backwards 93 (and 153 unless it
aims at the gateway); together they miss none.  Sharing one closed list between guides
(`portfolio.py`) lets each search steal the other's states and spoil its order;
restarting one search after another repeats work.  This engine keeps one whole search
per *member*, each with its own open and closed lists:

* the first member runs alone for ``solo`` CPU seconds (CPU time, so a busy machine gives
  it the same work), so the levels it solves at once never pay for the others;
* then all members are stepped in turns by a fixed share of the time (``shares="1,1"``;
  time, not expansions, because nodes of different searches cost different amounts).

Default ``nearest-goal,pull``, ``solo`` 0.5 s, shares 1,1.  Measured with
``searchkit bench configs/microban.toml -j 2`` on the 2-core machine: Microban 155 of 155,
8.9 s in all (153 2.9 s, 146 2.1 s, none else over 0.9 s); local samples of Microban II 37
of 39 and Boxworld 25 of 25.
153 needs the pull search to aim at a gateway (`gateway.py`): before it, 154 of 155 in
7.9 s.  Before the pull search the default was greedy nearest-goal alone (Microban 152,
6.5 s) and then this engine with greedy and A* on matching as the other members (154,
17-25 s: 144 and 146 took 5-8 s).

A member is ``pull`` (the backward search; pushes mode only, left out with ``--optimize
moves``), or ``heuristic`` (greedy on it) or ``greedy:heuristic`` / ``astar:heuristic``
for a forward search; A* here keeps the first path to each state (no reopening): it is a
differently ordered search, not an optimality promise.  Greedy and A* on one heuristic
share its problem, so its tables and remembered matchings are built once.  Goal tests
happen on generation.  Honours every `Limits` field, counting the states stored by all
searches.  A problem without ``variant`` gets plain greedy search.  An observer sees every
event of the first search and the progress of all (one tree: the others' states would
repeat its own).
"""

from __future__ import annotations

from heapq import heappop, heappush
from time import perf_counter, process_time
from typing import Any

from searchkit import INCOMPLETE, LIMIT, NO_SOLUTION, SOLVED, InputError, Limits, Result, Stats, greedy

from .heuristics import MATCHING, NEAREST
from .gateway import GATEWAY_BUDGET
from .pull import PullSearch

KINDS = ("greedy", "astar")
PULL = "pull"  # the reverse search (`pull.py`): no heuristic name
DEFAULT_GUIDES = f"{NEAREST},{PULL}"
DEFAULT_SHARES = "1,1"
DEFAULT_SOLO = 0.5  # CPU seconds of the first member alone (CPU time: the same work on a busy machine)
BATCH = 32  # expansions per turn: fewer switches between the searches


class _Search:
    """One best-first search that can be stepped, keeping the first path to each state.

    Greedy orders by ``h`` (ties: lower depth), A* by ``g + h`` (ties: lower ``h``); both
    then first in, first out.
    """

    def __init__(self, problem: Any, astar: bool, observer=None):
        self.problem = problem
        self.astar = astar
        self.observer = observer
        self.succ = problem.successors_with_h
        start = problem.initial_state()
        h = problem.heuristic(start)
        self.parent: dict = {start: None}  # state -> (previous state, action, step cost)
        self.open: list = [] if h == float("inf") else [(h, 0, 0, 0, start)]
        self.seq = 0
        self.spent = 0.0  # seconds spent expanding
        self.expanded = self.generated = self.duplicates = 0
        self.goal = start if problem.is_goal(start) else None

    def step(self, count: int) -> bool:
        """Expand up to ``count`` states; True when the search ends (goal found or exhausted)."""
        open_, parent, succ, is_goal, astar = self.open, self.parent, self.succ, self.problem.is_goal, self.astar
        observer = self.observer
        for _ in range(count):
            if not open_:
                return True
            _f, _tie, _seq, g, state = heappop(open_)
            h = _tie if astar else _f
            self.expanded += 1
            if observer is not None:
                observer.expand(state, g, h)
            for action, child, cost, ch in succ(state, h):
                self.generated += 1
                if child in parent:
                    self.duplicates += 1
                    if observer is not None:
                        observer.generate(state, action, child, g + cost, ch, "duplicate")
                    continue
                parent[child] = (state, action, cost)
                if observer is not None:
                    observer.generate(state, action, child, g + cost, ch, "new")
                if is_goal(child):
                    self.goal = child
                    return True
                self.seq += 1
                cg = g + cost
                if astar:
                    heappush(open_, (cg + ch, ch, self.seq, cg, child))
                else:
                    heappush(open_, (ch, cg, self.seq, cg, child))
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


def parse_members(guides: str) -> list[tuple[str, str]]:
    """``(kind, heuristic)`` pairs of a comma list such as ``nearest-goal,pull,astar:matching``."""
    out = []
    for item in (s.strip() for s in str(guides).split(",")):
        if not item:
            continue
        if item == PULL:
            out.append((PULL, ""))
            continue
        kind, _, name = item.rpartition(":")
        kind = kind or "greedy"
        if kind not in KINDS or name not in (NEAREST, MATCHING):
            raise InputError(f"unknown search {item!r} ({PULL}, or a heuristic {NEAREST} or {MATCHING}"
                             f" optionally after {' or '.join(k + ':' for k in KINDS)})")
        out.append((kind, name))
    if not out:
        raise InputError("no search given")
    return out


def alternate(problem: Any, *, limits: Limits | None = None, observer=None,
              guides: str = DEFAULT_GUIDES, shares: str = DEFAULT_SHARES, solo: float = DEFAULT_SOLO) -> Result:
    """The searches in ``guides`` (comma list), the first alone for ``solo`` s, then by ``shares``."""
    if not callable(getattr(problem, "variant", None)) or problem.heuristic is None:
        return greedy(problem, limits=limits, observer=observer)
    members = parse_members(guides)
    try:
        weights = [float(s) for s in str(shares).split(",")]
    except ValueError:
        weights = []
    if len(weights) != len(members) or not min(weights) > 0:
        raise InputError(f"shares must be {len(members)} positive numbers, one per search (got {shares!r})")
    if not float(solo) >= 0:
        raise InputError(f"solo must be a number of seconds >= 0 (got {solo!r})")
    if getattr(problem, "moves", False):  # the pull search's states hold regions: pushes mode only
        kept = [(m, w) for m, w in zip(members, weights) if m[0] != PULL]
        if not kept:
            raise InputError("the pull search works in pushes mode only")
        members, weights = [m for m, _w in kept], [w for _m, w in kept]
    guard = (limits or Limits()).guard()
    variants: dict = {}  # A* and greedy on one heuristic share its problem (tables, memo)

    def make(kind: str, name: str, observer=None):
        if kind == PULL:
            return PullSearch(problem, gateway=GATEWAY_BUDGET)
        if name not in variants:
            variants[name] = problem.variant(name)
        return _Search(variants[name], kind == "astar", observer)

    searches = [make(*members[0], observer)]  # its tree is the one observed
    status, winner, reason = NO_SOLUTION, None, None
    if searches[0].goal is not None:
        status, winner = SOLVED, searches[0]
    # a search that prunes only dead positions proves the level unsolvable by running out
    # of states (or starting on a dead one); one whose goal-room plans prune may have cut
    # every solution off, so running out only ends that search
    exhausted = not searches[0].open
    live = [(searches[0], weights[0])]
    expanded, max_frontier = 0, 1
    next_check = guard.next_check(0)
    waiting = list(zip(members[1:], weights[1:]))
    began_all = process_time()
    while winner is None and not exhausted:
        if waiting and (process_time() - began_all >= solo or not live):
            for (kind, name), w in waiting:
                began = perf_counter()
                s = make(kind, name)
                # joins level with its share, not behind (its set-up counts as its time)
                s.spent = searches[0].spent * w / weights[0] + perf_counter() - began
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
            if _proves_unsolvable(s):
                exhausted = True
            else:
                live.remove(pair)
                if not live and not waiting:  # every search ran out, none of them a proof
                    status, reason = LIMIT, INCOMPLETE
                    break
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


def _proves_unsolvable(search: Any) -> bool:
    """Whether ``search`` running out of states proves the level unsolvable: the pull search
    prunes only dead positions (and aims at a gateway every solution passes through); a
    forward search does unless its problem prunes by goal-room plans."""
    return isinstance(search, PullSearch) or getattr(search.problem, "preserves_solutions", True)


def warm_up() -> None:
    """Import SciPy's assignment solver (~0.8 s) before timing, for searches on matching."""
    import importlib

    importlib.import_module("scipy.optimize")
