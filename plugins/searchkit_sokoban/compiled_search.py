"""The compiled push search (`push_kernel`) as a steppable search and an engine.

``sokoban-compiled`` is A* on the matching bound over single pushes at about ten times the
Python search's expansions a second (weight 1: push-optimal answers; Microban 111 and 139
in 1-7 s where the Python A* needs more than 10), and weighted A* with ``--weight``: at
weight 3 it solves Sasquatch II 19 (2.6 million expansions, 17 s), out of the Python
searches' reach in a minute.  ``search:compiled`` runs it at weight 3 as a portfolio
member; it is not in the default (it took more of the others' time than it brought).
It needs numba (``pip install searchkit[fast]``); where numba is missing the member is left
out of the portfolio and the engine says how to get it.
"""

from __future__ import annotations

from typing import Any

from searchkit import NO_NUMBA_ENV, InputError, Limits, Observer, Result, integer_weights, numba_available
from searchkit.engines.run import Run
from searchkit.result import LIMIT, NO_SOLUTION, SOLVED

from .answers import positions_along, result_of
from .board import Board, bits
from .deadlocks import BIPARTITE
from .levels import parse_levels
from .problem import Push, SokobanProblem

State = tuple[int, int]
WORD = (1 << 64) - 1
INITIAL_STATES = 1 << 14  # rows of the first arrays (doubled as needed)
MAX_STATES = 6_000_000  # the arrays stop growing near here (about 220 bytes a position at the peak)
STEP_FACTOR = 8  # expansions per step asked: its nodes cost a tenth of the Python searches'
COMPILED = "compiled"  # the portfolio member's name (search:compiled)
MEMBER_WEIGHT = 3.0  # the portfolio member's weight
DISABLE_ENV = NO_NUMBA_ENV  # set to 1: no compiled code (the n-puzzle's either)
compiled_available = numba_available  # whether the kernel can run here
WARM_UP_LEVEL = "#######\n#@$ . #\n#######"


def weights_of(weight: float) -> tuple[int, int]:
    """``(wg, wh)``: integers with ``wh / wg`` within 1/100 of ``weight`` and not above it."""
    return integer_weights(weight, 100, "--weight")


def _counter(slot: str) -> property:
    """A count the kernel keeps in its ``meta`` array (``slot``: the kernel's name for it)."""
    return property(lambda self: int(self.meta[getattr(self.kernel, slot)]))


