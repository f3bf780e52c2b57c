"""The compiled pull search (`pull_kernel`) as a steppable backward search and an engine.

``search:pull-compiled`` is the greedy pull search of ``backward:pull`` (`pull`: nearest
start square and matching in turns, aimed at the gateway past a cramped start) at native
speed, as a backward member of the portfolio: it meets the forward members where they
reach one position.  ``sokoban-pull-compiled`` runs it alone.  It needs numba; where
numba is missing, ``sokoban-portfolio`` runs the Python search in its place
(`without_numba`) and the core's ``portfolio`` leaves the member out.
"""

from __future__ import annotations

import re
from typing import Any

from searchkit import Limits, Observer, Result
from searchkit.engines.backward import forwards
from searchkit.result import NO_SOLUTION, SOLVED

from .answers import positions_along
from .board import bits
from .board_arrays import neighbours
from .compiled_search import MAX_STATES, CompiledSearch, State, compiled_available
from .compiled_search import warm_up as warm_up_search
from .gateway import GATEWAY_BUDGET, aim
from .heuristics import rows_to
from .problem import Push, SokobanProblem
from .pull import PULL, PULL_NEAREST, solved_positions

PULL_COMPILED = f"{PULL}-compiled"  # its name as a portfolio member (search:pull-compiled)
PULL_NEAREST_COMPILED = f"{PULL_NEAREST}-compiled"  # the nearest-goal list alone (search:pull-nearest-goal-compiled)
COMPILED_PULLS = {PULL_COMPILED: 2, PULL_NEAREST_COMPILED: 1}  # the members by name: their open lists
PYTHON_PULLS = {PULL_COMPILED: PULL, PULL_NEAREST_COMPILED: PULL_NEAREST}  # the same searches in Python
MEMBER_STATES = 1 << 20  # the member's arrays stop at twice this (about 120 bytes a position: 254 MB)


class CompiledPullSearch(CompiledSearch):
    """Greedy search over single pulls in compiled code, from the solved position back to
    the start (or the gateway, behind the pushes that reach it)."""

    backward = True
    # one heap per open list (nearest, matching): two rows each
    ROWS = (*CompiledSearch.ROWS, ("hf", "int64", 2), ("hh", "int32", 2), ("hi", "int32", 2))

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
        from . import pull_kernel as kernel

        super().__init__(problem, kernel, name, limits, observer, max_states)
        np, board = self.np, self.board
        self.lists = lists
        self.lead_in, self.start = aim(SokobanProblem(board, None, problem.disabled), gateway)
        starts = self.start[0]
        rows = rows_to(board, starts, pulls=True)
        self.nbr, self.near, self.dist, self.comp = _pull_tables(board, rows, starts.bit_count(), np)
        self.nboxes = board.start_boxes.bit_count()
        self.target = self._encode_all([self.start])[0]
        self.goal: int | None = None
        # the roots: the solved boxes with the player in each part of the free floor, each on
        # both estimates as every position (one value: their boxes are the goals), the
        # matching by the kernel's own assignment
        goals = np.array(bits(board.goals), np.int64)
        _occ, buf, (cost, base), ints, used = self.work
        buf[7, : len(goals)] = goals  # the kernel's box list
        matching = kernel.parent_assignment(len(goals), buf[7], self.dist, self.comp, 0, cost, base, ints, used)
        estimates = (int(self.near[goals].sum()), int(matching))
        roots = [] if board.impossible else [root for root, _region in solved_positions(board)]
        if self.start in roots:
            self.status, self.goal = SOLVED, roots.index(self.start)
        elif matching >= kernel.BIG:
            roots = []  # the boxes cannot each be pulled to a start square of their own
        for i, root in enumerate(roots):
            self._store(i, root)
            self.parent[i] = -1
            for heap, slot in enumerate((kernel.M_HEAP, kernel.M_HEAP2)[:lists]):
                h = estimates[heap]
                self.meta[slot] = kernel.heap_push(self.hf[heap], self.hh[heap], self.hi[heap], i, h, -i, i)
        kernel.rehash(self.keys, len(roots), self.table)
        self.meta[kernel.M_STATES] = len(roots)
        if not roots:
            self.status = NO_SOLUTION

    def _call(self, chunk: int) -> int:
        occ, buf, costs, ints, used = self.work
        code = self.kernel.run(
            self.keys, self.parent, self.move, self.closed, self.table, self.asked, self.hf, self.hh, self.hi,
            self.meta, self.nbr, self.near, self.dist, self.comp, self.target, self.nboxes, self.lists, chunk, occ,
            buf, costs, ints, used,
        )  # fmt: skip
        if code == self.kernel.SOLVED:
            self.goal = int(self.meta[self.kernel.M_GOAL])
        return int(code)

    def path_to(self, state: State) -> tuple[list, list, int]:
        """From a solved position back to ``state`` (reached): the pushes that undo the pulls,
        in the order they were pulled, and the position before each push (a core backward
        search's path; `forwards` reads it from the start)."""
        return self._pulls(self._index(state))

    def _pulls(self, i: int) -> tuple[list, list, int]:
        board = self.board
        chain, root = self._moves(i)
        pushes = [Push(m >> 2, m & 3, board.width) for m in chain]
        first = self._state(root)
        return pushes, [first, *positions_along(board, first[0], pushes, pulled=True)], len(pushes)

    def path(self) -> tuple[list, list, int]:
        assert self.goal is not None
        return forwards(self, *self._pulls(self.goal))  # behind the pushes to the gateway


def _pull_tables(board: Any, rows: list, nstarts: int, np: Any) -> tuple:
    """The board as the pull kernel reads it: neighbours per direction (-1: wall), per square
    the fewest pulls to the nearest start square (`matching_rule.BIG`: none), and the pull
    distances to each start square in the push kernel's layout (one row per square and
    side, the four sides alike; the side table all zeros)."""
    from .matching_rule import BIG

    size = board.size
    dist = np.full((size * 4, nstarts), BIG, np.int64)
    for x, row in enumerate(rows):
        if row:
            dist[4 * x : 4 * x + 4] = np.minimum(row, BIG)  # the board's INF as the kernel's BIG
    near = dist[::4].min(axis=1)
    return neighbours(board), near, dist, np.broadcast_to(np.zeros(1, np.int8), (size, size))  # zeros in a byte


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
    """Load the compiled pull kernel (`compiled_search.warm_up`)."""
    warm_up_search(CompiledPullSearch)
