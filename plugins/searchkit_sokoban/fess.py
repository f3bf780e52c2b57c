"""``sokoban-fess``: a FESS-style search (Shoham & Schaeffer, IEEE CoG 2020) over macro moves.

Why: a heuristic search ranks positions by one number and drowns in the millions of
positions of a large level that look equally good.  FESS instead projects every position
onto a small feature space (`features`) and takes turns over its *cells*, expanding in each
the waiting position of least *weight*.  A move's weight is 0 when an advisor (`advisors`)
proposes it, 1 otherwise, and a position's weight is the sum along its path, so advised
lines run deep while every region of the feature space still gets its turn.  As in the
paper's program (Festival), a position waits in the cell of the best features met on its
way, and every other turn goes to the best cell reached so far - until that cell has had
its patience of expansions without a better position (a line gone wrong).  That loop and
its cells are the core's (`searchkit.FeatureSearch`); `FeatureSearch` adds Sokoban's rules,
`FessSearch` gives it the moves forwards, `fess_pull` backwards.
``own_cells`` (``search:fess-own``, ``-P own_cells=true``) files each position in the cell of
its own features instead, as the paper describes: a line that makes things worse drops back
among the cells behind.  Alone at 30 s it solves 40 of the 90 XSokoban levels against 66,
but three of those (11, 23, 30) only that way: 23 in 1.9 s.  ``stranded``
(``search:fess-stranded``, ``-P stranded=true``) counts among the boxes out of plan the
empty goals no box off goals can reach while the boxes on goals stay (`Features.stranded`):
a line that packs the goals a box must still pass is no longer the best one.  Alone it
solves Sasquatch II 38 (5 s) and 13 (6 s), which FESS does not within 20 s; the default
runs it from the 3rd second with twice the share plain FESS had there (XSokoban 40 and 42
new).  ``any_order`` (``-P any_order=true``) counts every box on a goal packed, in any order
(`Features`): with ``stranded`` it solves Sasquatch II 26 alone, where the packing order
leads FESS astray, and none of 53 other levels the default leaves.  ``parking``
(``-P parking=true``; on in the default's ``fess-stranded``) packs a goal area whose boxes
must wait inside it by a parking plan (`parking`): with it that member alone solves
Sasquatch II 3, 6 and 24 at 60 s, which it does not without.  ``endgame``
(``-P endgame=true``; on in the aimed searches, `aim`, and in the default's ``fess-stranded``
with a twentieth of its time, `STRANDED_ENDGAME_SHARE`) hands the positions a box or two
short of the goals to a compiled A* (`endgame`).

A move is a *macro*: one box pushed to any square it can reach with the other boxes fixed,
the player walking between pushes (a breadth-first search over that box's pushes; with numba,
after `COMPILE_WALK_AFTER` calls, in compiled code, `macro_kernel`: the aimed search alone on
Sasquatch II 7 and 10 in 11.3 and 25.0 s against 17.5 and 34.1, the Python walk having had
45 % of its time).  The
solution is the macros' pushes in the plugin's push-action format (`problem.Push`), so the
LURD writer and the replay on the level text check it as they check every engine's.
Every push is pruned as the push search prunes (`deadlocks.Pruning.dead_after_push`: dead
squares, freeze), positions as well (PI-corral deadlocks; an infinite heuristic, the
bipartite test when the heuristic is matching).
"""

from __future__ import annotations

import sys
from time import process_time
from typing import Any

from searchkit import FeatureSearch as CoreFeatureSearch
from searchkit import InputError, Limits, Observer, Result, attribute_growth, numba_available
from searchkit.result import NO_SOLUTION, SOLVED

from .advisors import Advice, Explorer, Opener, advised
from .answers import positions_along
from .board import INF, Board, BoxSquares, bits, flood
from .diagonal import ClosedDiagonal
from .endgame import Endgame
from .features import Features, Score
from .heuristics import MATCHING, NEAREST, RowCosts, rows_to
from .hotspots import AimHotspots, Hotspots
from .incremental import NearestDelta
from .levels import parse_level
from .problem import Push, SokobanProblem

