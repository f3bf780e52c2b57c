"""Shorten a solution by searching the positions near its path (the vicinity idea of YASO and
JSoko's optimizer).

A solver finds any solution; this takes one and looks for a cheaper way between two of its
positions ``i < j``: an A* (the core's `BestFirstSearch`) over pushes from position ``i`` to
position ``j``, through positions whose boxes differ from those of some path position in
``i..j`` by at most ``k`` boxes.  A cheaper segment is spliced in, and the passes go on
(windows sliding along the path, ``k`` growing) while they improve and time remains.  The
cost is lexicographic, pushes then moves (``moves`` metric: moves then pushes), as one
integer ``BIG * first + second``; states keep the player's exact square, so walks count.

Why windows, not one search over the whole vicinity: the membership test compares a
position with the path positions, so its price grows with the window, and a search between
near positions stays small; on small levels the first window is the whole path.

Every answer is replayed on the level's own text (`lurd.replay_lurd`) before it is
returned; a failure to improve returns the input's pushes with shortest walks (never longer).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from searchkit import InputError, Limits
from searchkit.engines import BestFirstSearch

from .board import Board, bits
from .levels import Level
from .lurd import replay_lurd, to_lurd
from .problem import Push, SokobanProblem
from .rules import Step, illegal, step

BIG = 1 << 20  # one unit of the first criterion in the lexicographic cost (moves of a level stay far below it)
PUSHES, MOVES = "pushes", "moves"
UNREACHABLE = 1 << 30
MAX_STORED = 300_000  # states of one window search before it gives up (~100 MB)
KS = (1, 2, 3, 4)  # boxes a vicinity position may differ by, tried in turn


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
    """The positions along a push list (player on its exact square) and each push's moves."""

    def __init__(self, problem: SokobanProblem, pushes: list[Push]):
        board = problem.board
        self.pushes = pushes
        boxes, player = board.start_boxes, board.player_start
        self.states = [(boxes, player)]
        self.moves: list[int] = []
        for p in pushes:
            walks = problem._walk_lengths(boxes, player)
            o = board.offsets[p.direction]
            self.moves.append(walks[p.square - o] + 1)
            boxes = boxes ^ (1 << p.square) ^ (1 << (p.square + o))
            player = p.square
            self.states.append((boxes, player))

    def cost(self, i: int, j: int, metric: str) -> int:
        """The lexicographic cost of pushes ``i+1..j``."""
        moves = sum(self.moves[i:j])
        return (j - i) * BIG + moves if metric == PUSHES else moves * BIG + (j - i)


class _Distances:
    """Push distances to any square on the walls alone (the player may stand anywhere), a
    lower bound of the pushes a box needs: one backward breadth-first search per square, kept."""

    def __init__(self, board: Board):
        self.board = board
        self.cache: dict[int, list[int]] = {}

    def to(self, target: int) -> list[int]:
        got = self.cache.get(target)
        if got is not None:
            return got
        board = self.board
        floor, offs = board.floor, board.offsets
        dist = [UNREACHABLE] * board.size
        dist[target] = 0
        frontier = [target]
        d = 0
        while frontier:
            d += 1
            nxt = []
            for y in frontier:
                for o in offs:
                    x = y - o  # a push by o took a box from x to y, the player from x - o
                    if dist[x] == UNREACHABLE and floor >> x & 1 and floor >> (x - o) & 1:
                        dist[x] = d
                        nxt.append(x)
            frontier = nxt
        self.cache[target] = dist
        return dist


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
        self._miss: dict[int, Any] = {}
        # per box set: how many of its boxes each path position of the window lacks
        start_boxes = self.start[0]
        self.counts: dict[int, Any] = {start_boxes: sum(self.miss(x) for x in bits(start_boxes))}
        self.h_unit = BIG + 1 if metric == PUSHES else BIG  # a push costs at least this much

    def initial_state(self) -> tuple[int, int]:
        return self.start

    def is_goal(self, state: tuple[int, int]) -> bool:
        if self.final:
            return state[0] == self.target[0]
        return state == self.target

    def miss(self, square: int) -> Any:
        """1 for each path position of the window without a box on ``square``, else 0."""
        got = self._miss.get(square)
        if got is None:
            got = self._miss[square] = np.array([not b >> square & 1 for b in self.near], dtype=np.int16)
        return got

    def heuristic(self, state: tuple[int, int]) -> float:
        """Each box off the target's squares takes at least its push distance (walls only,
        `_Distances`) to the nearest free target square."""
        boxes = state[0]
        tboxes = self.target[0]
        extra = boxes & ~tboxes
        if not extra:
            return 0
        free = [self.dist.to(t) for t in bits(tboxes & ~boxes)]
        total = 0
        for x in bits(extra):
            total += min(d[x] for d in free)
        return total * self.h_unit if total < UNREACHABLE else float("inf")

    def successors(self, state: tuple[int, int]) -> list[tuple[Push, tuple[int, int], int]]:
        counts, miss, k = self.counts, self.miss, self.k
        mine = counts[state[0]]
        offs = self.base.board.offsets
        pushes_first = self.metric == PUSHES
        out = []
        for action, child, moves, _h in self.base._expand(state, False):
            have = counts.get(child[0])
            if have is None:
                src = action.square
                have = mine - miss(src) + miss(src + offs[action.direction])
                if have.min() > k:
                    continue  # outside the vicinity: not stored, recounted if met again
                counts[child[0]] = have
            out.append((action, child, BIG + moves if pushes_first else moves * BIG + 1))
        return out


