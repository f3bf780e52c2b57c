"""The rules-independent part of a game: move history, undo/redo, the clock, saving.

A game class (in a domain plugin) subclasses `GameSession` and supplies the rules:
`apply` a move, `revert` it, say whether the position is `solved`, and describe its
parameters and positions as JSON.  Everything a player does - moves, undo, redo,
restart, save, load - then works the same in every game and is tested without a screen.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, Self

from ..errors import InputError
from .saves import SaveData


class Clock:
    """Elapsed playing time: runs from the first move, stops when the puzzle is solved."""

    def __init__(self, elapsed: float = 0.0, now: Callable[[], float] = time.monotonic):
        self._base = elapsed
        self._since: float | None = None
        self._now = now

    @property
    def running(self) -> bool:
        return self._since is not None

    def start(self) -> None:
        if self._since is None:
            self._since = self._now()

    def stop(self) -> None:
        if self._since is not None:
            self._base += self._now() - self._since
            self._since = None

    def reset(self, elapsed: float = 0.0) -> None:
        self._base, self._since = elapsed, None

    @property
    def elapsed(self) -> float:
        return self._base + (self._now() - self._since if self._since is not None else 0.0)


def format_time(seconds: float) -> str:
    seconds = int(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class GameSession:
    """One game: a position that moves change, with history and redo stacks.

    ``history`` holds moves as `apply` recorded them (JSON strings); ``future`` holds
    undone moves, the next one to redo last.  Making the move that is next in ``future``
    keeps the rest of it, any other move clears it (as in an editor).
    """

    domain: str = ""

    def __init__(self) -> None:
        self.history: list[str] = []
        self.future: list[str] = []
        self.clock = Clock()
        self.hints = 0

    # -- the rules: subclasses ---------------------------------------------------------------
    def apply(self, move: str) -> str | None:
        """Make ``move`` if it is legal and return it as it should be recorded, else None."""
        raise NotImplementedError

    def revert(self, recorded: str) -> None:
        """Take back the last move, given as `apply` recorded it."""
        raise NotImplementedError

    def reset_position(self) -> None:
        """Put the position back to the start."""
        raise NotImplementedError

    @property
    def solved(self) -> bool:
        raise NotImplementedError

    def params(self) -> dict[str, Any]:
        raise NotImplementedError

    def start_json(self) -> Any:
        raise NotImplementedError

    def current_json(self) -> Any:
        raise NotImplementedError

    @classmethod
    def from_params(cls, params: dict[str, Any], start: Any) -> Self:
        """A game at ``start``; raise InputError when either is not valid."""
        raise NotImplementedError

    @classmethod
    def create(cls, options: dict[str, Any]) -> GameSession:
        """A new game from a web form's ``options`` (strings or numbers); InputError if bad."""
        raise NotImplementedError

    def view_json(self) -> dict[str, Any]:
        """What a page draws of the position (beyond the board itself)."""
        return {}

    # -- what a web page may offer beyond `create` (the defaults: nothing) ----------------------
    @classmethod
    def catalog(cls) -> dict[str, Any]:
        """What a page lets a player choose a game from (say, level collections), as JSON."""
        return {}

    @classmethod
    def from_file(cls, data: bytes, name: str, options: dict[str, Any]) -> GameSession:
        """A new game from an uploaded file (a level file, say); InputError when it is not one."""
        raise InputError(f"{cls.domain} games are not started from a file")

    def check_moves(self, text: str) -> list[str]:
        """The moves written in ``text`` (the game's notation) when they all play from the
        start; else InputError naming the first that does not.  The game does not change."""
        raise InputError(f"{self.domain} games do not replay written moves")

    def solve_task(self):
        """A `searchkit.play.runner` task solving the current position into a `Plan`."""
        raise NotImplementedError

    # -- what a player does -------------------------------------------------------------------
    @property
    def moves(self) -> int:
        return len(self.history)

    def play(self, move: str) -> bool:
        """Make a move; False (and nothing changes) when it is illegal or the game is won."""
        if self.solved:
            return False
        recorded = self.apply(move)
        if recorded is None:
            return False
        self.history.append(recorded)
        if self.future and self.future[-1] == recorded:
            self.future.pop()
        else:
            self.future.clear()
        if self.solved:
            self.clock.stop()
        else:
            self.clock.start()
        return True

    def undo(self) -> bool:
        if not self.history:
            return False
        recorded = self.history.pop()
        self.revert(recorded)
        self.future.append(recorded)
        return True

    def redo(self) -> bool:
        if not self.future:
            return False
        recorded = self.future[-1]
        future = self.future[:-1]
        if not self.play(recorded):
            return False
        self.future = future
        return True

    def restart(self) -> None:
        """The same game from its start: no history, the clock at zero."""
        self.reset_position()
        self.history.clear()
        self.future.clear()
        self.clock.reset()
        self.hints = 0

    def position_key(self) -> str:
        """A string equal for equal positions (to tell whether a computed plan still applies)."""
        return json.dumps(self.current_json(), sort_keys=True)

    # -- saving ----------------------------------------------------------------------------
    def to_save(self) -> SaveData:
        return SaveData(
            self.domain,
            self.params(),
            self.start_json(),
            self.current_json(),
            list(self.history),
            list(self.future),
            self.clock.elapsed,
            self.hints,
        )

    @classmethod
    def from_save(cls, data: SaveData, where: str = "save file") -> Self:
        """Rebuild a saved game by replaying its history; InputError if anything disagrees."""
        if data.domain != cls.domain:
            raise InputError(f"{where} is a {data.domain} game, not a {cls.domain} one")
        try:
            game = cls.from_params(data.params, data.start)
        except InputError as e:
            raise InputError(f"{where}: {e}") from None
        for i, move in enumerate(data.history, 1):
            if not game.play(move):
                raise InputError(f"{where}: move {i} of the history ({move!r}) is not legal there")
            if game.history[-1] != move:  # a walk saved as a push, or the other way round
                raise InputError(f"{where}: move {i} of the history ({move!r}) is {game.history[-1]!r} there")
        if game.current_json() != data.current:
            raise InputError(f"{where}: the current position does not match the move history")
        for i, move in enumerate(reversed(data.redo), 1):
            if not game.play(move):
                raise InputError(f"{where}: redo move {i} ({move!r}) is not legal there")
        for _ in data.redo:
            game.undo()
        if list(game.future) != list(data.redo):
            raise InputError(f"{where}: the redo moves are not the moves that replay there")
        game.clock.reset(data.elapsed_s)
        game.hints = data.hints
        return game
