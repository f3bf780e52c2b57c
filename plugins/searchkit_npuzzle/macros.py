"""``npuzzle-fess``: the core ``fess`` engine on big boards, over tile macro moves.

Interface: ``npuzzle_fess(problem, *, ahead=2, own_cells=False, limits=None, observer=None)
-> Result`` for an `NPuzzleProblem` of any size; actions are the blank's moves (U/D/L/R).

One blank move changes little on a big board, so FESS (`searchkit.engines.fess`) runs over
`TileMacros`: besides the blank's own moves, each of the next ``ahead`` tiles of the solving
order (`features.SolvingOrder`) slides one cell in any direction, the blank walking there by
a shortest way round that tile and the tiles placed (round that tile alone when the placed
ones wall it off).  The features are `SolvingOrder`'s, the score's tie-breaker the problem's
heuristic (when it has one).  The macros found are spelled out as blank moves and the core
replays the answer on the puzzle.  Answers are suboptimal, with no bound on their length.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from typing import Any

from searchkit import FessSearch, Limits, Observer, Result

from .features import SolvingOrder
from .problem import OPPOSITE, NPuzzleProblem

AHEAD = 2  # the tiles of the solving order, from the first unplaced, that macros slide


class TileMacros:
    """``problem`` with macro moves (module docstring): a `searchkit.Problem` whose actions
    are strings of blank moves, each costing its length, with the ``features`` of the
    ``fess`` engine.  Costs: a state's successors take ``ahead`` or ``2 * ahead``
    breadth-first walks over the cells and O(cells) per macro."""

    def __init__(self, problem: NPuzzleProblem, ahead: int = AHEAD):
        self.problem, self.ahead = problem, ahead
        self.order = SolvingOrder(problem)
        self.heuristic = problem.heuristic
        # per blank cell: (action, the cell the blank moves to, the state change per tile there)
        self.moves = [[(a, p, sp, change) for a, p, sp, change in problem._moves[b]] for b in range(problem.n)]
        self.placed_cells = [shift // problem.bits for shift, _tile in self.order.places]

    def initial_state(self) -> int:
        return self.problem.initial_state()

    def is_goal(self, state: int) -> bool:
        return self.problem.is_goal(state)

    def features(self, state: int) -> tuple[int, int]:
        return self.order.features(state)

    def successors(self, state: int) -> list[tuple[str, int, int]]:
        out = list(self.problem.successors(state))
        order, top = self.order, self.problem.top
        first = order.first_unplaced(state)
        placed = set(self.placed_cells[:first])
        blank = state >> top
        for _shift, tile in order.places[first : first + self.ahead]:
            p = order.tile_cell(state, tile)
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
