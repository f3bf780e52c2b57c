"""Sokoban positions as pictures, drawn with plain shapes (no tile set), the frames of a
LURD solution, one per push or one per move, and a search-tree node's board with the player
where the push that led to it left it.

Input is minimal: a level's rows in the standard characters (a `Level`, or level text)
and a LURD string, replayed with the plugin's rule of a move (`rules.step`) and drawn on a
grid of ``(row, column)`` squares.  Drawing is aliased on purpose: a picture has a few
dozen colours, so a GIF stores it exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from searchkit import InputError
from searchkit.render import check_directory, check_file, save_frames, save_gif, save_png

from .board import Layout
from .goalroom import Route, expand_route
from .levels import Level, parse_level
from .problem import Push, SokobanProblem
from .rules import Step, illegal, step

CELL = 32
MIN_CELL = 8
GIF_PIXEL_BUDGET = 64_000_000  # Pillow holds every GIF frame (1 byte a pixel) until it writes
PER = ("push", "move")
START_MS, PUSH_MS, MOVE_MS, END_PAUSE_MS = 800, 400, 120, 2000
FACING = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}  # where the drawn player looks

OUTSIDE = (40, 44, 56)
FLOOR = ((214, 208, 194), (222, 216, 203))  # a faint checkerboard
BRICK, MORTAR, BRICK_LIGHT = (156, 74, 52), (98, 48, 38), (186, 104, 78)
GOAL_RING, GOAL_DOT = (214, 48, 92), (240, 120, 150)
CRATE, CRATE_EDGE, CRATE_BRACE = (226, 164, 72), (118, 74, 28), (176, 116, 46)
CRATE_DONE, CRATE_DONE_EDGE, CRATE_DONE_BRACE = (112, 192, 92), (44, 104, 38), (74, 150, 62)
SUIT, SUIT_EDGE, EYE, PUPIL = (58, 118, 222), (26, 58, 128), (255, 255, 255), (20, 20, 30)

Square = tuple[int, int]


@dataclass(frozen=True)
class Grid:
    """A level's squares: what never moves, and the start of what does."""

    width: int
    height: int
    walls: frozenset[Square]
    goals: frozenset[Square]
    floor: frozenset[Square]  # squares the player can reach when boxes are ignored
    boxes: frozenset[Square]
    player: Square
    layout: Layout  # the same as bit sets, for the moves


def grid_of(level: Level | str) -> Grid:
    """The squares of a `Level` or of one level's text (validated by the level parser)."""
    lay = Layout.of(parse_level(level) if isinstance(level, str) else level)
    return Grid(
        lay.width,
        lay.height,
        lay.cells(lay.walls),
        lay.cells(lay.goals),
        lay.cells(lay.floor),
        lay.cells(lay.boxes),
        lay.cell(lay.player),
        lay,
    )


# -- drawing ---------------------------------------------------------------------------------
class Painter:
    """Draws positions of one level: the fixed squares once, then boxes and player as
    sprites pasted per frame."""

    def __init__(
        self,
        walls: Iterable[Square],
        goals: Iterable[Square],
        width: int,
        height: int,
        cell: int = CELL,
        floor: Iterable[Square] | None = None,
    ):
        if cell < MIN_CELL:
            raise ValueError(f"cell must be at least {MIN_CELL} pixels (got {cell})")
        self.cell, self.width, self.height = cell, width, height
        self.walls, self.goals = frozenset(walls), frozenset(goals)
        self.floor = frozenset(floor) if floor is not None else None
        self.background = self._background()
        self.crate = _crate(cell, CRATE, CRATE_EDGE, CRATE_BRACE)
        self.crate_done = _crate(cell, CRATE_DONE, CRATE_DONE_EDGE, CRATE_DONE_BRACE)
        self.players = {k: _player(cell, k) for k in FACING}

    def _background(self) -> Image.Image:
        s = self.cell
        img = Image.new("RGB", (self.width * s, self.height * s), OUTSIDE)
        d = ImageDraw.Draw(img)
        for r in range(self.height):
            for c in range(self.width):
                x, y = c * s, r * s
                if (r, c) in self.walls:
                    _brick(d, x, y, s, r)
                elif self.floor is None or (r, c) in self.floor or (r, c) in self.goals:
                    d.rectangle((x, y, x + s - 1, y + s - 1), fill=FLOOR[(r + c) & 1])
                    if (r, c) in self.goals:
                        _goal(d, x, y, s)
        return img

    def draw(self, boxes: Iterable[Square], player: Square | None, facing: str = "d") -> Image.Image:
        img = self.background.copy()
        s = self.cell
        for r, c in boxes:
            sprite = self.crate_done if (r, c) in self.goals else self.crate
            img.paste(sprite, (c * s, r * s), sprite)
        if player is not None:
            sprite = self.players[facing]
            img.paste(sprite, (player[1] * s, player[0] * s), sprite)
        return img


