"""What a plugin registers to be playable: a `Game` names its ``searchkit play`` command
and, for ``searchkit serve``, its session class and picture maker (the core never imports
a plugin: the web app finds games here)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .session import GameSession


@dataclass(frozen=True)
class Game:
    """``searchkit play NAME`` runs ``command``, a typer command function whose parameters
    are the game's options.  Keep its module light: import the screen code inside it."""

    name: str
    command: Callable[..., None]
    summary: str = ""
    # the web app: ``session.create(options)`` starts a game from the page's form (and, when
    # the game has them, ``catalog``, ``from_file`` and ``check_moves``: see `GameSession`)
    session: type[GameSession] | None = None
    # PNG bytes of the game's picture, square, ``side`` pixels: the upload's bytes, or the
    # built-in picture for None; InputError for a file that is not a safe picture
    picture: Callable[[bytes | None, int], bytes] | None = None
