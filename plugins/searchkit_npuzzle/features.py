"""The n-puzzle's features for the core ``fess`` engine (`searchkit.engines.fess`).

A person solves a big board in an order: the top row of the unsolved region, then its left
column (the longer side first), until a 2x2 corner is left; the last two tiles of a line go
in together (the first on the line's last cell, the second beyond it, then both turned in:
two moves).  `SolvingOrder` reads a board that way.  Its features (lower is better, 0 at
the goal):

* ``unplaced``: the steps of the solving order not yet done, counting from the first not
  done (a tile on its cell, or for a line's last pair: the first staged, the second staged,
  both home: three steps);
* ``next``: the taxicab distance of the next tile to place from where it must go now.

The core's advisors then propose the move that does the next step and the move that brings
the next tile nearer (`macros`).  A board waits in the cell of the best features met on its
way, so taking a placed tile out for a while does not drop the line back.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Pair(NamedTuple):
    """A line's last two tiles: ``first`` goes home to ``first_home`` by way of
    ``first_stage`` (``second_home``), ``second`` to ``second_home`` by way of ``second_stage``
    (the cell beyond it, off the line)."""

    first: int
    first_home: int
    second: int
    second_home: int
    second_stage: int


class Progress(NamedTuple):
    """How far a board is along the solving order: the steps done, the next tiles to move
    with the cells they must reach (in order), the cells not to disturb, and whether the
    next step is turning a staged pair in (`Pair`; then ``turn`` is it)."""

    done: int
    targets: list[tuple[int, int]]
    placed: set[int]
    turn: Pair | None


def solving_lines(width: int, height: int) -> tuple[list[list[int]], list[int]]:
    """The lines of cells in the order a person fills them (the unsolved region's top row
    while it is at least as high as it is wide, else its left column, until 2x2 is left),
    and the last 2x2's cells row by row."""
    top, left, lines = 0, 0, []
    while height - top > 2 or width - left > 2:
        if height - top >= width - left:
            lines.append([top * width + c for c in range(left, width)])
            top += 1
        else:
            lines.append([r * width + left for r in range(top, height)])
            left += 1
    return lines, [r * width + c for r in range(top, height) for c in range(left, width)]


class SolvingOrder:
    """The features of `problem.NPuzzleProblem` boards (module docstring).  Costs: a
    reading is O(steps done) shifts, and O(cells) per next tile found."""

    def __init__(self, problem: Any):  # a `problem.NPuzzleProblem` (which imports this module)
        self.problem = problem
        w, goal = problem.width, problem.goal
        lines, corner = solving_lines(w, problem.height)
        # the steps: a cell and its tile, or a line's last `Pair` (three steps)
        self.steps: list[tuple[int, int] | Pair] = []
        for line in lines:
            self.steps.extend((cell, goal[cell]) for cell in line[:-2] if goal[cell])
            a, b = line[-2], line[-1]
            beyond = b + (w if b - a == 1 else 1)  # a row's pair waits a row down, a column's a column right
            if goal[a] and goal[b]:
                self.steps.append(Pair(goal[a], a, goal[b], b, beyond))
            else:  # the blank's home on the line (another goal): its tiles one by one
                self.steps.extend((cell, goal[cell]) for cell in (a, b) if goal[cell])
        self.steps.extend((cell, goal[cell]) for cell in corner if goal[cell])
        self.total = sum(3 if isinstance(step, Pair) else 1 for step in self.steps)

    def at(self, state: int, cell: int) -> int:
        """The tile on ``cell``."""
        return (state >> (self.problem.bits * cell)) & self.problem.mask

    def cell_of(self, state: int, tile: int) -> int:
        """The cell ``tile`` is on."""
        problem = self.problem
        bits, mask = problem.bits, problem.mask
        for p in range(problem.n):
            if (state >> (bits * p)) & mask == tile:
                return p
        raise ValueError(f"tile {tile} is on no cell")

    def progress(self, state: int, ahead: int = 1) -> Progress:
        """`Progress` of ``state``, naming up to ``ahead`` next tiles."""
        at = self.at
        done, placed = 0, set[int]()
        targets: list[tuple[int, int]] = []
        turn = None
        steps = iter(self.steps)
        for step in steps:
            if isinstance(step, Pair):
                if at(state, step.first_home) == step.first and at(state, step.second_home) == step.second:
                    done += 3
                    placed.update((step.first_home, step.second_home))
                    continue
                if at(state, step.second_home) == step.first:
                    done += 1
                    placed.add(step.second_home)
                    if at(state, step.second_stage) == step.second:
                        done += 1
                        placed.add(step.second_stage)
                        turn = step
                    else:
                        targets.append((step.second, step.second_stage))
                else:
                    targets += [(step.first, step.second_home), (step.second, step.second_stage)]
                break
            cell, tile = step
            if at(state, cell) != tile:
                targets.append((tile, cell))
                break
            done += 1
            placed.add(cell)
        for step in steps:  # the tiles after the next
            if len(targets) >= ahead:
                break
            targets.append((step.first, step.second_home) if isinstance(step, Pair) else (step[1], step[0]))
        return Progress(done, targets[:ahead], placed, turn)

    def distance(self, a: int, b: int) -> int:
        """The taxicab distance between cells ``a`` and ``b``."""
        w = self.problem.width
        return abs(a // w - b // w) + abs(a % w - b % w)

    def features(self, state: int) -> tuple[int, int]:
        """``(unplaced, next)``: the module docstring's features."""
        progress = self.progress(state)
        if progress.turn is not None or not progress.targets:
            return self.total - progress.done, 0
        tile, cell = progress.targets[0]
        return self.total - progress.done, self.distance(self.cell_of(state, tile), cell)
