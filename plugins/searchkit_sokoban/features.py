"""The FESS feature space: a position projected onto a few numbers that say how far along it is.

Two positions with the same features share a *cell*; the FESS search (`fess`) spreads its
effort over the cells instead of trusting one heuristic's ranking.  The features:

* ``packed``: boxes on goals counted in packing order (`packing.Packing`, the retrograde
  analysis of the goal area): whole layers from the one filled first, then the boxes on
  goals of the first unfinished layer - a box parked on a later layer's goal does not count;
* ``connectivity``: how many regions the boxes cut the floor into (1 = the player can go
  everywhere); fewer is better;
* ``out_of_plan``: boxes on goals of layers whose turn has not come, which the plan must
  move away again (0 on levels without a packing order); fewer is better.
"""

from __future__ import annotations

from typing import NamedTuple

from .board import Board, flood
from .packing import Packing

MEMO_SIZE = 1 << 16  # remembered walled-off areas before starting afresh


class Cell(NamedTuple):
    """The features of a position (the key of its cell)."""

    packed: int
    connectivity: int
    out_of_plan: int


class Features:
    """The projection of positions of one board onto `Cell`."""

    def __init__(self, board: Board):
        self.board = board
        packing = Packing(board)
        # layers in filling order: the last layer of `Packing` is filled first
        self.order: list[int] = list(reversed(packing.layers)) if packing.ordered else [board.goals]
        # the search meets the same goal fillings and the same walled-off areas again and again
        self._packed: dict[int, tuple[int, int]] = {}
        self._pockets: dict[int, int] = {}

    def packed(self, boxes: int) -> tuple[int, int]:
        """``(packed, out_of_plan)`` for ``boxes`` (remembered by the boxes on goals)."""
        on_goals = boxes & self.board.goals
        known = self._packed.get(on_goals)
        if known is None:
            known = self._packed[on_goals] = self._count_packed(on_goals)
        return known

    def _count_packed(self, boxes: int) -> tuple[int, int]:
        count = 0
        order = self.order
        for i, layer in enumerate(order):
            on = (boxes & layer).bit_count()
            count += on
            if on < layer.bit_count():
                later = 0
                for rest in order[i + 1 :]:
                    later |= rest
                return count, (boxes & later).bit_count()
        return count, 0

    def connectivity(self, boxes: int, reach: int = 0) -> int:
        """The number of regions of floor without boxes; ``reach``, when known, is one of them
        (the player's, which the macro search has flooded already): only the rest is counted."""
        free = self.board.floor & ~boxes & ~reach
        known = self._pockets.get(free)
        if known is None:
            if len(self._pockets) >= MEMO_SIZE:
                self._pockets.clear()
            known = self._pockets[free] = self._regions(free)
        return known + (1 if reach else 0)

    def _regions(self, free: int) -> int:
        w = self.board.width
        regions = 0
        while free:
            region = flood(free & -free, free, w)
            free &= ~region
            regions += 1
        return regions

    def cell(self, boxes: int, reach: int = 0) -> Cell:
        """The cell of ``boxes``; ``reach``: the player's region if known (see `connectivity`)."""
        packed, out = self.packed(boxes)
        return Cell(packed, self.connectivity(boxes, reach), out)
