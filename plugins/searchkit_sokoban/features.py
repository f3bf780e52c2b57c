"""The FESS feature space: a position projected onto a few numbers that say how far along it is.

Two positions with the same features share a *cell*; the FESS search (`fess`) spreads its
effort over the cells instead of trusting one heuristic's ranking.  The features:

* ``packed``: boxes on goals counted in packing order (`packing.Packing`, the retrograde
  analysis of the goal area): whole layers from the one filled first, then the boxes on
  goals of the first unfinished layer - a box parked on a later layer's goal does not count.
  Goals close together (`AREA_GAP`) form one *goal area*; each area gets its own
  order and the counts are added, so filling one area never waits for another.  With
  ``parking``, an area whose boxes must wait inside it (`parking`) counts the steps of its
  parking plan done instead (a parked box's steps too, so `Features.total` is more than
  the goals);
* ``connectivity``: how many regions the boxes cut the floor into (1 = the player can go
  everywhere); fewer is better;
* ``out_of_plan``: boxes on goals of layers whose turn has not come, which the plan must
  move away again (0 on levels without a packing order); fewer is better.  With
  ``stranded`` (`Features.stranded`) the empty goals count too that no box off goals can be
  pushed to while the boxes on goals stay where they are: one of those must leave again,
  though the order may not say which (a box on the only goal a lone box can pass);
* ``room_connectivity``: passages between rooms that a box blocks (a passage is a run of
  one-wide squares, walled on both sides, that joins two rooms and holds no goal; a box in
  it stops the player going through, even where another way round keeps the floor in one
  region); fewer is better.
"""

from __future__ import annotations

from typing import NamedTuple

from .board import Board, around, push_flood, regions
from .deadlocks import goal_reach
from .packing import Packing
from .parking import Plan, plan_of

AREA_GAP = 2  # squares between goals of one area (a goal beside a room of goals still waits its turn)
ROOM_SIZE = 3  # floor squares: smaller open parts are bends and forks of passages
MEMO_SIZE = 1 << 16  # remembered walled-off areas before starting afresh
FLOODS_AHEAD = 5_000  # per-goal floods beyond one a `stranded` call before it floods from the boxes instead


class Cell(NamedTuple):
    """The features of a position (the key of its cell)."""

    packed: int
    connectivity: int
    out_of_plan: int
    room_connectivity: int


class Score(NamedTuple):
    """A position's rank in the FESS search, each field lower-is-better, compared in this
    order: the features of the FESS paper's order (`Cell`; hotspots, `hotspots`), then the
    heuristic."""

    unpacked: int  # goals less boxes packed
    connectivity: int
    room_connectivity: int
    out_of_plan: int
    hotspots: int
    h: float

    @classmethod
    def of(cls, cell: Cell, goals: int, hotspots: int, h: float) -> Score:
        return cls(goals - cell.packed, cell.connectivity, cell.room_connectivity, cell.out_of_plan, hotspots, h)


def areas(goals: int, w: int) -> list[int]:
    """The squares ``goals`` (a board ``w`` wide) grouped into areas: squares at most
    `AREA_GAP` apart (sideways, diagonally or both) share one."""
    areas = []
    rest = goals
    while rest:
        area = rest & -rest
        while True:
            near = area
            for _ in range(AREA_GAP):
                side = near | (near << 1) | (near >> 1)
                near = side | (side << w) | (side >> w)
            grown = near & goals
            if grown == area:
                break
            area = grown
        areas.append(area)
        rest &= ~area
    return areas


