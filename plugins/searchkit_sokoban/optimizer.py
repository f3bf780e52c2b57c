"""Shorten a solution by searching the positions near its path (the vicinity idea of YASO and
JSoko's optimizer).

A solver finds any solution; this takes one and looks for a cheaper way between two of its
positions ``i < j``: an A* (the core's `BestFirstSearch`) over the plugin's pushes from
position ``i`` to position ``j``, through positions whose boxes differ from those of some
path position in ``i..j`` by at most ``k`` boxes.  A cheaper segment is spliced in, and the
passes go on (windows sliding along the path, then larger windows and ``k``) while they
improve and time remains.

Pushes first: a phase counts pushes alone on the solver's own states (the player's region,
few states, no walks), then a phase orders by pushes and then moves (one integer,
``BIG * pushes + moves``) on exact player squares.  ``moves`` orders by moves, then pushes.

Why windows, not one search over the whole vicinity: a search between near positions
stays small, so many are tried in the time one large search would take, and the vicinity
test (a count per path position, packed in one int) grows with the window; on small
levels the window is the whole path at once.

Every answer is replayed on the level's own text (`lurd.replay_lurd`); when it is not
better, or fails its replay, the solution given comes back unchanged: nothing is lost.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from searchkit import InputError, Limits
from searchkit.engines import BestFirstSearch

from .board import Board, bits
from .levels import Level
from .lurd import replay_lurd, to_lurd
from .problem import Push, SokobanProblem
from .rules import Step, illegal, step

BIG = 1 << 20  # one unit of the first criterion in the lexicographic cost (moves of a level stay far below it)
PUSHES, MOVES = "pushes", "moves"
COUNT = "push-count"  # pushes alone, the player's region as in the solver: the first, faster phase
UNREACHABLE = 1 << 30
MAX_STORED = 300_000  # states of one window search before it gives up (~100 MB)
# (boxes a vicinity position may differ by, window size in pushes), cheapest first; a window
# larger than the path is the whole path
SCHEDULE = ((1, 20), (1, 40), (2, 40), (1, 80), (2, 80), (3, 60), (3, 120), (4, 120), (4, 240))
SEARCH_SHARE = 0.5  # of the time left that one window search may take (at least SEARCH_MIN_S)
SEARCH_MIN_S = 1.0
SEARCH_MAX_S = 8.0  # a window search not done by then rarely pays: the time goes to other windows
MOVES_SHARE = 0.25  # of the time that the pushes-then-moves phase keeps when optimizing pushes


@dataclass
class Counts:
    """Moves and pushes of a solution."""

    moves: int
    pushes: int


@dataclass
class Optimized:
    """What `optimize` returns: the solution (LURD), its counts and those of the input."""

    lurd: str
    moves: int
    pushes: int
    found: Counts
    pushes_list: list[Push]
    seconds: float


def parse_solution(board: Board, lurd: str) -> list[Push]:
    """The pushes of a LURD solution of ``board``'s level; `InputError` (one line) when it is
    not one: an unknown letter, an illegal move (which and why), or boxes left off goals."""
    layout = board.layout
    boxes, player = layout.boxes, layout.player
    text = "".join(lurd.split())
    pushes: list[Push] = []
    for i, ch in enumerate(text, 1):
        moved = step(layout, boxes, player, ch)
        if not isinstance(moved, Step):
            raise InputError(f"the solution does not replay on this level: {illegal(i, ch, moved)}")
        if moved.pushed:
            k = "udlr".index(ch.lower())
            pushes.append(Push(player + layout.offsets[k], k, board.width))
        boxes, player = moved.boxes, moved.player
    if boxes != layout.goals:
        left = (boxes & ~layout.goals).bit_count()
        raise InputError(
            f"the solution does not solve this level: after all {len(text)} moves {left} box(es) are off goals"
            " (a solution for another level?)"
        )
    return pushes


class _Path:
    """The positions along a push list: with the player's exact square (``exact``), as a
    search's states (``states``: the player's region in pushes mode), and each push's moves."""

    def __init__(self, walker: SokobanProblem, base: SokobanProblem, pushes: list[Push]):
        board = walker.board
        self.pushes = pushes
        boxes, player = board.start_boxes, board.player_start
        self.exact = [(boxes, player)]
        self.moves: list[int] = []
        for p in pushes:
            walks = walker._walk_lengths(boxes, player)
            o = board.offsets[p.direction]
            self.moves.append(walks[p.square - o] + 1)
            boxes = boxes ^ (1 << p.square) ^ (1 << (p.square + o))
            player = p.square
            self.exact.append((boxes, player))
        self.states = self.exact if base.moves else [(b, base._normal(b, q)) for b, q in self.exact]

    def key(self, metric: str) -> tuple[int, int]:
        """The whole path's cost in ``metric`` order: (pushes, moves) or (moves, pushes)."""
        moves = sum(self.moves)
        return (moves, len(self.pushes)) if metric == MOVES else (len(self.pushes), moves)


