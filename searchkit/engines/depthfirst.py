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
from collections.abc import Callable, Iterable
from typing import Any

from ..kernels.rules import choose
from ..limits import Limits
from ..observer import Observer
from ..problem import heuristic_of, successors_with_h
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .paths import step_between
from .run import Run

INF = float("inf")


class _PathCosts(Observer):
    """What a step-counting search (DFS, IDDFS) reports, with path costs for its ``g``.

    Those engines count every step as 1 so that their bound is a depth; an observer is
    promised path costs, so this wrapper (used only when someone listens) looks up each
    step's real cost, keeping one path cost per depth of the current path.
    """

    def __init__(self, observer: Observer, problem: Any):
        self.inner, self.problem = observer, problem
        self.levels: list[tuple[float, dict[Any, Any]]] = []  # per depth: (path cost, {(action, child): step cost})
        self.child_g = 0.0

    def expand(self, state: Any, g: float, h: float | None) -> None:
        depth = int(g)  # the step count is the depth
        del self.levels[depth:]
        cost = self.child_g if depth else 0
        self.levels.append((cost, {(a, s): c for a, s, c in self.problem.successors(state)}))
        self.inner.expand(state, cost, h)

    def generate(self, parent: Any, action: Any, child: Any, g: float, h: float | None, kind: str) -> None:
        cost, steps = self.levels[int(g) - 1]
        self.child_g = cost + steps[action, child]
        self.inner.generate(parent, action, child, self.child_g, h, kind)

    def iteration(self, bound: float) -> None:
        self.inner.iteration(bound)

    def progress(self, expanded: int, generated: int, best_f: float | None) -> None:
        self.inner.progress(expanded, generated, best_f)


class _Search:
    """Counters and the bounded iteration shared by the depth-first engines."""

    def __init__(
        self, name: str, problem: Any, limits: Limits | None, observer: Observer | None, use_h: bool, unit: bool
    ):
        self.problem = problem
        self.observer = _PathCosts(observer, problem) if unit and observer is not None else observer
        self.run = Run(name, limits, self.observer)
        plain = problem.successors
        self.succ: Callable[[Any, Any], Iterable[tuple[Any, ...]]]
        self.h0: float
        h_fn = heuristic_of(problem)
        if unit:  # every step counts 1; the real cost is summed over the solution at the end
            self.succ = lambda state, _h: [(a, s, 1, 0) for a, s, _c in plain(state)]
            self.h0 = 0
        elif use_h and h_fn is not None:
            self.succ = successors_with_h(problem)
            self.h0 = h_fn(problem.initial_state())
        else:
            self.succ = lambda state, _h: [(a, s, c, 0) for a, s, c in plain(state)]
            self.h0 = 0
        # "parent": the domain promises its space is undirected and its goal reachable, so
        # skipping the move back suffices; otherwise no path may visit a state twice.
        self.path_check = getattr(problem, "cycle_check", "path") != "parent"
        self.h_known = not unit and use_h and heuristic_of(problem) is not None
        self.expanded = self.generated = self.duplicates = self.iterations = self.max_depth = 0
        self.reason: str | None = None

    def iteration(self, bound: float) -> tuple[list[Any] | None, float]:
        """One bounded depth-first pass: (solution steps or None, next bound)."""
        problem, run, observer, succ, h_known = self.problem, self.run, self.observer, self.succ, self.h_known
        is_goal = problem.is_goal
        test_every_child = not getattr(problem, "heuristic_admissible", False)
        on_path: set[Any] | None = set() if self.path_check else None
        tail: list[Any] = []  # (action, state) of the solution, filled while unwinding
        next_bound = INF
        expanded = self.expanded
        generated = duplicates = 0
        next_check = run.next_check
        reason = None
        self.iterations += 1
        if observer is not None:
            observer.iteration(bound)

        def visit(state: Any, g: float, h: float, parent: Any, depth: int) -> bool:
            nonlocal expanded, generated, duplicates, next_bound, next_check, reason
            if expanded >= next_check:
                if depth > self.max_depth:  # before the check: a "memory" stop reports this depth
                    self.max_depth = depth
                if run.limit_reached(expanded, generated, depth, bound):
                    reason = run.reason
                    return False
                next_check = run.next_check
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
                cg = g + cost
                f = cg + ch
                if f > bound:
                    if f < next_bound:
                        next_bound = f
                    if observer is not None:
                        observer.generate(state, action, child, cg, ch if h_known else None, "pruned")
                    continue
                if observer is not None:
                    observer.generate(state, action, child, cg, ch if h_known else None, "new")
                # an admissible h is 0 at every goal, so only children with h == 0 need the
                # goal test; otherwise (h may be positive at a goal) every child gets it
                if ((ch == 0 or test_every_child) and is_goal(child)) or visit(child, cg, ch, state, depth + 1):
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

    def result(self, status: str, steps: list[Any] | None = None) -> Result:
        self.run.reason = self.reason
        path = None
        if status == SOLVED:
            steps = steps or []
            states = [self.problem.initial_state()] + [s for _a, s in steps]
            actions = [a for a, _s in steps]
            cost = sum(step_between(self.problem, a, b, act)[1] for a, b, act in zip(states, states[1:], actions))
            path = (actions, states, cost)
        depth = max(self.max_depth, len(steps or ()))
        return self.run.result(
            status,
            path,
            expanded=self.expanded,
            generated=self.generated,
            duplicates=self.duplicates,
            iterations=self.iterations,
            max_frontier=depth,
            stored=depth + 1,
        )


def _iterate(
    name: str,
    problem: Any,
    limits: Limits | None,
    observer: Observer | None,
    use_h: bool,
    unit: bool,
    first_bound: float | None = None,
    single: bool = False,
) -> Result:
    search = _Search(name, problem, limits, observer, use_h, unit)
    if problem.is_goal(problem.initial_state()):
        return search.result(SOLVED, [])
    bound = search.h0 if first_bound is None else first_bound
    while True:
        steps, next_bound = search.iteration(bound)
        if steps is not None:
            return search.result(SOLVED, steps)
        if search.reason is not None:
            return search.result(LIMIT)
        if next_bound == INF:  # nothing was cut off: the space is exhausted
            return search.result(NO_SOLUTION)
        if single:
            search.reason = "depth"
            return search.result(LIMIT)
        bound = next_bound


def dfs(problem: Any, *, depth: int = 50, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Depth-first search to at most ``depth`` steps (``limit`` when that cut something off)."""
    if depth < 0:
        raise ValueError(f"depth must not be negative (got {depth})")
    return _iterate("dfs", problem, limits, observer, use_h=False, unit=True, first_bound=depth, single=True)


def iddfs(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Iterative deepening: depth-limited DFS at depth 0, 1, 2, ...; fewest steps."""
    return _iterate("iddfs", problem, limits, observer, use_h=False, unit=True, first_bound=0)


def idastar(
    problem: Any, *, compiled: str = "auto", limits: Limits | None = None, observer: Observer | None = None
) -> Result:
    """IDA*: iterative deepening on ``g + h``; optimal with an admissible heuristic.

    ``compiled``: ``auto`` runs over the problem's compiled rules when it offers them (with
    ``undo``) and numba is here (`searchkit.kernels.idastar`: the same iterations, cost and expansions),
    ``on`` insists, ``off`` runs this module's search."""
    rules = choose(problem, compiled, "idastar", observer, needs=("undo",))
    if rules is not None:
        from ..kernels.search import compiled_idastar

        return compiled_idastar(problem, rules, limits=limits, observer=observer)
    return _iterate("idastar", problem, limits, observer, use_h=True, unit=False)
