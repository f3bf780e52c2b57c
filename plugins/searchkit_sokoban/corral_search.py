"""Corral deadlocks proved by a small search: the player can never get into a walled-off area.

Why: PI-corral pruning (`corral`) calls a corral dead only when no push can enter it now;
large levels also make corrals whose boxes can be pushed about outside but never so that
the area opens (closed diagonals of boxes round an empty square, boxes jammed in a row
against a wall).  For one unreachable area, its barrier (the boxes beside it) and the boxes
next to the barrier (ring by ring, up to `MAX_BOXES`) are searched: boxes frozen on goals
(`deadlocks.FrozenOnGoals`) are walls, since no solution moves them; every other box
is taken off the board, and so is a box as soon as it is pushed off the area's rim, which
only makes pushing easier, so when even then no push sequence lets the player into the
area or puts every box left on a goal, the real position is dead too.  A barrier of one or
two boxes is searched on after the player gets in (a box pushed in ahead of the player,
e.g. into a pocket without a goal, can leave the position as dead as before): for it only
the marks of `CorralProver._sealed` count.  The search counts a sub-position as dead only by
rules that hold with boxes missing: a dead square, or a frozen group with a box off goal.
It stops at `MAX_NODES` positions or `MAX_BOXES` barrier boxes and then says "alive".
"""

from __future__ import annotations

from collections.abc import Iterable

from .board import INF, around, bits, flood, regions
from .deadlocks import FrozenOnGoals, freeze_deadlock

MAX_BOXES = 8  # boxes searched (barrier and neighbours); larger corrals are left to the main search
MAX_NODES = 300  # sub-positions per proof
MEMO_SIZE = 1 << 15  # remembered verdicts before starting afresh
# barriers of at most this many boxes are searched on when the player steps into the area
SEARCHED_ON = 2


class CorralProver:
    """``dead(boxes, reach)``: True when some unreachable area can provably never be entered."""

    def __init__(self, board, dead_squares: bool = True, frozen_on_goals: FrozenOnGoals | None = None):
        self.board = board
        self.dead_squares = dead_squares
        self.memo: dict[tuple[int, int, int, int], bool] = {}
        # the boxes frozen on goals of a position (the pruning's, when it has one)
        self.frozen_on_goals = frozen_on_goals or FrozenOnGoals(board)

    def dead(self, boxes: int, reach: int, areas: Iterable[int] | None = None) -> bool:
        """``areas``: the unreachable areas when the caller knows them (`features.Features.pockets`)."""
        board = self.board
        floor, w = board.floor, board.width
        fixed = None  # the boxes frozen on goals: walls for every proof (found when first needed)
        for area in regions(floor & ~boxes & ~reach, w) if areas is None else areas:
            if fixed is None:
                fixed = self.frozen_on_goals(boxes)
            loose = boxes & ~fixed
            barrier = around(area, w) & loose
            if barrier.bit_count() > MAX_BOXES:
                continue
            barrier = _with_neighbours(barrier, loose, w)
            # the verdict depends on where the player is, with only these boxes in the way:
            # the region grown from any square of ``reach``, flooded when the square is new
            # (positions that differ elsewhere share the region's verdict)
            key = (barrier, area, reach & -reach, fixed)
            verdict = self.memo.get(key)
            if verdict is None:
                if len(self.memo) >= MEMO_SIZE:
                    self.memo.clear()
                start = flood(reach, floor & ~barrier & ~fixed, w)
                # by the region too (when the region is that one square, this is the key
                # above, and the verdict the same)
                wide = (barrier, area, start, fixed)
                verdict = self.memo.get(wide)
                if verdict is None:
                    verdict = self.memo[wide] = self._sealed(barrier, area, start, fixed)
                self.memo[key] = verdict
            if verdict:
                return True
        return False

    def _sealed(self, boxes: int, area: int, start_region: int, walls: int = 0) -> bool:
        """True when no push sequence of ``boxes`` alone (the player starting anywhere in
        ``start_region``) lets the player into ``area`` or puts every box on a goal - or,
        when ``area`` holds an empty goal, moves a box off the squares beside it.
        ``walls``: boxes frozen on goals, which no solution moves.

        Every solution passes both marks: its last position has every box on a goal, and
        an empty goal inside is filled by a box pushed in over a square beside the area,
        all of which barrier boxes hold now.  So a search that misses either proves the
        position dead (the second catches goals shut in by boxes on goals that never move)."""
        board = self.board
        floor, w, goals = board.floor & ~walls, board.width, board.goals
        offs, side_comp, region_after = board.offsets, board.side_comp, board.region_after
        if start_region & area:
            return False
        doors = around(area, w) & floor & ~area
        on_goals = not boxes & ~goals  # the first mark, passed at the start already
        door_moved = not area & goals  # the second, only asked for an empty goal inside
        if on_goals and door_moved:
            return False
        # a box pushed off the area's rim is taken off the board (a box less only makes
        # pushing easier): the proof is about the rim, and the search stays small
        rim = area | doors
        opens = boxes.bit_count() > SEARCHED_ON  # the player inside ends the search: alive
        seen = {(boxes, _low(start_region))}
        frontier = [(boxes, start_region)]
        while frontier:
            nxt = []
            for sboxes, region in frontier:
                free = floor & ~sboxes
                for src in bits(sboxes):
                    low = 1 << src
                    for k, o in enumerate(offs):
                        dst = src + o
                        if not (region >> (src - o) & 1 and free >> dst & 1):
                            continue
                        nboxes = sboxes ^ low ^ (1 << dst)
                        if self._dead(dst, side_comp[dst][k ^ 1], nboxes):
                            continue
                        door_moved = door_moved or bool(doors >> src & 1)
                        entered = 1 << dst
                        if not rim >> dst & 1:
                            nboxes ^= entered
                            entered = 0
                        cregion = region_after(region, low, entered, low, floor & ~nboxes)
                        if opens and cregion & area:
                            return False  # the area opens
                        on_goals = on_goals or not nboxes & ~goals
                        if on_goals and door_moved:
                            return False  # both marks passed: no proof
                        key = (nboxes, _low(cregion))
                        if key in seen:
                            continue
                        if len(seen) >= MAX_NODES:
                            return False  # no proof within the budget
                        seen.add(key)
                        nxt.append((nboxes, cregion))
            frontier = nxt
        return True

    def _dead(self, dst: int, side: int, boxes: int) -> bool:
        """Dead with boxes missing: a dead square, or a frozen group with a box off goal (the
        goals sealed off by boxes frozen on goals need all the boxes: not used here)."""
        board = self.board
        if self.dead_squares and board.nearest[dst][side] >= INF:
            return True
        return freeze_deadlock(dst, boxes, board, sealed=False)


def _with_neighbours(barrier: int, boxes: int, w: int) -> int:
    """``barrier`` grown by the boxes next to it, ring by ring, while it has at most
    `MAX_BOXES`: a box that jams a barrier box (two boxes in a row against a wall) is
    needed for the proof, and any subset of the boxes keeps it sound."""
    while True:
        ring = around(barrier, w) & boxes & ~barrier
        if not ring:
            return barrier
        grown = barrier | ring
        if grown.bit_count() > MAX_BOXES:
            return barrier
        barrier = grown


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1
