"""Packing order: which goals must be filled before which, found by emptying the goals.

In a goal room (goals behind a narrow entrance, or down a dead-end corridor) a box parked
on the goal nearest the entrance seals the goals behind it, and a heuristic that sums
distances to the nearest goal heads straight for that trap.  The order is found backwards
from the solved position: a goal can be the *last* one filled when a box can be pulled
from it, with every other still-filled goal holding a box (a wall), back to a square a
box starts on.  Every goal removable that way gets layer 0; they are emptied and the
rest tried again (layer 1 = filled just before them, ...).  When no goal is removable that
way - the last box came round a detour that needs the player where the full goals are, or
from where it was parked - a goal whose box can be pulled off to any square the start boxes
can be pushed to (walls only) counts instead: without it a third of Sasquatch II's levels
fell back on guessing the goals nearest the boxes as the last ones (a row of goals closed
at one end was filled from its open end).  Goals never removable share the last layer.  A
level without such constraints has every goal in layer 0.

`Packing.cost` turns the layers into a greedy guide that fills one layer at a time: a box
is *settled* on a goal of the deepest layer that still has an empty goal or of a deeper
one; every other box - including one parked on a goal of a later layer - costs a fixed
``step`` plus its push distance to the nearest goal of that layer.  It is inadmissible
and only orders the search: it never prunes, so it costs no solution.
"""

from __future__ import annotations

from collections import deque

from .board import INF, bits, flood, mask_of


class Packing:
    """Goal layers for a board: ``layer_of[g]`` (0 = filled last) and per-layer masks."""

    def __init__(self, board):
        self.board = board
        self.layers: list[int] = self.layers_of(board)  # goal masks, layer 0 first
        # below[i]: goals of layers < i (filled after layer i's goals)
        self.below = [0] * (len(self.layers) + 1)
        acc = 0
        for i, m in enumerate(self.layers):
            self.below[i] = acc
            acc |= m
        self.below[len(self.layers)] = acc
        self.ordered = len(self.layers) > 1
        # settled[i]: goals of layers >= i; near[i][key]: push distance to layer i's goals
        self.settled = [board.goals & ~self.below[i] for i in range(len(self.layers))]
        index = {g: j for j, g in enumerate(board.goal_list)}
        self.near: list[list[int]] = []
        for m in self.layers:
            cols = [index[g] for g in bits(m)]
            table = [INF] * (board.size * 4)
            for x, rows in enumerate(board.rowdist):
                for c, row in enumerate(rows):
                    table[x * 4 + c] = min(row[j] for j in cols)
            self.near.append(table)
        self.any_near = [INF] * (board.size * 4)
        for x, nearest in enumerate(board.nearest):
            for c, d in enumerate(nearest):
                self.any_near[x * 4 + c] = d
        # a box off the layer's reach still costs more than any box on its way there
        self.step = max([d for t in self.near for d in t if d < INF] + [1]) + 1

    def cost(self, keys, boxes: int) -> int:
        """The layer-by-layer guide for boxes with row keys ``keys`` (INF = a dead box)."""
        empty = self.board.goals & ~boxes
        if not empty:
            return 0
        layers = self.layers
        deepest = len(layers) - 1
        while not layers[deepest] & empty:
            deepest -= 1
        settled, near, anyn, step = self.settled[deepest], self.near[deepest], self.any_near, self.step
        total = 0
        for k in keys:
            if settled >> (k >> 2) & 1:
                continue
            d = near[k]
            if d >= INF:
                if anyn[k] >= INF:
                    return INF
                d = step + anyn[k]
            total += step + d
        return total

    # -- the backward computation -----------------------------------------------------------
    @staticmethod
    def layers_of(board, goals: int | None = None) -> list[int]:
        """The layers of ``goals`` (default: all), the board's other goals left empty."""
        sources = board.start_boxes & ~board.goals  # a box starting on a goal is a wall till it is pulled elsewhere
        outside = 0  # the squares off the goals that pushes (walls only) bring a start box to
        remaining = board.goals if goals is None else goals
        layers: list[int] = []
        while remaining:
            layer = 0
            for g in bits(remaining):
                if _pullable_to(board, g, remaining & ~(1 << g), sources):
                    layer |= 1 << g
            if not layer:
                # no box goes back to a start square with the other goals full: the last one
                # came round a detour or from where it was parked, off the goals
                outside = outside or mask_of(board.pushes_from(sources)) & ~board.goals
                for g in bits(remaining):
                    if _pullable_to(board, g, remaining & ~(1 << g), outside):
                        layer |= 1 << g
            if not layer:
                layer = _nearest_to_boxes(board, remaining)
                if not layer:
                    layers.append(remaining)  # no box reaches any of them: no order
                    break
            layers.append(layer)
            remaining &= ~layer
        return layers


def _nearest_to_boxes(board, goals: int) -> int:
    """The goals of ``goals`` fewest pushes from a start box (walls only): when no goal can
    be emptied with the others full, the ones nearest the boxes are taken to be filled last."""
    index = {g: j for j, g in enumerate(board.goal_list)}
    starts = bits(board.start_boxes)
    best, found = INF, 0
    for g in bits(goals):
        j = index[g]
        d = min((row[j] for x in starts for row in board.rowdist[x]), default=INF)
        if d < best:
            best, found = d, 1 << g
        elif d == best and d < INF:
            found |= 1 << g
    return found


def _pullable_to(board, goal: int, walls: int, targets: int) -> bool:
    """Can a box on ``goal`` be pulled to a square of ``targets`` with ``walls`` fixed?"""
    if targets >> goal & 1:
        return True
    w, offs = board.width, board.offsets
    free = board.floor & ~walls
    seen = set()
    queue: deque = deque()
    around = free & ~(1 << goal)
    for o in offs:
        n = goal + o
        if around >> n & 1:
            region = flood(1 << n, around, w)
            key = (goal, region & -region)
            if key not in seen:
                seen.add(key)
                queue.append((goal, region))
    while queue:
        x, region = queue.popleft()
        for o in offs:
            stand, back = x + o, x + 2 * o
            # pull: the player on x+o steps back to x+2o, the box follows to x+o
            if not (region >> stand & 1) or not (free >> back & 1):
                continue
            if targets >> stand & 1:
                return True
            nfree = free & ~(1 << stand)
            nregion = flood(1 << back, nfree, w)
            key = (stand, nregion & -nregion)
            if key not in seen:
                seen.add(key)
                queue.append((stand, nregion))
    return False
