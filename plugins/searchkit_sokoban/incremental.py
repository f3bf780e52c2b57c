"""The nearest-goal bound of a macro move's result, from its parent's sum and table look-ups.

Why: the FESS search (`fess`) generates tens of children per expansion and rating each one
afresh (every box's row key, then the sum) was a third of its time.  A macro moves one box
from ``src`` to ``dst``; a box off a cut square costs the same whatever side the player is
on, so only the moved box and the boxes on cut squares (`Board.multi`) need a look-up.
"""

from __future__ import annotations

from .board import INF, bits


class NearestDelta:
    """``parent(boxes)`` once per expansion, then ``child(src, dst, player)`` per macro move."""

    def __init__(self, board, near: list[int]):
        self.board = board
        self.near = near
        self.still = 0  # the parent's boxes off cut squares: their summed costs
        self.cut: list[int] = []  # the parent's boxes on cut squares

    def parent(self, boxes: int) -> None:
        multi, near = self.board.multi, self.near
        still = 0
        cut = []
        for x in bits(boxes):
            if multi[x]:
                cut.append(x)
            else:
                still += near[x * 4]
        self.still, self.cut = still, cut

    def child(self, src: int, dst: int, player: int) -> float:
        """The bound after the box on ``src`` went to ``dst``, the player on ``player``'s side."""
        board = self.board
        multi, compidx, near = board.multi, board.compidx, self.near
        h = self.still
        if not multi[src]:
            h -= near[src * 4]
        for x in self.cut:
            if x != src:
                h += near[x * 4 + compidx[x][player]]
        index = compidx[dst]
        h += near[dst * 4 + (0 if index is None else index[player])]
        return float("inf") if h >= INF else float(h)
