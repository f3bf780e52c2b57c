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

from collections.abc import Callable
from typing import Any

from searchkit import NO_NUMBA_ENV, InputError, Limits, Observer, Result, integer_weights, numba_available
from searchkit.engines.run import Run
from searchkit.result import LIMIT, NO_SOLUTION, SOLVED

from .answers import positions_along, result_of
from .board import Board, bits
from .board_arrays import neighbours
from .deadlocks import BIPARTITE
from .levels import parse_levels
from .problem import Push, SokobanProblem

State = tuple[int, int]
INITIAL_STATES = 1 << 14  # rows of the first arrays (doubled as needed)
ASKED = 1 << 11  # slots of the first set of positions other searches reached (doubled as needed)
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


class CompiledSearch:
    """A search in compiled code over position arrays, stepped from Python: what the push
    search (`CompiledPushSearch`) and the pull search (`compiled_pull`) share.

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
    reopened = _counter("M_REOPENED")
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


class CompiledPushSearch(CompiledSearch):
    """Best-first search over single pushes in compiled code (`push_kernel`)."""

    gs: Any  # the cost of each position's path
    ROWS = (*CompiledSearch.ROWS, ("gs", "int32", 0), ("hf", "int64", 0), ("hh", "int32", 0), ("hi", "int32", 0))

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
        from . import push_kernel as kernel

        super().__init__(problem, kernel, name, limits, observer, max_states)
        self.wg, self.wh = weights_of(weight)
        board = self.board
        pruning = problem.pruning
        self.flags = (
            (kernel.FREEZE if pruning.freeze else 0)
            | (kernel.BIPARTITE if BIPARTITE not in pruning.disabled else 0)  # its own bound finds them
            | (kernel.CORRAL if pruning.corral else 0)
            | (kernel.REOPEN if self.wh <= self.wg else 0)
        )
        self.nbr, self.floor, self.dead, self.goal, self.dist, self.comp = _tables(board, pruning.dead_squares, self.np)
        self.nboxes = board.start_boxes.bit_count()
        self.start = start if start is not None else problem.initial_state()
        self._store(0, self.start)
        self.parent[0] = -1
        kernel.rehash(self.keys, 1, self.table)
        self.meta[kernel.M_STATES] = 1
        self.meta[kernel.M_HEAP] = kernel.heap_push(self.hf, self.hh, self.hi, 0, 0, 0, 0)

    def _call(self, chunk: int) -> int:
        occ, buf, costs, ints, used = self.work
        code = self.kernel.run(
            self.keys, self.parent, self.move, self.gs, self.closed, self.table, self.asked, self.hf, self.hh,
            self.hi, self.meta, self.nbr, self.floor, self.dead, self.goal, self.dist, self.comp, self.nboxes,
            self.wg, self.wh, self.flags, chunk, occ, buf, costs, ints, used,
        )  # fmt: skip
        return int(code)

    def path(self) -> tuple[list, list, int]:
        """The pushes from the start to the goal found, with the position after each."""
        return self._path(int(self.meta[self.kernel.M_GOAL]))

    def path_to(self, state: State) -> tuple[list, list, int]:
        """The pushes from the start to ``state`` (reached), with the position after each."""
        return self._path(self._index(state))

    def _path(self, i: int) -> tuple[list, list, int]:
        board = self.board
        chain, _root = self._moves(i)
        pushes = [Push(m >> 2, m & 3, board.width) for m in chain]
        states = [self.start, *positions_along(board, self.start[0], pushes)]
        return pushes, states, len(pushes)


def _tables(board: Any, use_dead: bool, np: Any) -> tuple:
    """The board as the kernel reads it: neighbours per direction (-1: wall), floor, dead
    squares, goals, push distances per (square, player's side) and goal, and the side index
    of every square seen from a cut square (0 elsewhere)."""
    from .matching_rule import BIG

    size = board.size
    nbr = neighbours(board)
    floor_bits = board.floor
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


def warm_up(kind: Callable[[SokobanProblem], CompiledSearch] | None = None) -> None:
    """Load the compiled kernel of ``kind`` (the push search's by default), compiling it the
    first time (cached on disk after), by solving a one-push level and answering a
    portfolio's question (`knows_any`, its table of positions asked grown once), e.g. in a
    benchmark's parent process or `searchkit warm-up` (without the question, its three
    kernel functions were compiled at a fresh install's first meeting: 0.24 s)."""
    if compiled_available():
        board = Board(parse_levels(WARM_UP_LEVEL)[0])
        problem = SokobanProblem(board)
        search = (kind or CompiledPushSearch)(problem)
        search.step()
        search.knows_any([problem.initial_state()])
        search._grow_asked(2 * len(search.asked))