class CompiledPushSearch:
    """Best-first search over single pushes in compiled code, stepped from Python.

    Positions live in the kernel's arrays; only the answer's path becomes Python objects.
    In a portfolio it meets the backward searches both ways (`knows`): their positions are
    looked up in its table and remembered, and one it stores later is listed in ``fresh``
    (its own millions never are).
    """

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
    ):
        if not compiled_available():
            raise InputError(f"{name} needs numba: pip install 'searchkit[fast]'")
        if problem.moves:
            raise InputError(f"{name} counts pushes: use --optimize pushes")
        import numpy as np

        from . import push_kernel as kernel

        self.kernel, self.np = kernel, np
        self.problem = problem
        self.run = Run(name, limits, observer)
        self.status: str | None = None
        self.fresh: list[State] | None = None
        self.max_states = max_states
        self.wg, self.wh = weights_of(weight)
        board = problem.board
        self.board = board
        pruning = problem.pruning
        self.flags = (
            (kernel.FREEZE if pruning.freeze else 0)
            | (kernel.BIPARTITE if BIPARTITE not in pruning.disabled else 0)  # its own bound finds them
            | (kernel.CORRAL if pruning.corral else 0)
            | (kernel.REOPEN if self.wh <= self.wg else 0)
        )
        size = board.size
        self.nbr, self.floor, self.dead, self.goal, self.dist, self.comp = _tables(board, pruning.dead_squares, np)
        self.nboxes = board.start_boxes.bit_count()
        self.nwords = (size + 63) // 64 + 1
        self._arrays(INITIAL_STATES)
        self.query = np.zeros(self.nwords, np.uint64)
        self.work = kernel.scratch(size, self.nboxes)
        self.start = start if start is not None else problem.initial_state()
        boxes, player = self.start
        for b in bits(boxes):
            self.keys[0, b >> 6] |= np.uint64(1 << (b & 63))
        self.keys[0, self.nwords - 1] = player
        kernel.rehash(self.keys, 1, self.table)
        self.meta[kernel.M_STATES] = 1
        self.meta[kernel.M_HEAP] = kernel.heap_push(self.hf, self.hh, self.hi, 0, 0, 0, 0)
        self.max_frontier = 1

    def _arrays(self, cap: int) -> None:
        np = self.np
        self.keys = np.zeros((cap, self.nwords), np.uint64)
        self.parent = np.zeros(cap, np.int32)
        self.move = np.zeros(cap, np.int32)
        self.gs = np.zeros(cap, np.int32)
        self.closed = np.zeros(cap, np.uint8)
        self.table = np.zeros(2 * cap, np.int32)
        self.hf = np.zeros(cap, np.int64)
        self.hh = np.zeros(cap, np.int32)
        self.hi = np.zeros(cap, np.int32)
        if not hasattr(self, "meta"):
            self.meta = np.zeros(self.kernel.META, np.int64)
            self.meta[self.kernel.M_MET] = -1
            self.fkeys = np.zeros((1024, self.nwords), np.uint64)  # positions other searches reached
            self.ftable = np.zeros(2048, np.int32)

    def _grow(self) -> bool:
        """Double the arrays; False when that would pass twice ``max_states`` rows."""
        np = self.np
        cap = 2 * self.keys.shape[0]
        if cap > 2 * self.max_states:
            return False
        self.keys = np.concatenate([self.keys, np.zeros_like(self.keys)])
        for name in ("parent", "move", "gs", "closed", "hf", "hh", "hi"):
            old = getattr(self, name)
            setattr(self, name, np.concatenate([old, np.zeros_like(old)]))
        self.table = np.zeros(2 * cap, np.int32)
        self.kernel.rehash(self.keys, self.stored, self.table)
        return True

    # -- counters (the portfolio and `Result` read them): slots of the kernel's meta array
    expanded = _counter("M_EXPANDED")
    generated = _counter("M_GENERATED")
    duplicates = _counter("M_DUPLICATES")
    reopened = _counter("M_REOPENED")
    stored = _counter("M_STATES")
    frontier = _counter("M_HEAP")

    @property
    def done(self) -> bool:
        return self.status is not None

    def step(self, budget: int | None = None) -> bool:
        """Expand up to ``STEP_FACTOR * budget`` positions (all it takes when None); True once over."""
        if self.status is not None:
            return True
        kernel, run = self.kernel, self.run
        left = None if budget is None else max(1, budget) * STEP_FACTOR
        while left is None or left > 0:
            chunk = 4096 if left is None else min(left, 4096)
            before = self.expanded
            occ, buf, costs, ints, used = self.work
            code = kernel.run(
                self.keys, self.parent, self.move, self.gs, self.closed, self.table, self.fkeys, self.ftable,
                self.hf, self.hh, self.hi, self.meta,
                self.nbr, self.floor, self.dead, self.goal, self.dist, self.comp,
                self.nboxes, self.wg, self.wh, self.flags, chunk, occ, buf, costs, ints, used,
            )  # fmt: skip
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

    def _encode(self, state: State):
        """``state`` as the kernel keys it (in a reused array)."""
        boxes, player = state
        query = self.query
        for t in range(self.nwords - 1):
            query[t] = (boxes >> (64 * t)) & WORD
        query[-1] = player
        return query

    def _state(self, i: int) -> State:
        words = [int(w) for w in self.keys[i]]
        return sum(w << (64 * t) for t, w in enumerate(words[:-1])), words[-1]

    def _index(self, state: State) -> int:
        """The kernel's index of a stored position, or -1."""
        return int(self.kernel.lookup(self.keys, self.table, self._encode(state)))

    def knows(self, state: State) -> bool:
        """Whether ``state`` was reached.  A portfolio asks this of the positions its backward
        searches store; each asked is remembered, and a position this search stores later
        that was asked is listed in ``fresh`` for the portfolio to join the two paths (the
        millions this search stores are never listed themselves)."""
        query = self._encode(state)
        kernel, np = self.kernel, self.np
        if kernel.lookup(self.keys, self.table, query) >= 0:
            return True
        count = int(self.meta[kernel.M_FOREIGN])
        if 2 * (count + 1) >= self.ftable.shape[0]:
            self.fkeys = np.concatenate([self.fkeys, np.zeros_like(self.fkeys)])
            self.ftable = np.zeros(2 * self.ftable.shape[0], np.int32)
            kernel.rehash(self.fkeys, count, self.ftable)
        kernel.remember(self.fkeys, self.ftable, query, self.meta)
        return False

    def path(self) -> tuple[list, list, int]:
        """The pushes from the start to the goal found, with the position after each."""
        return self._path(int(self.meta[self.kernel.M_GOAL]))

    def path_to(self, state: State) -> tuple[list, list, int]:
        """The pushes from the start to ``state`` (reached), with the position after each."""
        return self._path(self._index(state))

    def _path(self, i: int) -> tuple[list, list, int]:
        board = self.board
        chain = []
        while i != 0:
            chain.append(int(self.move[i]))
            i = int(self.parent[i])
        chain.reverse()
        pushes = [Push(m >> 2, m & 3, board.width) for m in chain]
        states = [self.start, *positions_along(board, self.start[0], pushes)]
        return pushes, states, len(pushes)

    def result(self) -> Result:
        return result_of(self)


