"""What every engine returns: one `Result` with its `Stats`."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

SOLVED = "solved"
NO_SOLUTION = "no-solution"  # the reachable space was exhausted
LIMIT = "limit"  # a limit (nodes, time, memory, depth, Ctrl-C) stopped the search

STATUSES = (SOLVED, NO_SOLUTION, LIMIT)
# the limit_reason of a search that ran out of states but whose pruning may have cut
# solutions off: not proven unsolvable, so not "no-solution"
INCOMPLETE = "incomplete"


@dataclass
class Stats:
    """Counters of one search.

    ``duplicates``: generated states dropped because they were already known at no worse
    cost.  ``reopened``: stored states re-inserted because a cheaper path to them was
    found.  ``stored``: peak number of states held (open + closed, or the path for
    depth-first engines).  ``limit_reason`` names the limit that stopped the search.
    ``elapsed_s``: seconds of the search (the rates are per second of it); ``improve_s``:
    seconds of the domain's improvement pass over the answer after it (an optimizer), not
    part of ``elapsed_s``; ``compile_s``: seconds of ``elapsed_s`` that numba spent compiling
    the engine's code on its first use (0 once cached), left out of the rates.
    ``answered_by`` names the member of a portfolio that found the answer; ``members`` says
    what each member did (``member``, ``seconds`` of its own turns, ``expanded``, ``stored``,
    ``retired`` when memory ran short), so a portfolio's time can be read member by member.
    """

    expanded: int = 0
    generated: int = 0
    duplicates: int = 0
    reopened: int = 0
    max_frontier: int = 0
    stored: int = 0
    iterations: int = 0
    elapsed_s: float = 0.0
    improve_s: float = 0.0
    compile_s: float = 0.0
    peak_rss_bytes: int = 0
    limit_reason: str | None = None
    answered_by: str | None = None  # a composite engine's member whose answer it is (portfolio)
    # a portfolio's members in the order they joined: each one's seconds, expansions, states
    members: list[dict[str, Any]] | None = None

    @property
    def searching_s(self) -> float:
        """Seconds of search proper: ``elapsed_s`` without the compilation."""
        return self.elapsed_s - self.compile_s

    @property
    def expansions_per_s(self) -> float:
        return self.expanded / self.searching_s if self.searching_s > 0 else 0.0

    @property
    def generated_per_s(self) -> float:
        return self.generated / self.searching_s if self.searching_s > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["expansions_per_s"] = round(self.expansions_per_s, 1)
        d["generated_per_s"] = round(self.generated_per_s, 1)
        return d


@dataclass
class Improvement:
    """One better answer of an anytime engine: when (seconds into the search), its cost
    and the lower bound on the optimal cost proven at that moment."""

    elapsed_s: float
    cost: float
    bound: float

    def to_dict(self) -> dict[str, Any]:
        return {"time_s": round(self.elapsed_s, 6), "cost": self.cost, "bound": self.bound}


@dataclass
class Result:
    """The outcome of a search.

    ``actions`` and ``states`` describe the solution path (``states`` starts with the
    initial state, so it is one longer than ``actions``); both are empty unless
    ``status == "solved"``.  ``compiled``: the search ran over the problem's compiled rules
    (`searchkit.kernels`), not its Python methods.
    """

    status: str
    actions: list[Any] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    cost: float | None = None
    stats: Stats = field(default_factory=Stats)
    engine: str = ""
    # what this answer promises when it is more than the run's parameters did (an engine
    # that raises its weight only when a search runs long says which weight answered)
    guarantee: str | None = None
    # a lower bound on the optimal cost the search proved (anytime engines), and the answers
    # it found on the way, cheapest last
    bound: float | None = None
    improvements: list[Improvement] = field(default_factory=list)
    compiled: bool = False

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def __len__(self) -> int:
        return len(self.actions)
