"""The compiled pull search: Sokoban's pull rules (`pull_rules`) over the core's compiled
best-first search, as a steppable backward search and an engine.

``search:pull-compiled`` is the greedy pull search of ``backward:pull`` (`pull`: nearest
start square and matching in turns, aimed at the gateway past a cramped start) at native
speed: the core's `searchkit.kernels.bestfirst.BestFirst` from every solved position at once
(boxes on the goals, the player in each part of the free floor), greedy on ``h`` alone, ties
to the newest position, the two estimates' open lists in turns, dead positions never stored,
the goal (the start, or the gateway) tested on generation; ``search:pull-nearest-goal-compiled``
takes the nearest estimate alone.  As a backward member of the portfolio it meets the
forward members where they reach one position.  ``sokoban-pull-compiled`` runs it alone.  It
needs numba; where numba is missing, ``sokoban-portfolio`` runs the Python search in its
place (`without_numba`) and the core's ``portfolio`` leaves the member out.
"""

from __future__ import annotations

import re
from typing import Any

from searchkit import InputError, Limits, Observer, Result
from searchkit.engines.backward import forwards
from searchkit.kernels.codes import KEEP_FIRST
from searchkit.kernels.search import driver_for
from searchkit.result import NO_SOLUTION

from .board import Board
from .compiled_rules import pull_rules_of
from .compiled_search import MAX_STATES, WARM_UP_LEVEL, PositionSearch, compiled_available
from .gateway import GATEWAY_BUDGET, aim
from .levels import parse_levels
from .problem import SokobanProblem
from .pull import PULL, PULL_NEAREST, solved_positions

PULL_COMPILED = f"{PULL}-compiled"  # its name as a portfolio member (search:pull-compiled)
PULL_NEAREST_COMPILED = f"{PULL_NEAREST}-compiled"  # the nearest-goal list alone (search:pull-nearest-goal-compiled)
COMPILED_PULLS = {PULL_COMPILED: 2, PULL_NEAREST_COMPILED: 1}  # the members by name: their open lists
PYTHON_PULLS = {PULL_COMPILED: PULL, PULL_NEAREST_COMPILED: PULL_NEAREST}  # the same searches in Python
MEMBER_STATES = 1 << 20  # the member's table stops growing past twice this (50-100 bytes a position)


class CompiledPullSearch(PositionSearch):
    """Greedy search over single pulls in compiled code, from the solved positions back to
    the start (or the gateway, behind the pushes that reach it): the pull rules
    (`compiled_rules.pull_rules_of`) with ``lists`` estimates over the core's best-first
    kernel; ``max_states``: its table grows to about twice this at most (then it stops with
    ``limit``, reason ``"memory"``).  Its paths (`path_to`) are a core backward search's: the
    pushes that undo the pulls, from a solved position."""

    backward = True

    def __init__(
        self,
        problem: SokobanProblem,
        *,
        lists: int = 2,
        gateway: int = GATEWAY_BUDGET,
        name: str = "sokoban-pull-compiled",
        limits: Limits | None = None,
        observer: Observer | None = None,
        max_states: int = MAX_STATES,
    ):
        if not compiled_available():
            raise InputError(f"{name} needs numba: pip install 'searchkit[fast]'")
        if problem.moves:
            raise InputError(f"{name} counts pushes: use --optimize pushes")
        board = problem.board
        self.lead_in, target = aim(SokobanProblem(board, None, problem.disabled), gateway)
        rules = pull_rules_of(board, target, lists)
        driver = driver_for(problem, rules, name, limits, observer)
        roots = [root for root, _region in solved_positions(board)]
        super().__init__(
            driver,
            0,
            1,
            reopen=KEEP_FIRST,
            on_generation=True,
            starts=roots or [target],  # (no free floor: no solved position, answered below)
            cap=2 * max_states,
            ties="newest",
            by_g=False,
            store_dead=False,
        )
        if not roots:
            self.status = NO_SOLUTION

    def path(self) -> tuple[list, list, int]:
        """The answer from the start: the pushes that undo the pulls found, behind the pushes
        to the gateway (`forwards`)."""
        return forwards(self, *super().path())


def without_numba(members: str) -> str:
    """A portfolio's ``members`` as they can run here: where numba is missing, each compiled
    pull search as the Python search it is a copy of (``search:pull-compiled`` as
    ``backward:pull``), so the default keeps its pull searches, only slower."""
    if compiled_available():
        return members
    names = "|".join(sorted(map(re.escape, PYTHON_PULLS), key=len, reverse=True))
    return re.sub(rf"\bsearch:({names})(?=[@<*,\s]|$)", lambda m: f"backward:{PYTHON_PULLS[m[1]]}", members)


def sokoban_pull_compiled(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Greedy search over pulls in compiled code, nearest start square and matching in turns."""
    search = CompiledPullSearch(problem, limits=limits, observer=observer)
    search.step()
    return search.result()


def warm_up() -> None:
    """Load the compiled pull search's kernels (`searchkit.kernels.search.warm_up`), compiling
    them the first time (cached on disk after), e.g. in a benchmark's parent process or
    `searchkit warm-up`."""
    if compiled_available():
        from searchkit.kernels.search import warm_up as warm_up_kernels

        problem = SokobanProblem(Board(parse_levels(WARM_UP_LEVEL)[0]))
        board = problem.board
        warm_up_kernels(problem, pull_rules_of(board, problem.initial_state(), 2))
        CompiledPullSearch(problem).solve()
