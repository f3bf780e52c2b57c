"""``searchkit play GAME``: one sub-command per game that a plugin registers.

`build_play_app` fills ``play_app`` from the ``register_games`` hook once; the CLI adds it
with ``app.add_typer(build_play_app(), name="play")``.
"""

from __future__ import annotations

import typer

play_app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    help="Play a puzzle in the terminal, with hints, auto-solve and saved progress.",
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
            play_app.command(game.name, help=game.summary or None)(game.command)
    return play_app
