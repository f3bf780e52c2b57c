"""The n-puzzle on screen: tiles as numbers or as a picture in coloured half-block cells.

A picture tile is ``t`` pixels square drawn in ``t`` columns by ``t / 2`` rows: each
character cell is an upper half block whose foreground is the upper pixel and whose
background the lower one.  Terminals without 256 or true colour get numbered tiles.
"""

from __future__ import annotations

import colorsys
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.strip import Strip
from textual.widget import Widget

from searchkit import InputError
from searchkit.play.app import GameApp, TextPrompt

from .game import NPuzzleGame, goal_with_blank, parse_blank

TILE_PIXELS = {2: 14, 3: 12, 4: 10, 5: 8}  # picture pixels (= columns) per tile side
MODES = ("picture+numbers", "picture", "numbers")
RGB = tuple[int, int, int]


def tile_pixels(width: int, height: int) -> int:
    return TILE_PIXELS.get(max(width, height), 6)


# -- pictures --------------------------------------------------------------------------------
class TilePictures:
    """Each tile's block of pixels (rows of RGB), and the whole picture for the solved board."""

    def __init__(self, width: int, height: int, goal: tuple[int, ...], image: str | Path | None = None):
        self.t = t = tile_pixels(width, height)
        self.width = width
        size = (width * t, height * t)
        try:
            from . import picture
        except ImportError:  # no Pillow: a gradient drawn here
            self.whole = _gradient(size)
            self.blocks = {tile: _bevel(_cut(self.whole, p, width, t)) for p, tile in enumerate(goal) if tile}
            return
        img = picture.load_picture(image, size) if image else picture.default_picture(size)
        board = picture.PictureBoard(img, width, height, goal)
        self.whole = _pixels(board.picture)
        self.blocks = {tile: _pixels(piece) for tile, piece in board.pieces.items()}


def _pixels(img: Any) -> list[list[RGB]]:
    img = img.convert("RGB")
    w, h = img.size
    data = list(img.getdata())
    return [data[y * w : (y + 1) * w] for y in range(h)]


def _gradient(size: tuple[int, int]) -> list[list[RGB]]:
    """Hue across, brightness down: every tile's piece looks different from its neighbours'."""
    w, h = size
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            r, g, b = colorsys.hsv_to_rgb(x / w * 0.85, 0.55 + 0.4 * y / h, 1.0 - 0.55 * y / h)
            row.append((int(r * 255), int(g * 255), int(b * 255)))
        rows.append(row)
    return rows


def _cut(whole: list[list[RGB]], cell: int, width: int, t: int) -> list[list[RGB]]:
    r, c = divmod(cell, width)
    return [row[c * t : (c + 1) * t] for row in whole[r * t : (r + 1) * t]]


def _bevel(block: list[list[RGB]]) -> list[list[RGB]]:
    t = len(block)
    out = [list(row) for row in block]
    for i in range(t):
        out[0][i] = _mix(out[0][i], (255, 255, 255), 0.4)
        out[i][0] = _mix(out[i][0], (255, 255, 255), 0.4)
        out[t - 1][i] = _mix(out[t - 1][i], (0, 0, 0), 0.5)
        out[i][t - 1] = _mix(out[i][t - 1], (0, 0, 0), 0.5)
    return out


def _mix(a: RGB, b: RGB, k: float) -> RGB:
    return tuple(round(x + (y - x) * k) for x, y in zip(a, b))  # type: ignore[return-value]


