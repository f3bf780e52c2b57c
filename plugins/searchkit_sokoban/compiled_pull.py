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

from searchkit import InputError, Limits, Observer, Result
from searchkit.engines.backward import forwards
from searchkit.engines.run import Run
from searchkit.result import LIMIT, NO_SOLUTION, SOLVED

from .answers import positions_along, result_of
from .board import Board, bits
from .board_arrays import neighbours
from .compiled_search import MAX_STATES, STEP_FACTOR, WARM_UP_LEVEL, State, compiled_available
from .gateway import GATEWAY_BUDGET, aim
from .heuristics import rows_to
from .levels import parse_levels
from .problem import Push, SokobanProblem
from .pull import PULL, PULL_NEAREST, solved_positions

PULL_COMPILED = f"{PULL}-compiled"  # its name as a portfolio member (search:pull-compiled)
PULL_NEAREST_COMPILED = f"{PULL_NEAREST}-compiled"  # the nearest-goal list alone (search:pull-nearest-goal-compiled)
COMPILED_PULLS = {PULL_COMPILED: 2, PULL_NEAREST_COMPILED: 1}  # the members by name: their open lists
PYTHON_PULLS = {PULL_COMPILED: PULL, PULL_NEAREST_COMPILED: PULL_NEAREST}  # the same searches in Python
MEMBER_STATES = 1 << 20  # the member's arrays stop at twice this (about 120 bytes a position: 254 MB)
INITIAL_STATES = 1 << 14  # rows of the first arrays (doubled as needed)
ASKED = 1 << 11  # slots of the first set of positions other searches reached (doubled as needed)


def _counter(slot: str) -> property:
    """A count the kernel keeps in its ``meta`` array (``slot``: the kernel's name for it)."""
    return property(lambda self: int(self.meta[getattr(self.kernel, slot)]))


