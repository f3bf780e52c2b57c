"""Pattern databases by name: from memory, from the cache, or built (once) and cached."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from math import perm
from pathlib import Path

from searchkit import Heuristic, InputError

from . import cache as pdb_cache
from .build import group_builder
from .database import PatternDatabase
from .packed import packed_lookups
from .partitions import PARTITIONS, Partition, check_partition, goal_groups

_LOADED: dict[tuple, PatternDatabase] = {}


def _echo(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def get_database(
    name: str,
    width: int,
    height: int,
    goal: tuple[int, ...],
    *,
    cache_dir: str | Path | None = None,
    rebuild: bool = False,
    progress: bool | None = None,
    echo: Callable[[str], None] = _echo,
) -> PatternDatabase:
    """The database ``name`` for this board and goal: from memory, the cache, or built.

    A cache file that is corrupt, truncated or made for something else is reported in one
    line through ``echo`` and rebuilt.  InputError when the partition does not fit the board.
    """
    partition = PARTITIONS.get(name)
    if partition is None:
        raise InputError(f"unknown pattern database {name!r} (known: {', '.join(PARTITIONS)})")
    if (partition.width, partition.height) != (width, height):
        fitting = [p.name for p in PARTITIONS.values() if (p.width, p.height) == (width, height)]
        hint = f"for {width}x{height} use {', '.join(fitting)}" if fitting else f"none exists for {width}x{height}"
        raise InputError(f"{name} is a pattern database for {partition.width}x{partition.height} boards ({hint})")
    return load_or_build(partition, goal, cache_dir=cache_dir, rebuild=rebuild, progress=progress, echo=echo)


def cache_entry(partition: Partition, goal: tuple[int, ...], cache_dir: str | Path | None = None):
    """``(file path, expected header, groups as goal tiles)`` of a partition's cache file."""

    width, height, n = partition.width, partition.height, partition.width * partition.height
    check_partition(partition.groups, n, partition.name)
    groups = goal_groups(partition.groups, width, height, tuple(goal))
    path = pdb_cache.cache_dir(cache_dir) / pdb_cache.file_name(partition.name, width, height, tuple(goal), groups)
    header = pdb_cache.expected_header(
        partition.name, width, height, tuple(goal), groups, [perm(n, len(g)) for g in groups]
    )
    return path, header, groups


def load_or_build(
    partition: Partition,
    goal: tuple[int, ...],
    *,
    cache_dir: str | Path | None = None,
    rebuild: bool = False,
    progress: bool | None = None,
    echo: Callable[[str], None] = _echo,
) -> PatternDatabase:
    """`get_database` for any `Partition` (custom ones too)."""

    width, height, n = partition.width, partition.height, partition.width * partition.height
    goal = tuple(goal)
    path, header, groups = cache_entry(partition, goal, cache_dir)
    directory = path.parent
    key = (partition.name, partition.groups, width, height, goal, str(directory))
    if not rebuild and key in _LOADED:
        return _LOADED[key]
    tables = None
    if path.exists() and not rebuild:
        try:
            tables = pdb_cache.read(path, header)
        except pdb_cache.CacheError as e:
            echo(f"warning: pattern database cache {path} is unusable ({e}); rebuilding it")
    if tables is None:
        build = group_builder(n, groups, partition.name)
        try:  # fail before a long build, not after it
            directory.mkdir(parents=True, exist_ok=True)
            writable = os.access(directory, os.W_OK)
        except OSError as e:
            raise InputError(
                f"cannot use the pattern-database cache directory {directory}: {e.strerror or e}"
            ) from None
        if not writable:
            raise InputError(f"the pattern-database cache directory {directory} is not writable")
        why = "rebuilding" if rebuild or path.exists() else "first use"
        echo(f"building pattern database {partition.name} for {width}x{height} ({why}, cached in {directory})")
        tables = [build(width, height, goal, g, progress) for g in groups]
        try:
            pdb_cache.write(path, header, tables)
        except OSError as e:
            raise InputError(f"cannot write the pattern-database cache {path}: {e.strerror or e}") from None
    db = PatternDatabase(partition.name, width, height, goal, groups, tables)
    _LOADED[key] = db
    return db


def pdb_heuristics() -> dict[str, Heuristic]:
    """The partitions as heuristics; ``make(problem)`` loads or builds on first use."""

    def maker(name: str):
        def make(problem) -> Callable[[int], int]:

            db = get_database(name, problem.width, problem.height, tuple(problem.goal))
            packed = packed_lookups(db, problem)
            if packed is None:
                return db.state_heuristic(problem.bits, problem.mask)
            h, successors_with_h = packed
            # for NPuzzleProblem.use_heuristic's incremental slot (mypy has no type for a function's attributes)
            h.successors_with_h = successors_with_h  # type: ignore[attr-defined]
            return h

        return make

    return {name: Heuristic(name, maker(name), p.summary, admissible=True) for name, p in PARTITIONS.items()}
