"""``searchkit play sokoban LEVEL``: a level file or bundled set in, the game on screen."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def play(
    level_file: Annotated[
        str, typer.Argument(help="level file or bundled set, e.g. microban or microban:11")
    ] = "microban",
    level: Annotated[
        str | None, typer.Option("--level", help="level of a collection: number or title (default 1)")
    ] = None,
    load: Annotated[Path | None, typer.Option("--load", help="continue a saved game")] = None,
    new: Annotated[bool, typer.Option("--new", help="do not offer to resume the autosave")] = False,
) -> None:
    """Play Sokoban: arrows or h j k l walk and push, ? hints, g gives up, [ ] change level."""
    from searchkit.play.app import offer_resume

    from .game import SokobanGame, collection_levels
    from .levels import BUNDLED, read_source, select
    from .play_app import SokobanApp

    loaded, resume, note = offer_resume("sokoban", str(load) if load else None, new)
    if loaded is not None:
        game = SokobanGame.from_save(loaded, f"save file {load}")
        levels = collection_levels(game.source) or [game.level]
    else:
        levels, picked, label = read_source(level_file)
        chosen = select(levels, level if level is not None else (picked or "1"), label)
        # a save names the collection so that [ and ] still work after --load
        source = label if label in BUNDLED else str(Path(level_file).resolve())
        game = SokobanGame(chosen, source, len(levels))
    app = SokobanApp(game, levels, save_path=load, resume=resume)
    if note:
        app.message = note
    app.play()
