"""Hotspots: boxes standing where they cut another box off from a goal.

Why: FESS (Shoham & Schaeffer) ranks positions by features and proposes moves that improve
them; a box parked in a room's doorway or a corridor's mouth costs nothing by packing or
connectivity, yet every box behind it needs it moved first.  A box at square ``b`` *blocks*
square ``p`` when a lone box at ``p`` reaches fewer goals once ``b`` is a wall; the hotspots
of a position are its boxes off goals that block the square of another box off goals.  Which
squares a blocker cuts off is found once per blocker square, when a box first stands there
(one backward search of pulls per goal; the player's side of each box is judged on the
board without the blocker, so a blocker that only shuts the player out is missed).  On
levels with many goals and much floor (`PER_GOAL_WORK`) that costs too much, and a box
blocks only the squares it cuts off from every goal (one search from all goals at once).
"""

from __future__ import annotations

from .board import INF, Board, ahead, around, bits

PER_GOAL_WORK = 20_000  # goals x floor squares up to which blocking is judged goal by goal


class Hotspots:
    """Counts the hotspots of positions of one board."""

    def __init__(self, board: Board):
        self.board = board
        per_goal = len(board.goal_list) * board.floor.bit_count() <= PER_GOAL_WORK
        self.targets = [1 << g for g in board.goal_list] if per_goal else [board.goals]
        # the squares each target is reached from, as the board's push distances have them
        self.reaches = per_goal_reach(board) if per_goal else [board.live]
        # a wall can only shorten a goal's pulls on their squares or where the player stands
        self.touches = [reach | around(reach, board.width) for reach in self.reaches]
        self._cuts: dict[int, int] = {}
        self.known = 0  # squares whose cuts are known
        self.blockers = 0  # of those, the squares that cut some square off

    def cuts(self, blocker: int) -> int:
        """The squares from which a lone box reaches fewer goals with a wall at ``blocker``."""
        known = self._cuts.get(blocker)
        if known is None:
            board, bit = self.board, 1 << blocker
            known = 0
            for target, reach, touch in zip(self.targets, self.reaches, self.touches, strict=True):
                if touch & bit:
                    known |= reach & ~board.reaching(target, bit)
            known &= ~bit
            self._cuts[blocker] = known
            self.known |= bit
            if known:
                self.blockers |= bit
        return known

    def count(self, boxes: int) -> int:
        """How many boxes off goals block another box off goals."""
        loose = boxes & ~self.board.goals
        for b in bits(loose & ~self.known):
            self.cuts(b)
        cuts = self._cuts
        return sum(1 for b in bits(loose & self.blockers) if cuts[b] & loose)


def per_goal_reach(board: Board) -> list[int]:
    """Per goal, the squares from which a lone box can be pushed there (`Board.rowdist`)."""
    reach = [0] * len(board.goal_list)
    for x in bits(board.floor):
        for row in board.rowdist[x]:
            for j, d in enumerate(row):
                if d < INF:
                    reach[j] |= 1 << x
    return reach


class AimHotspots:
    """Hotspots for a search aimed at boxes on the squares ``aim`` (`aim`), as the FESS
    paper's program counts them there: boxes off those squares with a wall or box beside
    them (in the way of the rearranging), and empty aim squares that no push can fill now
    (on every side a wall beside, or a wall or box where the player would stand): the
    goals' hotspots (`Hotspots`) say nothing about squares that are not goals."""

    def __init__(self, board: Board, aim: int):
        self.aim = aim
        self.offsets = board.offsets
        self.floor = board.floor

    def count(self, boxes: int) -> int:
        """All squares at once (bit-parallel, as `rules.pullable`): a box is in the way unless its
        four sides are free; an empty aim square can be filled when on some side the square
        beside is floor (a box there or brought there) and the one behind it free for the
        pusher."""
        floor = self.floor
        free = floor & ~boxes
        open_round = -1
        fillable = 0
        for o in self.offsets:
            open_round &= ahead(free, o)
            fillable |= ahead(floor, o) & ahead(free, 2 * o)
        return (boxes & ~self.aim & ~open_round).bit_count() + (self.aim & ~boxes & ~fillable).bit_count()