FESS = "fess"  # its name as a portfolio member (search:fess)
FESS_OWN = "fess-own"  # the same, each position in its own features' cell (search:fess-own)
FESS_STRANDED = "fess-stranded"  # the same, stranded goals out of plan (search:fess-stranded)
STRANDED_ENDGAME_SHARE = 0.05  # fess-stranded's endgame tries: a twentieth of its time (a quarter lost XSokoban 52)
STRANDED_ENDGAME_SLACK = 4  # and positions four boxes short tried (two: Sasquatch II 26 unsolved at 60 s)
MAX_BOXES = 200  # positions are bit sets; beyond this the macro search per box is too slow to be useful
MAX_FLOOR = 4000  # floor squares
CHECK_MASK = 7  # limits checked every 8 expansions (the core waits up to 1024 cheap ones)
CELL = 4  # a cell: the first fields of `Score` (packing, connectivity, room connectivity, out of plan)
BATCH = 64  # expansions between the endgame's turns when it runs alone
COMPILE_WALK_AFTER = 200  # `MacroMoves.moves` calls before the compiled walk takes over (numba installed)
WALK_NODES = 1 << 12  # the compiled walk's first node arrays (doubled as needed)

State = tuple[int, int]
Macro = tuple[Push, ...]

DEAD: State = (-1, -1)  # the "parent" of a position proved dead when generated (never opened)


def check_size(problem: SokobanProblem, name: str = "sokoban-fess") -> None:
    """Refuse what the engine cannot do: levels beyond its limits, moves-optimisation."""
    board = problem.board
    if problem.moves:
        raise InputError(f"{name} counts pushes: use --optimize pushes")
    boxes = board.start_boxes.bit_count()
    floor = board.floor.bit_count()
    if boxes > MAX_BOXES or floor > MAX_FLOOR:
        raise InputError(
            f"the level is too large for {name} ({boxes} boxes, {floor} floor squares;"
            f" at most {MAX_BOXES} boxes and {MAX_FLOOR} floor squares)"
        )