def _tables(board: Any, use_dead: bool, np: Any) -> tuple:
    """The board as the kernel reads it: neighbours per direction (-1: wall), floor, dead
    squares, goals, push distances per (square, player's side) and goal, and the side index
    of every square seen from a cut square (0 elsewhere)."""
    from .push_kernel import BIG

    size = board.size
    nbr = np.full((size, 4), -1, np.int64)
    floor_bits = board.floor
    for x in bits(floor_bits):
        for k, o in enumerate(board.offsets):
            y = x + o
            if 0 <= y < size and floor_bits >> y & 1:
                nbr[x, k] = y
    floor = np.array([floor_bits >> x & 1 for x in range(size)], np.uint8)
    dead = np.array([0 if (board.live >> x & 1 or not use_dead) else 1 for x in range(size)], np.uint8)
    goal = np.array(list(board.is_goal), np.uint8)
    ngoals = len(board.goal_list)
    dist = np.full((size * 4, ngoals), BIG, np.int64)
    comp = np.zeros((size, size), np.int8)
    for x in bits(floor_bits):
        for c, row in enumerate(board.rowdist[x]):
            for j, d in enumerate(row):
                if d != float("inf"):
                    dist[x * 4 + c, j] = int(d)
        if board.multi[x]:
            comp[x, :] = np.frombuffer(bytes(board.compidx[x]), np.int8)
    return nbr, floor, dead, goal, dist, comp


def sokoban_compiled(
    problem: Any,
    *,
    weight: float = 1.0,
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """A* (weighted with ``weight`` > 1) on the matching bound in compiled code."""
    search = CompiledPushSearch(problem, weight=weight, limits=limits, observer=observer)
    search.step()
    return search.result()


def warm_up() -> None:
    """Load the compiled kernel (compiling it the first time, cached on disk after) by
    solving a one-push level, e.g. in a benchmark's parent process."""
    if compiled_available():
        board = Board(parse_levels(WARM_UP_LEVEL)[0])
        CompiledPushSearch(SokobanProblem(board)).step()
