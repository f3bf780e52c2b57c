"""One best-first loop; Dijkstra, (weighted) A* and greedy differ only by their ordering.

`BestFirstSearch` is that loop as an object that can be advanced a number of expansions
at a time (composite engines interleave several), with options for reopening, goal
tests on generation, several roots and any ordering of ``g``, ``h`` and the state
(``order``, the way pyperplan passes ``make_open_entry``).

An open node's priority is ``(g_weight * g + h_weight * h, h, g)``: the first number is
the ordering, ties go to the lower ``h`` and then first-in-first-out.  The open list is a
bucket queue: a heap of distinct priorities, each with a FIFO of states.  On the integer
costs of puzzles there are few distinct priorities, so a push is a dictionary lookup and
a deque append, and a frontier entry costs one pointer.

A stored state costs one dictionary entry ``state -> g`` (``-g`` once expanded, so a
cheaper path found later counts as a reopening; negation is exact for floats, where
``-1 - g`` is not, and a state expanded at g = 0 can never be reached more cheaply): when the problem offers
``predecessors`` the path is rebuilt from the stored costs, otherwise a second dictionary
keeps the parent.  An entry whose ``g`` is no longer the state's best is stale and is
skipped when it comes off the queue, never searched for.  Emptied FIFOs are recycled
for new priorities rather than allocated afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from heapq import heapify, heappop, heappush
from typing import Any

from ..kernels.rules import choose
from ..limits import Limits
from ..observer import Observer
from ..problem import can_search_backward, heuristic_of, successors_with_h
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .bucketqueue import BucketQueue
from .paths import path_from_costs, path_from_parents
from .run import Run
from .typequeue import TypeQueue

INF = float("inf")
Order = Callable[[Any, Any, Any], tuple[Any, ...]]  # (g, h, state) -> the key compared first


class BestFirstSearch:
    """A best-first search over ``problem`` that `step` advances and `result` reports.

    The ordering is ``g_weight * g + h_weight * h`` (ties: lower ``h``, then lower ``g``,
    then first in first out) on a bucket queue, or with ``order(g, h, state)`` a tuple
    compared first, on a heap whose ties go first in first out or, with ``lifo``, newest
    first.  ``orders`` (several keys) keeps one heap per key, taking turns to give the next
    state to expand, one closed list for all (alternation); a state that any key puts at
    infinity is dead and never queued.  ``reopen=False`` keeps the first path to each
    state; ``goal_on_generation`` tests children as they are made (no optimality promise);
    ``starts`` replaces the problem's initial state by several roots.  A root whose
    heuristic is infinite is dead and never queued.
    """

    def __init__(
        self,
        problem: Any,
        *,
        g_weight: float = 1,
        h_weight: float = 1,
        order: Order | None = None,
        orders: list[Order] | None = None,
        reopen: bool = True,
        goal_on_generation: bool = False,
        lifo: bool = False,
        starts: Iterable[Any] | None = None,
        name: str = "best-first",
        limits: Limits | None = None,
        observer: Observer | None = None,
    ):
        self.problem = problem
        self.run = Run(name, limits, observer)
        self.run.watch(self)  # its dictionaries, under a memory limit
        h_fn = heuristic_of(problem)
        self.uses_h = h_fn is not None and (h_weight != 0 or order is not None)
        if self.uses_h:
            self.succ = successors_with_h(problem)
        else:
            plain = problem.successors
            self.succ = lambda state, _h: [(a, s, c, 0) for a, s, c in plain(state)]  # noqa: E731
            h_fn = None
        self.g_weight, self.h_weight = _tidy(g_weight), _tidy(h_weight)
        if lifo and order is None:
            gw, hw = self.g_weight, self.h_weight
            order = lambda g, h, _s: (gw * g + hw * h, h)  # noqa: E731
        if orders is not None:
            order = orders[0]
            self.uses_h = h_fn is not None
        self.orders: list[Order] = orders or []
        # with several orders: one heap each (a `TypeQueue` for `by_type`), taken in turn;
        # `heap` is the one whose turn it is
        self.heaps: list[Any] | None = None
        if orders is not None:
            self.heaps = [TypeQueue() if o is by_type else [] for o in orders]
        self.turn = 0
        self.settled: set[Any] | None = set() if orders is not None else None  # expanded, with several heaps
        self.reopen, self.goal_on_generation = reopen, goal_on_generation
        self.tie = -1 if lifo else 1  # heap entries: (*order, tie * seq, h, g, state)
        self.seq = 0
        self.status: str | None = None  # SOLVED, NO_SOLUTION or LIMIT once the search is over
        self.goal: Any = None
        roots = [problem.initial_state()] if starts is None else list(dict.fromkeys(starts))
        self.start = roots[0] if len(roots) == 1 else None
        self.g_of: dict[Any, Any] = {}
        # the path is rebuilt from stored costs through predecessors when the problem has
        # them (one dictionary entry per state); otherwise parents are kept
        self.parents: dict[Any, Any] | None = None if starts is None and can_search_backward(problem) else {}
        # a heap (list) with one order; with several, the queue whose turn it is (a list or a `TypeQueue`)
        self.heap: Any = self.heaps[0] if self.heaps is not None else [] if order is not None else None
        # the heap's key (unused by the bucket queue, which keys on the weights)
        self.order: Order = order or (lambda g, h, _s: (g, h))
        self.open = BucketQueue()  # the bucket queue (unused with a heap)
        self.expanded = self.generated = self.duplicates = self.reopened = 0
        self.frontier = self.max_frontier = 0
        self.bound: float | None = None  # set by `prune`: children with g + h at or above it are dropped
        self.pruned = 0
        # a list to collect every state stored from now on (a portfolio meeting its searches
        # the other way round takes and empties it); None: not collected
        self.fresh: list[Any] | None = None
        for root in roots:
            h = h_fn(root) if h_fn is not None else 0
            self.g_of[root] = 0
            if self.parents is not None:
                self.parents[root] = None
            if goal_on_generation and problem.is_goal(root):
                self.status, self.goal = SOLVED, root
                return
            if h != INF:
                self._push(root, 0, h)
        self.max_frontier = self.frontier
        if not self.frontier:
            self.status = NO_SOLUTION

    def _push(self, state: Any, g: Any, h: Any) -> None:
        """Queue a root."""
        if self.heaps is not None:
            self.seq += 1
            self.frontier += self._push_each(state, g, h, self.seq)
        elif self.heap is not None:
            self.frontier += 1
            self.seq += 1
            heappush(self.heap, (*self.order(g, h, state), self.tie * self.seq, h, g, state))
        else:
            self.frontier += 1
            self.open.push_front((self.g_weight * g + self.h_weight * h, h, g), state)

    def _push_each(self, state: Any, g: Any, h: Any, seq: int) -> int:
        """Queue ``state`` on every heap (several orders); 1, or 0 when it is dead."""
        keys = [order(g, h, state) for order in self.orders]
        if any(key[0] == INF for key in keys):
            return 0
        tail = (self.tie * seq, h, g, state)
        for heap, key in zip(self.heaps or (), keys):
            if heap.__class__ is list:
                heappush(heap, (*key, *tail))
            else:
                heap.push((*key, *tail))
        return 1

    def _next_heap(self) -> Any:
        """The next heap (or `TypeQueue`) in turn that holds entries (an empty one when none does)."""
        heaps = self.heaps or [[]]
        k = len(heaps)
        for _ in range(k):
            self.turn = self.turn + 1 if self.turn + 1 < k else 0
            if heaps[self.turn]:
                break
        return heaps[self.turn]

    @property
    def done(self) -> bool:
        return self.status is not None

    @property
    def stored(self) -> int:
        """States held (open and closed)."""
        return len(self.g_of)

    def step(self, budget: int | None = None) -> bool:
        """Expand up to ``budget`` more states (all it takes when None); True once over."""
        if self.status is not None:
            return True
        run, problem = self.run, self.problem
        succ, is_goal, observer, uses_h = self.succ, problem.is_goal, run.observer, self.uses_h
        g_of, parents, queue = self.g_of, self.parents, self.open
        keys, buckets = queue.keys, queue.buckets  # its push and pop inlined below
        heap, order, tie, seq, settled = self.heap, self.order, self.tie, self.seq, self.settled
        g_weight, h_weight, reopen, on_generation = self.g_weight, self.h_weight, self.reopen, self.goal_on_generation
        expanded, generated, duplicates, reopened = self.expanded, self.generated, self.duplicates, self.reopened
        frontier, max_frontier, fresh = self.frontier, self.max_frontier, self.fresh
        stop_at = None if budget is None else expanded + budget
        next_check = run.next_check if stop_at is None or run.next_check < stop_at else stop_at
        status, goal, paused = None, None, False

        while keys or heap:
            if heap is None:
                key = keys[0]
                bucket = buckets[key]
                state = bucket.popleft()
                if not bucket:
                    queue.drop_first(bucket)
            else:
                key = heappop(heap) if heap.__class__ is list else heap.pop()
                state = key[-1]
            frontier -= 1
            g = key[2] if heap is None else key[-2]
            if g_of[state] != g or (settled is not None and state in settled):  # stale: a cheaper entry
                if settled is not None:  # (or, with several heaps, one expanded from another)
                    frontier += 1  # the frontier counts states: only the entry expanded leaves it
                    if not heap:
                        heap = self._next_heap()
                continue
            h = key[1] if heap is None else key[-3]
            if not on_generation and is_goal(state):
                status, goal = SOLVED, state
                break
            if expanded >= next_check:
                if expanded >= run.next_check and run.limit_reached(expanded, generated, len(g_of), key[0]):
                    status = LIMIT
                    frontier += 1
                    break
                if stop_at is not None and expanded >= stop_at:  # this step's budget is spent: put it back
                    frontier += 1
                    paused = True
                    if heap is None:
                        queue.push_front(key, state)
                    elif heap.__class__ is list:
                        heappush(heap, key)  # its old entry: the same place in the order (and turn)
                    else:
                        heap.push(key)  # a `TypeQueue`
                    break
                next_check = run.next_check if stop_at is None or run.next_check < stop_at else stop_at
            expanded += 1
            g_of[state] = -g  # expanded: negative, so a later cheaper path is known to reopen it
            if settled is not None:
                settled.add(state)
            if observer is not None:
                observer.expand(state, g, h if uses_h else None)
            for action, child, cost, ch in succ(state, h):
                generated += 1
                cg = g + cost
                old = g_of.get(child)
                if old is not None:
                    closed = old < 0
                    if closed:
                        old = -old
                    if not reopen or cg >= old:
                        duplicates += 1
                        if observer is not None:
                            observer.generate(state, action, child, cg, ch if uses_h else None, "duplicate")
                        continue
                    if closed:
                        reopened += 1
                    if observer is not None:
                        observer.generate(
                            state, action, child, cg, ch if uses_h else None, "reopened" if closed else "improved"
                        )
                elif observer is not None:
                    observer.generate(state, action, child, cg, ch if uses_h else None, "new")
                g_of[child] = cg
                if parents is not None:
                    parents[child] = state
                if fresh is not None:
                    fresh.append(child)
                if on_generation and is_goal(child):
                    status, goal = SOLVED, child
                    break
                if heap is not None:
                    seq += 1
                    if settled is None:
                        frontier += 1
                        heappush(heap, (*order(cg, ch, child), tie * seq, ch, cg, child))
                    else:
                        frontier += self._push_each(child, cg, ch, seq)
                    continue
                frontier += 1
                ckey = (g_weight * cg + h_weight * ch, ch, cg)
                b = buckets.get(ckey)
                if b is None:
                    b = queue.bucket(ckey)
                b.append(child)
            if frontier > max_frontier:
                max_frontier = frontier
            if goal is not None:
                break
            if settled is not None:
                heap = self._next_heap()

        if status is None and not paused:
            status = NO_SOLUTION
        self.status, self.goal, self.seq, self.heap = status, goal, seq, heap
        self.expanded, self.generated, self.duplicates, self.reopened = expanded, generated, duplicates, reopened
        self.frontier, self.max_frontier = frontier, max_frontier
        return status is not None

    def resume(self) -> None:
        """Go on past the goal just found (anytime search); the goal has left the open list."""
        if self.status == SOLVED:
            self.status, self.goal = None, None

    def prune(self, bound: float) -> None:
        """Drop the open entries whose ``g + h`` reaches ``bound``, and from now on such children.

        With an admissible ``h`` nothing through them can cost less than ``bound``: an anytime
        search passes its incumbent's cost.  The bucket queue drops whole buckets (each has one
        ``g`` and ``h``); children are cut by a filter on the successor function, so the hot
        loop pays nothing for a search that never prunes."""
        if self.heaps is not None:
            raise ValueError("prune works on one ordering, not on several")
        if self.bound is None:
            self.succ = self._bounded(self.succ)
        self.bound = bound if self.bound is None else min(self.bound, bound)
        if self.heap is not None:
            kept = [e for e in self.heap if e[-2] + e[-3] < bound]
            self.frontier -= len(self.heap) - len(kept)
            self.heap[:] = kept
            heapify(self.heap)
            return
        queue = self.open
        for key in [k for k in queue.keys if k[2] + k[1] >= bound]:
            self.frontier -= len(queue.buckets.pop(key))
        queue.keys[:] = [k for k in queue.keys if k in queue.buckets]
        heapify(queue.keys)

    def _bounded(
        self, succ: Callable[[Any, Any], Iterable[tuple[Any, ...]]]
    ) -> Callable[[Any, Any], Iterable[tuple[Any, ...]]]:
        """``succ`` without the children whose ``g + h`` reaches ``self.bound`` (counted and
        reported as pruned)."""
        g_of, observer, uses_h = self.g_of, self.run.observer, self.uses_h

        def bounded(state: Any, h: Any) -> Iterable[tuple[Any, ...]]:
            g = -g_of[state]  # called while ``state`` is expanded: its g is stored negated
            bound = self.bound
            for action, child, cost, ch in succ(state, h):
                if g + cost + ch >= bound:
                    self.pruned += 1
                    if observer is not None:
                        observer.generate(state, action, child, g + cost, ch if uses_h else None, "pruned")
                    continue
                yield action, child, cost, ch

        return bounded

    def lowest_f(self) -> float:
        """The least ``g + h`` on the open list (infinity when it is empty): with an admissible
        ``h`` and reopening, no answer cheaper than it (and than any found) exists."""
        if self.heaps is not None:
            return min((e[-2] + e[-3] for heap in self.heaps for e in heap), default=INF)
        if self.heap is not None:
            return min((e[-2] + e[-3] for e in self.heap), default=INF)
        return min((k[2] + k[1] for k in self.open.keys), default=INF)

    def path(self) -> tuple[list[Any], list[Any], Any]:
        """``(actions, states, cost)`` from a root to the goal found."""
        return self.path_to(self.goal)

    def knows(self, state: Any) -> bool:
        """True when ``state`` has been reached (its path is `path_to`)."""
        return state in self.g_of

    def path_to(self, state: Any) -> tuple[list[Any], list[Any], Any]:
        """``(actions, states, cost)`` from a root to ``state``, a state reached."""
        if self.parents is not None:
            return path_from_parents(self.problem, self.parents, state)
        return path_from_costs(self.problem, self.g_of, self.start, state)

    def counters(self) -> dict[str, int]:
        """The statistics so far, as `Run.result` takes them."""
        return {
            "expanded": self.expanded,
            "generated": self.generated + self.pruned,
            "duplicates": self.duplicates,
            "reopened": self.reopened,
            "max_frontier": self.max_frontier,
            "stored": len(self.g_of),
        }

    def result(self) -> Result:
        """The search's `Result` so far (``limit`` while it is not over)."""
        status = self.status or LIMIT
        return self.run.result(status, self.path() if status == SOLVED else None, **self.counters())


