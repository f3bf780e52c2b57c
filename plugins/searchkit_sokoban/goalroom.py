"""Goal-room macros: a box pushed into a room of goals is carried on to where the plan puts it.

A *goal room* is the smallest part of the floor that holds every goal behind one
entrance square (a cut square off goal, no box on it).  Boxes must come in in the right
order, and a greedy search that parks the first box on the goal next to the entrance
seals the room.  The plan is found backwards, best-first: from the filled room, boxes
are pulled about inside the room (the player walks anywhere; boxes outside are left
out) and pulled out through the entrance one by one until only the boxes that start in
the room are left, where they start.  Just before a box comes in, another may go out
(forwards: pushed from the entrance to the square outside), so a room box in the way of
the entries can leave and come back later as one of them.  Read forwards the plan says,
for each box that comes in, what the room holds at that moment and which pushes follow
until the next box comes in (`entries`), and which pushes of the room's own boxes come
first (`prefix`).

`SokobanProblem` uses it in three ways (default mode only: macros skip states and are
not push-optimal):

* a push onto the entrance from outside, when the room holds what the plan expects for
  that entry, is replaced by one step (`Route`) doing it and the pushes after it - when
  they play on the real position (`plays`: the player reaches every pushing square);
* the start position also gets the prefix as one extra step;
* while the room holds what the plan leaves after an entry (`settled`) and the player is
  outside, its boxes are not pushed: the next planned entry moves them.

The first and the last prune, so a plan can lose a solution in principle; the tests
compare solvability with the plain search exhaustively on small goal-room levels.
"""

from __future__ import annotations

import heapq
from collections import deque
from typing import NamedTuple

from .board import DIRS, bits, flood

MAX_ROOM = 48  # squares; bigger rooms are not planned (the pull search would be slow)
MAX_PLAN_STATES = 200_000


class Route(NamedTuple):
    """A macro step: ``steps`` pushes ``(box_square, direction)``, in order."""

    steps: tuple
    width: int

    @property
    def count(self) -> int:
        return len(self.steps)

    @property
    def square(self) -> int:
        return self.steps[0][0]

    def __str__(self) -> str:
        r, c = divmod(self.steps[0][0], self.width)
        return f"{''.join(DIRS[k].upper() for _sq, k in self.steps)}@{r + 1},{c + 1}"


def expand_route(action) -> list:
    """``(square, direction, count)`` runs of a `Route`, a `Push` or a plain pair."""
    steps = getattr(action, "steps", None)
    if steps is not None:
        return [(sq, k, 1) for sq, k in steps]
    return [(action[0], action[1], action[3] if len(action) > 3 else 1)]


