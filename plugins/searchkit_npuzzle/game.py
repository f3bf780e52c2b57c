"""The sliding-tile puzzle as a game: the board, moves by direction, shuffling, saving.

Moves are recorded as the blank's direction (``U D L R``), the notation the solver uses,
so a plan from the solver plays straight into the history.  A key or a click names the
direction a *tile* slides, the opposite of the blank's.  Only a tile next to the blank
moves.  Plain logic: the screen is `play_app`.
"""

from __future__ import annotations

import random
from typing import Any

from searchkit import InputError
from searchkit.play import GameSession, solve_moves

from .board import MAX_SIDE, check_board, is_solvable, scrambled_board
from .problem import OPPOSITE

BLANK_MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
TILE_TO_BLANK = {"up": "D", "down": "U", "left": "R", "right": "L"}  # a tile slides opposite to the blank
WEB_SIDES = (3, 4, 5)
MAX_DEPTH = 10_000
OPTIMAL_UP_TO = 16  # cells: the domain's default engine is optimal up to the 15-puzzle


def goal_with_blank(width: int, height: int, blank: int) -> tuple[int, ...]:
    """Tiles 1..n-1 in reading order with the blank in cell ``blank`` (0-based)."""
    n = width * height
    if not 0 <= blank < n:
        raise InputError(f"the blank's goal cell must be 1..{n} (got {blank + 1})")
    tiles = list(range(1, n))
    tiles.insert(blank, 0)
    return tuple(tiles)


def _whole(value: Any, name: str) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        raise InputError(f"{name} must be a whole number (got {value!r})") from None