def render_board(
    walls: Iterable[Square],
    goals: Iterable[Square],
    boxes: Iterable[Square],
    player: Square | None,
    width: int,
    height: int,
    cell: int = CELL,
    floor: Iterable[Square] | None = None,
    facing: str = "d",
) -> Image.Image:
    """One position as an RGB image, ``cell`` pixels a square.

    ``floor`` (squares inside the walls) keeps the outside dark; without it every
    non-wall square is floor.  ``facing`` (u/d/l/r) is where the player looks.
    """
    return Painter(walls, goals, width, height, cell, floor).draw(boxes, player, facing)


def _brick(d: ImageDraw.ImageDraw, x: int, y: int, s: int, row: int) -> None:
    """Two courses of bricks, offset every other row of the level so walls interlock."""
    d.rectangle((x, y, x + s - 1, y + s - 1), fill=MORTAR)
    m = max(1, s // 16)
    half = s // 2
    for course in range(2):
        top = y + course * half
        bottom = y + (s if course else half) - 1
        shift = half // 2 if (course + row) & 1 else 0
        for left in range(x - shift, x + s, half):
            a, b = max(left + m, x), min(left + half - 1, x + s - 1)
            if b - a >= m:
                d.rectangle((a, top + m, b, bottom), fill=BRICK)
                d.line((a, top + m, b, top + m), fill=BRICK_LIGHT)


def _goal(d: ImageDraw.ImageDraw, x: int, y: int, s: int) -> None:
    c, r = s / 2 - 0.5, s * 0.3
    d.ellipse((x + c - r, y + c - r, x + c + r, y + c + r), outline=GOAL_RING, width=max(2, s // 12))
    k = s * 0.09
    d.ellipse((x + c - k, y + c - k, x + c + k, y + c + k), fill=GOAL_DOT)


def _crate(s: int, fill: tuple, edge: tuple, brace: tuple) -> Image.Image:
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    m, w = max(1, s // 12), max(2, s // 12)
    d.rounded_rectangle((m, m, s - 1 - m, s - 1 - m), radius=max(1, s // 10), fill=fill, outline=edge, width=w)
    i = m + w + max(1, s // 16)
    d.line((i, i, s - 1 - i, s - 1 - i), fill=brace, width=w)
    d.line((i, s - 1 - i, s - 1 - i, i), fill=brace, width=w)
    d.rectangle((i, i, s - 1 - i, s - 1 - i), outline=brace, width=max(1, w // 2))
    return img


def _player(s: int, facing: str) -> Image.Image:
    """A round figure seen from above, eyes turned the way it last moved."""
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    m = max(2, s // 7)
    d.ellipse((m, m, s - 1 - m, s - 1 - m), fill=SUIT, outline=SUIT_EDGE, width=max(1, s // 16))
    dr, dc = FACING[facing]
    cx, cy = (s - 1) / 2 + dc * s * 0.12, (s - 1) / 2 + dr * s * 0.12
    apart = s * 0.14
    eye, pupil = s * 0.09, s * 0.045
    for side in (-1, 1):  # the eyes sit side by side across the direction of travel
        ex, ey = cx + side * apart * abs(dr), cy + side * apart * abs(dc)
        d.ellipse((ex - eye, ey - eye, ex + eye, ey + eye), fill=EYE)
        px, py = ex + dc * eye * 0.45, ey + dr * eye * 0.45
        d.ellipse((px - pupil, py - pupil, px + pupil, py + pupil), fill=PUPIL)
    return img


# -- search-tree nodes -----------------------------------------------------------------------
def reached_board(problem: SokobanProblem, state: Any, action: Any) -> str | None:
    """The text board of ``state`` with the player where ``action``'s last push left it: on
    the square that push's box left (``action`` a `Push`, perhaps through a tunnel, or a
    goal-room `Route`).  None for any other action (a root's None, another engine's macro)
    or when that square is not in the state's player region (a pushes-mode state keeps only
    the region's first square, which is what a board drawn from the state alone shows)."""
    if not isinstance(action, Push | Route):
        return None
    square, direction, count = expand_route(action)[-1]
    player = square + (count - 1) * problem.board.offsets[direction]
    if not problem.region(state) >> player & 1:
        return None
    return "\n".join(problem.board.render(state[0], player))


# -- solutions -------------------------------------------------------------------------------
def replay_positions(grid: Grid, lurd: str, per: str = "push") -> list[tuple[frozenset[Square], Square, str]]:
    """``(boxes, player, facing)`` at the start and after every push (or every move).

    Raises ValueError naming the first illegal move.
    """
    if per not in PER:
        raise ValueError(f"per must be one of {', '.join(PER)} (got {per!r})")
    lay = grid.layout
    boxes, player = lay.boxes, lay.player
    out = [(grid.boxes, grid.player, "d")]
    for i, ch in enumerate(lurd, 1):
        moved = step(lay, boxes, player, ch)
        if not isinstance(moved, Step):
            raise ValueError(illegal(i, ch, moved))
        boxes, player = moved.boxes, moved.player
        if per == "move" or moved.pushed:
            out.append((lay.cells(boxes), lay.cell(player), ch.lower()))
    return out


def solution_frames(level: Level | str, lurd: str, per: str = "push", cell: int = CELL) -> Iterator[Image.Image]:
    """Pictures of the start and of the position after every push (or move) of ``lurd``.

    A generator, one frame in memory at a time; ``len(replay_positions(...))`` counts them.
    """
    grid = grid_of(level)
    return _drawn(grid, replay_positions(grid, lurd, per), cell)


def _drawn(grid: Grid, positions: list[tuple[frozenset[Square], Square, str]], cell: int) -> Iterator[Image.Image]:
    """The pictures of ``positions``, drawn one at a time as they are taken."""
    painter = Painter(grid.walls, grid.goals, grid.width, grid.height, cell, grid.floor)
    return (painter.draw(boxes, player, facing) for boxes, player, facing in positions)


def board_picture(level: Level | str, cell: int = CELL) -> Image.Image:
    """The level's start position."""
    grid = grid_of(level)
    return render_board(grid.walls, grid.goals, grid.boxes, grid.player, grid.width, grid.height, cell, grid.floor)


# -- the domain's picture outputs ----------------------------------------------------------------
def check_options(options: dict[str, Any]) -> None:
    """Refuse bad picture options before a search: ``gif``, ``png``, ``frames`` paths and
    ``frames_per``."""
    per = str(options.get("frames_per") or "push").lower()
    if per not in PER:
        raise InputError(f"--frames-per must be push or move (got {options.get('frames_per')!r})")
    if options.get("gif"):
        check_file(options["gif"], "GIF", (".gif",))
    if options.get("png"):
        check_file(options["png"], "picture", (".png",))
    if options.get("frames"):
        check_directory(options["frames"])


def write_outputs(level: Level, lurd: str, options: dict[str, Any], echo: Callable[[str], None]) -> None:
    """Write the pictures ``options`` ask for (``png``: the start, ``gif``/``frames``: the
    solution, one frame per push or move as ``frames_per`` says); one note per file."""
    check_options(options)
    per = str(options.get("frames_per") or "push").lower()
    grid = grid_of(level)
    positions = replay_positions(grid, lurd, per)
    steps = len(positions) - 1
    what = f"start + {steps} {'pushes' if per == 'push' else 'moves'}"
    if options.get("png"):
        save_png(board_picture(level), Path(options["png"]))
        echo(f"picture: the start position written to {options['png']}")
    if options.get("frames"):
        save_frames(_drawn(grid, positions, CELL), Path(options["frames"]), count=len(positions))
        echo(f"frames: {len(positions)} PNG frames ({what}) written to {options['frames']}")
    if options.get("gif"):
        per_frame = grid.width * grid.height * len(positions)
        cell = max(MIN_CELL, min(CELL, int(math.sqrt(GIF_PIXEL_BUDGET / per_frame))))
        step_ms = PUSH_MS if per == "push" else MOVE_MS
        durations = [START_MS] + [step_ms] * steps
        save_gif(_drawn(grid, positions, cell), Path(options["gif"]), durations, final_pause_ms=END_PAUSE_MS)
        note = f", {cell}-pixel squares" if cell != CELL else ""
        echo(f"animation: {len(positions)} frames ({what}{note}) written to {options['gif']}")
