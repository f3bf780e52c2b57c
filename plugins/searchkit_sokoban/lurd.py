"""LURD notation: lowercase letters walk, uppercase letters push (u/d/l/r).

`to_lurd` turns a push sequence into a full move list with shortest walks between pushes;
`replay_lurd` checks a move list on the original level's text, independently of the
search code (it shares only the rule of a move, `rules.step`), and is what every printed
solution must pass.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .board import DIRS, Layout
from .goalroom import expand_route
from .levels import Level
from .rules import Step, free_squares, illegal, step

LETTERS = DIRS


def to_lurd(board, pushes) -> str:
    """Moves for ``pushes`` (``(box_square, direction_index[, width, count])`` or `Route`) from the start."""
    offs = board.offsets
    boxes = board.start_boxes
    player = board.player_start
    out: list[str] = []
    # a tunnel macro pushes one box on (count > 1); a goal macro is a route of pushes
    for src, k, count in (run for push in pushes for run in expand_route(push)):
        stand = src - offs[k]
        out.append(_walk(board, boxes, player, stand))
        player = stand
        for _ in range(count):
            moved = step(board, boxes, player, LETTERS[k].upper())
            if not isinstance(moved, Step):
                raise AssertionError(f"the push {LETTERS[k].upper()} from square {player} is not playable: {moved}")
            boxes, player = moved.boxes, moved.player
        out.append(LETTERS[k].upper() * count)
    return "".join(out)


def _walk(board, boxes: int, start: int, goal: int) -> str:
    """Lowercase letters of a shortest walk (breadth-first, fixed direction order)."""
    if start == goal:
        return ""
    prev: dict[int, tuple[int, int] | None] = {start: None}
    queue = deque((start,))
    free = free_squares(board, boxes)
    while queue:
        p = queue.popleft()
        for k, o in enumerate(board.offsets):
            n = p + o
            if n in prev or not free >> n & 1:
                continue
            prev[n] = (p, k)
            if n == goal:
                steps = []
                step = prev[n]
                while step is not None:
                    n, k2 = step
                    steps.append(LETTERS[k2])
                    step = prev[n]
                return "".join(reversed(steps))
            queue.append(n)
    raise AssertionError(f"no walk from square {start} to {goal}: the push sequence is not playable")


@dataclass
class Replay:
    """What a replay found: counts and the board after every push (if asked)."""

    moves: int
    pushes: int
    boards: list[list[str]]


def replay_lurd(level: Level, lurd: str, keep_boards: bool = False, to_goals: bool = True) -> Replay:
    """Play ``lurd`` on ``level`` and check that every box ends on a goal (unless not
    ``to_goals``: the moves of a game not finished yet).

    Raises AssertionError naming the first illegal move.
    """
    layout = Layout.of(level)
    boxes, player = layout.boxes, layout.player
    moves = pushes = 0
    boards: list[list[str]] = []

    def draw() -> list[str]:
        return [row.rstrip() for row in layout.rows(boxes, player)]

    if keep_boards:
        boards.append(draw())
    for i, ch in enumerate(lurd, 1):
        moved = step(layout, boxes, player, ch)
        if not isinstance(moved, Step):
            raise AssertionError(illegal(i, ch, moved))
        boxes, player = moved.boxes, moved.player
        moves += 1
        if moved.pushed:
            pushes += 1
            if keep_boards:
                boards.append(draw())
    if to_goals and boxes != layout.goals:
        raise AssertionError(f"after {moves} moves {(boxes & ~layout.goals).bit_count()} box(es) are not on goals")
    return Replay(moves, pushes, boards)