class MacroMoves:
    """Every macro move of a position: each box to each square it reaches alone - pushed, or
    pulled when ``near`` is given (`fess_pull`: per square the pulls to the nearest start
    square; a box pulled where that is INF is dead).  The walk is Python's for the first
    `COMPILE_WALK_AFTER` calls (a small level is solved before loading the kernel pays),
    then the compiled one's (`CompiledWalk`, the same moves), when numba is installed."""

    def __init__(self, problem: SokobanProblem, near: list[int] | None = None):
        self.problem = problem
        self.board = problem.board
        self.near = near
        # closed diagonals are frozen boxes in a wider sense: off with the freeze test
        self.diagonal = ClosedDiagonal(problem.board) if problem.pruning.freeze and near is None else None
        # `moves` calls (-1 once decided): the compiled walk takes over after `COMPILE_WALK_AFTER`,
        # or at once when another search has loaded it
        self.calls = 0
        self.walk: CompiledWalk | None = None

    def region(self, boxes: int, player: int) -> int:
        b = self.board
        return flood(1 << player, b.floor & ~boxes, b.width)

    def along(self, chain: list[State]) -> list[Push]:
        """The pushes of the macros between the positions of ``chain`` in turn, each found
        again as the moved box's breadth-first moves from its parent, as when it was made."""
        pushes: list[Push] = []
        for (boxes, player), child in zip(chain, chain[1:]):
            moved = boxes & ~child[0]  # the box that left its square (the macro's first move)
            reach = self.region(boxes, player)
            pushes.extend(next(m for m, c, _r in self.moves(boxes, reach, moved) if c == child))
        return pushes

    def moves(self, boxes: int, reach: int, movable: int) -> list[tuple[Macro, State, int]]:
        """``(pushes, child, region)`` for every position one box of ``movable`` can be moved
        to, ``region`` the player's squares there; a pull's push is the one that undoes it
        (the pushes of pulls are in the pulls' order)."""
        if self.calls >= 0:  # not yet decided
            self.calls += 1
            if self.calls >= COMPILE_WALK_AFTER or kernel_loaded():
                self.walk = CompiledWalk(self.problem, self.near) if numba_available() else None
                self.calls = -1
        if self.walk is not None:
            return self._walked(boxes, reach, movable, self.walk)
        board = self.board
        w, floor, offs = board.width, board.floor, board.offsets
        region_after, dead_push = board.region_after, self.dead_push
        near = self.near
        pull = near is not None
        out: list[tuple[Macro, State, int]] = []
        for src in bits(movable):
            others = boxes ^ (1 << src)
            free = floor & ~others
            seen: set[tuple[int, int]] = set()
            frontier: list[tuple[int, int, Macro]] = [(src, reach, ())]
            while frontier:
                nxt: list[tuple[int, int, Macro]] = []
                for pos, region, path in frontier:
                    low = 1 << pos
                    for k, o in enumerate(offs):
                        dst = pos + o
                        if dst == src or not free >> dst & 1:
                            continue
                        if pull:
                            # the player on pos+o steps back to pos+2o, the box follows
                            if not (region >> dst & 1 and free >> (dst + o) & 1) or near[dst] >= INF:  # type: ignore[index]
                                continue
                            player = 1 << (dst + o)
                            nboxes = others | 1 << dst
                        else:
                            # the player on pos-o pushes the box to pos+o, stepping onto pos
                            if not region >> (pos - o) & 1:
                                continue
                            player = low
                            nboxes = others | 1 << dst
                            if dead_push(dst, pos, k, nboxes):
                                continue
                        cregion = region_after(region, low, 1 << dst, player, free & ~(1 << dst))
                        key = (dst, (cregion & -cregion).bit_length() - 1)
                        if key in seen:
                            continue
                        seen.add(key)
                        macro = (*path, Push(dst, k ^ 1, w) if pull else Push(pos, k, w))
                        nxt.append((dst, cregion, macro))
                        out.append((macro, (nboxes, key[1]), cregion))
                frontier = nxt
        return out

    def dead_push(self, dst: int, pos: int, k: int, nboxes: int) -> bool:
        """Whether the box pushed from ``pos`` onto ``dst`` (direction ``k``; ``nboxes`` after
        it) is dead by the detectors the walks apply to pushes: the push search's, closed
        diagonals and, when asked for, clusters (both walks ask here, so they prune alike)."""
        board, pruning, diagonal = self.board, self.problem.pruning, self.diagonal
        return (
            pruning.dead_after_push(dst, board.side_comp[dst][k ^ 1], nboxes) is not None
            or (diagonal is not None and diagonal.dead(dst, nboxes, pos))
            or (pruning.clusters is not None and pruning.clusters.dead(dst, pos, nboxes))
        )

    def _walked(self, boxes: int, reach: int, movable: int, walk: CompiledWalk) -> list[tuple[Macro, State, int]]:
        """`moves` from the compiled walk's nodes, each pruned here as `moves` prunes (a node
        reached through one pruned is dead too, and left out)."""
        w, dead_push, pull = self.board.width, self.dead_push, self.near is not None
        srcs = bits(movable)
        rows, regions, step = walk.nodes(boxes, reach, srcs)
        kept: list[Macro | None] = []
        out: list[tuple[Macro, State, int]] = []
        at = 0
        for dst, pos, k, parent, si, low in rows:
            macro: Macro | None = None
            path = () if parent < 0 else kept[parent]
            if path is not None:
                nboxes = boxes ^ (1 << srcs[si]) | 1 << dst
                if pull:
                    macro = (*path, Push(dst, k ^ 1, w))
                elif not dead_push(dst, pos, k, nboxes):
                    macro = (*path, Push(pos, k, w))
                if macro is not None:
                    out.append((macro, (nboxes, low), int.from_bytes(regions[at : at + step], "little")))
            kept.append(macro)
            at += step
        return out


