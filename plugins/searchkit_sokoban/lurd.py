"""LURD notation: lowercase letters walk, uppercase letters push (u/d/l/r).

`to_lurd` turns a push sequence into a full move list with shortest walks between pushes;
`replay_lurd` checks a move list on the original level's text, independently of the
search code, and is what every printed solution must pass.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .board import bits
from .goalroom import expand_route
from .levels import BOX, BOX_GOAL, GOAL, PLAYER, PLAYER_GOAL, WALL, Level

LETTERS = "udlr"


def to_lurd(board, pushes) -> str:
    """Moves for ``pushes`` (``(box_square, direction_index[, width, count])`` or `Route`) from the start."""
    offs = board.offsets
    boxes = set(bits(board.start_boxes))
    player = board.player_start
    out: list[str] = []
    # a tunnel macro pushes one box on (count > 1); a goal macro is a route of pushes
    for src, k, count in (run for push in pushes for run in expand_route(push)):
        o = offs[k]
        stand = src - o
        out.append(_walk(board, boxes, player, stand))
        out.append(LETTERS[k].upper() * count)
        boxes.remove(src)
        boxes.add(src + count * o)
        player = src + (count - 1) * o
    return "".join(out)


def _walk(board, boxes: set, start: int, goal: int) -> str:
    """Lowercase letters of a shortest walk (breadth-first, fixed direction order)."""
    if start == goal:
        return ""
    prev = {start: None}
    queue = deque((start,))
    floor = board.floor
    while queue:
        p = queue.popleft()
        for k, o in enumerate(board.offsets):
            n = p + o
            if n in prev or not floor >> n & 1 or n in boxes:
                continue
            prev[n] = (p, k)
            if n == goal:
                steps = []
                while prev[n] is not None:
                    n, k2 = prev[n]
                    steps.append(LETTERS[k2])
                return "".join(reversed(steps))
            queue.append(n)
    raise AssertionError(f"no walk from square {start} to {goal}: the push sequence is not playable")


@dataclass
class Replay:
    """What a replay found: counts and the board after every push (if asked)."""

    moves: int
    pushes: int
    boards: list[list[str]]


def replay_lurd(level: Level, lurd: str, keep_boards: bool = False) -> Replay:
    """Play ``lurd`` on ``level`` and check that every box ends on a goal.

    Raises AssertionError naming the first illegal move.
    """
    rows = [list(r) for r in level.rows]
    height, width = len(rows), len(rows[0])
    walls = {(r, c) for r in range(height) for c in range(width) if rows[r][c] == WALL}
    goals = {(r, c) for r in range(height) for c in range(width) if rows[r][c] in (GOAL, BOX_GOAL, PLAYER_GOAL)}
    boxes = {(r, c) for r in range(height) for c in range(width) if rows[r][c] in (BOX, BOX_GOAL)}
    player = next((r, c) for r in range(height) for c in range(width) if rows[r][c] in (PLAYER, PLAYER_GOAL))
    delta = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
    moves = pushes = 0
    boards: list[list[str]] = []

    def draw() -> list[str]:
        out = []
        for r in range(height):
            line = []
            for c in range(width):
                sq = (r, c)
                if sq in walls:
                    line.append(WALL)
                elif sq in boxes:
                    line.append(BOX_GOAL if sq in goals else BOX)
                elif sq == player:
                    line.append(PLAYER_GOAL if sq in goals else PLAYER)
                else:
                    line.append(GOAL if sq in goals else " ")
            out.append("".join(line).rstrip())
        return out

    if keep_boards:
        boards.append(draw())
    for i, ch in enumerate(lurd, 1):
        if ch.lower() not in delta:
            raise AssertionError(f"move {i}: {ch!r} is not a LURD letter")
        dr, dc = delta[ch.lower()]
        nxt = (player[0] + dr, player[1] + dc)
        if not (0 <= nxt[0] < height and 0 <= nxt[1] < width) or nxt in walls:
            raise AssertionError(f"move {i} ({ch}): walks into a wall")
        if ch.isupper():
            if nxt not in boxes:
                raise AssertionError(f"move {i} ({ch}): a push with no box to push")
            beyond = (nxt[0] + dr, nxt[1] + dc)
            if not (0 <= beyond[0] < height and 0 <= beyond[1] < width) or beyond in walls or beyond in boxes:
                raise AssertionError(f"move {i} ({ch}): the box is blocked")
            boxes.remove(nxt)
            boxes.add(beyond)
            pushes += 1
        elif nxt in boxes:
            raise AssertionError(f"move {i} ({ch}): walks into a box (a push must be uppercase)")
        player = nxt
        moves += 1
        if keep_boards and ch.isupper():
            boards.append(draw())
    if boxes != goals:
        raise AssertionError(f"after {moves} moves {len(boxes - goals)} box(es) are not on goals")
    return Replay(moves, pushes, boards)