class CompiledSearch:
    """A search in compiled code over position arrays, stepped from Python (the pull
    search's own arrays and stepping, `CompiledPullSearch`).

    Positions live in the kernel's arrays; only the answer's path becomes Python objects.
    In a portfolio it meets the searches the other way (`knows`): their positions are
    looked up in its table and remembered, and one it stores later that was asked is listed
    in ``fresh`` (its own millions never are).  A subclass names its kernel module, its
    per-position arrays (``ROWS``: name, dtype, rows ahead of the positions' axis) and its
    call (`_call`)."""

    backward = False
    # a position's parent and move (the path back), whether it is expanded; a subclass adds its own
    ROWS: tuple[tuple[str, str, int], ...] = (("parent", "int32", 0), ("move", "int32", 0), ("closed", "uint8", 0))
    # the per-position arrays every kernel has (`_arrays` makes them from ``ROWS``)
    parent: Any
    move: Any
    closed: Any
    hf: Any
    hh: Any
    hi: Any

    def __init__(self, problem: SokobanProblem, kernel: Any, name: str, limits, observer, max_states: int):
        if not compiled_available():
            raise InputError(f"{name} needs numba: pip install 'searchkit[fast]'")
        if problem.moves:
            raise InputError(f"{name} counts pushes: use --optimize pushes")
        import numpy as np

        self.kernel, self.np = kernel, np
        self.problem = problem
        self.run = Run(name, limits, observer)
        self.run.watch(self)  # its arrays (`growth_ahead`), under a memory limit
        self.status: str | None = None
        self.fresh: list[State] | None = None
        self.max_states = max_states
        self.board = board = problem.board
        self.nwords = (board.size + 63) // 64 + 1
        self.meta = np.zeros(kernel.META, np.int64)
        self.meta[kernel.M_MET] = -1
        self.asked = np.zeros(ASKED, np.uint64)  # fingerprints of positions other searches reached
        self.work = kernel.scratch(board.size, board.start_boxes.bit_count())
        self.max_frontier = 1
        self._arrays(INITIAL_STATES)

    def _arrays(self, cap: int) -> None:
        np = self.np
        self.keys = np.zeros((cap, self.nwords), np.uint64)
        self.table = np.zeros(2 * cap, np.int32)
        for name, dtype, ahead in self.ROWS:
            setattr(self, name, np.zeros((ahead, cap) if ahead else cap, dtype))

    def _grown(self) -> list[Any]:
        """The arrays `_grow` doubles."""
        return [self.keys, self.table, *(getattr(self, name) for name, _dtype, _ahead in self.ROWS)]

    @property
    def memory_bytes(self) -> int:
        """The bytes its arrays hold, which retiring it frees (a portfolio's memory limit)."""
        return sum(int(a.nbytes) for a in self._grown()) + int(self.asked.nbytes)

    def growth_ahead(self, within: int) -> int:
        """The bytes doubling the arrays takes if ``within`` more positions fill them, else 0
        (a memory limit counts them as taken: `searchkit.tables`): each array's size again,
        and the largest twice, its old copy held while the new one fills."""
        rows = self.keys.shape[0]
        if self.stored + within + 4 * self.board.start_boxes.bit_count() + 1 < rows or rows > self.max_states:
            # not full yet (the kernels' ``room_needed`` added), or full for good (`_grow` stops
            # at twice ``max_states`` rows)
            return 0
        sizes = [int(a.nbytes) for a in self._grown()]
        return sum(sizes) + max(sizes)

    def _store(self, i: int, state: State) -> None:
        """Position ``i`` of the arrays is ``state`` (before the kernel runs)."""
        boxes, player = state
        np = self.np
        for b in bits(boxes):
            self.keys[i, b >> 6] |= np.uint64(1 << (b & 63))
        self.keys[i, self.nwords - 1] = player

    def _grow(self) -> bool:
        """Double the arrays; False when that would pass twice ``max_states`` rows."""
        np = self.np
        cap = 2 * self.keys.shape[0]
        if cap > 2 * self.max_states:
            return False
        self.keys = np.concatenate([self.keys, np.zeros_like(self.keys)])
        for name, _dtype, _ahead in self.ROWS:
            old = getattr(self, name)
            setattr(self, name, np.concatenate([old, np.zeros_like(old)], axis=-1))
        self.table = np.zeros(2 * cap, np.int32)
        self.kernel.rehash(self.keys, self.stored, self.table)
        return True

    # -- counters (the portfolio and `Result` read them): slots of the kernel's meta array
    expanded = _counter("M_EXPANDED")
    generated = _counter("M_GENERATED")
    duplicates = _counter("M_DUPLICATES")
    reopened = 0  # a greedy search over pulls keeps the first path to a position
    stored = _counter("M_STATES")
    frontier = _counter("M_HEAP")

    @property
    def done(self) -> bool:
        return self.status is not None

    def _call(self, chunk: int) -> int:
        """Run the kernel for up to ``chunk`` expansions: its return code."""
        raise NotImplementedError

    def step(self, budget: int | None = None) -> bool:
        """Expand up to ``STEP_FACTOR * budget`` positions (all it takes when None); True once over."""
        if self.status is not None:
            return True
        kernel, run = self.kernel, self.run
        left = None if budget is None else max(1, budget) * STEP_FACTOR
        while left is None or left > 0:
            chunk = 4096 if left is None else min(left, 4096)
            before = self.expanded
            code = self._call(chunk)
            if left is not None:
                left -= max(1, self.expanded - before)
            self.max_frontier = max(self.max_frontier, self.frontier)
            if code == kernel.SOLVED:
                self.status = SOLVED
                return True
            if code == kernel.MET:  # the portfolio joins the paths (or, if not, this goes on)
                met = int(self.meta[kernel.M_MET])
                self.meta[kernel.M_MET] = -1
                if self.fresh is not None:
                    self.fresh.append(self._state(met))
                    return False
            if code == kernel.EXHAUSTED:
                self.status = NO_SOLUTION
                return True
            if code == kernel.FULL and not self._grow():
                self.status = LIMIT
                run.reason = "memory"
                return True
            if budget is None and run.limit_reached(self.expanded, self.generated, self.stored):
                self.status = LIMIT
                return True
        return False

    def _state(self, i: int) -> State:
        words = [int(w) for w in self.keys[i]]
        return sum(w << (64 * t) for t, w in enumerate(words[:-1])), words[-1]

    def _index(self, state: State) -> int:
        """The kernel's index of a stored position, or -1."""
        return int(self.kernel.lookup(self.keys, self.table, self._encode_all([state])[0]))

    def knows(self, state: State) -> bool:
        """Whether ``state`` was reached (`knows_any` of one)."""
        return self.knows_any([state]) >= 0

    def knows_any(self, states: list[State]) -> int:
        """The index in ``states`` of the first one reached, or -1.  A portfolio asks this of
        the positions the searches the other way store, in one call for a turn's worth;
        those asked and not known are remembered (as fingerprints: 8 bytes each), and a
        position this search stores later whose fingerprint was asked is listed in
        ``fresh`` for the portfolio to check and join the two paths (the millions this
        search stores are never listed themselves)."""
        kernel = self.kernel
        if not states:
            return -1
        need = 2 * (int(self.meta[kernel.M_FOREIGN]) + len(states))
        if need >= self.asked.shape[0]:
            size = self.asked.shape[0]
            while need >= size:
                size *= 2
            self._grow_asked(size)
        return int(kernel.ask(self.keys, self.table, self._encode_all(states), self.asked, self.meta))

    def _grow_asked(self, size: int) -> None:
        """The fingerprints asked moved to a table of ``size`` slots."""
        bigger = self.np.zeros(size, self.np.uint64)
        self.kernel.reask(self.asked, bigger, self.meta)
        self.asked = bigger

    def _encode_all(self, states: list[State]):
        """``states`` as the kernel keys them, one row each."""
        np = self.np
        words = self.nwords - 1
        rows = np.empty((len(states), self.nwords), np.uint64)
        raw = b"".join(boxes.to_bytes(8 * words, "little") for boxes, _player in states)
        rows[:, :words] = np.frombuffer(raw, "<u8").reshape(len(states), words)
        rows[:, words] = [player for _boxes, player in states]
        return rows

    def _moves(self, i: int) -> tuple[list[int], int]:
        """The kernel's moves from a root to position ``i``, and that root's index."""
        chain = []
        while self.parent[i] >= 0:
            chain.append(int(self.move[i]))
            i = int(self.parent[i])
        chain.reverse()
        return chain, i

    def result(self) -> Result:
        return result_of(self)


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
    """Load the compiled pull kernel, compiling it the first time (cached on disk after), by
    solving a one-push level and answering a portfolio's question (`knows_any`, its table of
    positions asked grown once), e.g. in a benchmark's parent process or `searchkit warm-up`."""
    if compiled_available():
        board = Board(parse_levels(WARM_UP_LEVEL)[0])
        search = CompiledPullSearch(SokobanProblem(board))
        search.step()
        search.knows_any([search.problem.initial_state()])
        search._grow_asked(2 * len(search.asked))