def _search(problem: _Vicinity, seconds: float, log: Callable[[str], None] | None) -> list[Push] | None:
    """The cheapest push list of the vicinity search, or None (no time, too many states)."""
    t = time.perf_counter()
    search = BestFirstSearch(
        problem, name="vicinity", limits=Limits(timeout_s=max(seconds, 0.01), max_stored=MAX_STORED)
    )
    search.step()
    if log is not None:
        log(f"  search k={problem.k} {search.status} {search.expanded} expanded {time.perf_counter() - t:.2f} s")
    if search.status != "solved":
        return None
    actions, _states, _cost = search.path()
    return list(actions)


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
) -> list[Push]:
    """A push list no worse than ``pushes`` (in ``metric`` then the other), found within
    ``seconds`` by vicinity searches over windows of the path."""
    deadline = time.perf_counter() + seconds
    base = SokobanProblem(board, None, optimize=MOVES)  # exact player squares, walks counted
    path = _Path(base, pushes)
    dist = _Distances(board)
    k_index = 0
    size = 0
    while k_index < len(KS) and time.perf_counter() < deadline:
        k = KS[k_index]
        n = len(path.pushes)
        size = n if n <= 60 else max(20, min(n, 40 * (k_index + 1)))
        improved = False
        for i, j in _windows(n, size):
            if i >= len(path.pushes):
                break
            j = min(j, len(path.pushes))
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            final = j == len(path.pushes)
            problem = _Vicinity(base, dist, path, i, j, k, metric, final)
            found = _search(problem, left, log)
            if found is None:
                continue
            new_cost = _cost_of(base, path.states[i], found, metric)
            if new_cost < path.cost(i, j, metric):
                spliced = path.pushes[:i] + found + path.pushes[j:]
                if log is not None:
                    log(f"k={k} window {i}..{j}: {j - i} -> {len(found)} pushes")
                path = _Path(base, spliced)
                improved = True
        if not improved:
            k_index += 1
    return path.pushes


def _cost_of(base: SokobanProblem, start: tuple[int, int], pushes: list[Push], metric: str) -> int:
    boxes, player = start
    offs = base.board.offsets
    moves = 0
    for p in pushes:
        o = offs[p.direction]
        moves += base._walk_lengths(boxes, player)[p.square - o] + 1
        boxes = boxes ^ (1 << p.square) ^ (1 << (p.square + o))
        player = p.square
    return len(pushes) * BIG + moves if metric == PUSHES else moves * BIG + len(pushes)


def optimize(
    level: Level, lurd: str, seconds: float, metric: str = PUSHES, log: Callable[[str], None] | None = None
) -> Optimized:
    """Improve the LURD solution ``lurd`` of ``level`` for ``seconds``; raises `InputError`
    when ``lurd`` is not a solution of it.  The answer is replayed on the level's text."""
    started = time.perf_counter()
    board = Board(level)
    pushes = parse_solution(board, lurd)
    found = replay_lurd(level, "".join(lurd.split()))
    return finish(board, pushes, Counts(found.moves, found.pushes), seconds, metric, log, started)


def finish(
    board: Board,
    pushes: list[Push],
    found: Counts,
    seconds: float,
    metric: str = PUSHES,
    log: Callable[[str], None] | None = None,
    started: float | None = None,
) -> Optimized:
    """`improve_pushes`, then the replay; the input back when the answer is not better."""
    started = time.perf_counter() if started is None else started
    best = improve_pushes(board, pushes, max(0.0, seconds - (time.perf_counter() - started)), metric, log)
    lurd = to_lurd(board, best)
    done = replay_lurd(board.level, lurd)  # AssertionError on a wrong answer: a bug, never hidden
    if _worse(Counts(done.moves, done.pushes), found, metric):
        lurd = to_lurd(board, pushes)  # the input's pushes, shortest walks: never worse
        done = replay_lurd(board.level, lurd)
        best = pushes
    return Optimized(lurd, done.moves, done.pushes, found, best, time.perf_counter() - started)


def _worse(a: Counts, b: Counts, metric: str) -> bool:
    if metric == PUSHES:
        return (a.pushes, a.moves) > (b.pushes, b.moves)
    return (a.moves, a.pushes) > (b.moves, b.pushes)


def auto_seconds(board: Board, pushes: int) -> float:
    """The default improvement budget: a second, plus more for more boxes and longer paths."""
    return min(30.0, 1.0 + 0.01 * pushes + 0.1 * bin(board.start_boxes).count("1"))
