"""Bidirectional breadth-first search with a proved stopping rule.

Both sides grow a whole layer at a time (`breadth.Layers`, the smaller frontier first).
``best`` is the shortest start-to-goal path seen through a state both sides know.  After
the forward side has settled every state within ``df`` steps of the start and the backward
side every state within ``db`` steps of a goal, every path of at most ``df + db`` steps has
been seen, so once ``best <= df + db + 1`` no shorter path can exist.  The path is shortest
in steps; its cost is the sum of its step costs.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..limits import Limits
from ..observer import Observer
from ..problem import can_search_backward
from ..result import LIMIT, NO_SOLUTION, SOLVED, Result
from .breadth import LIMITED, Layers, Tally
from .paths import step_between
from .run import Run

INF = float("inf")


class _Meeting:
    """The shortest start-to-goal path seen through a state both sides know."""

    def __init__(self) -> None:
        self.best: float = INF
        self.state: Any = None

    def offer(self, state: Any, *, depth: int, other: Layers) -> bool:
        """Note ``state``, new at ``depth`` on one side, if ``other`` knows it; never stops the layer."""
        if state in other.parents:
            length = depth + len(other.chain(state)) - 1
            if length < self.best:
                self.best, self.state = length, state
        return False


def bidirectional_bfs(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Meet-in-the-middle breadth-first search; needs ``goal_states`` and ``predecessors``."""
    if not can_search_backward(problem):
        raise ValueError("bidirectional-bfs needs a problem with goal_states() and predecessors()")
    run = Run("bidirectional-bfs", limits, observer)
    fwd = Layers([problem.initial_state()], problem.successors, run)
    bwd = Layers(problem.goal_states(), problem.predecessors, run)
    run.watch(fwd, bwd)  # their dictionaries, under a memory limit
    tally = Tally()
    meeting = _Meeting()
    start = fwd.layer[0]
    if start in bwd.parents:
        meeting.best, meeting.state = 0, start
    status = NO_SOLUTION

    def stored() -> int:
        return len(fwd.parents) + len(bwd.parents)

    while fwd.layer and bwd.layer and meeting.best > fwd.depth + bwd.depth + 1:
        side, other = (fwd, bwd) if len(fwd.layer) <= len(bwd.layer) else (bwd, fwd)
        meets = partial(meeting.offer, depth=side.depth + 1, other=other)
        if side.grow(tally, stored, meets, beside=len(other.layer)) is LIMITED:
            status = LIMIT
            break

    path = None
    meet = meeting.state
    if meet is not None and status != LIMIT:
        status = SOLVED
        states = fwd.chain(meet)[::-1] + bwd.chain(meet)[1:]
        steps = [step_between(problem, a, b) for a, b in zip(states, states[1:])]
        path = ([a for a, _c in steps], states, sum(c for _a, c in steps))
    return run.result(status, path, stored=stored(), **tally.counters())