class GoalRoom:
    """The room, its entrance and the plan: ``entries[(room_boxes, from_square)] -> steps``."""

    def __init__(self, board):
        self.board = board
        self.entrance, self.room = _find_room(board)
        self.entries: dict[tuple[int, int], tuple] = {}
        self.prefix: tuple = ()  # pushes of the boxes that start in the room, before any entry
        self.settled: set[int] = set()  # room contents after each planned entry's pushes
        if self.entrance is not None:
            self._plan(board.start_boxes & self.room)
        self.active = bool(self.entries)
        self.inside = (self.room | 1 << self.entrance) if self.entrance is not None else 0

    def route(self, boxes: int, src: int, player: int) -> tuple | None:
        """The planned steps after pushing the box on ``src`` onto the entrance, if they play.

        ``boxes`` is the position before the push, ``player`` a square of the player's region.
        """
        steps = self.entries.get((boxes & self.inside, src))
        if steps is None:
            return None
        return steps if self.plays(steps, boxes, player) else None

    def plays(self, steps: tuple, boxes: int, player: int) -> bool:
        """True when ``steps`` can be played from ``boxes`` with the player's region at ``player``."""
        board = self.board
        w, offs, floor = board.width, board.offsets, board.floor
        for sq, k in steps:
            o = offs[k]
            free = floor & ~boxes
            if not (boxes >> sq & 1) or not (free >> (sq + o) & 1):
                return False
            if not (flood(1 << player, free, w) >> (sq - o) & 1):
                return False
            boxes ^= (1 << sq) | (1 << (sq + o))
            player = sq
        return True

    # -- the backward plan ------------------------------------------------------------------
    def _plan(self, start_boxes: int) -> None:
        board = self.board
        w, offs, floor, e = board.width, board.offsets, board.floor, self.entrance
        room = self.room
        box_area = room | 1 << e
        outside = [e + o for o in offs if floor >> (e + o) & 1 and not room >> (e + o) & 1]
        # the player walks anywhere (the boxes outside are left out: `route` checks the walks)
        area = floor
        goals, player_start = board.goals, board.player_start
        dist = _distances(board, e, box_area)
        seen: dict[tuple[int, int, bool], tuple | None] = {}
        heap: list = []
        for comp in _components(area & ~goals, w):
            key = (goals, comp & -comp, False)
            seen[key] = None
            heapq.heappush(heap, (_rank(goals, start_boxes, dist), goals, comp, False))
        end = None
        while heap and len(seen) < MAX_PLAN_STATES:
            _r, boxes, region, entered = heapq.heappop(heap)
            here = (boxes, region & -region, entered)
            # done when only the boxes that start in the room are left, and the player is
            # where it starts (or anywhere, when the room starts empty)
            if boxes == start_boxes and (not start_boxes or region >> player_start & 1):
                end = here
                break
            moves = []
            for x in bits(boxes):
                for k, o in enumerate(offs):
                    stand, back = x + o, x + 2 * o
                    if not (region >> stand & 1) or not (area >> back & 1) or boxes >> back & 1:
                        continue
                    if not (box_area >> stand & 1):
                        continue
                    nboxes = boxes ^ (1 << x) ^ (1 << stand)
                    moves.append((nboxes, back, (stand, k ^ 1)))  # forwards: push stand -> x
            if boxes >> e & 1:
                for s in outside:
                    pusher = 2 * s - e
                    if region >> s & 1 and floor >> pusher & 1:
                        moves.append((boxes ^ (1 << e), s, (s, offs.index(e - s), "entry")))
            elif entered and region >> e & 1:
                # a box that leaves: forwards, pushed from the entrance out to s (a room
                # box in the way of the entries goes out and comes back in later).  Only
                # just before an entry: the box on s must be moved on by the search before
                # the next push, so a planned step ends with it
                for s in outside:
                    inner = 2 * e - s
                    if room >> inner & 1 and not boxes >> inner & 1:
                        moves.append((boxes | 1 << e, inner, (e, offs.index(s - e))))
            for nboxes, at, step in moves:
                nregion = flood(1 << at, area & ~nboxes, w)
                nentered = len(step) == 3
                key = (nboxes, nregion & -nregion, nentered)
                if key not in seen:
                    seen[key] = (here, step)
                    heapq.heappush(heap, (_rank(nboxes, start_boxes, dist), nboxes, nregion, nentered))
        if end is None:
            return
        # read the plan forwards: the steps from each entry up to the next one
        forward = []
        key = end
        while seen[key] is not None:
            key, step = seen[key]
            forward.append(step)
        boxes = start_boxes
        current: list | None = None
        entry_key = None
        prefix = []
        for step in forward:
            if len(step) == 3:
                if current is not None:
                    self.entries.setdefault(entry_key, tuple(current))
                    self.settled.add(boxes)
                entry_key = (boxes, step[0])
                current = [(step[0], step[1])]
                boxes |= 1 << e
            else:
                sq, k = step
                boxes = (boxes ^ (1 << sq) ^ (1 << (sq + offs[k]))) & box_area  # an exit leaves the room
                (current if current is not None else prefix).append((sq, k))
        if current is not None:
            self.entries.setdefault(entry_key, tuple(current))
            self.settled.add(boxes)
        self.prefix = tuple(prefix)


def _rank(boxes: int, start_boxes: int, dist: dict) -> tuple[int, int]:
    """Pull search order: fewest boxes still to take out, then nearest the entrance."""
    extra = boxes & ~start_boxes
    return extra.bit_count(), sum(dist.get(x, 0) for x in bits(extra))


def _distances(board, e: int, area: int) -> dict[int, int]:
    """Walking distance from the entrance inside ``area`` (boxes ignored)."""
    dist = {e: 0}
    queue = deque((e,))
    while queue:
        p = queue.popleft()
        for o in board.offsets:
            n = p + o
            if area >> n & 1 and n not in dist:
                dist[n] = dist[p] + 1
                queue.append(n)
    return dist


def _components(free: int, w: int) -> list[int]:
    out = []
    while free:
        comp = flood(free & -free, free, w)
        out.append(comp)
        free &= ~comp
    return out


def _find_room(board) -> tuple[int | None, int]:
    """The smallest floor part holding every goal behind one cut square off goal."""
    goals = board.goals
    best, best_room = None, 0
    if not goals or board.impossible:
        return None, 0
    for e in bits(board.floor & ~goals & ~board.start_boxes):
        if not board.multi[e]:
            continue
        for comp in board.compmask[e]:
            if comp & goals == goals and comp.bit_count() <= MAX_ROOM:
                if best is None or comp.bit_count() < best_room.bit_count():
                    best, best_room = e, comp
    if best is not None and not (board.start_boxes & ~best_room & ~(1 << best)):
        return None, 0  # every box starts in the room: nothing comes in
    return best, best_room