class _Distances:
    """Push distances to any square on the walls alone (the player may stand anywhere), a
    lower bound of the pushes a box needs: the board's pulls from the square, kept as a list."""

    def __init__(self, board: Board):
        self.board = board
        self.cache: dict[int, list[int]] = {}

    def to(self, target: int) -> list[int]:
        got = self.cache.get(target)
        if got is None:
            got = self.cache[target] = [UNREACHABLE] * self.board.size
            for x, d in self.board.pulls_from(1 << target).items():
                got[x] = d
        return got


class _Vicinity:
    """Push search from one path position to a later one, through positions whose boxes
    differ from those of a path position between them by at most ``k`` boxes."""

    def __init__(
        self, base: SokobanProblem, dist: _Distances, path: _Path, i: int, j: int, k: int, metric: str, final: bool
    ):
        self.base = base
        self.start = path.states[i]
        self.target = path.states[j]
        self.near = [s[0] for s in path.states[i : j + 1]]
        self.k = k
        self.metric = metric
        self.final = final  # the goal is the solved position, wherever the player stands
        self.dist = dist
        # per box set, how many of its boxes each path position of the window lacks: one
        # field of `width` bits a position, packed in an int, so a push updates all at once
        nboxes = self.start[0].bit_count()
        self.field = field = max(7, nboxes.bit_length() + 2)
        n = len(self.near)
        self.high = sum(1 << (i * field + field - 1) for i in range(n))
        # adding this sets a field's high bit exactly when its count exceeds k
        self.over = sum(((1 << (field - 1)) - (k + 1)) << (i * field) for i in range(n))
        self._miss: dict[int, int] = {}
        start_boxes = self.start[0]
        self.counts: dict[int, int] = {start_boxes: sum(self.miss(x) for x in bits(start_boxes))}
        self._mine = 0
        self._h: dict[int, float] = {}  # the estimate depends on the boxes alone
        # a push costs at least this much: in pushes-first order also a move, in moves-first order
        self.h_unit = BIG + 1 if metric == PUSHES else BIG if metric == MOVES else 1

    def initial_state(self) -> tuple[int, int]:
        return self.start

    def is_goal(self, state: tuple[int, int]) -> bool:
        if self.final:
            return state[0] == self.target[0]
        return state == self.target

    def miss(self, square: int) -> int:
        """1 in the field of each path position of the window without a box on ``square``."""
        got = self._miss.get(square)
        if got is None:
            field = self.field
            got = sum(1 << (i * field) for i, b in enumerate(self.near) if not b >> square & 1)
            self._miss[square] = got
        return got

    def heuristic(self, state: tuple[int, int]) -> float:
        """Each box off the target's squares takes at least its push distance (walls only,
        `_Distances`) to the nearest free target square."""
        boxes = state[0]
        got = self._h.get(boxes)
        if got is not None:
            return got
        tboxes = self.target[0]
        extra = boxes & ~tboxes
        total = 0
        if extra:
            free = [self.dist.to(t) for t in bits(tboxes & ~boxes)]
            for x in bits(extra):
                total += min(d[x] for d in free)
        h = total * self.h_unit if total < UNREACHABLE else float("inf")
        self._h[boxes] = h
        return h

    def _admit(self, src: int, dst: int, boxes: int) -> bool:
        """The push's child is in the vicinity (its counts are kept for its own children)."""
        counts = self.counts
        if boxes in counts:
            return True
        have = self._mine - self.miss(src) + self.miss(dst)
        if (have + self.over) & self.high == self.high:
            return False
        counts[boxes] = have
        return True

    def successors(self, state: tuple[int, int]) -> list[tuple[Push, tuple[int, int], int]]:
        base = self.base
        self._mine = self.counts[state[0]]
        base.admit = self._admit
        try:
            children = base._expand(state, False)
        finally:
            base.admit = None
        metric = self.metric
        if metric == PUSHES:
            return [(a, child, BIG + moves) for a, child, moves, _h in children]
        if metric == MOVES:
            return [(a, child, moves * BIG + 1) for a, child, moves, _h in children]
        return [(a, child, 1) for a, child, _c, _h in children]


