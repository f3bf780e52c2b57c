"""Depth-first engines: depth-limited DFS, IDDFS and IDA* share one bounded iteration.

An iteration explores every path whose measure stays within a bound - the number of
steps for DFS and IDDFS, ``g + h`` for IDA* - and reports the smallest measure it cut
off, which is the next bound.  Nothing is stored but the current path, whose states are
kept in a set so that no path visits a state twice (this also makes the engines finish
on finite spaces: nothing cut off means the space is exhausted).  A problem with
``cycle_check = "parent"`` (an undirected space whose goal is known to be reachable,
like a sliding puzzle after its parity test) only forbids the move straight back.
"""

from __future__ import annotations

import sys
from typing import Any

from ..limits import NO_LIMITS, Limits
from ..observer import Observer
from ..problem import heuristic_of, successors_with_h
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result, Stats
from .paths import step_between

INF = float("inf")


class _Search:
    """Counters and the bounded iteration shared by the depth-first engines."""

    def __init__(self, problem: Any, limits: Limits | None, observer: Observer | None, use_h: bool, unit: bool):
        self.problem = problem
        self.guard = (limits or NO_LIMITS).guard()
        self.observer = observer
        plain = problem.successors
        if unit:  # every step counts 1; the real cost is summed over the solution at the end
            self.succ = lambda state, _h: [(a, s, 1, 0) for a, s, _c in plain(state)]
            self.h0 = 0
        elif use_h and heuristic_of(problem) is not None:
            self.succ = successors_with_h(problem)
            self.h0 = heuristic_of(problem)(problem.initial_state())
        else:
            self.succ = lambda state, _h: [(a, s, c, 0) for a, s, c in plain(state)]
            self.h0 = 0
        # "parent": the domain promises its space is undirected and its goal reachable, so
        # skipping the move back suffices; otherwise no path may visit a state twice.
        self.path_check = getattr(problem, "cycle_check", "path") != "parent"
        self.h_known = not unit and use_h and heuristic_of(problem) is not None
        self.expanded = self.generated = self.duplicates = self.iterations = self.max_depth = 0
        self.reason: str | None = None

    def iteration(self, bound: float) -> tuple[list | None, float]:
        """One bounded depth-first pass: (solution steps or None, next bound)."""
        problem, guard, observer, succ, h_known = self.problem, self.guard, self.observer, self.succ, self.h_known
        is_goal = problem.is_goal
        test_every_child = not getattr(problem, "heuristic_admissible", False)
        on_path: set | None = set() if self.path_check else None
        tail: list = []  # (action, state) of the solution, filled while unwinding
        next_bound = INF
        expanded = self.expanded
        generated = duplicates = 0
        next_check = guard.next_check(expanded)
        reason = None
        self.iterations += 1
        if observer is not None:
            observer.iteration(bound)

        def visit(state: Any, g: float, h: float, parent: Any, depth: int) -> bool:
            nonlocal expanded, generated, duplicates, next_bound, next_check, reason
            if expanded >= next_check:
                if depth > self.max_depth:  # before the check: a "memory" stop reports this depth
                    self.max_depth = depth
                reason = guard.check(expanded, depth)
                if observer is not None:
                    observer.progress(expanded, generated, bound)
                if reason is not None:
                    return False
                next_check = guard.next_check(expanded)
            expanded += 1
            if observer is not None:
                observer.expand(state, g, h if h_known else None)
            if on_path is not None:
                on_path.add(state)
            children = succ(state, h)
            if type(children) is not list:  # any iterable will do (a generator, a tuple)
                children = list(children)
            generated += len(children)  # corrected below if the loop stops early
            for action, child, cost, ch in children:
                if child == parent or (on_path is not None and child in on_path):
                    duplicates += 1
                    if observer is not None:
                        observer.generate(state, action, child, g + cost, ch if h_known else None, "duplicate")
                    continue
                f = g + cost + ch
                if f > bound:
                    if f < next_bound:
                        next_bound = f
                    if observer is not None:
                        observer.generate(state, action, child, g + cost, ch if h_known else None, "pruned")
                    continue
                if observer is not None:
                    observer.generate(state, action, child, g + cost, ch if h_known else None, "new")
                # an admissible h is 0 at every goal, so only children with h == 0 need the
                # goal test; otherwise (h may be positive at a goal) every child gets it
                if ((ch == 0 or test_every_child) and is_goal(child)) or visit(child, g + cost, ch, state, depth + 1):
                    tail.append((action, child))
                elif reason is None:
                    continue
                # stopping early: the children after this one were never looked at
                generated -= len(children) - 1 - children.index((action, child, cost, ch))
                break
            else:
                if on_path is not None:
                    on_path.discard(state)
                return False
            if on_path is not None:
                on_path.discard(state)
            return reason is None

        start = problem.initial_state()
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 100_000))
        try:
            found = visit(start, 0, self.h0, None, 0)
        except RecursionError:  # a path deeper than the stack allows: stop as at a memory limit
            found, reason = False, "memory"
        finally:
            sys.setrecursionlimit(old_limit)
            self.expanded = expanded
            self.generated += generated
            self.duplicates += duplicates
        self.reason = reason
        if not found:
            return None, next_bound
        tail.reverse()
        return tail, next_bound

    def result(self, name: str, status: str, steps: list | None = None) -> Result:
        stats = Stats(
            expanded=self.expanded,
            generated=self.generated,
            duplicates=self.duplicates,
            max_frontier=self.max_depth,
            stored=self.max_depth + 1,
            iterations=self.iterations,
            elapsed_s=self.guard.elapsed(),
            peak_rss_bytes=self.guard.peak_rss,
            limit_reason=self.reason,
        )
        if status != SOLVED:
            return Result(status, stats=stats, engine=name)
        steps = steps or []
        states = [self.problem.initial_state()] + [s for _a, s in steps]
        actions = [a for a, _s in steps]
        cost = sum(step_between(self.problem, a, b, act)[1] for a, b, act in zip(states, states[1:], actions))
        stats.max_frontier = max(stats.max_frontier, len(steps))
        stats.stored = max(stats.stored, len(steps) + 1)
        return Result(SOLVED, actions, states, cost, stats, name)


