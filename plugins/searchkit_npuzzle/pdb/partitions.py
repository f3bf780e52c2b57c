"""Tile partitions: which tiles each pattern database of a board groups together.

The named partitions (``pdb-555``, ``pdb-663``, ``pdb-78``, ``pdb-8``, ``pdb-55554``) are
written for the canonical blank-first goal; `goal_groups` carries them onto any goal by a
board symmetry, and `mirror_maps` gives the reflection used for a second lookup.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from searchkit import InputError


@dataclass(frozen=True)
class Partition:
    """Disjoint tile groups (canonical blank-first numbering) covering every tile."""

    name: str
    width: int
    height: int
    groups: tuple[tuple[int, ...], ...]
    summary: str


PARTITIONS: dict[str, Partition] = {
    p.name: p
    for p in [
        Partition(
            "pdb-555",
            4,
            4,
            ((1, 2, 3, 5, 6), (4, 8, 9, 12, 13), (7, 10, 11, 14, 15)),
            "15-puzzle additive pattern databases, 5-5-5 (small, quick to build) + reflection",
        ),
        Partition(
            "pdb-663",
            4,
            4,
            ((4, 5, 8, 9, 12, 13), (6, 7, 10, 11, 14, 15), (1, 2, 3)),
            "15-puzzle additive pattern databases, 6-6-3 (Korf & Felner) + reflection",
        ),
        Partition(
            "pdb-78",
            4,
            4,
            ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
            "15-puzzle additive pattern databases, 7-8 (Korf & Felner's strongest) + reflection; "
            "needs searchkit[fast], ~11 CPU-min and 2.3 GB to build once, 577 MB",
        ),
        Partition("pdb-8", 3, 3, ((1, 2, 3, 4, 5, 6, 7, 8),), "8-puzzle exact pattern database (all 181,440 states)"),
        # Korf & Felner's 6-6-6-6 groups less one tile each; those four tiles form the fifth group
        # (a 6-tile group over 25 cells has 2.4e9 abstract states, beyond this builder)
        Partition(
            "pdb-55554",
            5,
            5,
            ((1, 2, 5, 6, 7), (3, 4, 8, 9, 14), (10, 15, 16, 20, 21), (18, 19, 22, 23, 24), (11, 12, 13, 17)),
            "24-puzzle additive pattern databases, 5-5-5-5-4 + reflection"
            " (built once: ~25 s with searchkit[fast], ~4 min without; 26 MB)",
        ),
    ]
}


def check_partition(groups: tuple[tuple[int, ...], ...], n: int, name: str = "partition") -> None:
    """Raise InputError unless the groups split the tiles 1..n-1 exactly."""
    seen: list[int] = [t for g in groups for t in g]
    if any(not 1 <= t < n for t in seen):
        raise InputError(f"{name}: tiles must be 1..{n - 1} (got {sorted(t for t in seen if not 1 <= t < n)})")
    if len(seen) != len(set(seen)):
        raise InputError(f"{name}: a tile is in two groups")
    missing = sorted(set(range(1, n)) - set(seen))
    if missing:
        raise InputError(f"{name}: the groups do not cover tiles {', '.join(map(str, missing))}")


def parse_partition(text: str, width: int, height: int) -> Partition:
    """A partition from its name (``pdb-663``, ``663``, ``6-6-3``) or explicit groups
    (``1,2,3/4,5,6,...``) for a board size; InputError when unknown or not covering."""
    key = text.strip().lower().replace("-", "")
    key = key[3:] if key.startswith("pdb") else key
    for p in PARTITIONS.values():
        if p.name[4:] == key:
            if (p.width, p.height) != (width, height):
                raise InputError(f"partition {p.name} is for {p.width}x{p.height} boards, not {width}x{height}")
            return p
    if "/" in text or "," in text:
        try:
            groups = tuple(tuple(sorted(int(t) for t in g.split(",") if t.strip())) for g in text.split("/"))
        except ValueError:
            raise InputError(
                f"partition {text!r}: groups are comma-separated tile numbers, '/' between groups"
            ) from None
        groups = tuple(g for g in groups if g)
        check_partition(groups, width * height, f"partition {text!r}")
        name = "pdb-" + "-".join(str(len(g)) for g in groups)
        return Partition(name, width, height, groups, "custom partition")
    known = ", ".join(f"{p.name} ({p.width}x{p.height})" for p in PARTITIONS.values())
    raise InputError(f"unknown partition {text!r} (known: {known}, or groups like '1,2,3/4,5,6,7/...')")


def _symmetries(width: int, height: int) -> list[Callable[[int], int]]:
    """Cell maps of the board's symmetries, identity first, then the 180-degree turn."""

    def cell(fn):
        return lambda p: fn(*divmod(p, width))

    syms = [
        cell(lambda r, c: r * width + c),
        cell(lambda r, c: (height - 1 - r) * width + (width - 1 - c)),
        cell(lambda r, c: r * width + (width - 1 - c)),
        cell(lambda r, c: (height - 1 - r) * width + c),
    ]
    if width == height:
        syms += [cell(lambda r, c: c * width + r), cell(lambda r, c: (width - 1 - c) * width + (height - 1 - r))]
    return syms


@lru_cache(maxsize=64)  # asked per problem, by the heuristic, the search and the compiled rules
def goal_groups(
    groups: tuple[tuple[int, ...], ...], width: int, height: int, goal: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """The partition's groups as tile numbers of ``goal`` (see the module docstring)."""
    blank = goal.index(0)
    for sym in _symmetries(width, height):
        if sym(0) == blank:
            return tuple(tuple(sorted(goal[sym(c)] for c in g)) for g in groups)
    cells = [p for p in range(width * height) if p != blank]  # canonical cell k -> cells[k - 1]
    return tuple(tuple(sorted(goal[cells[c - 1]] for c in g)) for g in groups)


def mirror_maps(width: int, height: int, goal: tuple[int, ...]) -> tuple[list[int], list[int]] | None:
    """``(cell_map, tile_map)`` of the main-diagonal mirror, or None when it does not keep the goal.

    The mirror image of a state puts tile ``tile_map[t]`` on cell ``cell_map[p]`` for each
    tile t on cell p; its distance to the goal equals the state's when the board is square
    and the blank's goal cell lies on the diagonal.
    """
    blank = goal.index(0)
    if width != height or blank // width != blank % width:
        return None
    cell_map = [(p % width) * width + p // width for p in range(width * height)]
    goal_pos = {t: p for p, t in enumerate(goal)}
    tile_map = [goal[cell_map[goal_pos[t]]] for t in range(width * height)]
    return cell_map, tile_map
