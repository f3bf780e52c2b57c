"""The built-in engines, looked up by name, and the one description of what an engine is.

Every engine is a plain function ``engine(problem, *, limits=None, observer=None,
**params) -> Result``.  `EngineInfo` says what it needs, what it guarantees and which
parameters it takes (`EngineParam`: type, range, default), so the CLI validates, lists and
runs from the same description and refuses a combination that cannot work before searching.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..limits import Limits
from ..problem import can_search_backward, preserves_optimality
from ..result import Result
from .alternation import alternation
from .anytime import anytime
from .backward import backward
from .beam import beam
from .bestfirst import BestFirstSearch, astar, best_first, dijkstra, greedy
from .bidirectional import bidirectional_bfs
from .breadth import bfs
from .depthfirst import dfs, idastar, iddfs
from .fess import PATIENCE, Cells, FeatureSearch, FessSearch, feature_advice, fess
from .mm import mm
from .nbs import nbs
from .portfolio import check_portfolio, portfolio
from .run import Run

UNKNOWN = object()  # "the caller cannot say": e.g. a library user's own heuristic


@dataclass(frozen=True)
class EngineParam:
    """One engine parameter: its default, its type and its allowed values.

    ``type`` is ``int``, ``float``, ``bool`` or ``str`` (taken from the default when not
    given); ``minimum``/``maximum`` bound numbers; ``choices`` lists allowed strings;
    ``none`` is what a ``None`` default means (shown by ``searchkit engines``).
    ``limited``: the parameter acts only in a run with a time or node limit (an anytime
    mode spending what is left of it), so a run without one does not show it.
    """

    name: str
    default: Any = None
    type: Callable[..., Any] | None = None  # the value's type (int, float, bool, str)
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] | None = None
    none: str = "none"
    required: bool = False  # no default: a run must name it (a composite engine's members)
    limited: bool = False  # acts only under a time or node limit

    @property
    def kind(self) -> Callable[..., Any]:
        if self.type is not None:
            return self.type
        return type(self.default) if self.default is not None else str

    def parse(self, value: Any, engine: str = "") -> Any:
        """``value`` (a Python value, or text from the command line) checked and converted;
        raises `InputError` naming the parameter."""
        where = f"{engine} parameter {self.name}" if engine else f"parameter {self.name}"
        kind = self.kind
        if value is None:
            if self.default is None:
                return None
            raise InputError(f"{where} needs a value")
        if kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("true", "yes", "1", "on"):
                return True
            if text in ("false", "no", "0", "off"):
                return False
            raise InputError(f"{where} takes true or false (got {value!r})")
        if kind in (int, float):
            if isinstance(value, bool):
                raise InputError(f"{where} takes a number (got {value!r})")
            try:
                number = kind(value) if not isinstance(value, str) else kind(value.strip())
            except (TypeError, ValueError):
                raise InputError(
                    f"{where} takes {'a whole number' if kind is int else 'a number'} (got {value!r})"
                ) from None
            if kind is int and isinstance(value, float) and not value.is_integer():
                raise InputError(f"{where} takes a whole number (got {value!r})")
            if kind is float and not math.isfinite(number):
                raise InputError(f"{where} takes a finite number (got {value!r})")
            if self.minimum is not None and number < self.minimum:
                raise InputError(f"{where} must be at least {self.minimum:g} (got {value!r})")
            if self.maximum is not None and number > self.maximum:
                raise InputError(f"{where} must be at most {self.maximum:g} (got {value!r})")
            return number
        text = str(value)
        if not text.strip():
            raise InputError(f"{where} needs a value (got an empty one)")
        if self.choices is not None and text not in self.choices:
            raise InputError(f"{where} must be one of {', '.join(self.choices)} (got {text!r})")
        return text

    def describe(self) -> str:
        """``name=default`` with the range, as the engine listing shows it."""
        default = (
            self.none
            if self.default is None
            else f"{self.default:g}"
            if isinstance(self.default, float)
            else str(self.default).lower()
            if isinstance(self.default, bool)
            else str(self.default)
        )
        bounds = []
        if self.choices:
            bounds.append("|".join(self.choices))
        if self.minimum is not None:
            bounds.append(f">= {self.minimum:g}")
        if self.maximum is not None:
            bounds.append(f"<= {self.maximum:g}")
        names: dict[Any, str] = {int: "int", float: "number", bool: "bool", str: "text"}
        kind = names.get(self.kind, getattr(self.kind, "__name__", "value"))
        return f"{self.name}={default} ({kind}{', ' + ', '.join(bounds) if bounds else ''})"


@dataclass(frozen=True)
class EngineInfo:
    """An engine and its contract.

    ``heuristic``: ``"required"``, ``"used"`` or ``"ignored"``.  ``optimal``: what its
    answers are optimal in when its weight is 1 (``"cost"``, ``"steps"`` or ``""`` for no
    guarantee).  ``params``: accepted keyword parameters, each a default value or an
    `EngineParam` (read back, ``params`` maps names to defaults and ``specs`` to
    `EngineParam`).  ``domains``: the domains it works on (empty: any problem).
    ``backward``: it needs ``goal_states`` and ``predecessors``, and with
    ``backward_heuristic="required"`` the problem's ``backward_heuristic`` too.  ``complete``: a
    ``no-solution`` from it means the whole space was searched (an engine that prunes or
    decomposes says False, and its ``no-solution`` is reported as a ``limit``).
    ``optimal_if``: for an engine whose promise depends on its parameters, a test of
    them (False: its answers are suboptimal).
    ``validate``: checks of the parameters together, before any problem is built.
    ``anytime``: its answers improve until one is proven optimal, so it promises what it
    would at weight 1 (its ``weight`` is where it starts) and each Result states what it
    proved (``bound``, ``guarantee``) when a limit stops it first.
    ``warm_up``: one-off set-up the benchmark runner does in its parent process, so that
    every forked worker starts with it done (e.g. loading a compiled kernel).
    """

    name: str
    run: Callable[..., Result]
    summary: str
    heuristic: str = "ignored"
    optimal: str = ""
    backward: bool = False
    backward_heuristic: str = "ignored"  # "required" or "ignored", as ``heuristic``
    params: dict[str, Any] = field(default_factory=dict)
    warm_up: Callable[[], None] | None = None  # load compiled code etc. once, before timing anything
    domains: tuple[str, ...] = ()
    complete: bool = True
    optimal_if: Callable[[dict[str, Any]], bool] | None = None
    validate: Callable[[dict[str, Any]], None] | None = None  # more checks of the parameters together
    anytime: bool = False
    specs: dict[str, EngineParam] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        specs = {
            name: value if isinstance(value, EngineParam) else EngineParam(name, value)
            for name, value in self.params.items()
        }
        object.__setattr__(self, "specs", specs)
        object.__setattr__(self, "params", {name: spec.default for name, spec in specs.items()})
        object.__setattr__(self, "domains", tuple(self.domains))

    def check_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """``params`` converted and range-checked (text from the command line is parsed);
        raises `InputError` for an unknown name or a bad value."""
        unknown = sorted(set(params) - set(self.specs))
        if unknown:
            takes = ", ".join(self.specs) or "none"
            names = ", ".join(n if n.isprintable() else repr(n) for n in unknown)  # a newline would split the line
            raise InputError(f"engine {self.name!r} takes no parameter {names} (it takes: {takes})")
        out = {name: self.specs[name].parse(value, self.name) for name, value in params.items()}
        for name, spec in self.specs.items():
            if spec.required and not out.get(name):
                raise InputError(f"engine {self.name!r} needs -P {name}=... ({spec.help})")
        if self.validate is not None:
            self.validate(dict(self.params, **out))
        return out

    def in_effect(self, params: dict[str, Any], limits: Limits | None) -> dict[str, Any]:
        """``params`` without those that do nothing under ``limits`` (`EngineParam.limited`
        ones when there is neither a time nor a node limit): what a run's label shows."""
        bounded = limits is not None and (limits.timeout_s is not None or limits.max_expanded is not None)
        return {k: v for k, v in params.items() if bounded or k not in self.specs or not self.specs[k].limited}

    def lacks(self, problem: Any) -> str | None:
        """What ``problem`` lacks that this engine needs (None when nothing)."""
        if self.backward and not can_search_backward(problem):
            return "goal states and predecessors"
        if self.backward_heuristic == "required" and not callable(getattr(problem, "backward_heuristic", None)):
            return "a backward heuristic (an estimate of the cost from the start, backward_heuristic)"
        return None

    def refusal(self, domain: str | None) -> str | None:
        """Why this engine cannot run on problems of ``domain`` (None: a problem of no domain, the
        caller's own), or None when it can."""
        if self.domains and domain not in self.domains:
            where = domain if domain is not None else "this problem (of no installed domain)"
            return f"engine {self.name!r} works on {' and '.join(self.domains)} only, not on {where}"
        return None

    def guarantee(self, params: dict[str, Any] | None = None, admissible: Any = True, problem: Any = None) -> str:
        """What an answer of a run with these parameters promises: the conjunction of the
        engine (its weight), the heuristic (``admissible``: True, False or `UNKNOWN`) and the
        problem (whether its successors keep optimal paths).

        ``max_weight``: the ceiling of an engine that raises its weight when a search runs
        long; the run promises its weight up to that ceiling (its Result names the weight that
        answered)."""
        merged = dict(self.params, **(params or {}))
        weight = merged.get("weight")
        weight = 1 if weight is None or self.anytime else weight
        ceiling = merged.get("max_weight")
        if not self.optimal or (self.optimal_if is not None and not self.optimal_if(merged)):
            return "suboptimal"
        if self.optimal == "cost" and ceiling is not None and ceiling > weight:
            return f"suboptimal (weight {weight:g}, raised up to {ceiling:g} if the search runs long)"
        if self.optimal == "cost" and weight != 1:
            return f"suboptimal (weight {weight:g})"
        if self.optimal == "cost" and self.heuristic != "ignored":
            if admissible is False:
                return "suboptimal (inadmissible heuristic)"
            if admissible is UNKNOWN:
                return "optimal if the heuristic is admissible"
        if problem is not None and not preserves_optimality(problem):
            return problem_caveat(problem)
        return "optimal" if self.optimal == "cost" else "optimal (fewest steps)"


