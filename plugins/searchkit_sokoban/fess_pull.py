"""``fess-pull``: the FESS search backwards, over macro pulls from the solved position.

Why: where the goals sit in a room that must be filled in one order, the forward FESS
search needs that order right (`packing`), and the greedy pull search (`pull`), which gets
the order for free, drowns in the positions of a half-emptied room that its estimate ranks
alike (Sasquatch II 20: 400 thousand expansions and ten boxes still in the room).  Read
backwards with FESS's cells and advisors, the room empties: on that level every box is out
of it within 30 s.  This search starts from the solved boxes with the player in each part
of the free floor and pulls one box at a time to any square it can be pulled to with the
others fixed; it ends on the start position - or, behind a cramped start, on the gateway that
the pull search aims at too (`gateway`: the position every solution passes through, a few
pushes in, found forwards), the pushes there leading its answer.

Its cell is `features.Score` read backwards:

* ``unpacked``: per box, one while it stands on a goal that is not a start square and one
  while it stands off the start squares (twice the boxes at the solved position, 0 at the
  start): emptying the goals and filling the start squares both count;
* ``connectivity`` and ``room_connectivity`` as forwards (the player must get round);
* ``h``: the least pulls (walls only) that give every box a start square of its own; no
  such assignment is a dead position, and so is a box pulled where no start square can be
  pulled to.

Positions are the forward ones, ``(boxes, lowest square of the player's region)``, so the
core's portfolio joins this search's paths to a forward member's where they meet.  Each
pull is the push that undoes it: a path read from the start is the pushes in order, and
the replay checks it as every engine's.
"""

from __future__ import annotations

from typing import Any

from searchkit import Limits, Observer, Result
from searchkit.engines.backward import forwards
from searchkit.result import NO_SOLUTION, SOLVED

from .advisors import Advice, advised
from .answers import positions_along
from .board import INF, BoxSquares, bits, flood
from .features import Features, Score
from .fess import FeatureSearch, MacroMoves, State
from .gateway import GATEWAY_BUDGET, aim
from .heuristics import MATCHING, RowCosts, rows_to
from .problem import SokobanProblem
from .pull import solved_positions

FESS_PULL = "fess-pull"  # its name as a portfolio member (search:fess-pull)
NO_ADVICE = (INF, 0)  # the opener walks towards goals: nothing to say backwards


class PullFessSearch(FeatureSearch):
    """FESS backwards: alone (`sokoban_fess_pull`) or as a backward member of the core's
    portfolio (``search:fess-pull``)."""

    backward = True
    progress = "unpacked and home"  # twice the boxes: off the goals, then on the start squares

    def __init__(
        self,
        problem: SokobanProblem,
        *,
        gateway: int = GATEWAY_BUDGET,
        name: str = "sokoban-fess-pull",
        limits: Limits | None = None,
        observer: Observer | None = None,
    ):
        super().__init__(problem, name, limits, observer)
        board = self.board = problem.board
        # a cramped start: aim at the gateway a small forward search finds, behind its pushes
        self.lead_in, self.start = aim(SokobanProblem(board, None, problem.disabled), gateway)
        self.starts = starts = self.start[0]
        self.features = Features(board, starts)
        self.boxes = starts.bit_count()
        self.total = 2 * self.boxes
        self.costs = RowCosts(rows_to(board, starts, pulls=True), self.boxes, MATCHING)
        self.macros = MacroMoves(problem, self.costs.near)  # pulls
        self.home = flood(1 << self.start[1], board.floor & ~starts, board.width)  # the player's start region
        if problem.is_goal(self.start):  # (the gateway is never solved: it would have been the answer)
            self.parents[self.start] = None
            self.status, self.goal = SOLVED, self.start
            return
        if board.impossible:
            self.status = NO_SOLUTION
            return
        least = self.total  # the least unpacked of the roots, for progress notes
        for root, region in solved_positions(board):
            rank = self.score(board.goals, region)
            if rank.h >= INF:
                continue
            self.parents[root] = None
            if root[0] == starts and region >> self.start[1] & 1:
                self.status, self.goal = SOLVED, root
                return
            self.opened.add(rank, 0, rank, root)
            least = min(least, rank.unpacked)
        self.best_done = self.total - least
        if not self.parents:
            self.status = NO_SOLUTION

    def score(self, boxes: int, region: int, squares: list[int] | None = None) -> Score:
        """The rank of a position read backwards (``region``: the player's squares;
        ``squares``: the boxes', when the caller has them)."""
        features = self.features
        on_goals = (boxes & self.board.goals & ~self.starts).bit_count()
        home, out_of_plan = features.packed(boxes)  # on start squares, in their order
        connectivity = features.connectivity(boxes, region)
        blocked = features.blocked(boxes)
        h = self.costs.cost(bits(boxes) if squares is None else squares)
        return Score(on_goals + self.boxes - home, connectivity, blocked, out_of_plan, 0, h)

    def expand(self, state: State, own: Score) -> tuple[list[State], list[Score], set[int]] | None:
        parents, fresh, home, starts = self.parents, self.fresh, self.home, self.starts
        boxes, player = state
        reach = self.macros.region(boxes, player)
        children: list[State] = []
        advice: list[Advice] = []
        squares = BoxSquares(boxes)
        for _macro, child, region in self.macros.moves(boxes, reach, boxes):
            self.generated += 1
            if child in parents:
                self.duplicates += 1
                continue
            rank = self.score(child[0], region, squares.child(child[0]))
            if rank.h >= INF:
                continue  # some box has no start square of its own
            parents[child] = state
            if fresh is not None:
                fresh.append(child)
            if child[0] == starts and region & home:
                self.status, self.goal = SOLVED, child
                return None
            children.append(child)
            advice.append((rank, False, NO_ADVICE))
        return children, [rank for rank, _opens, _away in advice], advised(own, advice)

    def path_to(self, state: State) -> tuple[list, list, int]:
        """From a solved position back to ``state`` (reached): the pushes that undo the pulls,
        in the order they were pulled, and the position before each push (a core backward
        search's path; `forwards` reads it from the start)."""
        chain = self.chain(state)
        pushes = self.macros.along(chain)
        return pushes, [chain[0], *positions_along(self.board, chain[0][0], pushes, pulled=True)], len(pushes)

    def path(self) -> tuple[list, list, int]:
        assert self.goal is not None
        return forwards(self, *self.path_to(self.goal))  # behind the pushes to the gateway


def sokoban_fess_pull(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """FESS backwards over macro pulls: from the solved position to the start."""
    search = PullFessSearch(problem, limits=limits, observer=observer)
    search.step()
    return search.result()
