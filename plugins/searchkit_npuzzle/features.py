"""The n-puzzle's features and advisor for the core ``fess`` engine (`searchkit.engines.fess`).

A person solves a big board in an order: the top row of the unsolved region, then its left
column (the longer side first), until a 2x2 corner is left.  `SolvingOrder` reads a board
that way.  Its features (lower is better, 0 at the goal):

* ``unplaced``: the tiles of the solving order not yet placed, counting from the first
  tile off its goal cell (the tiles after it do not count, even on their cells);
* ``next``: the taxicab distance of that first unplaced tile from its goal cell.

The core's advisors then propose the move that places the next tile and the move that
brings it nearer (`macros`: a tile one cell on, the blank walking round to it).  A position
waits in the cell of the best features met on its way, so taking a placed tile out for a
while (the last tile of a row needs it) does not drop the line back among the cells behind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .problem import NPuzzleProblem


def solving_order(width: int, height: int) -> list[int]:
    """The cells in the order a person fills them: the unsolved region's top row while it is
    at least as high as it is wide, else its left column, until 2x2 is left (row by row)."""
    top, left, order = 0, 0, []
    while height - top > 2 or width - left > 2:
        if height - top >= width - left:
            order.extend(top * width + c for c in range(left, width))
            top += 1
        else:
            order.extend(r * width + left for r in range(top, height))
            left += 1
    order.extend(r * width + c for r in range(top, height) for c in range(left, width))
    return order


class SolvingOrder:
    """The features of `problem.NPuzzleProblem` states (module docstring).  Costs: a
    reading is O(placed tiles) shifts, and O(cells) more for the next tile's cell."""

    def __init__(self, problem: NPuzzleProblem):
        self.problem = problem
        bits, mask, goal = problem.bits, problem.mask, problem.goal
        # per place in the order: (bits * cell, the tile that belongs there), the blank's cell left out
        self.places = [(bits * cell, goal[cell]) for cell in solving_order(problem.width, problem.height) if goal[cell]]
        self.mask = mask
        self.table = problem.manhattan_table()
        self.width = problem.width

    def first_unplaced(self, state: int) -> int:
        """The place in the order of the first tile off its goal cell (all of them: placed)."""
        mask = self.mask
        for i, (shift, tile) in enumerate(self.places):
            if (state >> shift) & mask != tile:
                return i
        return len(self.places)

    def tile_cell(self, state: int, tile: int) -> int:
        """The cell ``tile`` is on in ``state``."""
        problem = self.problem
        bits, mask = problem.bits, self.mask
        for p in range(problem.n):
            if (state >> (bits * p)) & mask == tile:
                return p
        raise ValueError(f"tile {tile} is on no cell")

    def features(self, state: int) -> tuple[int, int]:
        """``(unplaced, next)``: the module docstring's features."""
        i = self.first_unplaced(state)
        if i == len(self.places):
            return 0, 0
        tile = self.places[i][1]
        return len(self.places) - i, self.table[tile][self.tile_cell(state, tile)]
