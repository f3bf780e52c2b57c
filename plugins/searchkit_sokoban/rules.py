"""The rules of a move, in one place: the player steps to a neighbouring square, and a box
there goes on one square the same way when that square is floor without a box.

Squares are numbered ``row * width + column`` and a set of squares is an int with one bit
a square, as in `board`; directions are numbered u, d, l, r (`DIRS`), with the square
steps ``layout.offsets`` (``-width, width, -1, 1``).  Two forms of the one rule:

* `pushable`, for many boxes at once: the boxes that a player standing on any of some
  squares can push one way.  The search's push generation (`problem`) calls it with the
  player's whole region, and `step` with the player's square;
* `pullable`, its reverse for the searches backwards: the boxes a player standing on any
  of some squares can pull one way (the pull search (`pull`) calls it with the player's
  region, the aimed search's count of boxes no pull can move with all free squares);
* `Push`: a search's action, a box pushed one or more squares one way;
* `free_squares`: where the player may walk (and a box may go), floor without a box;
* `step`, one LURD letter (lowercase walks, uppercase pushes) applied to a position: the new
  position, or why the move is illegal.  The LURD writer and replayer (`lurd`), the
  picture frames (`picture`) and the game (`game`) move with it.  ``strict`` (replays)
  holds a letter's case to what happens - a walk into a box or a push with no box is
  illegal; the game is not strict: a box ahead is pushed, and the step says so.

Both take any object with ``floor``, ``width`` and ``offsets``: a `Layout` or a `Board`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from .board import DIRS

NOT_A_LETTER = "is not a LURD letter"
INTO_WALL = "walks into a wall"
INTO_BOX = "walks into a box (a push must be uppercase)"
NO_BOX = "a push with no box to push"
BLOCKED = "the box is blocked"
_LETTERS = {c: (k, False) for k, c in enumerate(DIRS)} | {c.upper(): (k, True) for k, c in enumerate(DIRS)}


class Push(NamedTuple):
    """Push the box on ``square`` ``count`` steps in direction ``DIRS[direction]``."""

    square: int
    direction: int
    width: int
    # > 1: a tunnel macro, the same box pushed on through a tunnel (shadows tuple.count, which
    # nothing calls on an action: `Route.count` is the same field)
    count: int = 1  # type: ignore[assignment]

    def __str__(self) -> str:
        r, c = divmod(self.square, self.width)
        times = f"x{self.count}" if self.count > 1 else ""
        return f"{DIRS[self.direction].upper()}{times}@{r + 1},{c + 1}"


def free_squares(layout, boxes: int) -> int:
    """The squares a player may step onto and a box may be pushed onto: floor without a box."""
    return layout.floor & ~boxes


def pushable(boxes: int, stands: int, free: int, o: int) -> int:
    """The boxes of ``boxes`` that a player on a square of ``stands`` pushes by ``o``.

    The box on ``p + o`` (the player on ``p``) moves to ``p + 2o``, which must be in
    ``free``: floor without boxes (a caller may leave out more squares to forbid more
    pushes, as the search does with dead squares).  Returns their squares as a bit set.
    """
    if o > 0:
        return (stands << o) & boxes & (free >> o)
    return (stands >> -o) & boxes & (free << -o)


def pullable(boxes: int, stands: int, free: int, o: int) -> int:
    """The boxes of ``boxes`` that a player on a square of ``stands`` pulls by ``o``.

    The player on ``x + o`` steps back to ``x + 2o`` (which must be in ``free``), the box on
    ``x`` following it to ``x + o``.  Returns the boxes' squares as a bit set.
    """
    if o > 0:
        return boxes & (stands >> o) & (free >> (2 * o))
    return boxes & (stands << -o) & (free << (-2 * o))


def each_push(boxes: int, stands: int, free: int, offsets) -> Iterator[tuple[int, int, int]]:
    """``(direction, box square, square it goes to)`` for every push of `pushable`, direction
    by direction (for searches off the hottest path: the push search inlines this loop)."""
    for k, o in enumerate(offsets):
        cand = pushable(boxes, stands, free, o)
        while cand:
            low = cand & -cand
            cand ^= low
            src = low.bit_length() - 1
            yield k, src, src + o


def push(boxes: int, box: int, o: int) -> int:
    """``boxes`` after the box on square ``box`` moved by ``o``."""
    return boxes ^ (1 << box) ^ (1 << (box + o))


class Step(NamedTuple):
    """A legal move: the position after it, and whether it pushed a box."""

    boxes: int
    player: int
    pushed: bool


def step(layout, boxes: int, player: int, letter: str, strict: bool = True) -> Step | str:
    """The position after the LURD ``letter``, or why it is illegal (one of the constants above)."""
    known = _LETTERS.get(letter) if isinstance(letter, str) else None
    if known is None:
        return NOT_A_LETTER
    k, upper = known
    o = layout.offsets[k]
    ahead = player + o
    free = free_squares(layout, boxes)
    if free >> ahead & 1:
        if strict and upper:
            return NO_BOX
        return Step(boxes, ahead, False)
    if not boxes >> ahead & 1:
        return INTO_WALL
    if strict and not upper:
        return INTO_BOX
    if not pushable(boxes, 1 << player, free, o):
        return BLOCKED
    return Step(push(boxes, ahead, o), ahead, True)


def unstep(layout, boxes: int, player: int, letter: str) -> tuple[int, int]:
    """The position before the move ``letter`` that `step` made (uppercase: it pushed)."""
    o = layout.offsets[DIRS.index(letter.lower())]
    if letter.isupper():
        boxes = push(boxes, player + o, -o)
    return boxes, player - o


def illegal(number: int, letter: str, why: str) -> str:
    """The message for move ``number`` of a LURD string that `step` refused."""
    if why == NOT_A_LETTER:
        return f"move {number}: {letter!r} {why}"
    return f"move {number} ({letter}): {why}"
