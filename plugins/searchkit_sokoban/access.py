"""Which squares a box can be pushed to a goal from, the player's way round counted.

`pull_flood` answers this for the walls alone: a box moves when the square ahead and the
player's square behind it are free, however the player would get there.  Beside boxes that
never move again that answer is too kind: a box pushed through a one-wide door into a room
goes on only straight ahead, since to push it sideways the player must get round it and
the door it has just left was the only way in; the walls alone let it turn.

`access_reach` walks a lone box back from each goal by pulls, as `packing.leaves_to` does,
keeping track of which part of the floor round the box the player is in.  The parts round
each square are found once per set of walls (`SideParts`).  The other boxes are left out
(`deadlocks.sealed_off` takes the boxes frozen on goals for walls, and no more), so the
answer only errs towards "can reach": a position it calls dead is dead.
"""

from __future__ import annotations

from .board import parts_round

CACHE_SIZE = 1 << 12  # remembered sets of walls before starting afresh


class SideParts:
    """Per floor square, which part of the floor without it the player stands in on each
    side of it (-1: a wall or a box there), with ``walls`` taken for walls too.  Most
    squares need no flood: their free neighbours join round the corners between them."""

    __slots__ = ("board", "free", "known")

    def __init__(self, board, walls: int):
        self.board = board
        self.free = board.floor & ~walls
        self.known: dict[int, tuple[int, ...]] = {}

    def of(self, x: int) -> tuple[int, ...]:
        parts = self.known.get(x)
        if parts is None:
            parts = self.known[x] = self._parts(x)
        return parts

    def _parts(self, x: int) -> tuple[int, ...]:
        board, free = self.board, self.free
        if board.keeps_region(x, free):  # the free sides join round the corners: one part
            return tuple(0 if free >> (x + o) & 1 else -1 for o in board.offsets)
        return tuple(parts_round(x, free, board.offsets, board.width)[1])


def access_reach(walls: int, board) -> list[int]:
    """For each goal off ``walls``: the squares from which a lone box can be pushed onto it,
    the player walking round to each push (remembered per ``walls``, `Board.access_cache`)."""
    cache = board.access_cache
    out = cache.get(walls)
    if out is not None:
        return out
    parts = SideParts(board, walls)
    free, offs = parts.free, board.offsets
    out = []
    for g in board.goal_list:
        if walls >> g & 1:
            continue
        reach = 1 << g
        # a node: the box on a square, the player in one part of the floor round it
        todo = [(g, p) for p in set(parts.of(g)) if p >= 0]
        seen = set(todo)
        while todo:
            x, part = todo.pop()
            here = parts.of(x)
            for k, o in enumerate(offs):
                # the player on x+o steps back to x+2o, pulling the box onto x+o
                if here[k] != part or not free >> (x + 2 * o) & 1:
                    continue
                y = x + o
                node = (y, parts.of(y)[k])
                if node not in seen:
                    seen.add(node)
                    reach |= 1 << y
                    todo.append(node)
        out.append(reach)
    if len(cache) >= CACHE_SIZE:
        cache.clear()
    cache[walls] = out
    return out
