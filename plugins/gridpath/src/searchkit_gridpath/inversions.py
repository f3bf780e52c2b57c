"""A heuristic this plugin adds to the n-puzzle domain: max(Manhattan, inversion distance).

Inversion distance (Takahashi): read the tiles row by row, skipping the blank, and count
the pairs out of their goal order.  A horizontal move does not change that reading order;
a vertical move carries one tile past the ``width - 1`` tiles between its old and new
cell, changing the count by at most ``width - 1`` (and by an amount of that parity).  So
at least ``L(inversions, width - 1)`` vertical moves are needed, and likewise
``L(column-order inversions, height - 1)`` horizontal ones: their sum is a lower bound,
and so is the larger of it and Manhattan distance.  It knows things Manhattan does not
(a row of reversed tiles costs Manhattan little and inversions a lot).

It needs nothing of the n-puzzle plugin's code: only what its problem offers anyone,
``width``, ``height``, ``goal`` (the goal tiles, 0 the blank) and ``decode(state)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from searchkit import Heuristic


def moves_for(inversions: int, step: int) -> int:
    """Fewest moves that each change the count by at most ``step`` (with the parity of
    ``step`` when it is odd) to bring ``inversions`` to 0."""
    if inversions == 0 or step <= 0:
        return 0
    m = -(-inversions // step)
    if step % 2 == 1 and (m - inversions) % 2:
        m += 1  # an odd change per move: the number of moves has the count's parity
    return m


def _inversions(order: list[int]) -> int:
    return sum(1 for i, a in enumerate(order) for b in order[i + 1 :] if a > b)


def make_inversion_max(problem: Any) -> Callable[[Any], float]:
    """``state -> max(Manhattan, vertical + horizontal inversion moves)`` for ``problem``."""
    w, hgt, goal = problem.width, problem.height, tuple(problem.goal)
    n = w * hgt
    goal_cell = [0] * n
    for cell, tile in enumerate(goal):
        goal_cell[tile] = cell
    row_rank = goal_cell  # a tile's place in the goal's row-major order
    col_rank = [0] * n  # ... and in its column-major order
    for tile in range(n):
        r, c = divmod(goal_cell[tile], w)
        col_rank[tile] = c * hgt + r
    by_columns = [r * w + c for c in range(w) for r in range(hgt)]
    decode = problem.decode

    def estimate(state: Any) -> float:
        tiles = decode(state)
        manhattan = 0
        for cell, tile in enumerate(tiles):
            if tile:
                g = goal_cell[tile]
                manhattan += abs(cell // w - g // w) + abs(cell % w - g % w)
        vertical = _inversions([row_rank[t] for t in tiles if t])
        horizontal = _inversions([col_rank[tiles[cell]] for cell in by_columns if tiles[cell]])
        return max(manhattan, moves_for(vertical, w - 1) + moves_for(horizontal, hgt - 1))

    return estimate


INVERSION_MAX = Heuristic(
    "inversion-max",
    make=make_inversion_max,
    admissible=True,
    summary="max(Manhattan, Takahashi's inversion distance) (from searchkit-gridpath)",
)
