"""``searchkit npuzzle pdb build|info``: pattern databases ahead of time and what is cached."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from searchkit import InputError

GOALS = ("blank-last", "blank-first")


def _goal(spec: str, width: int, height: int) -> tuple[int, ...]:
    from .board import make_goal

    if spec not in GOALS:
        raise InputError(f"--goal must be blank-last or blank-first (got {spec!r})")
    return make_goal(spec, width, height)


def _size(partition: str, size: str | None) -> tuple[int, int]:
    from .board import parse_size
    from .pdb import PARTITIONS

    if size is not None:
        return parse_size(size)
    key = partition.strip().lower().replace("-", "")
    key = key[3:] if key.startswith("pdb") else key
    for p in PARTITIONS.values():
        if p.name[4:] == key:
            return p.width, p.height
    return 4, 4


PartitionOpt = Annotated[
    str,
    typer.Option(
        "--partition",
        "-p",
        help="pdb-663 / 6-6-3, pdb-555 / 5-5-5, pdb-78 / 7-8 (needs "
        "searchkit[fast]), pdb-8 (3x3), pdb-55554 (5x5), or groups "
        "like '1,2,3/4,5,6,7,8/...'",
    ),
]
GoalOpt = Annotated[str, typer.Option("--goal", help="blank-last or blank-first (Korf)")]
SizeOpt = Annotated[str | None, typer.Option("--size", "-n", help="board size (default: the partition's)")]
CacheOpt = Annotated[
    Path | None,
    typer.Option("--cache-dir", help="cache directory (default: $SEARCHKIT_CACHE_DIR, else the user cache dir)"),
]


def build(
    partition: PartitionOpt = "6-6-3",
    goal: GoalOpt = "blank-last",
    size: SizeOpt = None,
    cache_dir: CacheOpt = None,
    force: Annotated[bool, typer.Option("--force", help="rebuild even when a valid file is cached")] = False,
):
    """Build a pattern database now (solve would build it on first use) and cache it."""
    from . import pdb

    width, height = _size(partition, size)
    part = pdb.parse_partition(partition, width, height)
    target = _goal(goal, width, height)
    started = time.perf_counter()
    db = pdb.load_or_build(part, target, cache_dir=cache_dir, rebuild=force, echo=lambda m: typer.echo(m, err=True))
    path, _header, groups = pdb.cache_entry(part, target, cache_dir)
    entries = sum(len(t) for t in db.tables)
    typer.echo(
        f"{part.name} for {width}x{height}, goal {goal}: {len(groups)} groups, {entries:,} entries, "
        f"{time.perf_counter() - started:.1f}s -> {path}"
    )


def info(
    partition: Annotated[str | None, typer.Option("--partition", "-p", help="check this one only")] = None,
    goal: GoalOpt = "blank-last",
    size: SizeOpt = None,
    cache_dir: CacheOpt = None,
):
    """List the cached pattern databases; with --partition, check that one file (exit 2 if unusable)."""
    from . import pdb
    from .pdb import cache as pdb_cache

    directory = pdb_cache.cache_dir(cache_dir)
    if partition is None:
        files = sorted(directory.glob("*.pdb")) if directory.is_dir() else []
        typer.echo(f"cache directory: {directory}")
        for f in files:
            try:
                with open(f, "rb") as fh:  # the header only: a file may be hundreds of MB
                    header, _ = pdb_cache.read_header(fh.read(len(pdb_cache.MAGIC) + 8 + (1 << 20)))
                cached_goal = header.get("goal")
                what = (
                    f"{header.get('partition')} {header.get('width')}x{header.get('height')} goal "
                    f"{' '.join(map(str, cached_goal)) if isinstance(cached_goal, list) else cached_goal}"
                )
            except (OSError, pdb_cache.CacheError) as e:
                what = f"unreadable ({e})"
            typer.echo(f"  {f.name}  {f.stat().st_size / 1e6:.1f} MB  {what}")
        if not files:
            typer.echo("  (no pattern databases cached)")
        return
    width, height = _size(partition, size)
    part = pdb.parse_partition(partition, width, height)
    target = _goal(goal, width, height)
    path, header, groups = pdb.cache_entry(part, target, cache_dir)
    if not path.exists():
        raise InputError(
            f"{part.name} for {width}x{height} goal {goal} is not cached in {directory} "
            f"(build it with: searchkit npuzzle pdb build --partition {partition} --goal {goal})"
        )
    started = time.perf_counter()
    try:
        tables = pdb_cache.read(path, header)
    except pdb_cache.CacheError as e:
        raise InputError(f"cache file {path} is unusable: {e}") from None
    import numpy as np

    typer.echo(
        f"{path}: ok, {part.name} {width}x{height} goal {goal}, groups "
        f"{' / '.join(','.join(map(str, g)) for g in groups)}, loaded in {time.perf_counter() - started:.2f}s"
    )
    for g, t in zip(groups, tables):
        typer.echo(
            f"  tiles {','.join(map(str, g))}: {len(t):,} entries, max {int(t.max())}, mean {float(np.mean(t)):.2f}"
        )


def add_commands(cli: typer.Typer) -> None:
    """Add the ``npuzzle`` sub-app (``npuzzle pdb build``, ``npuzzle pdb info``) to ``cli``."""
    app = typer.Typer(no_args_is_help=True, help="n-puzzle tools: pattern databases.")
    pdb_app = typer.Typer(no_args_is_help=True, help="Additive pattern databases: build ahead of time, inspect.")
    pdb_app.command("build")(build)
    pdb_app.command("info")(info)
    app.add_typer(pdb_app, name="pdb")
    cli.add_typer(app, name="npuzzle")