def parse_blank(spec: str | int | None, width: int, height: int) -> int:
    """The blank's goal cell from ``last`` (default), ``first``, ``center``, a cell number
    1..n in reading order, or ``ROW,COL`` (1-based)."""
    n = width * height
    text = str(spec if spec is not None else "last").strip().lower()
    if text in ("last", "blank-last", "bottom-right"):
        return n - 1
    if text in ("first", "blank-first", "top-left"):
        return 0
    if text in ("center", "centre", "middle"):
        return (height // 2) * width + width // 2
    if "," in text:
        parts = text.split(",")
        try:
            r, c = (int(p) for p in parts)
        except ValueError:
            raise InputError(f"--blank ROW,COL needs two whole numbers (got {spec!r})") from None
        if not (1 <= r <= height and 1 <= c <= width):
            raise InputError(f"--blank {spec!r} is off the {width}x{height} board")
        return (r - 1) * width + (c - 1)
    try:
        cell = int(text)
    except ValueError:
        raise InputError(f"--blank must be last, first, center, a cell 1..{n} or ROW,COL (got {spec!r})") from None
    if not 1 <= cell <= n:
        raise InputError(f"--blank cell must be 1..{n} (got {cell})")
    return cell - 1


class NPuzzleGame(GameSession):
    """A width x height board played from ``start`` towards ``goal`` (tuples, 0 = blank)."""

    domain = "npuzzle"

    def __init__(self, width: int, height: int, start: tuple[int, ...], goal: tuple[int, ...]):
        super().__init__()
        self.width, self.height = width, height
        self.goal = tuple(goal)
        self.start = tuple(start)
        self.board = list(start)
        self.blank = self.board.index(0)

    # -- making games ---------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        size: int = 3,
        blank: str | int | None = "last",
        rng: random.Random | None = None,
        height: int | None = None,
    ) -> NPuzzleGame:
        """A shuffled game: a random walk of n*n*10 moves from the goal (always solvable)."""
        width, height = size, height or size
        _check_side(width)
        _check_side(height)
        goal = goal_with_blank(width, height, parse_blank(blank, width, height))
        game = cls(width, height, goal, goal)
        game.shuffle(rng)
        return game

    @classmethod
    def create(cls, options: dict[str, Any]) -> NPuzzleGame:
        """A game from the web page: ``size`` 3..5, ``blank``, ``depth`` (random blank moves
        from the goal; default n*n*10) and an optional ``seed``."""
        size = _whole(options.get("size", 3), "size")
        if size not in WEB_SIDES:
            raise InputError(f"size must be one of {', '.join(map(str, WEB_SIDES))} (got {size})")
        goal = goal_with_blank(size, size, parse_blank(options.get("blank") or "last", size, size))
        game = cls(size, size, goal, goal)
        depth = options.get("depth")
        depth = size * size * 10 if depth in (None, "") else _whole(depth, "depth")
        if not 1 <= depth <= MAX_DEPTH:
            raise InputError(f"depth must be 1..{MAX_DEPTH} (got {depth})")
        seed = options.get("seed")
        rng = random.Random(None if seed in (None, "") else _whole(seed, "seed"))
        start = goal
        while start == goal:  # a walk can come back home
            start = scrambled_board(goal, size, size, depth, rng)
        game.start = start
        game.restart()
        return game

    def view_json(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "goal": list(self.goal)}

    def shuffle(self, rng: random.Random | None = None) -> None:
        """A new start: ``width * height * 10`` random blank moves from the goal."""
        rng = rng or random.Random()
        n = self.width * self.height
        start = self.goal
        while start == self.goal:  # a walk can come back home on tiny boards
            start = scrambled_board(self.goal, self.width, self.height, n * 10, rng)
        self.start = start
        self.restart()

    # -- the rules ----------------------------------------------------------------------------
    def _target(self, move: str) -> int | None:
        """The cell the blank reaches by ``move``, or None off the board (or no such move)."""
        step = BLANK_MOVES.get(move)
        if step is None:
            return None
        r, c = divmod(self.blank, self.width)
        r, c = r + step[0], c + step[1]
        if not (0 <= r < self.height and 0 <= c < self.width):
            return None
        return r * self.width + c

    def apply(self, move: str) -> str | None:
        p = self._target(move)
        if p is None:
            return None
        self.board[self.blank], self.board[p] = self.board[p], 0
        self.blank = p
        return move

    def revert(self, recorded: str) -> None:
        self.apply(OPPOSITE[recorded])

    def reset_position(self) -> None:
        self.board = list(self.start)
        self.blank = self.board.index(0)

    @property
    def solved(self) -> bool:
        return tuple(self.board) == self.goal

    def move_for_key(self, direction: str) -> str:
        """The blank move that slides a tile ``direction`` (up/down/left/right)."""
        return TILE_TO_BLANK[direction]

    def move_for_cell(self, cell: int) -> str | None:
        """The blank move that slides the tile in ``cell`` into the blank, if it is next to it."""
        br, bc = divmod(self.blank, self.width)
        r, c = divmod(cell, self.width)
        for move, (dr, dc) in BLANK_MOVES.items():
            if (br + dr, bc + dc) == (r, c):
                return move
        return None

    def tile_moved_by(self, move: str) -> int | None:
        """The tile that ``move`` of the blank would slide, in the current position."""
        p = self._target(move)
        return None if p is None else self.board[p]

    # -- saving -------------------------------------------------------------------------------
    def params(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "goal": list(self.goal)}

    def start_json(self) -> list[int]:
        return list(self.start)

    def current_json(self) -> list[int]:
        return list(self.board)

    @classmethod
    def from_params(cls, params: dict[str, Any], start: Any) -> NPuzzleGame:
        width, height = _side(params.get("width"), "width"), _side(params.get("height"), "height")
        n = width * height
        goal = _tiles(params.get("goal"), "goal", n)
        board = _tiles(start, "start board", n)
        if not is_solvable(board, goal, width):
            raise InputError("the start board cannot reach the goal")
        return cls(width, height, board, goal)

    # -- the solver -----------------------------------------------------------------------------
    @property
    def optimal_hints(self) -> bool:
        return self.width * self.height <= OPTIMAL_UP_TO

    def solve_options(self) -> dict[str, Any]:
        return {
            "size": f"{self.width}x{self.height}",
            "board": " ".join(map(str, self.board)),
            "goal": " ".join(map(str, self.goal)),
        }

    def solve_task(self):
        """Optimal plans (the domain's default engine) up to 4x4; beyond, weighted A* on
        linear conflicts, which needs no pattern database (whose first build takes minutes)."""
        big = {} if self.optimal_hints else {"engine": "astar", "heuristic": "linear-conflict", "params": {"weight": 2}}
        return solve_moves(
            "npuzzle", self.solve_options(), lambda job, result: list(result.actions), self.position_key(), **big
        )


def _check_side(side: int) -> None:
    if not 2 <= side <= MAX_SIDE:
        raise InputError(f"the board side must be 2..{MAX_SIDE} (got {side})")


def _side(value: Any, name: str) -> int:
    """A saved board's ``name`` side (width or height), checked."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"the board's {name} is missing or not a whole number")
    _check_side(value)
    return value


def _tiles(value: Any, what: str, n: int) -> tuple[int, ...]:
    """A saved board (``what``: goal or start board) of ``n`` cells as a tuple, checked."""
    if not isinstance(value, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in value):
        raise InputError(f"the {what} is not a list of tiles")
    tiles = tuple(value)
    check_board(tiles, n, what)
    return tiles
