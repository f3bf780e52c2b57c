"""Front-to-end bidirectional heuristic search: what NBS and MM share.

Both grow a forward frontier from the start (``heuristic``: the cost to a goal) and a
backward one from the goal states (``backward_heuristic``: the cost from the start), each
with its costs, estimates and links; both expand a state of one side the same way, note the
cheapest path met so far, and stop when no open pair can beat it.  They differ only in
which state goes next: `Meeting.search` asks its ``pick`` (the engine's queue discipline)
for the side to expand and the lower bound proven so far.

Each side computes estimates incrementally when the problem offers ``successors_with_h``
and ``predecessors_with_h``; a state reached more cheaply after its expansion is reopened,
which keeps the engines optimal with admissible but inconsistent heuristics.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from ..limits import Limits
from ..observer import Observer
from ..problem import can_search_backward, heuristic_of, predecessors_with_h, successors_with_h
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .paths import path_from_links
from .run import Run

INF = float("inf")
Link = tuple[Hashable, Any, float] | None


class Side:
    """One direction's costs, estimates, links and open states; a subclass keeps the queue
    (`reach` files a state, `pop` closes the next)."""

    def __init__(
        self,
        steps: Callable[[Any, float], Iterable[tuple[Any, ...]]],
        h: Callable[[Any], float],
        roots: Iterable[Hashable],
    ):
        self.steps = steps  # (action, neighbour, cost, the neighbour's h) from a state and its h
        self.g: dict[Hashable, float] = {}
        self.hs: dict[Hashable, float] = {}
        self.links: dict[Hashable, Link] = {}
        self.open: set[Hashable] = set()
        self.tie = 0  # ties go to the newest state: deterministic (unlike ids), and fewer expansions
        for root in roots:
            self.hs[root] = h(root)
            self.open_state(root, 0, None)

    def open_state(self, state: Hashable, g: float, link: Link) -> None:
        """``state`` (re)opened at cost ``g``; its h is in ``hs``."""
        self.g[state] = g
        self.links[state] = link
        self.open.add(state)
        self.tie -= 1
        self.reach(state, g, self.hs[state], self.tie)

    def is_live(self, state: Hashable, g: float) -> bool:
        """True when a queue entry of ``state`` at ``g`` is current (open, not reached more cheaply since)."""
        return state in self.open and g == self.g[state]

    def reach(self, state: Hashable, g: float, h: float, tie: int) -> None:
        raise NotImplementedError

    def pop(self) -> Hashable:
        raise NotImplementedError


class Meeting:
    """The search's shared bookkeeping: both sides, the best path met, the counters."""

    def __init__(self, name: str, problem: Any, side: type[Side], limits: Limits | None, observer: Observer | None):
        if not can_search_backward(problem):
            raise ValueError(f"{name} needs a problem with goal_states() and predecessors()")
        hb = getattr(problem, "backward_heuristic", None)
        if not callable(hb):
            raise ValueError(f"{name} needs a problem with a backward_heuristic()")
        self.run = Run(name, limits, observer)
        self.observer = observer
        self.eps = float(getattr(problem, "min_step_cost", 0) or 0)
        hf = heuristic_of(problem) or (lambda _s: 0)
        self.fwd = side(successors_with_h(problem), hf, [problem.initial_state()])
        self.bwd = side(predecessors_with_h(problem), hb, problem.goal_states())
        self.run.watch(self.fwd, self.bwd)  # their dictionaries, under a memory limit
        self.best, self.meet = INF, None
        for state in self.fwd.g:
            if state in self.bwd.g:
                self.best, self.meet = 0.0, state
        self.expanded = self.generated = self.duplicates = self.reopened = self.max_frontier = 0

    def search(self, pick: Callable[[Meeting], tuple[list[Side], float]]) -> Result:
        """Expand what ``pick`` chooses (the sides to expand one state of, in order, and the
        lower bound proven) until the best path met costs at most the bound."""
        fwd, bwd, run = self.fwd, self.bwd, self.run
        status = NO_SOLUTION
        while status != LIMIT:
            sides, bound = pick(self)
            if self.best <= bound or bound == INF:
                break
            self.max_frontier = max(self.max_frontier, len(fwd.open) + len(bwd.open))
            for side in sides:
                stored = len(fwd.g) + len(bwd.g)
                if self.expanded >= run.next_check and run.limit_reached(self.expanded, self.generated, stored, bound):
                    status = LIMIT
                    break
                self.expand(side, bwd if side is fwd else fwd)
        path = None
        if status != LIMIT and self.meet is not None:
            status = SOLVED
            path = path_from_links(fwd.links, bwd.links, self.meet)
        return run.result(
            status,
            path,
            expanded=self.expanded,
            generated=self.generated,
            duplicates=self.duplicates,
            reopened=self.reopened,
            max_frontier=self.max_frontier,
            stored=len(fwd.g) + len(bwd.g),
        )

    def expand(self, side: Side, other: Side) -> None:
        """Close ``side``'s next state and open its neighbours, noting where they meet ``other``."""
        observer = self.observer
        state = side.pop()
        self.expanded += 1
        g, hs, costs, is_open = side.g[state], side.hs, side.g, side.open
        if observer is not None:
            observer.expand(state, g, hs[state])
        for action, nxt, cost, h in side.steps(state, hs[state]):
            self.generated += 1
            ng = g + cost
            old = costs.get(nxt)
            if old is not None and old <= ng:
                self.duplicates += 1
                if observer is not None:
                    observer.generate(state, action, nxt, ng, hs[nxt], "duplicate")
                continue
            kind = "new" if old is None else "improved" if nxt in is_open else "reopened"
            self.reopened += kind == "reopened"
            hs[nxt] = h
            side.open_state(nxt, ng, (state, action, cost))
            if observer is not None:
                observer.generate(state, action, nxt, ng, h, kind)
            seen = other.g.get(nxt)
            if seen is not None and ng + seen < self.best:
                self.best, self.meet = ng + seen, nxt
