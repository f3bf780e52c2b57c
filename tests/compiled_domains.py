"""Two test domains written twice, as Python problems and as compiled rules
(`searchkit.kernels`): the sliding-tile puzzle (one word, Manhattan distance, every optional
rule: ``h_after``, ``cost``, ``inverse``) and a grid of cell costs with walls (one word,
costs 1-9, any heuristic given as a table of values per cell, only the required rules).

The rules live in ``compiled_puzzle_rules``, ``compiled_grid_rules`` and
``compiled_puzzle_plain_rules`` (the puzzle's required rules alone); those modules import
numba, this one does not, so the Python problems work without it.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from searchkit.kernels import CompiledRules

DIRS = "UDLR"  # the blank's moves (puzzle) or the walker's (grid), in successor order; d ^ 1 undoes d
STEP = ((-1, 0), (1, 0), (0, -1), (0, 1))  # (row, column) change per direction


def neighbours(width: int, height: int) -> list[int]:
    """Per cell and direction (``cell * 4 + d``) the cell a move reaches, -1 off the board."""
    out = []
    for cell in range(width * height):
        r, c = divmod(cell, width)
        for dr, dc in STEP:
            rr, cc = r + dr, c + dc
            out.append(rr * width + cc if 0 <= rr < height and 0 <= cc < width else -1)
    return out


def pack(board: list[int]) -> int:
    """A board (tile per cell, 0 the blank) as one integer, cell p in bits 4p..4p+3."""
    return sum(t << (4 * p) for p, t in enumerate(board))


def unpack(word: int, cells: int) -> list[int]:
    return [(word >> (4 * p)) & 15 for p in range(cells)]


class Puzzle:
    """The sliding-tile puzzle on ``width x height`` cells (at most 16), Manhattan distance,
    goal tiles 1..n-1 then the blank.  States are packed boards (`pack`)."""

    heuristic_admissible = True
    cycle_check = "parent"

    def __init__(self, board: list[int], width: int, height: int, rules: str = "compiled_puzzle_rules"):
        self.width, self.height, self.cells = width, height, width * height
        if sorted(board) != list(range(self.cells)) or self.cells > 16:
            raise ValueError(f"not a board of {self.cells} cells: {board}")
        self.start = pack(board)
        self.goal = pack(list(range(1, self.cells)) + [0])
        self.nbr = neighbours(width, height)
        goal_cell = {t: p for p, t in enumerate(list(range(1, self.cells)) + [0])}
        self.md = [
            [
                0
                if t == 0 or t >= self.cells
                else abs(p // width - goal_cell[t] // width) + abs(p % width - goal_cell[t] % width)
                for p in range(self.cells)
            ]
            for t in range(16)
        ]
        self.rules_module = rules

    def initial_state(self) -> int:
        return self.start

    def is_goal(self, state: int) -> bool:
        return state == self.goal

    def _blank(self, state: int) -> int:
        for p in range(self.cells):
            if (state >> (4 * p)) & 15 == 0:
                return p
        raise AssertionError("no blank")

    def successors(self, state: int) -> list[tuple[str, int, int]]:
        return [(a, s, c) for a, s, c, _h in self.successors_with_h(state, self.heuristic(state))]

    def successors_with_h(self, state: int, h: int) -> list[tuple[str, int, int, int]]:
        b = self._blank(state)
        out = []
        for d in range(4):
            nb = self.nbr[b * 4 + d]
            if nb < 0:
                continue
            t = (state >> (4 * nb)) & 15
            child = state & ~(15 << (4 * nb)) | (t << (4 * b))
            out.append((DIRS[d], child, 1, h + self.md[t][b] - self.md[t][nb]))
        return out

    def heuristic(self, state: int) -> int:
        return sum(self.md[(state >> (4 * p)) & 15][p] for p in range(self.cells))

    def compiled_rules(self) -> CompiledRules:
        ctx = (
            np.array(self.nbr, dtype=np.int64),
            np.array([x for row in self.md for x in row], dtype=np.int64),
            np.array([self.goal], dtype=np.uint64),
        )
        return CompiledRules(
            module=self.rules_module,
            width=1,
            context=ctx,
            encode=lambda state: np.array([state], dtype=np.uint64),
            decode=lambda words: int(words[0]),
            action=lambda m, _words: DIRS[m],
            max_moves=4,
        )


def random_walk(width: int, height: int, steps: int, rng: random.Random) -> list[int]:
    """A board ``steps`` random blank moves from the goal (never straight back)."""
    board = list(range(1, width * height)) + [0]
    nbr = neighbours(width, height)
    b, last = width * height - 1, -1
    for _ in range(steps):
        options = [d for d in range(4) if nbr[b * 4 + d] >= 0 and d != last ^ 1]
        d = rng.choice(options)
        nb = nbr[b * 4 + d]
        board[b], board[nb] = board[nb], 0
        b, last = nb, d
    return board


def random_board(width: int, height: int, rng: random.Random) -> list[int]:
    """A uniformly random solvable board (the parity test)."""
    while True:
        board = list(range(width * height))
        rng.shuffle(board)
        if solvable(board, width, height):
            return board


def solvable(board: list[int], width: int, height: int) -> bool:
    tiles = [t for t in board if t]
    inversions = sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles)) if tiles[i] > tiles[j])
    if width % 2:
        return inversions % 2 == 0
    blank_row_from_bottom = height - board.index(0) // width
    return (inversions + blank_row_from_bottom) % 2 == 1


class Grid:
    """A walker on a grid of cells: ``costs[cell]`` is the cost of entering it (0: a wall),
    the goal one cell, the heuristic any table ``hv`` of values per cell (negative: dead).
    States are cell numbers."""

    def __init__(
        self,
        width: int,
        height: int,
        costs: list[int],
        start: int,
        goal: int,
        hv: list[int] | None = None,
        admissible: bool = True,
    ):
        self.width, self.height, self.costs = width, height, costs
        self.start, self.goal = start, goal
        self.nbr = neighbours(width, height)
        self.hv = hv if hv is not None else [0] * (width * height)
        self.heuristic_admissible = admissible

    def initial_state(self) -> int:
        return self.start

    def is_goal(self, state: int) -> bool:
        return state == self.goal

    def successors(self, state: int) -> list[tuple[str, int, int]]:
        out = []
        for d in range(4):
            nb = self.nbr[state * 4 + d]
            if nb >= 0 and self.costs[nb] > 0:
                out.append((DIRS[d], nb, self.costs[nb]))
        return out

    def heuristic(self, state: int) -> float:
        v = self.hv[state]
        return float("inf") if v < 0 else v

    def compiled_rules(self) -> CompiledRules:
        ctx = (
            np.array(self.costs, dtype=np.int64),
            np.array(self.nbr, dtype=np.int64),
            np.array(self.hv, dtype=np.int64),
            np.array([self.goal], dtype=np.int64),
        )
        return CompiledRules(
            module="compiled_grid_rules",
            width=1,
            context=ctx,
            encode=lambda state: np.array([state], dtype=np.uint64),
            decode=lambda words: int(words[0]),
            action=lambda m, _words: DIRS[m],
            max_moves=4,
        )


def random_grid(width: int, height: int, rng: random.Random, walls: float = 0.25) -> tuple[list[int], int, int]:
    """Cell costs (1-9, a share ``walls`` of walls) and two open cells: start and goal."""
    costs = [0 if rng.random() < walls else rng.randint(1, 9) for _ in range(width * height)]
    open_cells = [c for c in range(width * height) if costs[c]] or [0]
    start, goal = rng.choice(open_cells), rng.choice(open_cells)
    costs[start] = costs[start] or 1
    costs[goal] = costs[goal] or 1
    return costs, start, goal


def grid_distances(width: int, height: int, costs: list[int], goal: int) -> list[float]:
    """The exact cost from every cell to ``goal`` (Dijkstra backwards: entering costs)."""
    import heapq

    nbr = neighbours(width, height)
    dist = [float("inf")] * (width * height)
    dist[goal] = 0
    queue = [(0.0, goal)]
    while queue:
        dv, v = heapq.heappop(queue)
        if dv > dist[v]:
            continue
        for d in range(4):
            u = nbr[v * 4 + d]
            if u >= 0 and costs[u] > 0 and dv + costs[v] < dist[u]:  # u -> v costs costs[v]
                dist[u] = dv + costs[v]
                heapq.heappush(queue, (dist[u], u))
    return dist


def manhattan_table(width: int, height: int, costs: list[int], goal: int) -> list[int]:
    """Manhattan distance to ``goal`` times the cheapest cost: admissible and consistent."""
    least = min(c for c in costs if c > 0)
    gr, gc = divmod(goal, width)
    return [(abs(c // width - gr) + abs(c % width - gc)) * least for c in range(width * height)]


def solve_exhaustively(problem: Any) -> dict[Any, int]:
    """Every reachable state's distance in moves from the start (plain breadth-first search)."""
    from collections import deque

    start = problem.initial_state()
    seen = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for _a, child, _c in problem.successors(s):
            if child not in seen:
                seen[child] = seen[s] + 1
                queue.append(child)
    return seen