# -- the board widget ------------------------------------------------------------------------------
class TileBoard(Widget):
    """Draws the game's board; a click on a tile asks the app to slide it."""

    DEFAULT_CSS = "TileBoard { width: auto; height: auto; }"
    HOLE = (14, 14, 18)

    def __init__(self, game_getter: Callable[[], NPuzzleGame], image: str | Path | None, mode: str):
        super().__init__()
        self.game_getter = game_getter
        self.image = image
        self.mode = mode
        self.highlight: int | None = None  # a hinted tile
        self._pictures: dict[tuple, TilePictures] = {}
        self._style_cache: dict[tuple, Style] = {}
        self._lines: list[Strip] = []
        self._built_for: tuple = ()

    @property
    def game(self) -> NPuzzleGame:
        return self.game_getter()

    @property
    def cell_size(self) -> tuple[int, int]:
        t = tile_pixels(self.game.width, self.game.height)
        return t, t // 2

    def get_content_width(self, container, viewport) -> int:
        return self.cell_size[0] * self.game.width

    def get_content_height(self, container, viewport, width) -> int:
        return self.cell_size[1] * self.game.height

    def pictures(self) -> TilePictures:
        g = self.game
        key = (g.width, g.height, g.goal)
        if key not in self._pictures:
            self._pictures = {key: TilePictures(g.width, g.height, g.goal, self.image)}
        return self._pictures[key]

    def picture_possible(self) -> bool:
        """Pictures need 256 colours at least (``NO_COLOR`` or a 16-colour terminal: numbers)."""
        system = getattr(self.app.console, "color_system", "truecolor")
        return system not in (None, "standard", "windows") and not self.app.no_color

    def _style(self, fg: RGB | None, bg: RGB, bold: bool = False) -> Style:
        key = (fg, bg, bold)
        style = self._style_cache.get(key)
        if style is None:
            style = self._style_cache[key] = Style(color=f"rgb{fg}" if fg else None, bgcolor=f"rgb{bg}", bold=bold)
        return style

    def render_line(self, y: int) -> Strip:
        g = self.game
        key = (g.width, g.height, tuple(g.board), g.goal, self.mode, self.highlight)
        if key != self._built_for:  # lines are built once per position, not once per line
            self._built_for, self._lines = key, self._build()
        return self._lines[y] if 0 <= y < len(self._lines) else Strip.blank(self.size.width)

    def _build(self) -> list[Strip]:
        g = self.game
        tw, th = self.cell_size
        picture = self.mode != "numbers" and self.picture_possible()
        if picture:
            return self._build_picture(g, tw, th)
        return self._build_numbers(g, tw, th)

    @staticmethod
    def _strips(g: NPuzzleGame, tw: int, th: int, paint) -> list[Strip]:
        """The board's text lines: ``paint(p, tile, y)`` gives cell p's segments on its line y."""
        lines = []
        for r in range(g.height):
            for y in range(th):
                segs = []
                for c in range(g.width):
                    p = r * g.width + c
                    segs.extend(paint(p, g.board[p], y))
                lines.append(Strip(segs, tw * g.width))
        return lines

    def _build_numbers(self, g: NPuzzleGame, tw: int, th: int) -> list[Strip]:
        gap = self._style(None, self.HOLE)
        empty = [Segment(" " * tw, gap)]

        def paint(p: int, tile: int, y: int) -> list[Segment]:
            if tile == 0 or y == th - 1:  # the blank, and the gap line under each tile
                return empty
            home = g.goal[p] == tile
            bg = (46, 125, 70) if home else (52, 84, 150)
            if tile == self.highlight:
                bg = (200, 150, 30)
            style = self._style((250, 250, 250), bg, bold=True)
            text = str(tile).center(tw - 1) if y == (th - 1) // 2 else " " * (tw - 1)
            return [Segment(text, style), Segment(" ", gap)]

        return self._strips(g, tw, th, paint)

    def _build_picture(self, g: NPuzzleGame, tw: int, th: int) -> list[Strip]:
        pics = self.pictures()
        t = pics.t
        solved = g.solved
        numbers = self.mode == "picture+numbers" and not solved
        hole = [Segment(" " * tw, self._style(None, self.HOLE))]

        def paint(p: int, tile: int, y: int) -> list[Segment]:
            if solved:
                block = _cut(pics.whole, p, g.width, t)
            elif tile == 0:
                return hole
            else:
                block = pics.blocks[tile]
            top, bottom = block[2 * y], block[2 * y + 1]
            label = str(tile) if numbers and y == 0 and tile else ""
            segs = []
            for x in range(tw):
                if x < len(label):
                    bg = (200, 150, 30) if tile == self.highlight else (12, 14, 24)
                    segs.append(Segment(label[x], self._style((255, 255, 255), bg, bold=True)))
                else:
                    segs.append(Segment("▀", self._style(top[x], bottom[x])))
            return segs

        return self._strips(g, tw, th, paint)

    def on_click(self, event: events.Click) -> None:
        tw, th = self.cell_size
        c, r = event.x // tw, event.y // th
        g = self.game
        if 0 <= c < g.width and 0 <= r < g.height:
            cast(NPuzzleApp, self.app).click_cell(r * g.width + c)  # the app this board is made for


