"""NBS: near-optimal bidirectional heuristic search (Chen, Holte, Zilles & Sturtevant, IJCAI 2017).

Front-to-end bidirectional search that expands states in pairs, one forwards and one
backwards, choosing the pair ``(u, v)`` with the smallest lower bound
``max(f_f(u), f_b(v), g_f(u) + g_b(v) + eps)`` on the cost of a path through both; this
expands at most twice as many states as any admissible front-to-end algorithm must.  Each
side keeps its open states in two heaps: *waiting* (by f, above the current lower bound
``clb``) and *ready* (by g, f at most ``clb``); the cheapest ready pair is the chosen
one as long as its g-sum fits under ``clb``, and ``clb`` rises otherwise.  The search
stops when the best path met so far costs at most ``clb``.

Optimal whenever both heuristics are admissible (the forward one ``heuristic``, the
backward one ``backward_heuristic``: an estimate of the cost from the start to a state,
0 when the problem offers none); with inconsistent ones a state reached more cheaply
after its expansion is reopened.  ``eps`` is the problem's ``min_step_cost`` when it
states one (a lower bound on every step cost), else 0.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from ..limits import Limits
from ..observer import Observer
from ..problem import can_search_backward, heuristic_of
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .paths import path_from_links
from .run import Run

INF = float("inf")
Link = tuple[Hashable, Any, float] | None


class _Side:
    """One direction's open states (waiting by f, ready by g, lazily deleted), costs and links."""

    __slots__ = ("steps", "h", "g", "hs", "links", "open", "waiting", "ready", "expanded", "forward")

    def __init__(
        self,
        steps: Callable[[Any], Iterable[tuple[Any, Any, float]]],
        h: Callable[[Any], float],
        roots: Iterable[Hashable],
        forward: bool,
    ):
        self.steps, self.h, self.forward = steps, h, forward
        self.g: dict[Hashable, float] = {}
        self.hs: dict[Hashable, float] = {}
        self.links: dict[Hashable, Link] = {}
        self.open: set[Hashable] = set()
        self.waiting: list[tuple[float, float, int, Hashable]] = []
        self.ready: list[tuple[float, int, Hashable]] = []
        self.expanded = 0
        for root in roots:
            self.reach(root, 0, None)

    def reach(self, state: Hashable, g: float, link: Link) -> None:
        """``state`` (re)opened at cost ``g``."""
        self.g[state] = g
        self.links[state] = link
        h = self.hs.get(state)
        if h is None:
            h = self.hs[state] = self.h(state)
        self.open.add(state)
        heapq.heappush(self.waiting, (g + h, g, id(state), state))

    def _clean(self) -> None:
        """Drop stale heap tops (closed states or states reached more cheaply since)."""
        w, r, g, is_open = self.waiting, self.ready, self.g, self.open
        while w and (w[0][3] not in is_open or w[0][1] != g[w[0][3]]):
            heapq.heappop(w)
        while r and (r[0][2] not in is_open or r[0][0] != g[r[0][2]]):
            heapq.heappop(r)

    def promote(self, clb: float) -> None:
        """Move every waiting state with f <= ``clb`` to ready."""
        self._clean()
        w = self.waiting
        while w and w[0][0] <= clb:
            _f, g, key, state = heapq.heappop(w)
            heapq.heappush(self.ready, (g, key, state))
            self._clean()

    def min_f(self) -> float:
        self._clean()
        return self.waiting[0][0] if self.waiting else INF

    def min_g(self) -> float:
        self._clean()
        return self.ready[0][0] if self.ready else INF

    def pop(self) -> Hashable:
        """Close and return the ready state of least g."""
        self._clean()
        state = heapq.heappop(self.ready)[2]
        self.open.discard(state)
        return state


def nbs(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """NBS; needs ``goal_states`` and ``predecessors``, uses ``heuristic`` and ``backward_heuristic``."""
    if not can_search_backward(problem):
        raise ValueError("nbs needs a problem with goal_states() and predecessors()")
    run = Run("nbs", limits, observer)
    zero: Callable[[Any], float] = lambda _s: 0  # noqa: E731
    hf = heuristic_of(problem) or zero
    hb = getattr(problem, "backward_heuristic", None)
    eps = float(getattr(problem, "min_step_cost", 0) or 0)
    fwd = _Side(problem.successors, hf, [problem.initial_state()], True)
    bwd = _Side(problem.predecessors, hb if callable(hb) else zero, problem.goal_states(), False)
    best, meet = INF, None
    for state in fwd.g:
        if state in bwd.g:
            best, meet = 0.0, state
    clb = 0.0
    expanded = generated = duplicates = reopened = max_frontier = 0
    status = NO_SOLUTION

    while True:
        fwd.promote(clb)
        bwd.promote(clb)
        if best <= clb:
            break
        gf, gb = fwd.min_g(), bwd.min_g()
        if gf + gb + eps > clb:  # no pair fits under the bound: raise it
            clb = max(clb, min(fwd.min_f(), bwd.min_f(), gf + gb + eps))
            if clb == INF:
                break
            continue
        max_frontier = max(max_frontier, len(fwd.open) + len(bwd.open))
        for side, other in ((fwd, bwd), (bwd, fwd)):
            if expanded >= run.next_check and run.limit_reached(expanded, generated, len(fwd.g) + len(bwd.g), clb):
                status = LIMIT
                break
            state = side.pop()
            expanded += 1
            side.expanded += 1
            g = side.g[state]
            if observer is not None:
                observer.expand(state, g, side.hs[state])
            for action, nxt, cost in side.steps(state):
                generated += 1
                ng = g + cost
                old = side.g.get(nxt)
                if old is not None and old <= ng:
                    duplicates += 1
                    if observer is not None:
                        observer.generate(state, action, nxt, ng, side.hs[nxt], "duplicate")
                    continue
                kind = "new" if old is None else "improved" if nxt in side.open else "reopened"
                reopened += kind == "reopened"
                side.reach(nxt, ng, (state, action, cost))
                if observer is not None:
                    observer.generate(state, action, nxt, ng, side.hs[nxt], kind)
                seen = other.g.get(nxt)
                if seen is not None and ng + seen < best:
                    best, meet = ng + seen, nxt
        if status == LIMIT:
            break

    path = None
    if status != LIMIT and meet is not None:
        status = SOLVED
        path = path_from_links(fwd.links, bwd.links, meet)
    return run.result(
        status,
        path,
        expanded=expanded,
        generated=generated,
        duplicates=duplicates,
        reopened=reopened,
        max_frontier=max_frontier,
        stored=len(fwd.g) + len(bwd.g),
    )
