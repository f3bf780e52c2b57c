"""``searchkit play npuzzle``: options in, the game on screen (Textual is imported here only)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer

from searchkit import InputError

PLAY_SIDES = (2, 3, 4, 5)  # what fits a terminal and what the keys 3/4/5 switch between


def play(
    size: Annotated[int, typer.Option("--size", "-n", help="board side: 3, 4 or 5 (2 for a warm-up)")] = 3,
    blank: Annotated[
        str, typer.Option("--blank", help="the blank's goal cell: last, first, center, 1..n or ROW,COL")
    ] = "last",
    image: Annotated[
        Path | None, typer.Option("--image", help="picture to cut into tiles (default: a built-in one)")
    ] = None,
    numbers: Annotated[
        bool, typer.Option("--numbers", help="start with numbered tiles instead of the picture")
    ] = False,
    seed: Annotated[int | None, typer.Option("--seed", help="random seed for the shuffles")] = None,
    load: Annotated[Path | None, typer.Option("--load", help="continue a saved game")] = None,
    new: Annotated[bool, typer.Option("--new", help="do not offer to resume the autosave")] = False,
) -> None:
    """Play the sliding-tile puzzle: arrows or h j k l slide a tile, ? hints, g gives up."""
    from searchkit.play.app import offer_resume

    from .game import NPuzzleGame
    from .play_app import NPuzzleApp, tile_pixels

    if size not in PLAY_SIDES:
        raise InputError(f"--size must be one of {', '.join(map(str, PLAY_SIDES))} to play (got {size})")
    loaded, resume, note = offer_resume("npuzzle", str(load) if load else None, new)
    game = NPuzzleGame.new(size, blank, random.Random(seed))
    if loaded is not None:
        game = NPuzzleGame.from_save(loaded, f"save file {load}")
    if image is not None:  # a bad picture is a one-line error now, not a crash on screen
        try:
            from .picture import load_picture
        except ImportError:
            raise InputError("--image needs Pillow (pip install pillow)") from None
        t = tile_pixels(game.width, game.height)
        load_picture(image, (game.width * t, game.height * t))
    app = NPuzzleApp(game, image=image, numbers=numbers, seed=seed, save_path=load, resume=resume)
    if note:
        app.message = note
    app.play()