# -- the app ----------------------------------------------------------------------------------------
ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}
BLANK_TO_TILE = {"D": "up", "U": "down", "R": "left", "L": "right"}


class NPuzzleApp(GameApp):
    """``searchkit play npuzzle``."""

    BINDINGS = [
        Binding("n", "new_game", "New"),
        Binding("3", "size(3)", "3x3", show=False),
        Binding("4", "size(4)", "4x4", show=False),
        Binding("5", "size(5)", "5x5", show=False),
        Binding("b", "blank", "Blank goal"),
        Binding("p", "picture", "Picture"),
    ]
    game_title = "searchkit · n-puzzle"
    session: NPuzzleGame
    board: TileBoard

    def __init__(
        self,
        session: NPuzzleGame,
        *,
        image: str | Path | None = None,
        numbers: bool = False,
        seed: int | None = None,
        **kwargs: Any,
    ):
        super().__init__(session, **kwargs)
        self.image = image
        self.rng = random.Random(seed)
        self.start_mode = "numbers" if numbers else "picture+numbers"

    def make_board(self) -> Widget:
        return TileBoard(lambda: self.session, self.image, self.start_mode)

    def move_for(self, direction: str) -> str | None:
        return self.session.move_for_key(direction)

    def click_cell(self, cell: int) -> None:
        move = self.session.move_for_cell(cell)
        if move is None:
            if self.session.board[cell] != 0:
                self.say("Only a tile next to the blank can slide.")
            return
        self.player_move(move)

    def describe_game(self) -> str:
        g = self.session
        n = g.width * g.height
        r, c = divmod(g.goal.index(0), g.width)
        kind = "optimal" if g.optimal_hints else "good, not optimal"
        return f"[b]{n - 1}-puzzle[/b] ({g.width}x{g.height})\nBlank's goal: row {r + 1}, col {c + 1}\nHints: {kind}"

    def describe_move(self, move: str) -> str:
        tile = self.session.tile_moved_by(move)
        direction = BLANK_TO_TILE[move]
        self.board.highlight = tile
        self.board.refresh()
        return f"slide tile {tile} {direction} {ARROWS[direction]}"

    def after_move(self, move: str) -> None:
        self.board.highlight = None

    def refresh_view(self) -> None:
        super().refresh_view()
        self.sub_title = f"{self.session.width}x{self.session.height}"

    # -- new games ------------------------------------------------------------------------------
    def _new(self, size: int, height: int, blank: int, message: str) -> None:
        goal = goal_with_blank(size, height, blank)
        game = NPuzzleGame(size, height, goal, goal)
        game.shuffle(self.rng)
        self.set_session(game, message)

    def action_new_game(self) -> None:
        g = self.session
        self._new(g.width, g.height, g.goal.index(0), "New game: shuffled with a random walk.")

    def action_size(self, size: int) -> None:
        g = self.session
        r, c = divmod(g.goal.index(0), g.width)
        blank = (
            size * size - 1 if g.goal.index(0) == g.width * g.height - 1 else min(r, size - 1) * size + min(c, size - 1)
        )
        self._new(size, size, blank, f"New {size}x{size} game.")

    def action_blank(self) -> None:
        g = self.session

        def done(answer: str | None) -> None:
            if not answer:
                return
            try:
                blank = parse_blank(answer, g.width, g.height)
            except InputError as e:
                self.say(f"Error: {e}")
                return
            r, c = divmod(blank, g.width)
            self._new(g.width, g.height, blank, f"New game with the blank's goal at row {r + 1}, column {c + 1}.")

        self.push_screen(
            TextPrompt(f"Blank's goal cell: last, first, center, 1..{g.width * g.height} or ROW,COL", "last"), done
        )

    def action_picture(self) -> None:
        board = self.board
        board.mode = MODES[(MODES.index(board.mode) + 1) % len(MODES)]
        if board.mode != "numbers" and not board.picture_possible():
            self.say("This terminal shows too few colours for pictures: numbers it is.")
        else:
            self.say(f"Tiles: {board.mode.replace('+', ' with ')}.")
        board.refresh()
