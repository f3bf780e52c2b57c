"""The players' games on the server: `GameSession` objects from the plugins' registered
games, kept by id, with their picture; solving runs under a concurrency cap."""

from __future__ import annotations

import secrets
import tempfile
import threading
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..limits import Limits
from ..play.registry import Game
from ..play.runner import Plan, ProgressObserver
from ..play.saves import SaveData, read_save
from ..play.session import GameSession
from ..plugins import games

MAX_GAMES = 1000  # the oldest game untouched goes when more are open
PICTURE_SIDE = 480
SOLVE_TIMEOUT_S = 20.0


class Busy(Exception):
    """Every solver slot is taken: the page says so and the player tries again."""


class Slots:
    """At most ``n`` solves or searches at once on the whole server."""

    def __init__(self, n: int) -> None:
        self._sem = threading.BoundedSemaphore(n)

    def take(self) -> None:
        if not self._sem.acquire(blocking=False):
            raise Busy("the server is busy solving for others; try again in a moment")

    def give(self) -> None:
        self._sem.release()


class Entry:
    """One player's game, its picture (PNG bytes) and a lock for its moves."""

    def __init__(self, kind: Game, game: GameSession) -> None:
        self.kind = kind
        self.game = game
        self.picture: bytes | None = None
        self.lock = threading.Lock()
        self._plan: tuple[Plan, list[str]] | None = None  # the last plan found, and the history then

    def remember(self, plan: Plan, history: list[str]) -> None:
        if plan.found:
            self._plan = (plan, history)

    def rest_of_plan(self) -> Plan | None:
        """What is left of the last plan when every move since it was made is its next one
        (a player following the hints, or an auto-solve asked for after a hint); call with
        the lock held."""
        if self._plan is None:
            return None
        plan, then = self._plan
        now = self.game.history
        done = len(now) - len(then)
        if done < 0 or now[: len(then)] != then or now[len(then) :] != plan.moves[:done]:
            return None
        return replace(plan, key=self.game.position_key(), moves=plan.moves[done:])

    def state(self) -> dict[str, Any]:
        g = self.game
        return {
            "game": self.kind.name,
            "board": g.current_json(),
            "moves": g.moves,
            "solved": g.solved,
            "elapsed_s": round(g.clock.elapsed, 3),
            "can_undo": bool(g.history),
            "can_redo": bool(g.future),
            "hints": g.hints,
            **g.view_json(),
        }


class GameStore:
    """Games by id (unguessable tokens), the least recently used dropped beyond `MAX_GAMES`."""

    def __init__(self, slots: Slots) -> None:
        self._games: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()
        self._pictures: dict[str, bytes] = {}
        self.slots = slots

    def built_in_picture(self, kind: Game) -> bytes:
        """The game's own picture, drawn once per server (drawing it takes a while)."""
        with self._lock:
            found = self._pictures.get(kind.name)
        if found is None:
            assert kind.picture is not None
            found = kind.picture(None, PICTURE_SIDE)
            with self._lock:
                self._pictures[kind.name] = found
        return found

    def kinds(self) -> dict[str, Game]:
        return {name: g for name, g in games().items() if g.session is not None}

    def kind(self, name: str) -> Game:
        known = self.kinds()
        if name not in known:
            raise InputError(f"unknown game {name!r} (known: {', '.join(known) or 'none installed'})")
        return known[name]

    def add(self, kind: Game, game: GameSession) -> tuple[str, Entry]:
        gid = secrets.token_urlsafe(12)
        entry = Entry(kind, game)
        with self._lock:
            self._games[gid] = entry
            while len(self._games) > MAX_GAMES:
                self._games.popitem(last=False)
        return gid, entry

    def get(self, gid: str) -> Entry:
        with self._lock:
            entry = self._games.get(gid)
            if entry is None:
                raise KeyError(gid)
            self._games.move_to_end(gid)
            return entry

    def create(self, name: str, options: dict[str, Any]) -> tuple[str, Entry]:
        kind = self.kind(name)
        assert kind.session is not None
        return self.add(kind, kind.session.create(options))

    def open_file(self, name: str, raw: bytes, filename: str, options: dict[str, Any]) -> tuple[str, Entry]:
        """A new game of kind ``name`` from an uploaded file (a level file, say)."""
        kind = self.kind(name)
        assert kind.session is not None
        return self.add(kind, kind.session.from_file(raw, filename, options))

    def load(self, raw: bytes, expected: str | None = None) -> tuple[str, Entry]:
        """A game from an uploaded save file, checked as the terminal game checks it;
        ``expected``: the game the page plays (a save of another is refused)."""
        with tempfile.TemporaryDirectory(prefix="searchkit-save-") as tmp:
            path = Path(tmp) / "save.json"
            path.write_bytes(raw)
            try:
                data: SaveData = read_save(path, expected)
            except InputError as e:
                raise InputError(str(e).replace(str(path), "upload")) from None
        kind = self.kind(data.domain)
        assert kind.session is not None
        return self.add(kind, kind.session.from_save(data, "the uploaded save"))

    def plan(self, entry: Entry) -> Plan:
        """Solve the entry's current position (blocking: call it off the event loop)."""
        with entry.lock:
            known = entry.rest_of_plan()
        if known is not None:
            return known
        self.slots.take()
        try:
            with entry.lock:
                task = entry.game.solve_task()  # type: ignore[no-untyped-call]  # GameSession's, in play/
                history = list(entry.game.history)
            plan: Plan = task(Limits(timeout_s=SOLVE_TIMEOUT_S), ProgressObserver())
            with entry.lock:
                entry.remember(plan, history)
            return plan
        finally:
            self.slots.give()
