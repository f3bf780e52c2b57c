"""Parking plan: a packing order that may park a box inside the goal area for a while.

The packing order (`packing`) empties the goals backwards, one layer after another, each
box pulled off the board along a way the boxes still on goals leave open.  Where no box can
leave - the last one in came round a box that stood in its way, then moved on - that order
lets a box leave to any square a start box can be pushed to, walls only, or guesses.
Festival's packing search (Shoham) parks instead: with every box stuck, one
is pulled a little way, to a square where it lets another leave, and stays there till its
own way out is open.  Read forwards, the plan is a list of *steps* - a box brought in from
outside to a square, or moved on from a square it was parked on to the one it ends on -
and a position has *packed* as many steps as the plan's longest start whose squares hold
their boxes (a parked box may have moved on, when the step that moves it is in that start
too).  Steps the backward search took in one round (boxes that could all leave at once)
form a *wave*, packed in any order.

The search is greedy: every box that can leave does (leaving only frees the way for the
rest, so none is lost by it); only when none can is one parked, on the nearest square that
lets another leave (`_parking`), each parking followed by at least one box leaving.  No plan
(None) when a box can neither leave nor be parked to help; `Features` keeps the layers then,
and where a plan parks no box, since it is the layers then.
"""

from __future__ import annotations

from typing import NamedTuple

from .board import bits
from .packing import exits, leaves_to, moves_to


class Step(NamedTuple):
    """One step of a plan, forwards: a box arrives on ``to`` from ``source`` (-1: from outside
    the area), in round ``wave``; ``until``: the step that moves it on again (-1: none)."""

    to: int
    source: int
    wave: int
    until: int


class Plan:
    """A parking plan's steps (`plan_of`) and its count of a position's boxes: `count`."""

    def __init__(self, steps: list[Step]):
        self.steps = steps
        self.squares = 0  # every square a step fills
        self.ends = 0  # the squares boxes end on: the goals
        for s in steps:
            self.squares |= 1 << s.to
            if s.until < 0:
                self.ends |= 1 << s.to
        self.parks = len(steps) - self.ends.bit_count()

    def waves(self) -> list[int]:
        """The squares of each wave, in filling order: a plan that parks no box is the
        packing order's layers (`Packing.layers_of`), filled first first."""
        masks: list[int] = []
        for s in self.steps:
            if s.wave == len(masks):
                masks.append(0)
            masks[s.wave] |= 1 << s.to
        return masks

    def count(self, boxes: int) -> tuple[int, int, int]:
        """``(packed, ahead, due)``: the steps done (the plan's longest start whose squares
        hold boxes, a parked box excused once the step moving it on is in that start, and the
        boxes placed of the first unfinished wave); the boxes on goals of steps not done; the
        squares of the first unfinished wave still empty."""
        steps = self.steps
        n = len(steps)
        done = n
        for i in range(n - 1, -1, -1):
            s = steps[i]
            if not boxes >> s.to & 1 and (s.until < 0 or s.until >= done):
                done = i
        if done == n:
            return n, 0, 0
        wave = steps[done].wave
        packed, due, later, held = done, 0, 0, 0
        for s in steps[done:]:
            if s.wave != wave:
                later |= 1 << s.to
            elif boxes >> s.to & 1:
                packed += 1
            else:
                due |= 1 << s.to
        for s in steps[:done]:  # a square a step done still holds is not ahead of the plan
            if s.until < 0 or s.until >= done:
                held |= 1 << s.to
        return packed, (boxes & later & self.ends & ~held).bit_count(), due


def plan_of(board, goals: int) -> Plan | None:
    """The parking plan of ``goals`` (a board's goal area; the others left empty): boxes
    leave when they can be pulled to a start square off the goals with the rest fixed, or
    else to a square a start box can be pushed to (`packing.exits`); None when they get stuck."""
    sources, outside_of = exits(board, board.goals)
    boxes = goals
    rounds: list[list[tuple[int, int]]] = []  # backwards: (square, where to: -1 off the board)
    outside = 0

    def leaving(to: int) -> list[int]:  # the boxes that can leave to the squares ``to``, the rest fixed
        return [x for x in bits(boxes) if leaves_to(board, x, boxes & ~(1 << x), to, True)]

    while boxes:
        gone = leaving(sources)
        if not gone:
            park = _parking(board, boxes, sources)
            if park is not None:
                x, to = park
                rounds.append([(x, to)])
                boxes = boxes & ~(1 << x) | 1 << to
                continue
            outside = outside or outside_of()
            gone = leaving(outside)
            if not gone:
                return None
        rounds.append([(x, -1) for x in gone])
        for x in gone:
            boxes &= ~(1 << x)
    steps: list[Step] = []
    for wave, moves in enumerate(reversed(rounds)):
        for x, came in moves:
            steps.append(Step(x, came, wave, -1))
    for i, s in enumerate(steps):  # a parked box moves on at the first later step from its square
        if s.source >= 0:
            for j in range(i - 1, -1, -1):
                if steps[j].to == s.source and steps[j].until < 0:
                    steps[j] = steps[j]._replace(until=i)
                    break
    return Plan(steps)


def _parking(board, boxes: int, sources: int) -> tuple[int, int] | None:
    """The box to pull, and where, that lets another leave: off a goal if it can be, the
    nearest square (rows and columns apart), then the one letting the most leave; None when
    no parking lets any leave.  Parked where it frees the most, a box went far off (a plan
    that sends the search on a long way round: alone, Sasquatch II 6 and XSokoban 39
    unsolved at 60 s); parked nearest, they take 1.7 and 4.4 s."""
    best, found = None, None
    for x in bits(boxes):
        others = boxes & ~(1 << x)
        for to in bits(moves_to(board, x, others, True)):
            after = others | 1 << to
            freed = sum(1 for y in bits(others) if leaves_to(board, y, after & ~(1 << y), sources, True))
            if not freed:
                continue
            (row, col), (to_row, to_col) = divmod(x, board.width), divmod(to, board.width)
            key = (board.goals >> to & 1, abs(row - to_row) + abs(col - to_col), -freed)
            if best is None or key < best:
                best, found = key, (x, to)
    return found
