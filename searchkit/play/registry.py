"""What a plugin registers to be playable: a `Game` names its ``searchkit play`` command."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    """``searchkit play NAME`` runs ``command``, a typer command function whose parameters
    are the game's options.  Keep its module light: import the screen code inside it."""

    name: str
    command: Callable[..., None]
    summary: str = ""