class CompiledWalk:
    """The arrays of `macro_kernel.walk` for one level's macro moves (``near``: pulls)."""

    def __init__(self, problem: SokobanProblem, near: list[int] | None):
        import numpy as np

        from .macro_kernel import walk

        self.np, self.walk = np, walk
        board = problem.board
        size = board.size
        self.nbytes, self.words = (size + 7) // 8, (size + 63) // 64
        self.floor = np.array([1 - x for x in board.is_wall], np.uint8)
        self.offs = np.array(board.offsets, np.int64)
        self.side_comp = np.zeros((size, 4), np.int64)
        self.deadside = np.zeros((size, 4), np.uint8)
        self.near = np.zeros(size, np.int64)
        for x in bits(board.floor):
            self.side_comp[x] = [max(c, 0) for c in board.side_comp[x]]
            if problem.pruning.dead_squares and near is None:
                for c, v in enumerate(board.nearest[x]):
                    self.deadside[x, c] = v >= INF
            if near is not None and near[x] >= INF:
                self.near[x] = -1
        self.pull = near is not None
        self.level = (self.floor, self.offs, self.deadside, self.side_comp, self.near)
        self.seen = np.zeros((size * 4, 2), np.int64)
        self.stack = np.zeros(size, np.int64)
        self.stamp = 1
        self._grow(WALK_NODES)

    def _grow(self, count: int) -> None:
        self.rows = self.np.zeros((count, 6), self.np.int64)
        self.regions = self.np.zeros((count, self.words), self.np.uint64)
        self.work = (self.rows, self.regions, self.seen, self.stack)

    def nodes(self, boxes: int, reach: int, srcs: list[int]) -> tuple[list[list[int]], bytes, int]:
        """The walk's node rows, their regions' bytes and the bytes a region takes."""
        np = self.np
        occ = np.unpackbits(np.frombuffer(boxes.to_bytes(self.nbytes, "little"), np.uint8), bitorder="little")
        region = np.frombuffer(reach.to_bytes(8 * self.words, "little"), np.uint64).copy()
        squares = np.array(srcs, np.int64)
        while True:
            n = self.walk(occ, squares, region, self.pull, self.stamp, self.level, self.work)
            self.stamp += len(srcs)
            if n >= 0:
                return self.rows[:n].tolist(), self.regions[:n].tobytes(), 8 * self.words
            self._grow(2 * len(self.rows))


def warm_up(level: str) -> None:
    """Load the compiled walk (compiled the first time anywhere, cached on disk after) by
    walking ``level``'s boxes once, e.g. in a benchmark's parent process, whose forked
    workers then take it at once (`kernel_loaded`) and pay neither numba's import nor the
    load (1.3 s a process)."""
    if numba_available():
        problem = SokobanProblem(Board(parse_level(level)))
        board = problem.board
        macros = MacroMoves(problem)
        reach = macros.region(board.start_boxes, board.player_start)
        macros._walked(board.start_boxes, reach, board.start_boxes, CompiledWalk(problem, None))


def kernel_loaded() -> bool:
    """Whether a search of this process has loaded the compiled walk (its cost paid)."""
    return f"{__package__}.macro_kernel" in sys.modules


class FeatureSearch(CoreFeatureSearch):
    """The core's FESS loop (`searchkit.FeatureSearch`: cells, turns, weights, labels) with
    Sokoban's rules: a level's size checked, a cell the first four fields of `Score`
    (packing, connectivity, room connectivity, out of plan), the limits checked every few
    expansions (each pushes every box everywhere, milliseconds), positions proved dead kept
    as `DEAD`, and goals packed as progress."""

    progress = "packed"  # what progress notes count, of `total`

    features: Features  # the subclass's projection

    def __init__(
        self,
        problem: SokobanProblem,
        name: str,
        limits: Limits | None,
        observer: Observer | None,
        own_cells: bool = False,
    ):
        check_size(problem, name)
        super().__init__(name, limits, observer, features=CELL, own_cells=own_cells, check_mask=CHECK_MASK)
        self.problem = problem
        board = problem.board
        self.goals = board.goals.bit_count()
        self.total = self.goals
        # `parents` keeps a position's parent, not its macro (found again for the answer,
        # `MacroMoves.along`): kept, the pushes would cost as much memory as the rest

    def growth_ahead(self, within: int) -> int:
        """The next growth of its tables (`searchkit.tables`): its own dictionaries and its
        features' memos, which the goal fillings met grow without end."""
        return attribute_growth(self, within) + attribute_growth(self.features, within)

    def knows(self, state: State) -> bool:
        """True when ``state`` was reached and not proved dead."""
        return self.parents.get(state, DEAD) is not DEAD  # a root's parent is None

    def progress_fraction(self) -> float | None:
        """The goals packed of the best position reached, for a portfolio's ``lead``: forward
        searches only (the backward ones count other things than goals packed)."""
        if self.backward or not self.total:
            return None
        return self.best_done / self.total


