"""Korf's benchmark sets with their optimal lengths (bundled data files).

``korf100``: the 100 random 15-puzzles of Korf (1985); ``korf24``: the 50 random
24-puzzles of Korf & Felner (2002).  The boards are for Korf's goal, blank first (tile k's
home is cell k); see the attribution at the top of ``data/korf100.txt`` and ``data/korf24.txt``.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

KORF_GOAL = tuple(range(16))
KORF24_GOAL = tuple(range(25))


@cache
def _parse(file: str, cells: int, count: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    text = resources.files(__package__).joinpath(f"data/{file}").read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        numbers = [int(x) for x in words]
        if len(numbers) != cells + 1 or sorted(numbers[:cells]) != list(range(cells)):
            raise ValueError(f"malformed line in {file}: {' '.join(words)}")
        out.append((tuple(numbers[:cells]), numbers[cells]))
    if len(out) != count:
        raise ValueError(f"{file} holds {len(out)} instances, not {count}")
    return tuple(out)


def load_korf100() -> list[tuple[tuple[int, ...], int]]:
    """``[(board, optimal length), ...]`` for instances 1..100, boards row-major, 0 = blank."""
    return list(_parse("korf100.txt", 16, 100))


def load_korf24() -> list[tuple[tuple[int, ...], int]]:
    """``[(board, optimal length), ...]`` for the 50 24-puzzles, boards row-major, 0 = blank."""
    return list(_parse("korf24.txt", 25, 50))


BUNDLED = {"korf100": load_korf100, "korf24": load_korf24}
