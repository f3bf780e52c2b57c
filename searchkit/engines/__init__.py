"""The built-in engines, looked up by name.

Every engine is a plain function ``engine(problem, *, limits=None, observer=None,
**params) -> Result``.  `EngineInfo` says what it needs and what it guarantees, so the
CLI can refuse a combination that cannot work before searching.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..result import Result
from .bestfirst import astar, best_first, dijkstra, greedy
from .bidirectional import bidirectional_bfs
from .breadth import bfs
from .depthfirst import dfs, iddfs, idastar


@dataclass(frozen=True)
class EngineInfo:
    """An engine and its contract.

    ``heuristic``: ``"required"``, ``"used"`` or ``"ignored"``.  ``optimal``: what its
    answers are optimal in when ``params`` keep their defaults (``"cost"``, ``"steps"`` or
    ``""`` for no guarantee).  ``params``: accepted keyword parameters and their defaults.
    ``warm_up``: one-off set-up the benchmark runner does in its parent process, so that
    every forked worker starts with it done (e.g. loading a compiled kernel).
    """

    name: str
    run: Callable[..., Result]
    summary: str
    heuristic: str = "ignored"
    optimal: str = ""
    backward: bool = False
    params: dict[str, Any] = field(default_factory=dict)
    warm_up: Callable[[], None] | None = None  # load compiled code etc. once, before timing anything

    def guarantee(self, params: dict[str, Any] | None = None, admissible: bool = True) -> str:
        """``optimal`` or ``suboptimal (...)`` for a run with these parameters.

        ``max_weight``: the ceiling of an engine that raises its weight when a search runs
        long; the run promises that weight (its Result may state a better one)."""
        params = params or {}
        weight = params.get("weight", self.params.get("weight", 1))  # the engine's own default when not given
        ceiling = params.get("max_weight", self.params.get("max_weight"))
        if ceiling is not None and ceiling > weight:
            weight = ceiling
        if self.optimal == "cost" and weight != 1:
            return f"suboptimal (weight {weight:g})"
        if self.optimal == "cost" and self.heuristic != "ignored" and not admissible:
            return "suboptimal (inadmissible heuristic)"
        if self.optimal == "cost":
            return "optimal"
        if self.optimal == "steps":
            return "optimal (fewest steps)"
        return "suboptimal"


BUILTIN_ENGINES: dict[str, EngineInfo] = {
    e.name: e
    for e in [
        EngineInfo("bfs", bfs, "breadth-first search, goal test on generation", optimal="steps"),
        EngineInfo("dfs", dfs, "depth-first search to a depth limit", params={"depth": 50}),
        EngineInfo("iddfs", iddfs, "iterative-deepening depth-first search", optimal="steps"),
        EngineInfo("bidirectional-bfs", bidirectional_bfs, "breadth-first from both ends, meeting in the middle",
                   optimal="steps", backward=True),
        EngineInfo("dijkstra", dijkstra, "uniform-cost search", optimal="cost"),
        EngineInfo("astar", astar, "A* on g + weight*h (weighted A* when weight > 1)", heuristic="required",
                   optimal="cost", params={"weight": 1}),
        EngineInfo("greedy", greedy, "greedy best-first search on h", heuristic="required"),
        EngineInfo("idastar", idastar, "iterative-deepening A*", heuristic="required", optimal="cost"),
    ]
}

__all__ = [
    "BUILTIN_ENGINES",
    "EngineInfo",
    "astar",
    "best_first",
    "bfs",
    "bidirectional_bfs",
    "dfs",
    "dijkstra",
    "greedy",
    "iddfs",
    "idastar",
]
