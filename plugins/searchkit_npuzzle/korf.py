"""Korf's 100 random 15-puzzle instances with their optimal lengths (bundled data file).

The boards are for Korf's goal, blank first (tile k's home is cell k); see the
attribution at the top of ``data/korf100.txt``.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

KORF_GOAL = tuple(range(16))


@lru_cache(maxsize=1)
def _parse() -> tuple[tuple[tuple[int, ...], int], ...]:
    text = resources.files(__package__).joinpath("data/korf100.txt").read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        numbers = [int(x) for x in line]
        if len(numbers) != 17 or sorted(numbers[:16]) != list(range(16)):
            raise ValueError(f"malformed line in korf100.txt: {' '.join(line)}")
        out.append((tuple(numbers[:16]), numbers[16]))
    if len(out) != 100:
        raise ValueError(f"korf100.txt holds {len(out)} instances, not 100")
    return tuple(out)


def load_korf100() -> list[tuple[tuple[int, ...], int]]:
    """``[(board, optimal length), ...]`` for instances 1..100, boards row-major, 0 = blank."""
    return list(_parse())
