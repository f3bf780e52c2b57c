"""The compiled push search: Sokoban's push rules (`push_rules`) over the core's compiled
best-first search (`searchkit.kernels`), as an engine and a portfolio member.

``sokoban-compiled`` is A* on the matching bound over single pushes at about ten times the
Python search's expansions a second (weight 1: push-optimal answers), and weighted A* with
``--weight`` (a cheaper path then updates a position not yet expanded, never reopens one).
``search:compiled`` runs it at weight 3 as a portfolio member; it is not in the default (it
took more of the others' time than it brought).  The endgame (`endgame`) runs it on
positions near an aim.  It needs numba (``pip install searchkit[fast]``); where numba is
missing the member is left out of the portfolio and the engine says how to get it.

The rules of a level come from `compiled_rules.push_rules_of`.
"""

from __future__ import annotations

from typing import Any

from searchkit import (
    NO_NUMBA_ENV,
    InputError,
    Limits,
    Observer,
    Result,
    integer_weights,
    numba_available,
)
from searchkit.kernels.bestfirst import BestFirst
from searchkit.kernels.codes import IMPROVE_OPEN, REOPEN_ALL
from searchkit.kernels.search import driver_for

from .board import Board
from .compiled_rules import push_rules_of
from .levels import parse_levels
from .problem import SokobanProblem

State = tuple[int, int]
MAX_STATES = 6_000_000  # the table stops growing past about twice this (about 90 bytes a position)
STEP_FACTOR = 8  # expansions per step asked: its nodes cost a tenth of the Python searches'
COMPILED = "compiled"  # the portfolio member's name (search:compiled)
MEMBER_WEIGHT = 3.0  # the portfolio member's weight
DISABLE_ENV = NO_NUMBA_ENV  # set to 1: no compiled code (the n-puzzle's either)
compiled_available = numba_available  # whether the kernel can run here
TIES = "newest"  # equal f and h: the newest position first (deeper on the plateaus of weighted search)
WARM_UP_LEVEL = "#######\n#@$ . #\n#######"


def weights_of(weight: float) -> tuple[int, int]:
    """``(wg, wh)``: integers with ``wh / wg`` within 1/100 of ``weight`` and not above it."""
    return integer_weights(weight, 100, "--weight")


class PositionSearch(BestFirst):
    """The core's compiled best-first search over Sokoban positions (the push or the pull
    rules): a portfolio's step of ``budget`` expands ``STEP_FACTOR`` times that (the rules'
    ``encode_rows`` key the positions a portfolio asks about a batch at a time)."""

    def step(self, budget: int | None = None) -> bool:
        """Expand up to ``STEP_FACTOR * budget`` positions (all it takes when None); True once over."""
        return super().step(None if budget is None else max(1, budget) * STEP_FACTOR)


class CompiledPushSearch(PositionSearch):
    """Best-first search over single pushes in compiled code: the core's compiled best-first
    search (`searchkit.kernels.bestfirst.BestFirst`: its table, open list, limits, stepping
    and meeting) over the push rules, on ``f = g + weight * h``; ``start``: the position to
    search from (the level's start by default); ``max_states``: its table grows to about
    twice this at most; ``ties``: which of the positions of equal ``f`` and ``h`` goes first
    (`searchkit.kernels.bestfirst.BestFirst`).  A portfolio's step of ``budget`` expands ``STEP_FACTOR`` times that."""

    backward = False

    def __init__(
        self,
        problem: SokobanProblem,
        *,
        weight: float = 1.0,
        name: str = "sokoban-compiled",
        limits: Limits | None = None,
        observer: Observer | None = None,
        max_states: int = MAX_STATES,
        start: State | None = None,
        ties: str = TIES,
    ):
        if not compiled_available():
            raise InputError(f"{name} needs numba: pip install 'searchkit[fast]'")
        rules = push_rules_of(problem)
        wg, wh = weights_of(weight)
        driver = driver_for(problem, rules, name, limits, observer)
        reopen = REOPEN_ALL if wh <= wg else IMPROVE_OPEN
        super().__init__(driver, wg, wh, reopen=reopen, start=start, cap=2 * max_states, ties=ties)


def sokoban_compiled(
    problem: Any,
    *,
    weight: float = 1.0,
    limits: Limits | None = None,
    observer: Observer | None = None,
    ties: str = TIES,
) -> Result:
    """A* (weighted with ``weight`` > 1) on the matching bound in compiled code; ``ties``:
    which of the positions of equal ``f`` and ``h`` goes first, ``"newest"`` or ``"oldest"``."""
    return CompiledPushSearch(problem, weight=weight, limits=limits, observer=observer, ties=ties).solve()


def warm_up() -> None:
    """Load the compiled push search's kernels (`searchkit.kernels.search.warm_up`), compiling
    them the first time (cached on disk after), e.g. in a benchmark's parent process or
    `searchkit warm-up`."""
    if compiled_available():
        from searchkit.kernels.search import warm_up as warm_up_kernels

        problem = SokobanProblem(Board(parse_levels(WARM_UP_LEVEL)[0]))
        warm_up_kernels(problem, push_rules_of(problem))
