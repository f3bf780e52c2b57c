"""Sokoban in ``searchkit serve``'s page: the bundled collections to choose from, uploaded
level files, moves by click, pasted LURD, and what the page draws beside the board.

The rules, the deadlock notices, saving and solving are `game.SokobanGame`'s, so a game
saved here loads in ``searchkit play sokoban`` and the other way round.  The page only
ever gets level text: an uploaded file is parsed, never stored, and a save's ``source``
(a path on the terminal's machine) is kept as data, never opened.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from searchkit import InputError

from .board import DIRS
from .game import KEY_TO_MOVE, SokobanGame
from .levels import BUNDLED, MAX_FILE_BYTES, Level, bundled_text, decode_level_bytes, parse_levels, select
from .lurd import replay_lurd

COLLECTIONS = {"microban": "Microban", "xsokoban": "XSokoban", "sasquatch": "Sasquatch II"}
TEXT_CONTROLS = frozenset("\t\n\r\f\v\x1a")  # control characters a text file may hold (\x1a: DOS end of file)


def pick(levels: list[Level], which: Any, source: str) -> Level:
    """The level the page asked for: ``which``, a number from 1 or a title (default 1); the
    errors name the request's own field, ``level``."""
    key = str(which if which not in (None, "") else "1").strip()
    if key.isascii() and key.isdigit() and levels:
        n = int(key) if len(key) <= 9 else 0  # thousands of digits: out of range
        if not 1 <= n <= len(levels):
            shown = key if len(key) <= 12 else key[:9] + "..."
            raise InputError(f"level {shown} is out of range (1–{len(levels)}): {source} holds {len(levels)}")
    return select(levels, key, source)


@cache
def bundled(name: str) -> tuple[Level, ...]:
    """A bundled collection's levels, parsed once per process."""
    return tuple(parse_levels(bundled_text(name), name))


def level_text(data: bytes, name: str) -> str:
    """An uploaded file's text; InputError when it is empty, too large or not text at all."""
    if not data.strip():
        raise InputError(f"{name} is empty: choose a Sokoban level file (.txt or .sok)")
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"{name} is larger than {MAX_FILE_BYTES >> 20} MB: not a Sokoban level file")
    text = decode_level_bytes(data)
    if any(ch < " " and ch not in TEXT_CONTROLS for ch in text):
        raise InputError(f"{name} is not text: a Sokoban level file is text (.txt or .sok)")
    return text


class SokobanWebGame(SokobanGame):
    """A `SokobanGame` the page plays.  ``file``: the uploaded file's name, if it came from one.

    The deadlock detectors are built with the game (a level's take up to a second), so
    that the moves, answered on the server's event loop, never wait for them."""

    def __init__(self, level: Level, source: str = "", count: int = 1, disabled: frozenset = frozenset()):
        super().__init__(level, source, count, disabled)
        self.file = ""
        self.pruning()

    @classmethod
    def catalog(cls) -> dict[str, Any]:
        return {
            "collections": [
                {"name": name, "title": title, "levels": [lv.label for lv in bundled(name)]}
                for name, title in COLLECTIONS.items()
            ]
        }

    @classmethod
    def create(cls, options: dict[str, Any]) -> SokobanWebGame:
        """Level ``level`` (a number or title; default 1) of the bundled ``collection``."""
        chosen = options.get("collection")
        name = chosen.lower() if isinstance(chosen, str) and chosen else "microban" if chosen in (None, "") else None
        if name not in BUNDLED:
            raise InputError(f"unknown collection {chosen!r:.40} (bundled: {', '.join(COLLECTIONS)})")
        levels = list(bundled(name))
        return cls(pick(levels, options.get("level"), COLLECTIONS[name]), name, len(levels))

    @classmethod
    def from_file(cls, data: bytes, name: str, options: dict[str, Any]) -> SokobanWebGame:
        """Level ``level`` (default 1) of an uploaded level file, refused when no push can
        solve it from the start (the search's own deadlock test says why)."""
        levels = parse_levels(level_text(data, name), name)
        level = pick(levels, options.get("level"), name)
        game = cls(level, "", len(levels))
        why = game.deadlock()
        if why:
            raise InputError(f"{name}: level {level.label} cannot be solved: {why}")
        game.file = name
        return game

    def view_json(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "level": self.level.number,
            "title": self.level.title,
            "count": self.count,
            "collection": self.source if self.source in BUNDLED else None,
            "file": self.file,
            "pushes": self.pushes,
            "deadlock": self.deadlock(),
            "lurd": "".join(self.history),
        }

    def move_for_key(self, direction: str) -> str:
        return KEY_TO_MOVE[direction]

    def move_for_cell(self, cell: int) -> str | None:
        """The step onto square ``cell`` (row * width + column), if it is next to the player."""
        offsets = self.layout.offsets  # a closed level: the player is never on the edge, so no step wraps
        step = cell - self.square
        return DIRS[offsets.index(step)] if step in offsets else None

    def check_moves(self, text: str) -> list[str]:
        """LURD letters (white space ignored), replayed strictly from the level's start: a
        walk into a box or a push of nothing is refused, as in any LURD replay."""
        lurd = "".join(text.split())
        if not lurd:
            raise InputError("paste some LURD moves first: u d l r walk, U D L R push")
        try:
            replay_lurd(self.level, lurd, to_goals=False)
        except AssertionError as e:
            raise InputError(f"the moves do not replay: {e}") from None
        return list(lurd)
