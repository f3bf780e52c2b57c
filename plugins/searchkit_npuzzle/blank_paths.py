"""The blank's moves by direction index, and the Result of a path of them.

The Python IDA* (`fastida`) moves the blank on one mutable board by direction index (0-3:
U, D, L, R; d's opposite is d ^ 1, as in the compiled rules, `rules`) with these two pieces:
the moves from every cell, and turning a solved path of indices into states.
"""

from __future__ import annotations

from typing import Any

from searchkit import SOLVED, Result, Run

DIRS = "UDLR"  # direction d's opposite is d ^ 1


def neighbours(width: int, height: int) -> list[list[tuple[int, int]]]:
    """Per blank cell: (direction index, cell the blank moves to), in U, D, L, R order."""
    out = []
    for b in range(width * height):
        r, c = divmod(b, width)
        moves = []
        for d, (ok, p) in enumerate(
            ((r > 0, b - width), (r < height - 1, b + width), (c > 0, b - 1), (c < width - 1, b + 1))
        ):
            if ok:
                moves.append((d, p))
        out.append(moves)
    return out


def finish(problem: Any, run: Run, status: str, path: list[int] | None = None, **counts: int) -> Result:
    """The run's Result: a solved path of direction indices replayed into states, or a failure."""
    if status != SOLVED:
        return run.result(status, None, **counts)
    board = list(problem.start)
    blank = board.index(0)
    w = problem.width
    step = (-w, w, -1, 1)
    states = [problem.encode(tuple(board))]
    for d in path or ():
        nb = blank + step[d]
        board[blank], board[nb] = board[nb], 0
        blank = nb
        states.append(problem.encode(tuple(board)))
    depth = len(states)  # the path is all a depth-first search stores
    return run.result(
        SOLVED, ([DIRS[d] for d in path or ()], states, depth - 1), stored=depth, max_frontier=depth, **counts
    )