def _search(
    problem: _Vicinity, seconds: float, log: Callable[[str], None] | None, stop: threading.Event | None
) -> list[Push] | None:
    """The cheapest push list of the vicinity search, or None (no time, too many states)."""
    t = time.perf_counter()
    search = BestFirstSearch(problem, name="vicinity", limits=_limits(seconds, stop))
    search.step()
    if log is not None:
        log(f"  search k={problem.k} {search.status} {search.expanded} expanded {time.perf_counter() - t:.2f} s")
    if search.status != "solved":
        return None
    actions, _states, _cost = search.path()
    return list(actions)


def _limits(seconds: float, stop: threading.Event | None) -> Limits:
    """One window search's limits; the run's Ctrl-C (or a game's cancel) ends it too."""
    if stop is None:
        return Limits(timeout_s=max(seconds, 0.01), max_stored=MAX_STORED)
    return Limits(timeout_s=max(seconds, 0.01), max_stored=MAX_STORED, interrupt=stop)


def _windows(n: int, size: int) -> list[tuple[int, int]]:
    """Windows of ``size`` pushes over ``0..n``, overlapping by half."""
    if size >= n:
        return [(0, n)]
    stride = max(1, size // 2)
    out = [(i, min(n, i + size)) for i in range(0, n - size + stride, stride)]
    return [w for w in out if w[0] < w[1]]


def improve_pushes(
    board: Board,
    pushes: list[Push],
    seconds: float,
    metric: str = PUSHES,
    log: Callable[[str], None] | None = None,
    stop: threading.Event | None = None,
) -> list[Push]:
    """A push list no worse than ``pushes`` (in ``metric`` then the other), found within
    ``seconds`` by vicinity searches over windows of the path.

    For pushes, a first phase counts pushes alone on the solver's states (the player's
    region: far fewer states, no walks); the second (at least `MOVES_SHARE` of the time)
    orders by pushes then moves on exact player squares."""
    deadline = time.perf_counter() + seconds
    walker = SokobanProblem(board, None, optimize=MOVES)  # exact player squares, walks counted
    path = _Path(walker, walker, pushes)
    if metric == PUSHES:
        regions = SokobanProblem(board, None, optimize=PUSHES)
        regions.pruning.corral = False  # corral pruning may cut the path itself out of the vicinity
        first_until = deadline - MOVES_SHARE * seconds
        path = _phase(walker, regions, path, COUNT, metric, first_until, log, stop)
    return _phase(walker, walker, path, metric, metric, deadline, log, stop).pushes


def _phase(
    walker: SokobanProblem,
    base: SokobanProblem,
    path: _Path,
    search_metric: str,
    metric: str,
    deadline: float,
    log: Callable[[str], None] | None,
    stop: threading.Event | None = None,
) -> _Path:
    """Window searches in `SCHEDULE` order on ``base``'s states until ``deadline``; a pass
    that improves is run again before the next."""
    path = _Path(walker, base, path.pushes)
    dist = _Distances(walker.board)
    done: set[tuple[int, int]] = set()
    step = 0
    while step < len(SCHEDULE) and time.perf_counter() < deadline and not (stop is not None and stop.is_set()):
        k, size = SCHEDULE[step]
        n = len(path.pushes)
        size = min(size, n)
        if (k, size) in done or n == 0:
            step += 1
            continue
        improved = False
        for i, j in _windows(n, size):
            n = len(path.pushes)
            if i >= n:
                break
            j = min(j, n)
            left = deadline - time.perf_counter()
            if left <= 0 or (stop is not None and stop.is_set()):
                break
            problem = _Vicinity(base, dist, path, i, j, k, search_metric, j == n)
            cap = min(SEARCH_MAX_S, max(SEARCH_MIN_S, left * SEARCH_SHARE))
            found = _search(problem, min(left, cap), log, stop)
            if found is None:
                continue
            better = _Path(walker, base, path.pushes[:i] + found + path.pushes[j:])
            if better.key(metric) < path.key(metric):
                if log is not None:
                    log(f"{search_metric} k={k} window {i}..{j}: {path.key(metric)} -> {better.key(metric)}")
                path = better
                improved = True
        if not improved:
            done.add((k, size))
            step += 1
    return path


def optimize(
    level: Level, lurd: str, seconds: float, metric: str = PUSHES, log: Callable[[str], None] | None = None
) -> Optimized:
    """Improve the LURD solution ``lurd`` of ``level`` for ``seconds``; raises `InputError`
    when ``lurd`` is not a solution of it.  The answer is replayed on the level's text."""
    started = time.perf_counter()
    board = Board(level)
    pushes = parse_solution(board, lurd)
    text = "".join(lurd.split())
    found = replay_lurd(level, text)
    return finish(board, pushes, Counts(found.moves, found.pushes), seconds, metric, log, started, given=text)


def finish(
    board: Board,
    pushes: list[Push],
    found: Counts,
    seconds: float,
    metric: str = PUSHES,
    log: Callable[[str], None] | None = None,
    started: float | None = None,
    stop: threading.Event | None = None,
    given: str | None = None,
) -> Optimized:
    """`improve_pushes`, then the replay; ``given`` (the solution as LURD, else the pushes
    with shortest walks) back when the answer is not better or fails its replay."""
    started = time.perf_counter() if started is None else started
    best = improve_pushes(board, pushes, max(0.0, seconds - (time.perf_counter() - started)), metric, log, stop)
    try:
        lurd = to_lurd(board, best)
        done = replay_lurd(board.level, lurd)
        counts = Counts(done.moves, done.pushes)
    except AssertionError as e:  # a bug: reported to the log, never a lost solution
        if log is not None:
            log(f"the improved solution failed its replay ({e}): the given one stands")
        counts = None
    if counts is None or not _better(counts, found, metric):
        lurd = given if given is not None else to_lurd(board, pushes)
        done = replay_lurd(board.level, lurd)
        counts, best = Counts(done.moves, done.pushes), pushes
    return Optimized(lurd, counts.moves, counts.pushes, found, best, time.perf_counter() - started)


def _better(a: Counts, b: Counts, metric: str) -> bool:
    if metric == MOVES:
        return (a.moves, a.pushes) < (b.moves, b.pushes)
    return (a.pushes, a.moves) < (b.pushes, b.moves)


def auto_seconds(board: Board, pushes: int) -> float:
    """The default improvement budget: a second, plus more for more boxes and longer paths."""
    return min(30.0, 1.0 + 0.01 * pushes + 0.1 * bin(board.start_boxes).count("1"))
