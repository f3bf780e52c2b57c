"""Sokoban on screen: two character cells a square, colours for walls, goals and boxes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.strip import Strip
from textual.widget import Widget

from searchkit import InputError
from searchkit.play.app import GameApp, TextPrompt

from .game import KEY_TO_MOVE, SokobanGame, collection_levels
from .levels import Level

ARROWS = {"u": "↑", "d": "↓", "l": "←", "r": "→"}
WORDS = {"u": "up", "d": "down", "l": "left", "r": "right"}
FLOOR_BG = "rgb(28,28,34)"
CELLS = {  # (text, style) per level character; a goal keeps its colour under the player
    "#": ("  ", Style(bgcolor="rgb(96,96,120)")),
    " ": ("  ", Style(bgcolor=FLOOR_BG)),
    ".": ("<>", Style(color="rgb(240,200,60)", bgcolor=FLOOR_BG, bold=True)),
    "$": ("[]", Style(color="rgb(30,20,10)", bgcolor="rgb(205,130,50)", bold=True)),
    "*": ("[]", Style(color="rgb(10,30,10)", bgcolor="rgb(70,180,90)", bold=True)),
    "@": ("()", Style(color="rgb(120,220,255)", bgcolor=FLOOR_BG, bold=True)),
    "+": ("()", Style(color="rgb(120,220,255)", bgcolor="rgb(90,80,20)", bold=True)),
    "outside": ("  ", Style()),
}


class LevelBoard(Widget):
    """The current position; squares outside the walls stay blank."""

    DEFAULT_CSS = "LevelBoard { width: auto; height: auto; }"

    def __init__(self, game_getter: Callable[[], SokobanGame]):
        super().__init__()
        self.game_getter = game_getter
        self._built_for: tuple = ()
        self._lines: list[Strip] = []

    def get_content_width(self, container, viewport) -> int:
        return 2 * self.game_getter().width

    def get_content_height(self, container, viewport, width) -> int:
        return self.game_getter().height

    def render_line(self, y: int) -> Strip:
        g = self.game_getter()
        rows = g.rows()
        if (id(g), tuple(rows)) != self._built_for:
            self._built_for = (id(g), tuple(rows))
            self._lines = [self._line(g, r, row) for r, row in enumerate(rows)]
        return self._lines[y] if 0 <= y < len(self._lines) else Strip.blank(self.size.width)

    def _line(self, g: SokobanGame, r: int, row: str) -> Strip:
        inside = _inside(g)
        segs = []
        for c, ch in enumerate(row):
            if ch == " " and (r, c) not in inside:
                ch = "outside"
            text, style = CELLS[ch]
            segs.append(Segment(text, style))
        return Strip(segs, 2 * len(row))


def _inside(g: SokobanGame) -> frozenset:
    """Squares inside the walls (the floor, and boxes and goals sealed off), cached per game."""
    cached = getattr(g, "_play_inside", None)
    if cached is None:
        lay = g.layout
        cached = g._play_inside = lay.cells(lay.floor | lay.boxes | lay.goals)  # type: ignore[attr-defined]  # the app's cache
    return cached


class SokobanApp(GameApp):
    """``searchkit play sokoban LEVEL``."""

    BINDINGS = [
        Binding("left_square_bracket", "level(-1)", "Prev level"),
        Binding("right_square_bracket", "level(1)", "Next level"),
        Binding("v", "choose_level", "Level..."),
    ]
    game_title = "searchkit · Sokoban"
    session: SokobanGame

    def __init__(self, session: SokobanGame, levels: list[Level] | None = None, **kwargs: Any):
        super().__init__(session, **kwargs)
        self.levels = levels or [session.level]

    def make_board(self) -> Widget:
        return LevelBoard(lambda: self.session)

    def move_for(self, direction: str) -> str | None:
        return KEY_TO_MOVE[direction]

    def describe_game(self) -> str:
        g = self.session
        name = f"\n{g.level.title}" if g.level.title and g.level.title != str(g.level.number) else ""
        source = Path(g.source).name if g.source else "level"
        return f"[b]{source}[/b] {g.level.number} of {max(g.count, len(self.levels))}{name}"

    def counters(self) -> str:
        return f"Moves  [b]{self.session.moves}[/b]\nPushes [b]{self.session.pushes}[/b]"

    def describe_move(self, move: str) -> str:
        verb = "push the box" if move.isupper() else "walk"  # a plan's moves are LURD letters
        return f"{verb} {WORDS[move.lower()]} {ARROWS[move.lower()]}"

    def solved_message(self) -> str:
        return f"{super().solved_message()[:-1]}, {self.session.pushes} pushes! ] for the next level."

    def after_move(self, move: str) -> None:
        if move.isupper():
            why = self.session.deadlock()
            if why:
                self.say(f"Deadlock: {why}. Undo with u.")

    def session_from_save(self, data, where: str) -> SokobanGame:
        game = SokobanGame.from_save(data, where)
        if game.source != self.session.source:
            self.levels = collection_levels(game.source) or [game.level]
        return game

    # -- levels -----------------------------------------------------------------------------------
    def _open_level(self, index: int) -> None:
        level = self.levels[index]
        game = SokobanGame(level, self.session.source, len(self.levels))
        self.set_session(game, f"Level {level.number}{': ' + level.title if level.title else ''}.")

    def _index(self) -> int:
        number = self.session.level.number
        for i, level in enumerate(self.levels):
            if level.number == number:
                return i
        return 0

    def action_level(self, step: int) -> None:
        if len(self.levels) < 2:
            self.say("This file holds one level.")
            return
        self._open_level((self._index() + step) % len(self.levels))

    def action_choose_level(self) -> None:
        def done(answer: str | None) -> None:
            if not answer:
                return
            from .levels import select

            try:
                level = select(self.levels, answer, self.session.source or "the collection")
            except InputError as e:
                self.say(f"Error: {e}")
                return
            self._open_level(self.levels.index(level))

        self.push_screen(TextPrompt(f"Level: a number 1..{len(self.levels)} or a title", ""), done)
