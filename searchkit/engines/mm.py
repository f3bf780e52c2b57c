"""MM: bidirectional heuristic search that meets in the middle (Holte, Felner, Sharon &
Sturtevant, AAAI 2016).

Each side expands by the priority ``max(f, 2g)``, the smaller of the two sides' least
priorities going next: neither frontier passes the middle of an optimal path before the
other, which is the guarantee that gave MM its name.  It stops when the best path met costs
at most ``max(C, fmin_f, fmin_b, gmin_f + gmin_b + eps)`` (C: the least priority), and is
optimal whenever both heuristics are admissible (`meeting` holds what it shares with NBS).
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from typing import Any

from ..limits import Limits
from ..observer import Observer
from ..result import Result
from .meeting import INF, Meeting, Side

Entry = tuple[float, float, int, Hashable]  # (key, g, tie, state)


class _PrioritySide(Side):
    """Open states by priority, by f and by g (three heaps, lazily deleted)."""

    def __init__(self, *args: Any):
        self.by_priority: list[Entry] = []
        self.by_f: list[Entry] = []
        self.by_g: list[Entry] = []
        super().__init__(*args)

    def reach(self, state: Hashable, g: float, h: float, tie: int) -> None:
        f = g + h
        heapq.heappush(self.by_priority, (max(f, 2 * g), g, tie, state))
        heapq.heappush(self.by_f, (f, g, tie, state))
        heapq.heappush(self.by_g, (g, g, tie, state))

    def least(self, heap: list[Entry]) -> float:
        """The least key of ``heap`` over open states (stale tops dropped)."""
        while heap and not self.is_live(heap[0][3], heap[0][1]):
            heapq.heappop(heap)
        return heap[0][0] if heap else INF

    def pop(self) -> Hashable:
        """Close and return the open state of least priority."""
        self.least(self.by_priority)
        state = heapq.heappop(self.by_priority)[3]
        self.open.discard(state)
        return state


def _least_priority(m: Meeting) -> tuple[list[Side], float]:
    fwd, bwd = m.fwd, m.bwd
    assert isinstance(fwd, _PrioritySide) and isinstance(bwd, _PrioritySide)
    pf, pb = fwd.least(fwd.by_priority), bwd.least(bwd.by_priority)
    bound = max(
        min(pf, pb), fwd.least(fwd.by_f), bwd.least(bwd.by_f), fwd.least(fwd.by_g) + bwd.least(bwd.by_g) + m.eps
    )
    if m.best <= bound or bound == INF:
        return [], bound
    return [fwd if pf <= pb else bwd], bound


def mm(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """MM; needs ``goal_states``, ``predecessors`` and ``backward_heuristic``, uses ``heuristic``."""
    return Meeting("mm", problem, _PrioritySide, limits, observer).search(_least_priority)