def _iterate(name: str, problem: Any, limits, observer, use_h: bool, unit: bool, first_bound: float | None = None,
             single: bool = False) -> Result:
    search = _Search(problem, limits, observer, use_h, unit)
    if problem.is_goal(problem.initial_state()):
        return search.result(name, SOLVED, [])
    bound = search.h0 if first_bound is None else first_bound
    while True:
        steps, next_bound = search.iteration(bound)
        if steps is not None:
            return search.result(name, SOLVED, steps)
        if search.reason is not None:
            return search.result(name, LIMIT)
        if next_bound == INF:  # nothing was cut off: the space is exhausted
            return search.result(name, NO_SOLUTION)
        if single:
            search.reason = "depth"
            return search.result(name, LIMIT)
        bound = next_bound


def dfs(problem: Any, *, depth: int = 50, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Depth-first search to at most ``depth`` steps (``limit`` when that cut something off)."""
    if depth < 0:
        raise ValueError(f"depth must not be negative (got {depth})")
    return _iterate("dfs", problem, limits, observer, use_h=False, unit=True, first_bound=depth, single=True)


def iddfs(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Iterative deepening: depth-limited DFS at depth 0, 1, 2, ...; fewest steps."""
    return _iterate("iddfs", problem, limits, observer, use_h=False, unit=True, first_bound=0)


def idastar(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """IDA*: iterative deepening on ``g + h``; optimal with an admissible heuristic."""
    return _iterate("idastar", problem, limits, observer, use_h=True, unit=False)
