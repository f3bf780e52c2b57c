"""The players' games on the server: `GameSession` objects from the plugins' registered
games, kept by id, with their picture.  Hints and auto-solves run in a pool of worker
processes (a search holding the server's interpreter would stall every player's moves);
a player can stop their game's solve, which then ends as Ctrl-C ends a search in the
terminal: at once, unfinished, ``interrupted``."""

from __future__ import annotations

import secrets
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
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
from .workers import CTX, Slots, quiet_worker

MAX_GAMES = 1000  # the oldest game untouched goes when more are open
PICTURE_SIDE = 480
SOLVE_TIMEOUT_S = 20.0
POOL_GRACE_S = 30.0  # a worker's first solve imports the plugins
SOLVE_WAIT_S = 10.0  # a hint waits this long for a free slot before the page hears "busy"
CANCEL_POLL_S = 0.05  # a solver process looks at its stop flag this often

_stop_flags: Sequence[int] = ()  # in a solver process: the server's stop flags, one per slot


def solver_process(flags: Sequence[int]) -> None:
    """A solver process's start: quiet (`quiet_worker`), and holding the stop flags."""
    global _stop_flags
    quiet_worker()
    _stop_flags = flags


def plan_of(game: str, data: SaveData, timeout_s: float, slot: int) -> Plan:
    """In a solver process: the game rebuilt from its save, its position solved within
    ``timeout_s`` (passed, not read here: a worker has its own copy of this module), or
    until the stop flag of ``slot`` is set."""
    session = games()[game].session
    assert session is not None
    task = session.from_save(data, "the game").solve_task()
    limits = Limits(timeout_s=timeout_s)
    done = threading.Event()

    def watch() -> None:
        while not done.wait(CANCEL_POLL_S):
            if _stop_flags[slot]:
                limits.interrupt.set()
                return

    watcher = threading.Thread(target=watch, daemon=True, name="searchkit-serve-stop-check")
    watcher.start()
    try:
        plan: Plan = task(limits, ProgressObserver())
    finally:
        done.set()
    return plan


class Entry:
    """One player's game, its picture (PNG bytes), a lock for its moves and its running solves."""

    def __init__(self, kind: Game, game: GameSession) -> None:
        self.kind = kind
        self.game = game
        self.picture: bytes | None = None
        self.lock = threading.Lock()
        self._plan: tuple[Plan, list[str]] | None = None  # the last plan found, and the history then
        self.solving: set[int] = set()  # the slots of its running solves (the store's lock guards it)

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
        self._pool: ProcessPoolExecutor | None = None
        self._stop_flags = CTX.RawArray("b", slots.n)  # one per slot, read by the solver processes
        self._free = list(range(slots.n))  # the slots no solve holds

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

    def __len__(self) -> int:
        return len(self._games)

    def get(self, gid: str) -> Entry:
        with self._lock:
            entry = self._games.get(gid)
            if entry is None:
                raise KeyError(gid)
            self._games.move_to_end(gid)
            return entry

    def drop(self, gid: str) -> None:
        """Forget a game its player has left (the page drops its old game for a new one),
        stopping its solve."""
        with self._lock:
            entry = self._games.pop(gid, None)
        if entry is not None:
            self.cancel(entry)

    def cancel(self, entry: Entry) -> bool:
        """Stop the entry's running solve, if any (it answers soon, unfinished); whether one ran."""
        with self._lock:
            for slot in entry.solving:
                self._stop_flags[slot] = 1
            return bool(entry.solving)

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

    def close(self) -> None:
        """Stop the solver processes (the server is shutting down)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def plan(self, entry: Entry) -> Plan:
        """Solve the entry's current position (blocking: call it off the event loop); a player
        who follows the last plan (hints, then an auto-solve) gets the rest of it, unsolved."""
        with entry.lock:
            known = entry.rest_of_plan()
        if known is not None:
            return known
        plan, history = self._solve(entry)
        with entry.lock:
            entry.remember(plan, history)
        return plan

    def _solve(self, entry: Entry) -> tuple[Plan, list[str]]:
        """A plan from a solver process, and the history it starts from."""
        self.slots.take(SOLVE_WAIT_S)
        try:
            with entry.lock:
                data = entry.game.to_save()
                history = list(entry.game.history)
            with self._lock:
                if self._pool is None:
                    self._pool = ProcessPoolExecutor(
                        self.slots.n, mp_context=CTX, initializer=solver_process, initargs=(self._stop_flags,)
                    )
                pool = self._pool
                slot = self._free.pop()
                self._stop_flags[slot] = 0
                entry.solving.add(slot)
            try:
                limit = SOLVE_TIMEOUT_S
                plan: Plan = pool.submit(plan_of, entry.kind.name, data, limit, slot).result(limit + POOL_GRACE_S)
                return plan, history
            except (BrokenProcessPool, TimeoutError):
                with self._lock:
                    if self._pool is pool:
                        self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
                raise InputError("the solver stopped answering; try again") from None
            finally:
                with self._lock:
                    entry.solving.discard(slot)
                    self._free.append(slot)
        finally:
            self.slots.give()
