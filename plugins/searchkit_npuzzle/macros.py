"""``npuzzle-fess``: the core ``fess`` engine on big boards, over tile macro moves.

Interface: ``npuzzle_fess(problem, *, ahead=1, own_cells=False, limits=None, observer=None)
-> Result`` for an `NPuzzleProblem` of any size; actions are the blank's moves (U/D/L/R).

One blank move changes little on a big board, so FESS (`searchkit.engines.fess`) runs over
`TileMacros`: besides the blank's own moves, each of the next ``ahead`` tiles of the solving
order (`features.SolvingOrder`) slides one cell in any direction, the blank walking there by
a shortest way round that tile and the tiles placed (round that tile alone when the placed
ones wall it off), and a line's staged last pair turns in (`features.Pair`).  The features
are `SolvingOrder`'s, the score's tie-breaker the Manhattan distance.  The macros found are
spelled out as blank moves and the core replays the answer on the puzzle.  Answers are
suboptimal, with no bound on their length.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from typing import Any

from searchkit import FessSearch, Limits, Observer, Result

from .features import SolvingOrder
from .problem import OPPOSITE, NPuzzleProblem

AHEAD = 1  # the tiles of the solving order, from the first unplaced, that macros slide


class TileMacros:
    """``problem`` with macro moves (module docstring): a `searchkit.Problem` whose actions
    are strings of blank moves, each costing its length, with the ``features`` of the
    ``fess`` engine.  Costs: a state's successors take up to ``2 * ahead + 1`` breadth-first
    walks over the cells and O(cells) per macro."""

    def __init__(self, problem: NPuzzleProblem, ahead: int = AHEAD):
        self.problem, self.ahead = problem, ahead
        self.order = SolvingOrder(problem)  # the problem's own `features`, read with `progress` too
        self.table = problem.manhattan_table()
        # per blank cell: (action, the cell the blank moves to, the state change per tile there)
        self.moves = problem._moves
        self.toward = {(b, q): a for b in range(problem.n) for a, q, _sq, _c in problem._moves[b]}

    def initial_state(self) -> int:
        return self.problem.initial_state()

    def is_goal(self, state: int) -> bool:
        return self.problem.is_goal(state)

    def features(self, state: int) -> tuple[int, int]:
        return self.order.features(state)

    def heuristic(self, state: int) -> int:
        """The Manhattan distance: the tie-breaker of boards in a cell."""
        problem, table = self.problem, self.table
        bits, mask = problem.bits, problem.mask
        return sum(table[(state >> (bits * p)) & mask][p] for p in range(problem.n))

    def successors(self, state: int) -> list[tuple[str, int, int]]:
        out = list(self.problem.successors(state))
        order = self.order
        progress = order.progress(state, self.ahead)
        placed, blank = progress.placed, state >> self.problem.top
        turn = progress.turn
        if turn is not None:  # walk to the first's home, then turn both in
            way = self._walks(blank, -1, placed).get(turn.first_home)
            if way is not None:
                path = (
                    way
                    + self.toward[turn.first_home, turn.second_home]
                    + self.toward[turn.second_home, turn.second_stage]
                )
                out.append((path, self.play(state, path), len(path)))
        for tile, _cell in progress.targets:
            p = order.cell_of(state, tile)
            ways = self._walks(blank, p, placed)
            for a, q, _sq, _change in self.moves[p]:
                if q in placed or q == blank:
                    continue  # a placed tile stays; a blank beside the tile: one of its own moves
                way = ways.get(q)
                if way is None:
                    way = self._walks(blank, p, set()).get(q)
                    if way is None:
                        continue
                path = way + OPPOSITE[a]
                out.append((path, self.play(state, path), len(path)))
        return out

    def _walks(self, blank: int, tile: int, placed: set[int]) -> dict[int, str]:
        """The blank's shortest moves to each cell it reaches without entering ``tile``'s
        cell or ``placed``."""
        ways = {blank: ""}
        frontier = deque([blank])
        while frontier:
            b = frontier.popleft()
            for a, q, _sq, _change in self.moves[b]:
                if q not in ways and q != tile and q not in placed:
                    ways[q] = ways[b] + a
                    frontier.append(q)
        return ways

    def play(self, state: int, path: str) -> int:
        """The state after the blank moves ``path`` from ``state``."""
        mask, top = self.problem.mask, self.problem.top
        for a in path:
            for action, _p, sp, change in self.moves[state >> top]:
                if action == a:
                    state += change[(state >> sp) & mask]
                    break
        return state


def npuzzle_fess(
    problem: NPuzzleProblem,
    *,
    ahead: int = AHEAD,
    own_cells: bool = False,
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """FESS over `TileMacros`; the answer in the blank's single moves."""
    macros = TileMacros(problem, ahead)
    search = FessSearch(macros, own_cells=own_cells, name="npuzzle-fess", limits=limits, observer=observer)
    search.step()
    result = search.result()
    if not result.solved:
        return result
    moves: list[Any] = [a for path in result.actions for a in path]
    states = [problem.initial_state()]
    for a in moves:
        states.append(macros.play(states[-1], a))
    return dataclasses.replace(result, actions=moves, states=states)