def by_h(_g: Any, h: Any, _state: Any) -> tuple[Any, ...]:
    """The ordering on the estimate that comes with the successors (greedy)."""
    return (h,)


def by_type(_g: Any, h: Any, _state: Any) -> tuple[Any, ...]:
    """Type-based exploration (`typequeue`): among several ``orders``, a queue that draws a
    random ``(h, g)`` type and a random state of it, taking turns with the others."""
    return (h,)


def by_estimate(f: Callable[[Any], Any]) -> Order:
    """The ordering on another estimate ``f(state)`` (an alternation's further open lists)."""
    return lambda _g, _h, state: (f(state),)


def best_first(
    problem: Any,
    *,
    g_weight: float = 1,
    h_weight: float = 1,
    reopen: bool = True,
    name: str = "best-first",
    limits: Limits | None = None,
    observer: Observer | None = None,
    **options: Any,
) -> Result:
    """Search ``problem`` best-first on ``g_weight * g + h_weight * h`` to the end.

    ``reopen=False`` keeps the first path found to each state (greedy search); otherwise a
    cheaper path re-inserts the state.  ``options`` are `BestFirstSearch`'s others.
    """
    search = BestFirstSearch(
        problem,
        g_weight=g_weight,
        h_weight=h_weight,
        reopen=reopen,
        name=name,
        limits=limits,
        observer=observer,
        **options,
    )
    search.step()
    return search.result()


