"""Closed diagonal deadlocks: boxes round empty squares the player can never step on again.

Why: the freeze test (`freeze_rule.frozen_boxes`) asks each box's axes for walls and frozen
boxes, but a box beside an empty square that boxes and walls close off cannot be pushed
away from it either (the pusher would stand on that square), and diagonal lines of boxes
in open rooms lock up that way without any wall.  After a push that closes such a square,
the boxes near it are taken as fixed and every one that could still be pushed is dropped,
until none can (a greatest fixpoint): a push needs its target free (not a wall, a fixed
box or a dead square) and its pusher's square open (not a wall, a fixed box, or a square
closed off by walls and fixed boxes).  Boxes further away count as movable, both as
targets and pushers' squares.  What is left never moves; one box of it off goal is a
deadlock.
"""

from __future__ import annotations

from .board import bits

MAX_GROUP = 16  # boxes near the push taken as fixed at first


class ClosedDiagonal:
    """``dead(dst, boxes, player)``: the box just pushed to ``dst`` closes a deadlocked structure."""

    def __init__(self, board):
        self.board = board
        w = board.width
        self.cross = (-w, w, -1, 1)
        ring = (-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1)
        floor = board.floor
        # around[x]: the floor squares of the 8 round x; sides[x]: of the 4 beside x, as a
        # mask and as a list
        self.around = [0] * board.size
        self.sides = [0] * board.size
        self.side_list: list[list[int]] = [[] for _ in range(board.size)]
        for x in bits(floor):
            self.around[x] = sum(1 << (x + o) for o in ring if floor >> (x + o) & 1)
            self.side_list[x] = [x + o for o in self.cross if floor >> (x + o) & 1]
            self.sides[x] = sum(1 << n for n in self.side_list[x])

    def closes(self, dst: int, boxes: int, player: int) -> bool:
        """True when a square beside ``dst`` is now closed off by walls and boxes."""
        sides = self.sides
        for e in self.side_list[dst]:
            if e != player and not boxes >> e & 1 and not sides[e] & ~boxes:
                return True
        return False

    def dead(self, dst: int, boxes: int, player: int) -> bool:
        if not self.closes(dst, boxes, player):
            return False
        group = self._group(dst, boxes)
        board = self.board
        floor, is_dead, goals = board.floor, board.is_dead, board.goals
        changed = True
        while changed and group:
            changed = False
            for b in bits(group):
                if self._movable(b, group, player, floor, is_dead):
                    group &= ~(1 << b)
                    changed = True
        return bool(group & ~goals)

    def _movable(self, b: int, fixed: int, player: int, floor: int, is_dead) -> bool:
        for o in self.cross:
            target, pusher = b + o, b - o
            if not floor >> target & 1 or fixed >> target & 1 or is_dead[target]:
                continue
            if not floor >> pusher & 1 or fixed >> pusher & 1:
                continue
            if pusher != player and not self.sides[pusher] & ~fixed:
                continue
            return True
        return False

    def _group(self, dst: int, boxes: int) -> int:
        """The boxes joined to ``dst`` through boxes side by side or corner to corner."""
        group = 1 << dst
        stack = [dst]
        count = 1
        around = self.around
        while stack and count < MAX_GROUP:
            x = stack.pop()
            near = around[x] & boxes & ~group
            while near and count < MAX_GROUP:
                low = near & -near
                near ^= low
                group |= low
                count += 1
                stack.append(low.bit_length() - 1)
        return group
