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
backward one ``backward_heuristic``: an estimate of the cost from the start to a state;
`meeting` holds what NBS shares with MM).  ``eps`` is the problem's ``min_step_cost`` when
it states one (a lower bound on every step cost), else 0.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from typing import Any

from ..limits import Limits
from ..observer import Observer
from ..result import Result
from .meeting import INF, Meeting, Side


class _PairSide(Side):
    """Open states waiting (by f, above the bound) and ready (by g), lazily deleted."""

    def __init__(self, *args: Any):
        self.waiting: list[tuple[float, float, int, Hashable]] = []
        self.ready: list[tuple[float, int, Hashable]] = []
        super().__init__(*args)

    def reach(self, state: Hashable, g: float, h: float, tie: int) -> None:
        heapq.heappush(self.waiting, (g + h, g, tie, state))

    def promote(self, clb: float) -> None:
        """Move every waiting state with f <= ``clb`` to ready (stale entries just go)."""
        w, r = self.waiting, self.ready
        while w and w[0][0] <= clb:
            _f, g, tie, state = heapq.heappop(w)
            if self.is_live(state, g):
                heapq.heappush(r, (g, tie, state))

    def min_f(self) -> float:
        """The least f waiting (stale tops dropped)."""
        w = self.waiting
        while w and not self.is_live(w[0][3], w[0][1]):
            heapq.heappop(w)
        return w[0][0] if w else INF

    def min_g(self) -> float:
        """The least g ready (stale tops dropped)."""
        r = self.ready
        while r and not self.is_live(r[0][2], r[0][0]):
            heapq.heappop(r)
        return r[0][0] if r else INF

    def pop(self) -> Hashable:
        """Close and return the ready state of least g."""
        self.min_g()
        state = heapq.heappop(self.ready)[2]
        self.open.discard(state)
        return state


class _Pairs:
    """NBS's choice: the ready pair of least g-sum once it fits under the bound ``clb``,
    which rises to the least f waiting or g-sum ready when none fits."""

    def __init__(self) -> None:
        self.clb = 0.0

    def __call__(self, m: Meeting) -> tuple[list[Side], float]:
        fwd, bwd = m.fwd, m.bwd
        assert isinstance(fwd, _PairSide) and isinstance(bwd, _PairSide)
        while True:
            fwd.promote(self.clb)
            bwd.promote(self.clb)
            if m.best <= self.clb:
                return [], self.clb
            lowest = fwd.min_g() + bwd.min_g() + m.eps
            if lowest <= self.clb:
                return [fwd, bwd], self.clb
            self.clb = max(self.clb, min(fwd.min_f(), bwd.min_f(), lowest))
            if self.clb == INF:
                return [], INF


def nbs(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """NBS; needs ``goal_states``, ``predecessors`` and ``backward_heuristic``, uses ``heuristic``."""
    return Meeting("nbs", problem, _PairSide, limits, observer).search(_Pairs())
