"""What a domain plugin registers: a `Domain` with its `Param`s and `Heuristic`s."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic

from typing_extensions import TypeVar

from .errors import InputError
from .problem import Problem
from .result import Result


@dataclass(frozen=True)
class Param:
    """A domain option, shown on the command line as ``--name`` (or an argument).

    ``type`` is ``int``, ``float``, ``str``, ``bool`` or ``pathlib.Path``; a ``bool`` is a
    flag (``--boards``, no value).  ``short`` is a one-letter alias written with its dash,
    e.g. ``"-n"``.  ``argument``: a positional argument instead of an option.  ``output``:
    an option about what ``solve`` writes after the search (pictures, boards): commands
    that write no solution, like ``searchkit tree``, do not offer it.  ``writes``: the value
    names a file or directory the command writes (a picture, frames): two such options, or one
    and ``--tree``, naming the same path are refused before the search.  A text option given
    an empty value is refused (an empty value is not an absent one).
    """

    name: str
    type: type = str
    default: Any = None
    help: str = ""
    argument: bool = False
    short: str | None = None
    output: bool = False
    writes: bool = False

    @property
    def flag(self) -> str:
        """How the command line spells the option: ``--frames-per`` for ``frames_per``."""
        return "--" + self.name.replace("_", "-")

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"Param name {self.name!r} must be a Python identifier (shown as --{self.name})")
        if self.type not in (int, float, str, bool, Path):
            raise ValueError(f"Param {self.name!r}: type must be int, float, str, bool or pathlib.Path")
        if self.short is not None and not (len(self.short) == 2 and self.short[0] == "-" and self.short[1].isalpha()):
            raise ValueError(
                f"Param {self.name!r}: short must be a dash and one letter, like '-n' (got {self.short!r})"
            )
        if self.argument and self.short is not None:
            raise ValueError(f"Param {self.name!r}: an argument takes no short flag")


@dataclass(frozen=True)
class GridView:
    """A domain's states as cells of a map, for views that draw a search on the map (the web
    app's explored and frontier cells, as PathFinding.js shows them) instead of as a tree.

    ``rows``: one string per row, ``#`` a blocked cell and ``.`` a free one; ``start`` and
    ``goals`` are ``(x, y)`` cells (0-based column and row); ``cell(state) -> (x, y)`` places
    a state on the map.
    """

    rows: tuple[str, ...]
    start: tuple[int, int]
    goals: tuple[tuple[int, int], ...]
    cell: Callable[[Any], tuple[int, int]]


@dataclass(frozen=True)
class Heuristic:
    """A named heuristic: ``make(problem)`` returns ``state -> estimate``.

    Domains wire their own heuristics into fast incremental paths by name; a heuristic
    another plugin adds to a domain reaches the problem through ``make``.  ``admissible``:
    a promise that it never overestimates (``searchkit check`` tests it); searchkit labels
    answers by it and sets ``heuristic_admissible`` from it on the problems
    ``searchkit.make_problem`` builds.
    """

    name: str
    make: Callable[[Any], Callable[[Any], float]] | None = None
    summary: str = ""
    admissible: bool = True
    consistent: bool = False  # a promise that h(s) <= cost(s, t) + h(t) on every step (`searchkit check` tests it)


# the domain's own problem class: the host hands each domain back the problems it made
P = TypeVar("P", bound=Problem[Any, Any], default=Any)


class Domain(Generic[P]):
    """Base class of a domain plugin's domain; override what differs.

    A domain names its problem class, ``class MyDomain(Domain[MyProblem])``, so its methods
    can take ``problem: MyProblem``: the host passes each method a problem `make_problem` made.

    The host calls `make_problem` with the parsed options (a dict keyed by `Param.name`)
    and the chosen `Heuristic` (or None), runs an engine, checks the solution with
    `replay`, and prints it with `format_solution` (text) or `solution_json`.
    """

    name: str = ""
    summary: str = ""
    params: list[Param] = []

    def __init__(self) -> None:
        self.heuristics: dict[str, Heuristic] = dict(self.builtin_heuristics())

    # -- what a domain must provide -------------------------------------------------------
    def builtin_heuristics(self) -> dict[str, Heuristic]:
        return {}

    def make_problem(self, options: dict[str, Any], heuristic: Heuristic | None) -> P:
        """The problem ``options`` describe, guided by ``heuristic`` (None: none), which may
        bring a ``backward_heuristic`` with it.  A bad value raises `InputError` (one line)
        before anything large is built: an option without an upper bound lets ``--size
        99999999`` take minutes and gigabytes (``searchkit check`` probes each option with a
        text that names nothing, -1 and 99999999, under a time and memory budget)."""
        raise NotImplementedError

    def defaults(self, options: dict[str, Any]) -> tuple[str, str | None, dict[str, Any]]:
        """``(engine, heuristic, engine params)`` to use when the user names none."""
        return "astar", next(iter(self.heuristics), None), {}

    def check_instances(self) -> list[dict[str, Any]]:
        """A few small instances (option dicts) for ``searchkit check``: small enough that
        every engine solves them in seconds and most spaces can be explored whole."""
        return []

    def warm_up_problems(self) -> Iterator[P]:
        """Problems whose compiled rules (``compiled_rules()``, `searchkit.kernels.rules`)
        ``searchkit warm-up`` compiles ahead, so that a first compiled run loads its kernels
        from numba's disk cache instead of compiling them.  One problem per rules module (and
        per types of its context arrays) suffices: warm-up keeps the first of each and skips
        the rest; problems without compiled rules are skipped.

        Default: `check_instances` built without a heuristic, then with each heuristic, those
        the domain refuses (`InputError`) left out: the problems ``searchkit check`` builds,
        so their cost is the check's.  A domain whose heuristics are costly to build for its
        check instances, or whose compiled rules need other instances, overrides this."""
        instances = self.check_instances()
        for heuristic in [None, *self.heuristics.values()]:
            for options in instances:
                full = {p.name: p.default for p in self.params}
                full.update(options)
                try:
                    yield self.make_problem(full, heuristic)
                except InputError:
                    continue

    def default_cases(self) -> list[tuple[str, dict[str, Any]]]:
        """``(label, options)`` pairs on which `defaults` differ (e.g. one per board size),
        so ``searchkit domains`` lists every default, not only the first."""
        return [("", {})]

    # -- output, with generic defaults ------------------------------------------------------
    def state_json(self, problem: P, state: Any) -> Any:
        """The state in the domain's own JSON notation."""
        try:
            json.dumps(state)
            return state
        except TypeError:
            return str(state)

    def describe_state(self, problem: P, state: Any) -> str:
        fn = getattr(problem, "describe", None)
        return fn(state) if fn is not None else str(state)

    def describe_reached(self, problem: P, state: Any, action: Any) -> str:
        """``state`` as a search-tree picture shows it, reached by ``action`` (None at a
        root): `describe_state` unless the domain overrides it, as one whose states abstract
        part of the position away can, to show it as the action left it."""
        return self.describe_state(problem, state)

    def describe_start(self, problem: P) -> str:
        """The start as shown above a solution (a domain whose states abstract part of the
        start away, e.g. the player's exact square, shows the real start here)."""
        return self.describe_state(problem, problem.initial_state())

    def grid_view(self, problem: P) -> GridView | None:
        """Optional: the problem's map when each state is one cell of it (a path-finding
        grid), so a search can be drawn on the map; None (the default): draw a tree."""
        return None

    def format_solution(self, problem: P, result: Result, options: dict[str, Any]) -> str:
        return " ".join(str(a) for a in result.actions)

    def solution_json(self, problem: P, result: Result, options: dict[str, Any]) -> dict[str, Any]:
        """Extra fields for ``--json`` beyond the common ones."""
        return {}

    def after_solve(self, problem: P, result: Result, options: dict[str, Any], echo: Callable[[str], None]) -> None:
        """Write extra outputs a run asked for (pictures, files); ``echo`` goes to stderr."""

    def improve(
        self,
        problem: P,
        result: Result,
        options: dict[str, Any],
        seconds_left: float | None,
        stop: threading.Event | None = None,
    ) -> Result:
        """A solution no worse than ``result``'s (an optimizer's pass over it), or ``result``.

        Called after the replay with the time left of the run's timeout (None: no timeout)
        and the run's interrupt (``stop``: Ctrl-C, a game's cancel), which ends the pass
        with the best so far; the host replays what comes back.  The default improves nothing."""
        return result

    def replay(self, problem: P, result: Result) -> None:
        """Check the solution step by step; raise AssertionError when it is wrong."""
        from .verify import replay

        replay(problem, result)

    def load_instances(self, source: str, base_dir: Path) -> list[Instance]:
        """Benchmark instances from a file or bundled name (``[instances] file = ...``)."""
        from .errors import InputError

        raise InputError(f"domain {self.name!r} cannot read instance files")

    def with_heuristic(self, heuristic: Heuristic) -> None:
        self.heuristics[heuristic.name] = heuristic


@dataclass
class Instance:
    """One benchmark instance: domain options, a name and the known optimal cost."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    expected_cost: float | None = None