def _tidy(weight: float) -> float:
    """Whole-number weights as ints, so integer costs keep integer priorities."""
    return int(weight) if float(weight).is_integer() else float(weight)


def astar(
    problem: Any,
    *,
    weight: float = 1,
    compiled: str = "auto",
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """A* on ``g + weight * h``; optimal with an admissible heuristic and ``weight == 1``.

    ``compiled``: ``auto`` runs over the problem's compiled rules when it offers them and
    numba is here (`searchkit.kernels`: the same order, so the same cost and expansions;
    a weight that is not a whole number is approximated within 1/1000), ``on`` insists,
    ``off`` runs this module's loop."""
    if not weight >= 1:  # also refuses NaN
        raise ValueError(f"weight must be at least 1 (got {weight})")
    rules = choose(problem, compiled, "astar", observer)
    if rules is not None:
        from ..kernels.search import compiled_astar

        return compiled_astar(problem, rules, weight=weight, limits=limits, observer=observer)
    return best_first(problem, h_weight=weight, name="astar", limits=limits, observer=observer)


def dijkstra(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Uniform-cost search on ``g``: optimal for non-negative step costs, ignores ``h``."""
    return best_first(problem, h_weight=0, name="dijkstra", limits=limits, observer=observer)


def greedy(
    problem: Any, *, compiled: str = "auto", limits: Limits | None = None, observer: Observer | None = None
) -> Result:
    """Greedy best-first on ``h`` alone, keeping the first path to each state (ties: lower
    ``g``, then first in first out).  ``compiled`` as for `astar`."""
    rules = choose(problem, compiled, "greedy", observer)
    if rules is not None:
        from ..kernels.search import compiled_greedy

        return compiled_greedy(problem, rules, limits=limits, observer=observer)
    return best_first(problem, g_weight=0, h_weight=1, reopen=False, name="greedy", limits=limits, observer=observer)
