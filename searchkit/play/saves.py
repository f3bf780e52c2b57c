"""Saved games: versioned JSON written atomically, read back with one-line errors.

A save holds what it takes to rebuild a game exactly: the domain, its parameters, the
start position, the current position, the move history and the undone moves (so undo and
redo survive a reload) and the elapsed time.  Reading checks the envelope here; the game
class checks the rest by replaying the history from the start (see `GameSession`).
No pickle: a save file is data, never code.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..atomic import write_atomic
from ..errors import InputError

FORMAT = "searchkit-play"
VERSION = 1
MAX_BYTES = 16 * 1024 * 1024  # a save of a million moves is a few MB; beyond this it is not ours
PLAY_DIR_ENV = "SEARCHKIT_PLAY_DIR"


@dataclass
class SaveData:
    """One saved game, in JSON-ready values."""

    domain: str
    params: dict[str, Any]
    start: Any
    current: Any
    history: list[str] = field(default_factory=list)
    redo: list[str] = field(default_factory=list)  # undone moves, the next one to redo last
    elapsed_s: float = 0.0
    hints: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "domain": self.domain,
            "params": self.params,
            "start": self.start,
            "current": self.current,
            "history": self.history,
            "redo": self.redo,
            "elapsed_s": round(self.elapsed_s, 3),
            "hints": self.hints,
            "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }


def write_save(path: str | os.PathLike, data: SaveData) -> Path:
    """Write ``data`` to ``path`` through a temporary file and a rename, so a crash leaves
    either the old file or the new one, never half of one."""
    path = Path(path)
    text = json.dumps(data.to_json(), indent=1, allow_nan=False) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return write_atomic(path, text)
    except OSError as e:
        raise InputError(f"cannot write save file {path}: {e.strerror or e}") from None


def read_save(path: str | os.PathLike, domain: str | None = None) -> SaveData:
    """The save in ``path``; an InputError naming the file and the first problem otherwise.

    ``domain``: the domain the caller plays; a save of another domain is refused.
    """
    path = Path(path)
    where = f"save file {path}"
    try:
        if path.is_dir():
            raise InputError(f"{where} is a directory")
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{where} not found") from None
    except OSError as e:
        raise InputError(f"cannot read {where}: {e.strerror or e}") from None
    if len(raw) > MAX_BYTES:
        raise InputError(f"{where} is larger than {MAX_BYTES >> 20} MB: not a searchkit save")
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise InputError(f"{where} is not text: not a searchkit save") from None
    except json.JSONDecodeError as e:
        raise InputError(f"{where} is corrupt or truncated (bad JSON at line {e.lineno}, column {e.colno})") from None
    except (ValueError, RecursionError):  # a number of thousands of digits, lists nested thousands deep
        raise InputError(f"{where} is not a searchkit save (numbers or nesting beyond any save)") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise InputError(f'{where} is not a searchkit save (no "format": "{FORMAT}")')
    version = doc.get("version")
    if version != VERSION:
        raise InputError(f"{where} has format version {version!r}; this searchkit reads version {VERSION}")
    found = doc.get("domain")
    if not isinstance(found, str) or not found:
        raise InputError(f"{where} names no domain")
    if domain is not None and found != domain:
        raise InputError(f"{where} is a {found} game, not a {domain} one")
    for key, kind in (("params", dict), ("history", list), ("redo", list)):
        if not isinstance(doc.get(key), kind):
            raise InputError(f"{where}: {key!r} is missing or not a JSON {'object' if kind is dict else 'list'}")
    for key in ("start", "current"):
        if key not in doc:
            raise InputError(f"{where}: {key!r} is missing")
    for key in ("history", "redo"):
        if not all(isinstance(m, str) for m in doc[key]):
            raise InputError(f"{where}: {key!r} holds a move that is not a string")
    elapsed = doc.get("elapsed_s", 0.0)
    if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)) or not math.isfinite(elapsed) or elapsed < 0:
        raise InputError(f"{where}: 'elapsed_s' must be a non-negative number (got {elapsed!r})")
    hints = doc.get("hints", 0)
    if isinstance(hints, bool) or not isinstance(hints, int) or hints < 0:
        raise InputError(f"{where}: 'hints' must be a non-negative whole number (got {hints!r})")
    return SaveData(
        found,
        doc["params"],
        doc["start"],
        doc["current"],
        list(doc["history"]),
        list(doc["redo"]),
        float(elapsed),
        hints,
    )


def play_dir() -> Path:
    """Where autosaves live: ``$SEARCHKIT_PLAY_DIR``, else the user state directory."""
    override = os.environ.get(PLAY_DIR_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_state_dir("searchkit")) / "play"


def autosave_path(domain: str) -> Path:
    """The autosave of ``domain``'s game (one per domain: the game quit last)."""
    return play_dir() / f"autosave-{domain}.json"


def remove_autosave(domain: str) -> None:
    try:
        autosave_path(domain).unlink(missing_ok=True)
    except OSError:  # a read-only directory: the stale autosave is only offered again
        pass
