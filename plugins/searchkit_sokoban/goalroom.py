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

from typing import NamedTuple

from searchkit import SOLVED, BestFirstSearch, Limits

from .board import DIRS, bits, flood, regions

MAX_ROOM = 48  # squares; bigger rooms are not planned (the pull search would be slow)
MAX_PLAN_STATES = 200_000  # stored states of the pull search (`Limits.max_stored`, checked <= 1024 expansions apart)


class Route(NamedTuple):
    """A macro step: ``steps`` pushes ``(box_square, direction)``, in order."""

    steps: tuple
    width: int

    @property
    def count(self) -> int:  # type: ignore[override]  # pushes, as `Push.count`; nothing counts a Route's items
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
        board, e = self.board, self.entrance
        offs, box_area = board.offsets, self.room | 1 << e
        pulls = _PlanSearch(board, e, self.room, start_boxes)
        search = BestFirstSearch(
            pulls,
            order=pulls.order,
            reopen=False,
            starts=pulls.roots(),
            name="goal-room plan",
            limits=Limits(max_stored=MAX_PLAN_STATES),
        )
        search.step()
        if search.status != SOLVED:
            return
        forward = search.path()[0][::-1]  # the pulls run from the filled room back to the start
        # read the plan forwards: the steps from each entry up to the next one
        boxes = start_boxes
        current: list | None = None
        entry_key: tuple[int, int] | None = None  # set with current
        prefix: list[tuple[int, int]] = []
        for step in forward:
            if len(step) == 3:
                if current is not None and entry_key is not None:
                    self.entries.setdefault(entry_key, tuple(current))
                    self.settled.add(boxes)
                entry_key = (boxes, step[0])
                current = [(step[0], step[1])]
                boxes |= 1 << e
            else:
                sq, k = step
                boxes = (boxes ^ (1 << sq) ^ (1 << (sq + offs[k]))) & box_area  # an exit leaves the room
                (current if current is not None else prefix).append((sq, k))
        if current is not None and entry_key is not None:
            self.entries.setdefault(entry_key, tuple(current))
            self.settled.add(boxes)
        self.prefix = tuple(prefix)


class _PlanSearch:
    """The plan's pull search as a `Problem` (searched greedily by `BestFirstSearch`).

    A state is ``(boxes, region, entered)``: the boxes (room and entrance only), the
    player's whole region of the floor around them (the boxes outside are left out: `route`
    checks the walks), and whether the pull that led to it was an entry (forwards, a box
    may leave only just before one).  The roots are the filled room with the player in
    each part of the floor off goal; the goal, only the boxes that start in the room left,
    where they start, with the player where it starts (or anywhere, when the room starts
    empty).  An action is a forward push ``(square, direction)`` (``(square, direction,
    "entry")`` for a box coming in), read backwards as a pull; every step costs 1.
    ``order`` is `_rank` and then the state itself, so the order is total and no tie is
    left to the queue.
    """

    def __init__(self, board, entrance: int, room: int, start_boxes: int):
        self.board, self.entrance, self.room, self.start_boxes = board, entrance, room, start_boxes
        e, offs, floor = entrance, board.offsets, board.floor
        self.box_area = room | 1 << e
        self.outside = [e + o for o in offs if floor >> (e + o) & 1 and not room >> (e + o) & 1]
        self.dist = board.walks_from(1 << e, self.box_area)  # from the entrance, boxes ignored

    def roots(self) -> list:
        board = self.board
        return [(board.goals, comp, False) for comp in regions(board.floor & ~board.goals, board.width)]

    def initial_state(self) -> tuple:
        return self.roots()[0]

    def is_goal(self, state: tuple) -> bool:
        boxes, region, _entered = state
        start_boxes = self.start_boxes
        return boxes == start_boxes and (not start_boxes or bool(region >> self.board.player_start & 1))

    def order(self, _g, _h, state: tuple) -> tuple:
        return (_rank(state[0], self.start_boxes, self.dist), *state)

    def successors(self, state: tuple) -> list:
        boxes, region, entered = state
        board, e, room, box_area, outside = self.board, self.entrance, self.room, self.box_area, self.outside
        w, offs, area = board.width, board.offsets, board.floor  # the player walks anywhere
        out: list[tuple[tuple, tuple[int, int, bool], int]] = []  # a pull's action: (square, direction[, "entry"])
        for x in bits(boxes):
            for k, o in enumerate(offs):
                stand, back = x + o, x + 2 * o
                if not (region >> stand & 1) or not (area >> back & 1) or boxes >> back & 1:
                    continue
                if not (box_area >> stand & 1):
                    continue
                nboxes = boxes ^ (1 << x) ^ (1 << stand)
                # forwards: push stand -> x
                out.append(((stand, k ^ 1), (nboxes, flood(1 << back, area & ~nboxes, w), False), 1))
        if boxes >> e & 1:
            nboxes = boxes ^ (1 << e)
            for s in outside:
                if region >> s & 1 and area >> (2 * s - e) & 1:  # the pusher's square is floor
                    out.append(((s, offs.index(e - s), "entry"), (nboxes, flood(1 << s, area & ~nboxes, w), True), 1))
        elif entered and region >> e & 1:
            # a box that leaves: forwards, pushed from the entrance out to s (a room box in
            # the way of the entries goes out and comes back in later).  Only just before
            # an entry: the box on s must be moved on by the search before the next push,
            # so a planned step ends with it
            nboxes = boxes | 1 << e
            for s in outside:
                inner = 2 * e - s
                if room >> inner & 1 and not boxes >> inner & 1:
                    out.append(((e, offs.index(s - e)), (nboxes, flood(1 << inner, area & ~nboxes, w), False), 1))
        return out


def _rank(boxes: int, start_boxes: int, dist: dict) -> tuple[int, int]:
    """Pull search order: fewest boxes still to take out, then nearest the entrance."""
    extra = boxes & ~start_boxes
    return extra.bit_count(), sum(dist.get(x, 0) for x in bits(extra))


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
