"""Breadth-first search grown a whole layer at a time: `bfs`, and the sides of bidirectional-bfs.

A `Layers` object is one side of a breadth-first search: every state it has reached with
the state it was reached from (one pointer per state; the path's actions are looked up
again when a solution is rebuilt), and its newest layer.  `grow` expands that layer into
the next, counting into a shared `Tally`, checking the run's limits and offering every new
state to a test that can end the search at once (bfs: the goal test on generation).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

from ..kernels.rules import choose
from ..limits import Limits
from ..observer import Observer
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .paths import path_from_parents
from .run import Run

LIMITED = object()  # what `Layers.grow` returns when a limit stopped the search


@dataclass
class Tally:
    """The counters every side of a breadth-first search adds to."""

    expanded: int = 0
    generated: int = 0
    duplicates: int = 0
    max_frontier: int = 0

    def counters(self) -> dict[str, int]:
        """The counters as `Run.result` takes them."""
        return asdict(self)


class Layers:
    """One side of a breadth-first search over ``step`` (successors, or predecessors)."""

    def __init__(self, roots: Iterable[Any], step: Callable[[Any], Iterable[tuple[Any, Any, float]]], run: Run):
        self.parents: dict[Any, Any] = dict.fromkeys(roots)
        self.layer: list[Any] = list(self.parents)
        self.depth = 0
        self.step, self.run = step, run
        # path cost from the side's roots, filled only for a listener: no per-node cost otherwise
        self.path_g: dict[Any, float] = {}

    def grow(self, tally: Tally, stored: Callable[[], int], found: Callable[[Any], bool], beside: int = 0) -> Any:
        """Expand the newest layer into the next one.

        Returns the first new state that ``found`` accepts (the rest of the layer is left
        unexpanded), `LIMITED` when a limit stopped the search, else None.  ``beside`` is the
        size of the other side's layer, for the frontier count.
        """
        run, step, parents, path_g, observer = self.run, self.step, self.parents, self.path_g, self.run.observer
        expanded, generated, duplicates, max_frontier = tally.expanded, tally.generated, tally.duplicates, 0
        front = self.layer
        layer: list[Any] = []
        waiting = len(front) + beside
        stop = None
        g = 0.0
        for state in front:
            if expanded >= run.next_check and run.limit_reached(expanded, generated, stored()):
                stop = LIMITED
                break
            frontier = waiting + len(layer)
            if frontier > max_frontier:
                max_frontier = frontier
            waiting -= 1
            expanded += 1
            if observer is not None:
                g = path_g.get(state, 0)
                observer.expand(state, g, None)
            for action, child, cost in step(state):
                generated += 1
                if child in parents:
                    duplicates += 1
                    if observer is not None:
                        observer.generate(state, action, child, g + cost, None, "duplicate")
                    continue
                parents[child] = state
                if observer is not None:
                    path_g[child] = g + cost
                    observer.generate(state, action, child, g + cost, None, "new")
                if found(child):
                    stop = child
                    break
                layer.append(child)
            if stop is not None:
                break
        tally.expanded, tally.generated, tally.duplicates = expanded, generated, duplicates
        tally.max_frontier = max(tally.max_frontier, max_frontier, waiting + len(layer))
        self.layer = layer
        self.depth += 1
        return stop

    def chain(self, state: Any) -> list[Any]:
        """``state`` and the states it was reached through, back to a root."""
        out = [state]
        while (state := self.parents[state]) is not None:
            out.append(state)
        return out


def bfs(
    problem: Any, *, compiled: str = "auto", limits: Limits | None = None, observer: Observer | None = None
) -> Result:
    """Breadth-first search; optimal when every step costs the same.

    ``compiled``: ``auto`` runs over the problem's compiled rules when it offers them and
    numba is here (`searchkit.kernels.breadth`: the same order, cost and expansions), ``on``
    insists, ``off`` runs this module's search."""
    rules = choose(problem, compiled, "bfs", observer)
    if rules is not None:
        from ..kernels.search import compiled_bfs

        return compiled_bfs(problem, rules, limits=limits, observer=observer)
    run = Run("bfs", limits, observer)
    start = problem.initial_state()
    side = Layers([start], problem.successors, run)
    run.watch(side)  # its dictionaries, under a memory limit
    tally = Tally()
    status, goal = NO_SOLUTION, None
    if problem.is_goal(start):
        status, goal = SOLVED, start
    while goal is None and side.layer:
        stop = side.grow(tally, side.parents.__len__, problem.is_goal)
        if stop is LIMITED:
            status = LIMIT
            break
        if stop is not None:
            status, goal = SOLVED, stop
    path = path_from_parents(problem, side.parents, goal) if status == SOLVED else None
    return run.result(status, path, stored=len(side.parents), **tally.counters())
