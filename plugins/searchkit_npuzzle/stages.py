"""Big boards solved one edge line at a time: the ``npuzzle-stages`` engine.

Interface: ``npuzzle_stages(problem, *, limits=None, observer=None, weight=3) -> Result``
for an `NPuzzleProblem` of any size; actions are the blank's moves (U/D/L/R).

Weighted A* over whole boards stalls on 7x7 and 8x8 boards: with every tile still far from
home the estimate has wide plateaus, and a search wanders through hundreds of thousands of
boards.  This engine places tiles the way a person does.  It completes one edge line of the
unsolved region (the longer side's line farthest from the blank's goal cell), a few tiles
per step, never touches a completed line again, and ends with a region of at most 3x3,
which it solves optimally.  Each step is a weighted A* search (the generic engine) over an
abstraction that tracks only the tiles the step places, the ones placed before them on the
line, and the blank - no other tile can matter for that step - so a step stores thousands
of small tuples, not millions of boards.  The blank's moves found are replayed on the real
board.  Answers are suboptimal, with no bound on their length.  An observer hears nothing
of the steps' abstract nodes: they are not states of the problem.
"""

from __future__ import annotations

from typing import Any

from searchkit import LIMIT, NO_SOLUTION, SOLVED, Limits, Observer, Result, Run, best_first

FINAL = 3  # a region at most this wide and high is solved in one optimal step


class _Step:
    """The abstraction of one step: ``(cell of each tracked tile..., blank cell)``; the goal
    is every tracked tile on its goal cell; moves stay inside the unsolved region."""

    def __init__(self, width: int, free: list[bool], goals: list[int], start: tuple[int, ...]):
        n = len(free)
        self.start, self.goals, self.width = start, tuple(goals), width
        self.moves = []
        for b in range(n):
            r, c = divmod(b, width)
            near = (
                ("U", b - width, r > 0),
                ("D", b + width, b + width < n),
                ("L", b - 1, c > 0),
                ("R", b + 1, c < width - 1),
            )
            self.moves.append([(a, q) for a, q, ok in near if ok and free[q]])
        self.dist = [[abs(p // width - g // width) + abs(p % width - g % width) for p in range(n)] for g in goals]

    def initial_state(self) -> tuple[int, ...]:
        return self.start

    def is_goal(self, state: tuple[int, ...]) -> bool:
        return state[:-1] == self.goals

    def successors(self, state: tuple[int, ...]) -> list[tuple[str, tuple[int, ...], int]]:
        blank = state[-1]
        out = []
        for action, q in self.moves[blank]:
            if q in state:  # a tracked tile slides into the blank's cell
                cells = list(state)
                cells[state.index(q)] = blank
                cells[-1] = q
                out.append((action, tuple(cells), 1))
            else:
                out.append((action, state[:-1] + (q,), 1))
        return out

    def heuristic(self, state: tuple[int, ...]) -> int:
        """Manhattan distance of the tracked tiles, plus the blank's way to the nearest
        misplaced one (no tile moves home before the blank reaches it; without this term
        every blank position away from the tiles would share one estimate)."""
        blank_row, blank_col = divmod(state[-1], self.width)
        total, reach = 0, None
        for d, p in zip(self.dist, state):
            if d[p]:
                total += d[p]
                r, c = divmod(p, self.width)
                way = abs(r - blank_row) + abs(c - blank_col) - 1
                if reach is None or way < reach:
                    reach = way
        return total + (reach or 0)


def _plan_line(region: list[int], blank_goal: tuple[int, int], width: int) -> tuple[list[int], int, list[int]]:
    """The cells of the next line to complete, the cell offset into the region from it,
    and the region left after it.

    ``region`` is ``[top, bottom, left, right]`` (bottom and right exclusive).  The line is
    a row when the region is at least as tall as wide, on the side farther from the blank's
    goal cell (so the blank's goal cell always stays in the region).
    """
    top, bottom, left, right = region
    gr, gc = blank_goal
    if bottom - top > FINAL and (bottom - top >= right - left or right - left <= FINAL):
        row = top if gr - top >= bottom - 1 - gr else bottom - 1
        cells = [row * width + c for c in range(left, right)]
        if row == top:
            return cells, width, [top + 1, bottom, left, right]
        return cells, -width, [top, bottom - 1, left, right]
    col = left if gc - left >= right - 1 - gc else right - 1
    cells = [r * width + col for r in range(top, bottom)]
    if col == left:
        return cells, 1, [top, bottom, left + 1, right]
    return cells, -1, [top, bottom, left, right - 1]


def npuzzle_stages(
    problem: Any, *, limits: Limits | None = None, observer: Observer | None = None, weight: float = 3
) -> Result:
    """Solve ``problem`` line by line (see the module docstring); ``weight`` is each step's
    weighted-A* weight (the final region is always solved with weight 1)."""
    run = Run("npuzzle-stages", limits, observer)
    width, height, n = problem.width, problem.height, problem.n
    board = list(problem.start)
    goal_pos = problem.goal_pos
    blank_goal = divmod(goal_pos[0], width)
    region = [0, height, 0, width]
    step_of = {"U": -width, "D": width, "L": -1, "R": 1}
    actions: list[str] = []
    status = SOLVED

    def run_step(tiles: list[int], cells: list[int], frozen: list[int], w: float) -> bool:
        """Bring ``tiles`` to ``cells`` inside the region, not moving the tiles on ``frozen``."""
        nonlocal status
        top, bottom, left, right = region
        free = [top <= p // width < bottom and left <= p % width < right for p in range(n)]
        for p in frozen:
            free[p] = False
        pos = {t: p for p, t in enumerate(board)}
        step = _Step(width, free, cells, tuple(pos[t] for t in tiles) + (pos[0],))
        result = best_first(step, h_weight=w, name="npuzzle-stages", limits=run.rest())
        run.absorb(result.stats)
        run.iterations += 1  # one per step
        if result.status != SOLVED:
            status = result.status
            return False
        blank = pos[0]
        for action in result.actions:  # replay on the real board
            q = blank + step_of[action]
            board[blank], board[q] = board[q], 0
            blank = q
        actions.extend(result.actions)
        return True

    ok = True
    while ok:
        top, bottom, left, right = region
        if bottom - top <= FINAL and right - left <= FINAL:
            cells = [
                p for p in (r * width + c for r in range(top, bottom) for c in range(left, right)) if problem.goal[p]
            ]
            ok = run_step([problem.goal[p] for p in cells], cells, [], 1)
            break
        cells, inward, rest = _plan_line(region, blank_goal, width)
        line = [problem.goal[p] for p in cells]
        last = len(line) - 2
        # one tile at a time, the placed ones frozen; the last two go in together: first the
        # last tile onto its neighbour's cell with that neighbour just inside, then both home
        plan = [([line[k]], [cells[k]], cells[:k]) for k in range(last)]
        plan.append(([line[-1], line[-2]], [cells[-2], cells[-2] + inward], cells[:last]))
        plan.append((line[-2:], cells[-2:], cells[:last]))
        for tiles, goal_cells, frozen in plan:
            ok = run_step(tiles, goal_cells, frozen, weight)
            if not ok:
                break
        region[:] = rest

    if status != SOLVED:
        return run.result(status if status == LIMIT else NO_SOLUTION)
    states = [problem.encode(tuple(problem.start))]
    state = states[0]
    for action in actions:
        state = next(s for a, s, _c in problem.successors(state) if a == action)
        states.append(state)
    return run.result(SOLVED, (actions, states, len(actions)))
