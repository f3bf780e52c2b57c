"""``searchkit sokoban ...``, the level-file commands: write bundled or filed levels out, list a
collection, shorten a solution from anywhere (`optimizer`).  (The game, ``searchkit play
sokoban``, is `play_command`.)"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from searchkit import InputError, write_atomic

from .levels import BUNDLED, Level, read_source, select, split_source

app = typer.Typer(
    no_args_is_help=True, help="Sokoban levels: export bundled levels to files, list collections, optimize solutions."
)

CREDITS = {"microban": "Microban by David W. Skinner (http://www.sneezingtiger.com/sokoban/)"}


def level_file_text(levels: list[Level], collection: str | None) -> str:
    """Levels in the standard format, each after a ``; title`` line, credit first."""
    parts = []
    if collection in CREDITS:
        parts.append(f"; {CREDITS[collection]}\n")
    for lv in levels:
        head = f"; {collection} {lv.label}" if collection else f"; {lv.label}"
        parts.append(f"{head}\n\n{lv.text()}")
    return "\n".join(parts)


@app.command()
def export(
    source: Annotated[str, typer.Argument(help="bundled level or set (microban:11, microban) or a level file")],
    level: Annotated[str | None, typer.Option("--level", help="level number or title")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="file to write (default: stdout)")] = None,
) -> None:
    """Write a level (or a whole collection) in the standard text format."""
    levels, picked, label = read_source(source)
    which = level if level is not None else picked
    chosen = levels if which is None else [select(levels, which, label)]
    bundled = split_source(source)
    text = level_file_text(chosen, bundled[0] if bundled and bundled[0] in BUNDLED else None)
    if output is None:
        typer.echo(text, nl=False)
        return
    try:  # atomic: a failed write never leaves half a level file where a good one was
        write_atomic(output, text)
    except OSError as e:
        raise InputError(f"cannot write {output}: {e.strerror}") from None
    typer.echo(f"wrote {len(chosen)} level(s) to {output}", err=True)


@app.command("list")
def list_levels(
    source: Annotated[str, typer.Argument(help="bundled set (microban) or a level file")],
) -> None:
    """List a collection's levels: number, title, size and box count."""
    levels, _picked, _label = read_source(source)
    for lv in levels:
        boxes = sum(row.count("$") + row.count("*") for row in lv.rows)
        title = lv.title if lv.title and lv.title != str(lv.number) else ""
        names = [n for n in lv.names if n != str(lv.number) and n != title]
        extra = f"  ({names[0]})" if names and not title else ""
        typer.echo(f"{lv.number:4d}  {lv.width:2d}x{lv.height:<2d}  {boxes:2d} boxes  {title}{extra}".rstrip())


@app.command("optimize")
def optimize_command(
    source: Annotated[str, typer.Argument(help="bundled level or set (microban:11, microban) or a level file")],
    level: Annotated[str | None, typer.Option("--level", help="level number or title")] = None,
    lurd: Annotated[str | None, typer.Option("--lurd", help="the solution: LURD letters (walks lowercase)")] = None,
    lurd_file: Annotated[Path | None, typer.Option("--lurd-file", help="a file holding the solution")] = None,
    optimize: Annotated[str, typer.Option("--optimize", help="pushes (then moves) or moves (then pushes)")] = "pushes",
    seconds: Annotated[float, typer.Option("--time", help="seconds to search for a shorter solution")] = 10.0,
    json_output: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Shorten a solution (another program's, your own play) by searching positions near its path."""
    import json
    import math

    from .optimizer import MOVES, PUSHES
    from .optimizer import optimize as run

    if (lurd is None) == (lurd_file is None):
        raise InputError("give the solution with --lurd LETTERS or --lurd-file FILE (one of them)")
    if optimize not in (PUSHES, MOVES):
        raise InputError(f"--optimize must be pushes or moves (got {optimize!r})")
    if not (math.isfinite(seconds) and seconds >= 0):
        raise InputError(f"--time must be a number of seconds, 0 or more (got {seconds})")
    if lurd_file is not None:
        try:
            lurd = lurd_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise InputError(f"cannot read {lurd_file}: {getattr(e, 'strerror', None) or e}") from None
    levels, picked, label = read_source(source)
    which = level if level is not None else picked
    chosen = select(levels, which, label) if which is not None else levels[0]
    if which is None and len(levels) > 1:
        raise InputError(f"{source} holds {len(levels)} levels: say which with --level")
    done = run(chosen, lurd or "", seconds, optimize)
    if json_output:
        doc = {
            "level": chosen.label,
            "lurd": done.lurd,
            "moves": done.moves,
            "pushes": done.pushes,
            "given_moves": done.found.moves,
            "given_pushes": done.found.pushes,
            "seconds": round(done.seconds, 3),
        }
        typer.echo(json.dumps(doc))
        return
    typer.echo(done.lurd or "(already solved: no moves)")
    typer.echo(
        f"moves: {done.moves}  pushes: {done.pushes}  (given: moves {done.found.moves}  pushes {done.found.pushes};"
        f" {done.seconds:.1f} s)"
    )