def problem_caveat(problem: Any) -> str:
    """The guarantee of an answer on a problem whose successors may skip optimal paths."""
    why = getattr(problem, "optimality_lost_by", None)
    return f"suboptimal ({why})" if why else "suboptimal (the problem's moves may skip optimal paths)"


COMPILED = EngineParam(
    "compiled",
    "auto",
    str,
    "run over the problem's compiled rules: auto (when it offers them and numba is here), on, off",
    choices=("auto", "on", "off"),
)

BUILTIN_ENGINES: dict[str, EngineInfo] = {
    e.name: e
    for e in [
        EngineInfo(
            "bfs", bfs, "breadth-first search, goal test on generation", optimal="steps", params={"compiled": COMPILED}
        ),
        EngineInfo(
            "dfs",
            dfs,
            "depth-first search to a depth limit",
            params={"depth": EngineParam("depth", 50, int, "the depth limit (--depth)", minimum=0)},
        ),
        EngineInfo("iddfs", iddfs, "iterative-deepening depth-first search", optimal="steps"),
        EngineInfo(
            "bidirectional-bfs",
            bidirectional_bfs,
            "breadth-first from both ends, meeting in the middle",
            optimal="steps",
            backward=True,
        ),
        EngineInfo(
            "nbs",
            nbs,
            "NBS: bidirectional heuristic search expanding pairs (heuristic forwards, backward_heuristic backwards)",
            heuristic="used",
            optimal="cost",
            backward=True,
            backward_heuristic="required",
        ),
        EngineInfo(
            "mm",
            mm,
            "MM: bidirectional heuristic search meeting in the middle, by max(f, 2g) on each side",
            heuristic="used",
            optimal="cost",
            backward=True,
            backward_heuristic="required",
        ),
        EngineInfo(
            "beam",
            beam,
            "beam search: breadth-first by layers keeping the best width states (fast, incomplete)",
            heuristic="used",
            complete=False,
            params={
                "width": EngineParam("width", 100, int, "states kept per layer", minimum=1),
                "order": EngineParam("order", "f", str, "rank by h or by f = g + h", choices=("h", "f")),
            },
        ),
        EngineInfo("dijkstra", dijkstra, "uniform-cost search", optimal="cost"),
        EngineInfo(
            "astar",
            astar,
            "A* on g + weight*h (weighted A* when weight > 1)",
            heuristic="required",
            optimal="cost",
            params={
                "weight": EngineParam("weight", 1, float, "weight of h (--weight)", minimum=1),
                "compiled": COMPILED,
            },
        ),
        EngineInfo(
            "anytime",
            anytime,
            "anytime weighted A*: a first answer at weight w, then cheaper ones until one is proven"
            " optimal; stopped by a limit it answers with the best and its proven bound",
            heuristic="required",
            optimal="cost",
            anytime=True,
            params={
                "weight": EngineParam("weight", 2.0, float, "weight of h for the first answer (--weight)", minimum=1)
            },
        ),
        EngineInfo(
            "greedy", greedy, "greedy best-first search on h", heuristic="required", params={"compiled": COMPILED}
        ),
        EngineInfo(
            "fess",
            fess,
            "FESS: turns over the cells of the problem's features, advised moves first (Shoham & Schaeffer 2020)",
            heuristic="used",
            params={
                "own_cells": EngineParam("own_cells", False, bool, "each state in its own features' cell"),
                "patience": EngineParam(
                    "patience", PATIENCE, int, "expansions before the best cell's extra turns end", minimum=1
                ),
            },
        ),
        EngineInfo(
            "idastar",
            idastar,
            "iterative-deepening A*",
            heuristic="required",
            optimal="cost",
            params={"compiled": COMPILED},
        ),
        EngineInfo(
            "backward",
            backward,
            "best-first from the goal states over predecessors, answer in forward"
            " order (greedy/astar use the problem's backward_heuristic)",
            optimal="cost",
            backward=True,
            optimal_if=lambda p: p.get("order") == "dijkstra",
            params={
                "order": EngineParam(
                    "order", "dijkstra", str, "greedy, astar or dijkstra", choices=("greedy", "astar", "dijkstra")
                ),
                "weight": EngineParam("weight", 1, float, "weight of h for astar", minimum=1),
            },
        ),
        EngineInfo(
            "alternation",
            alternation,
            "greedy search with one open list per heuristic, taking turns (one closed list)",
            heuristic="used",
            params={
                "heuristics": EngineParam(
                    "heuristics", "", str, "comma list of the domain's heuristics", none="(required)", required=True
                ),
                "explore": EngineParam(
                    "explore", False, bool, "a type-based queue (random (h, g) type) takes turns too, for plateaus"
                ),
            },
        ),
        EngineInfo(
            "portfolio",
            portfolio,
            "several whole searches (forwards or backwards) sharing the time by shares; the first answer wins",
            heuristic="used",
            validate=check_portfolio,
            params={
                "members": EngineParam(
                    "members",
                    "",
                    str,
                    "comma list: ORDER[:HEURISTIC] with ORDER greedy, astar or dijkstra, or backward[:VARIANT];"
                    " @T joins after T CPU s, <U stops after U, *W has a share of W (default 1)",
                    none="(required)",
                    required=True,
                ),
                "shares": EngineParam(
                    "shares", "", str, "CPU shares, one positive number per member (default: each member's *W, or 1)"
                ),
                "solo": EngineParam("solo", 0.0, float, "CPU seconds the first member runs alone", minimum=0),
                "meet": EngineParam(
                    "meet", False, bool, "forward and backward members answer together when they reach one state"
                ),
                "lead": EngineParam(
                    "lead",
                    1.0,
                    float,
                    "share multiplier for a member well ahead of the others by its own progress (1: off)",
                    minimum=1,
                ),
            },
        ),
    ]
}

__all__ = [
    "BUILTIN_ENGINES",
    "BestFirstSearch",
    "Run",
    "alternation",
    "anytime",
    "backward",
    "beam",
    "mm",
    "nbs",
    "portfolio",
    "EngineInfo",
    "EngineParam",
    "UNKNOWN",
    "astar",
    "best_first",
    "bfs",
    "bidirectional_bfs",
    "Cells",
    "FeatureSearch",
    "FessSearch",
    "dfs",
    "dijkstra",
    "feature_advice",
    "fess",
    "greedy",
    "iddfs",
    "idastar",
    "problem_caveat",
]