class FessSearch(FeatureSearch):
    """FESS forwards over macro pushes: alone (`sokoban_fess`) or as a member of the core's
    portfolio (``search:fess``, `SokobanProblem.search`)."""

    def __init__(
        self,
        problem: SokobanProblem,
        *,
        name: str = "sokoban-fess",
        limits: Limits | None = None,
        observer: Observer | None = None,
        own_cells: bool = False,
        stranded: bool = False,
        any_order: bool = False,
        parking: bool = False,
        aim: int | None = None,
        ordered: bool = False,
        endgame: bool = False,
        endgame_share: float | None = None,
        endgame_slack: int | None = None,
    ):
        """``endgame``: positions a few boxes short of the goals (or the aim; at most
        ``endgame_slack``, None: `endgame.SLACK`) are tried with a compiled A* onto them
        (`endgame`; when numba is here), the tries taking at most ``endgame_share`` of the
        search's time (None: `endgame.SHARE`)."""
        super().__init__(problem, name, limits, observer, own_cells)
        board = problem.board
        self.features = Features(
            board, stranded=stranded, aim=aim, ordered=ordered, any_order=any_order, parking=parking
        )
        if self.features.plans:
            self.goals = self.total = self.features.total  # a parking plan's steps, parked boxes' moves too
        # aimed at boxes on the squares ``aim`` (`aim`): the least pushes onto them is the guide
        self.aim = None if aim is None else RowCosts(rows_to(board, aim), aim.bit_count(), MATCHING)
        start: State = problem.initial_state()
        self.macros = MacroMoves(problem)
        self.prover = problem.pruning.prover
        # the plain nearest-goal bound (the default's) is updated per move instead of summed afresh
        near = problem._near
        plain = self.aim is None and _plain_nearest(problem)
        self.delta = NearestDelta(board, near) if near is not None and plain else None
        self.hotspots: Hotspots | AimHotspots = Hotspots(board) if aim is None else AimHotspots(board, aim)
        self.explorer = Explorer(board)
        self.opener = Opener(board)
        targets = self.features.targets
        self.endgame = None
        if endgame and Endgame.available():
            self.endgame = Endgame(problem, targets, endgame_share, endgame_slack)
        self.joins: dict[State, tuple[State, list[Push]]] = {}  # the endgame's arrivals: from where, by which pushes
        self.used = 0.0  # CPU seconds of its steps, the endgame's share of which it keeps to
        reach = self.macros.region(*start)
        first = self.score(start[0], reach, self._h(start))
        self.parents[start] = None
        self.best_done = self.goals - first.unpacked
        if problem.is_goal(start):
            self.status, self.goal = SOLVED, start
        elif board.impossible or self.prover is not None and self.prover.dead(start[0], reach):
            self.status = NO_SOLUTION  # every later position is proved as it is made (`expand`)
        else:
            self.opened.add(first, 0, first, start)

    def score(self, boxes: int, region: int, h: float) -> Score:
        """The rank of a position (``region``: the player's squares)."""
        cell = self.features.cell(boxes, region)
        if h < INF and h == int(h):
            h = int(h)  # a whole number: most are small ints, shared, where each float takes 24 bytes
        return Score.of(cell, self.goals, self.hotspots.count(boxes), h)

    def step(self, budget: int | None = None) -> bool:
        """`FeatureSearch.step`, and after every batch of expansions the endgame's tries."""
        endgame = self.endgame
        if endgame is None:
            return super().step(budget)
        while self.status is None:
            began = process_time()
            over = super().step(BATCH if budget is None else budget)
            self.used += process_time() - began
            if not over:
                self._finish(endgame)
            if budget is not None:
                break
        return self.status is not None

    def _finish(self, endgame: Endgame) -> None:
        """The best waiting position's try, if its time has come: where it puts every box on
        the targets, that position is this search's too (in ``fresh``; the answer on goals)."""
        before = endgame.expanded, endgame.generated
        found = endgame.finish(self.used)
        self.expanded += endgame.expanded - before[0]
        self.generated += endgame.generated - before[1]
        if found is None:
            return
        state, pushes, end = found
        if self.knows(end):
            return
        self.joins[end] = (state, pushes)
        if self.fresh is not None:
            self.fresh.append(end)
        if self.problem.is_goal(end):
            self.status, self.goal = SOLVED, end

    def knows(self, state: State) -> bool:
        return state in self.joins or super().knows(state)

    def _h(self, state: State, squares: list[int] | None = None) -> float:
        """The guide's estimate (``squares``: the boxes', when the caller has them)."""
        if self.aim is not None:
            return self.aim.cost(bits(state[0]) if squares is None else squares)
        estimate = self.problem.heuristic
        return 0.0 if estimate is None else estimate(state)

    def expand(self, state: State, own: Score) -> tuple[list[State], list[Score], set[int]] | None:
        problem, parents, features, macros = self.problem, self.parents, self.features, self.macros
        prover, delta, fresh, board, pruning = self.prover, self.delta, self.fresh, problem.board, problem.pruning
        boxes, player = state
        reach = macros.region(boxes, player)
        barrier = pruning.corral_barrier(boxes, reach, prove=False)  # proved when it was made
        children: list[State] = []
        advice: list[Advice] = []
        if barrier == 0:
            return children, [], set()  # a corral no push can open
        walk = self.opener.distances(features.next_goals(boxes))
        opens = self.explorer.opens
        # a PI-corral: some solution goes on with a push of its barrier boxes (`corral`)
        movable = boxes if barrier is None else barrier
        if delta is not None:
            delta.parent(boxes)
        squares = BoxSquares(boxes) if self.aim is not None else None
        for macro, child, region in macros.moves(boxes, reach, movable):
            self.generated += 1
            if child in parents:
                self.duplicates += 1
                continue
            src, dst = macro[0].square, macro[-1].square + board.offsets[macro[-1].direction]
            if delta is not None:
                h = delta.child(src, dst, child[1])
            else:
                h = self._h(child, None if squares is None else squares.child(child[0]))
            if h >= INF:
                continue
            pockets = features.pockets(child[0], region)
            if prover is not None and prover.dead(child[0], region, pockets):
                parents[child] = DEAD  # met again, it counts as a duplicate
                continue
            rank = self.score(child[0], region, h)
            parents[child] = state  # not the macro: `_path` finds it again
            if fresh is not None:
                fresh.append(child)
            if problem.is_goal(child):
                self.status, self.goal = SOLVED, child
                return None
            children.append(child)
            advice.append(
                (rank, opens(boxes, reach, child[0], region, src, dst), (walk.get(src, INF), walk.get(dst, INF)))
            )
        if self.endgame is not None:
            self.endgame.offer(children, [rank.h for rank, _opens, _away in advice])
        return children, [rank for rank, _opens, _away in advice], advised(own, advice)

    def path_to(self, state: State) -> tuple[list, list, int]:
        """The pushes from the start to ``state`` (reached), with the position after each."""
        if state in self.joins:  # the endgame's: the way to where it set out, then its pushes
            base, pushes = self.joins[state]
            actions, states, cost = self.path_to(base)
            states.extend(positions_along(self.problem.board, base[0], pushes))
            return actions + pushes, states, cost + len(pushes)
        return _path(self.problem, self.macros, self.chain(state))


