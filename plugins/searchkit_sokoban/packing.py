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

`LayerGuide` turns layers into a greedy guide that fills one layer at a time: a box is
*settled* on a goal of the deepest layer that still has an empty goal or of a deeper one;
every other box - including one parked on a goal of a later layer - costs a fixed
``step`` plus its push distance to the nearest goal of that layer.  It is inadmissible
and only orders the search: it never prunes, so it costs no solution.  `Packing.cost` is
that guide over the goals' layers; the pull search's ``pull-packing`` (`pull`) runs it
backwards, over the start squares' own layers (`Packing.start_layers_of`) and pulls.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence

from .board import INF, bits, flood, mask_of
from .heuristics import push_rows


class LayerGuide:
    """A greedy guide that fills ``layers`` (masks of target squares, layer 0 filled last)
    one at a time: a box is *settled* on a target of the deepest layer that still has an
    empty target or of a deeper one; every other box - including one parked on a target of
    a later layer - costs a fixed ``step`` plus its distance to the nearest target of that
    layer (``step`` more plus its distance to any target, when it cannot reach that layer).

    ``rows[key]``: a box's distances to the targets ``columns`` (square numbers, in row
    order); None or empty when the box has no row; ``key >> shift`` is the box's square."""

    def __init__(self, rows: Sequence[Sequence[int] | None], columns: list[int], layers: list[int], shift: int = 0):
        self.layers = layers
        self.shift = shift
        self.targets = 0
        below = []  # per layer: the targets of the layers before it (filled after it)
        for m in layers:
            below.append(self.targets)
            self.targets |= m
        self.settled = [self.targets & ~b for b in below]
        index = {t: j for j, t in enumerate(columns)}
        self.near: list[list[int]] = []  # per layer, per key: the distance to its nearest target
        for m in layers:
            cols = [index[t] for t in bits(m)]
            self.near.append([min(row[j] for j in cols) if row else INF for row in rows])
        self.any_near = [min(row) if row else INF for row in rows]
        # a box off the layer's reach still costs more than any box on its way there
        self.step = max([d for t in self.near for d in t if d < INF] + [1]) + 1

    def cost(self, keys: Iterable[int], boxes: int) -> int:
        """The guide for ``boxes`` whose row keys are ``keys`` (INF: a box reaches no target)."""
        empty = self.targets & ~boxes
        if not empty:
            return 0
        layers = self.layers
        deepest = len(layers) - 1
        while not layers[deepest] & empty:
            deepest -= 1
        settled, near, anyn, step = self.settled[deepest], self.near[deepest], self.any_near, self.step
        shift = self.shift
        total = 0
        for k in keys:
            if settled >> (k >> shift) & 1:
                continue
            d = near[k]
            if d >= INF:
                if anyn[k] >= INF:
                    return INF
                d = step + anyn[k]
            total += step + d
        return total


class Packing:
    """Goal layers for a board: ``layers`` (goal masks, layer 0 filled last), ``ordered`` when
    there are two or more, and `LayerGuide`'s ``cost`` over the board's push distances (a
    row per box square and player side, key ``square * 4 + side``)."""

    def __init__(self, board):
        self.board = board
        self.layers: list[int] = self.layers_of(board)
        self.ordered = len(self.layers) > 1
        self.cost = LayerGuide(push_rows(board), board.goal_list, self.layers, shift=2).cost

    # -- the backward computation -----------------------------------------------------------
    @staticmethod
    def layers_of(board, goals: int | None = None, aim: int | None = None) -> list[int]:
        """The layers of ``goals`` (default: all), the board's other goals left empty.  With
        ``aim`` (a mask of squares, for a search towards boxes on them, `aim`), the aim takes
        the goals' place, ``goals`` some of its squares, and there is no guess when no box
        can leave."""
        targets = board.goals if aim is None else aim
        sources, outside_of = exits(board, targets)
        return _layers(
            board,
            targets if goals is None else goals,
            sources,
            outside_of,
            pull=True,
            guess=(lambda remaining: _nearest_to_boxes(board, remaining)) if aim is None else None,
        )

    @staticmethod
    def start_layers_of(board, squares: int, starts: int | None = None) -> list[int]:
        """The same order for a search from the solved position back to the start
        (`fess_pull`), whose "goals" are the start squares ``squares``: layer 0 holds the
        ones a box can be pushed from (walls only, the other start squares still full) to a
        goal that no box starts on, or else to a square such a goal's box can be pulled to;
        no guess when none can.  ``starts``: all the start squares (default: the board's)."""
        starts = board.start_boxes if starts is None else starts
        sources = board.goals & ~starts
        return _layers(board, squares, sources, lambda: mask_of(board.pulls_from(sources)) & ~starts, pull=False)


