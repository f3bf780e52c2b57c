"""Boards as tuples: parsing, goals, solvability and random boards.

A board is a row-major tuple of tiles with 0 for the blank.  Everything here is
independent of how the search encodes states.
"""

from __future__ import annotations

import random
import re

from searchkit import InputError

MAX_SIDE = 16  # 256 cells: beyond this nobody solves boards, and the state ints get huge


def parse_size(text: str | int | None, board_len: int | None = None) -> tuple[int, int]:
    """``"4"`` -> (4, 4); ``"3x5"`` -> width 3, height 5.  None: inferred from the board."""
    if text is None or text == "":
        if board_len is None:
            return 3, 3
        side = round(board_len**0.5)
        if side * side != board_len:
            raise InputError(f"a board of {board_len} tiles is not square: give --size WxH")
        text = str(side)
    m = re.fullmatch(r"\s*(-?[0-9]+)\s*(?:[xX]\s*(-?[0-9]+)\s*)?", str(text))
    if not m:
        raise InputError(f"--size must be a number or WxH (got {_short(text)!r})")
    if any(g is not None and len(g.lstrip("-")) > 6 for g in m.groups()):  # int() of thousands of digits fails
        raise InputError(f"--size must be at most {MAX_SIDE} (got {_short(' '.join(str(text).split()))})")
    width = int(m.group(1))
    height = int(m.group(2)) if m.group(2) else width
    shown = " ".join(str(text).split())  # the regex lets newlines through around the numbers
    for side in (width, height):
        if side < 2:
            raise InputError(f"--size must be at least 2 (got {shown})")
        if side > MAX_SIDE:
            raise InputError(f"--size must be at most {MAX_SIDE} (got {shown})")
    return width, height


def _short(text: object, limit: int = 40) -> str:
    """``text`` for an error message, cut to ``limit`` characters."""
    s = str(text)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def parse_tiles(text: str, what: str = "board") -> tuple[int, ...]:
    """Tiles from ``"1 2 3 ..."`` (spaces or commas), row-major, 0 = blank (ASCII digits only)."""
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    if not parts:
        raise InputError(f"the {what} is empty")
    tiles = []
    for p in parts:
        if not re.fullmatch(r"[+-]?[0-9]+", p):
            raise InputError(f"the {what} holds {_short(p)!r}, which is not a whole number")
        if len(p.lstrip("+-").lstrip("0")) > 9:
            raise InputError(f"the {what} holds {_short(p)}, far too large a tile number")
        tiles.append(int(p))
    return tuple(tiles)


def check_board(tiles: tuple[int, ...], n: int, what: str = "board") -> None:
    """A permutation of 0..n-1, or a one-line InputError saying what is wrong."""
    if len(tiles) != n:
        raise InputError(f"the {what} has {len(tiles)} tiles, a {n}-cell board needs {n}")
    seen = set()
    for t in tiles:
        if t < 0 or t >= n:
            raise InputError(f"the {what} holds tile {t}, outside 0..{n - 1}")
        if t in seen:
            raise InputError(f"the {what} holds tile {t} twice")
        seen.add(t)


def make_goal(spec: str | None, width: int, height: int) -> tuple[int, ...]:
    """``blank-last`` (default: 1..n-1 then 0), ``blank-first`` (Korf: 0..n-1) or explicit tiles."""
    n = width * height
    if spec is None or spec == "blank-last":
        return tuple(range(1, n)) + (0,)
    if spec == "blank-first":
        return tuple(range(n))
    goal = parse_tiles(spec, "goal")
    check_board(goal, n, "goal")
    return goal


def permutation_parity(board: tuple[int, ...], goal: tuple[int, ...]) -> int:
    """Parity (0 even, 1 odd) of the permutation taking ``goal`` to ``board``."""
    where = {t: i for i, t in enumerate(goal)}
    perm = [where[t] for t in board]
    seen = [False] * len(perm)
    parity = 0
    for i in range(len(perm)):
        if not seen[i]:
            j, length = i, 0
            while not seen[j]:
                seen[j] = True
                j = perm[j]
                length += 1
            parity ^= (length - 1) & 1
    return parity


def is_solvable(board: tuple[int, ...], goal: tuple[int, ...], width: int) -> bool:
    """Every move swaps the blank with a tile (one transposition) and moves the blank one
    cell, so the permutation parity and the blank's taxicab distance change together:
    solvable iff they agree.  Holds for odd and even widths, rectangles and any goal."""
    b, gb = board.index(0), goal.index(0)
    distance = abs(b // width - gb // width) + abs(b % width - gb % width)
    return permutation_parity(board, goal) == distance & 1


def random_board(goal: tuple[int, ...], width: int, rng: random.Random) -> tuple[int, ...]:
    """A uniformly random board solvable towards ``goal``."""
    tiles = list(goal)
    rng.shuffle(tiles)
    if not is_solvable(tuple(tiles), goal, width):
        i, j = [k for k, t in enumerate(tiles) if t != 0][:2]
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tuple(tiles)


def scrambled_board(goal: tuple[int, ...], width: int, height: int, moves: int, rng: random.Random) -> tuple[int, ...]:
    """A random walk of ``moves`` blank moves from the goal, never undoing the last move."""
    tiles = list(goal)
    b = tiles.index(0)
    prev = -1
    for _ in range(moves):
        r, c = divmod(b, width)
        options = [
            p
            for p, ok in ((b - width, r > 0), (b + width, r < height - 1), (b - 1, c > 0), (b + 1, c < width - 1))
            if ok and p != prev
        ]
        p = rng.choice(options)
        tiles[b], tiles[p] = tiles[p], 0
        prev, b = b, p
    return tuple(tiles)


def format_board(board: tuple[int, ...], width: int) -> str:
    """Rows of right-aligned tiles, the blank shown as a dot."""
    cell = len(str(len(board) - 1))
    rows = []
    for r in range(0, len(board), width):
        rows.append(" ".join((str(t) if t else ".").rjust(cell) for t in board[r : r + width]))
    return "\n".join(rows)