def sokoban_fess(
    problem: Any,
    *,
    own_cells: bool = False,
    stranded: bool = False,
    any_order: bool = False,
    parking: bool = False,
    endgame: bool = False,
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """FESS over macro moves: cycle through feature cells, expand the least-weight position."""
    search = FessSearch(
        problem,
        limits=limits,
        observer=observer,
        own_cells=own_cells,
        stranded=stranded,
        any_order=any_order,
        parking=parking,
        endgame=endgame,
    )
    search.step()
    return search.result()


def _plain_nearest(problem: SokobanProblem) -> bool:
    """True when the problem's heuristic is its own nearest-goal bound (no packing guide, no
    other plugin's estimate), which `NearestDelta` computes the same."""
    own = getattr(problem.heuristic, "__func__", None) is SokobanProblem.heuristic
    return own and problem.h_name == NEAREST and problem.packing is None and problem._near is not None


def _path(problem: SokobanProblem, macros: MacroMoves, chain: list[State]) -> tuple[list, list, int]:
    """The pushes along ``chain`` (positions from the start), with the position after each
    push (`MacroMoves.along`)."""
    pushes = macros.along(chain)
    states = [problem.initial_state(), *positions_along(problem.board, problem.board.start_boxes, pushes)]
    return pushes, states, len(pushes)