def exits(board, targets: int) -> tuple[int, Callable[[], int]]:
    """Where a box leaving ``targets`` backwards may go: the start squares off them (a box
    starting on a target is a wall till it is pulled elsewhere), or else the squares the
    second value computes when called, any the start boxes can be pushed to, walls only."""
    sources = board.start_boxes & ~targets
    return sources, lambda: mask_of(board.pushes_from(sources)) & ~targets


def _layers(board, remaining: int, sources: int, outside_of, *, pull: bool, guess=None) -> list[int]:
    """The layers of the squares ``remaining`` (layer 0 filled last): each layer the squares
    whose box can leave - pulled when ``pull``, else pushed - to ``sources`` with the rest
    still full, or else to the squares ``outside_of()`` names; ``guess(remaining)`` when
    neither can (None: the rest share the last layer)."""
    outside = 0  # computed when first needed
    layers: list[int] = []
    while remaining:
        layer = 0
        for g in bits(remaining):
            if leaves_to(board, g, remaining & ~(1 << g), sources, pull):
                layer |= 1 << g
        if not layer:
            # no box goes back to a source with the others full: the last one came round a
            # detour or from where it was parked, off the squares ordered
            outside = outside or outside_of()
            for g in bits(remaining):
                if leaves_to(board, g, remaining & ~(1 << g), outside, pull):
                    layer |= 1 << g
        if not layer and guess is not None:
            layer = guess(remaining)
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


def leaves_to(board, square: int, walls: int, targets: int, pull: bool) -> bool:
    """Can a box on ``square`` be pulled (``pull``) or pushed to a square of ``targets`` with
    ``walls`` fixed?"""
    return bool(targets >> square & 1 or moves_to(board, square, walls, pull, targets) & targets)


def moves_to(board, square: int, walls: int, pull: bool, stop: int = 0) -> int:
    """The squares a lone box on ``square`` can be pulled (``pull``) or pushed to with
    ``walls`` fixed (the player anywhere at first), as a mask; the search ends as soon as it
    reaches a square of ``stop``."""
    w, offs = board.width, board.offsets
    free = board.floor & ~walls
    seen = set()
    reached = 0
    queue: deque = deque()
    around = free & ~(1 << square)
    for o in offs:
        n = square + o
        if around >> n & 1:
            region = flood(1 << n, around, w)
            key = (square, region & -region)
            if key not in seen:
                seen.add(key)
                queue.append((square, region))
    while queue:
        x, region = queue.popleft()
        for o in offs:
            # pull: the player on x+o steps back to x+2o, the box follows to x+o;
            # push: the player on x-o pushes the box to x+o, stepping onto x
            to = x + o
            player, after = (to, x + 2 * o) if pull else (x - o, x)
            if not (region >> player & 1) or not (free >> to & 1) or not (free >> after & 1):
                continue
            reached |= 1 << to
            if stop >> to & 1:
                return reached
            nfree = free & ~(1 << to)
            nregion = flood(1 << after, nfree, w)
            key = (to, nregion & -nregion)
            if key not in seen:
                seen.add(key)
                queue.append((to, nregion))
    return reached & ~(1 << square)
