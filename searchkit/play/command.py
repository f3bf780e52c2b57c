"""``searchkit play GAME``: one sub-command per game that a plugin registers.

`build_play_app` fills ``play_app`` from the ``register_games`` hook once; the CLI adds it
with ``app.add_typer(build_play_app(), name="play")``.
"""

from __future__ import annotations

import typer

from .saves import PLAY_DIR_ENV

AUTOSAVE_HELP = (
    "Quitting saves the game, and the next play of it offers to resume: the file is "
    f"autosave-GAME.json in ${PLAY_DIR_ENV} when that is set, else in the user state directory "
    "(~/.local/state/searchkit/play on Linux, ~/Library/Application Support/searchkit/play on macOS, "
    "%LOCALAPPDATA%\\searchkit\\searchkit\\play on Windows)."
)
play_app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    help=f"Play a puzzle in the terminal, with hints, auto-solve and saved progress.\n\n{AUTOSAVE_HELP}",
)
_built = False


@play_app.callback()
def _group() -> None:
    """Play a puzzle in the terminal, with hints, auto-solve and saved progress."""


def build_play_app() -> typer.Typer:
    """``play_app`` with a command for every registered game (added once)."""
    global _built
    if not _built:
        _built = True
        from ..plugins import games

        for game in games().values():
            play_app.command(game.name, help="\n\n".join(filter(None, [game.summary, AUTOSAVE_HELP])))(game.command)
    return play_app