class Features:
    """The projection of positions of one board onto `Cell`; with ``starts`` (a mask of
    squares), for a search from the solved position back to those boxes (`fess_pull`), whose
    goals they are, packed in their own order (`Packing.start_layers_of`).  ``stranded``:
    out of plan counts the stranded goals too (`stranded`).  With ``aim`` (a mask of squares,
    `aim`), for a search towards boxes on those squares: they take the goals' place, packed
    in any order - or, ``ordered``, in their own packing order (`Packing.layers_of` with ``aim``).
    ``any_order``: the goals packed in any order too (one layer), for levels whose packing
    order leads the search astray (with ``stranded`` to keep a box off a goal others must pass).
    ``parking``: forwards, an area whose plan parks a box (`parking.plan_of`) is packed by
    that plan, not by layers."""

    def __init__(
        self,
        board: Board,
        starts: int | None = None,
        stranded: bool = False,
        aim: int | None = None,
        ordered: bool = False,
        any_order: bool = False,
        parking: bool = False,
    ):
        self.board = board
        forwards = aim is None and starts is None  # towards the goals: ``stranded`` and ``any_order`` are for that
        self.count_stranded = stranded and forwards
        self.targets = aim if aim is not None else board.goals if starts is None else starts
        # per area, its layers in filling order (the last layer of `Packing` is filled first)
        self.orders: list[list[int]] = []
        self.plans: list[Plan] = []  # areas whose boxes park on the way (`parking`), in place of layers
        if (aim is not None and not ordered) or (any_order and forwards):
            self.orders.append([self.targets])  # one layer: any order
        else:
            for area in areas(self.targets, board.width):
                plan = plan_of(board, area) if parking and forwards else None
                if plan is not None:
                    if plan.parks:
                        self.plans.append(plan)
                    else:
                        self.orders.append(plan.waves())  # the layers: found once
                    continue
                if starts is None:
                    layers = Packing.layers_of(board, area, aim)
                else:
                    layers = Packing.start_layers_of(board, area, starts)
                self.orders.append(list(reversed(layers)))
        self.keyed = self.targets  # the squares whose boxes the count looks at
        self.total = self.targets.bit_count()  # the most `packed` can be
        for plan in self.plans:
            self.keyed |= plan.squares
            self.total += plan.parks
        # the search meets the same goal fillings and the same walled-off areas again and again
        self._packed: dict[int, tuple[int, int, int]] = {}
        self._pockets: dict[int, tuple[int, ...]] = {}
        self._ahead = 0  # per-goal floods `stranded` has made less its calls (`FLOODS_AHEAD`)
        self.passages = passages(board)

    def packed(self, boxes: int) -> tuple[int, int]:
        """``(packed, out_of_plan)`` for ``boxes``."""
        return self._plan(boxes)[:2]

    def next_goals(self, boxes: int) -> int:
        """The empty goals whose turn has come: of the first unfinished layer of each area."""
        return self._plan(boxes)[2]

    def _plan(self, boxes: int) -> tuple[int, int, int]:
        """Packed, out of plan and next goals (remembered by the boxes on the squares counted:
        the goals, and a parking plan's squares)."""
        counted = boxes & self.keyed
        known = self._packed.get(counted)
        if known is None:
            known = self._packed[counted] = self._count_packed(counted)
        return known

    def _count_packed(self, boxes: int) -> tuple[int, int, int]:
        count = out = due = 0
        for order in self.orders:
            for i, layer in enumerate(order):
                on = (boxes & layer).bit_count()
                count += on
                if on < layer.bit_count():
                    due |= layer & ~boxes
                    for rest in order[i + 1 :]:
                        out += (boxes & rest).bit_count()
                    break
        for plan in self.plans:
            packed, ahead, next_due = plan.count(boxes)
            count += packed
            out += ahead
            due |= next_due
        return count, out, due

    def connectivity(self, boxes: int, reach: int = 0) -> int:
        """The number of regions of floor without boxes; ``reach``, when known, is one of them
        (the player's, which the macro search has flooded already): only the rest is counted."""
        return len(self.pockets(boxes, reach)) + (1 if reach else 0)

    def pockets(self, boxes: int, reach: int = 0) -> tuple[int, ...]:
        """The regions of floor without boxes, less ``reach`` (remembered: the corral proofs
        of `corral_search` walk the same areas)."""
        free = self.board.floor & ~boxes & ~reach
        known = self._pockets.get(free)
        if known is None:
            if len(self._pockets) >= MEMO_SIZE:
                self._pockets.clear()
            known = self._pockets[free] = tuple(regions(free, self.board.width))
        return known

    def cell(self, boxes: int, reach: int = 0) -> Cell:
        """The cell of ``boxes``; ``reach``: the player's region if known (see `connectivity`)."""
        packed, out = self.packed(boxes)
        if self.count_stranded:
            out += self.stranded(boxes)
        return Cell(packed, self.connectivity(boxes, reach), out, self.blocked(boxes))

    def stranded(self, boxes: int) -> int:
        """The empty goals no box off goals can be pushed to (walls only, the player's way
        round not checked) with the boxes on goals for walls: each needs one of those to
        leave its goal.  Each empty goal's reach back is kept per set of boxes on goals
        (`goal_reach`), which pays where those sets come back (Sasquatch II 9: 0.02 new
        floods a call); once the new floods outnumber the calls by `FLOODS_AHEAD`, one flood
        forwards from every box off goals at once (`push_flood`) answers instead (Sasquatch
        II 17, 162 goals: 18 floods a call, 72 % of ``fess-stranded``'s time)."""
        board = self.board
        on_goals = boxes & board.goals
        loose = boxes & ~on_goals
        if self._ahead < FLOODS_AHEAD:
            if on_goals not in board.sealed_cache:
                self._ahead += (board.goals & ~on_goals).bit_count()
            self._ahead -= 1
            return sum(1 for reach in goal_reach(on_goals, board) if not reach & loose)
        reach = push_flood(loose, board.floor & ~on_goals, board.width)
        return (board.goals & ~boxes & ~reach).bit_count()

    def blocked(self, boxes: int) -> int:
        """Room connectivity: the passages between rooms that a box of ``boxes`` stands in."""
        count = 0
        for passage in self.passages:
            if boxes & passage:
                count += 1
        return count


def passages(board: Board) -> list[int]:
    """The passages between rooms: runs of squares walled on both sides across (`Board.tunnel`),
    with the bends and forks between them, without a goal and touching two or more rooms
    (the parts of the floor left without them, of `ROOM_SIZE` squares or more)."""
    w = board.width
    narrow = board.tunnel[0] | board.tunnel[1]
    rooms = []
    for part in regions(board.floor & ~narrow, w):
        if part.bit_count() >= ROOM_SIZE:
            rooms.append(part)
        else:
            narrow |= part  # a bend or a fork of a passage
    out = []
    for run in regions(narrow, w):
        if run & board.goals:
            continue
        beside = around(run, w)
        if sum(1 for room in rooms if room & beside) >= 2:
            out.append(run)
    return out
