"""``fess-aim``: FESS forwards, aimed at an open position that FESS backwards found.

Why: on levels whose goals must be filled in an order that no analysis of the goals alone
gets right (Sasquatch II), the forward FESS search packs most goals and then stalls, the
last goals sealed off.  Backwards the order comes for free: every box pulled off its goal
leaves the others packable.  So, as in the FESS paper's program (Festival's "HF" searches),
a backward FESS search first ranks the positions it pulls to by how *open* they are (the
boxes leave the floor in one region, block no passage between rooms and can each be pulled
from some side), the nearest to the start first (`OpenPullSearch`); then a forward FESS
search sets out from the start towards the most open of them, its boxes' squares taking
the goals' place (packed: boxes on those squares, in any order; its guide the least
pushes that put every box on one of them).  Rearranging boxes into an open position needs
no packing order, and the forward search answers as soon as it reaches *any* position the
backward one stored: the path there, then the backward search's pulls undone.

`AimSearch` runs the two in turn as one member of the core's portfolio (``search:fess-aim``)
or alone (``--engine sokoban-fess-aim``): the backward search for ``open_seconds`` of its
own CPU time, then the forward one.  As a portfolio member it is a forward search: the
positions its forward half stores meet the pull searches' too.
"""

from __future__ import annotations

from bisect import insort
from time import process_time
from typing import Any

from searchkit import Limits, Observer, Result
from searchkit.engines.paths import joined
from searchkit.engines.run import Run
from searchkit.result import LIMIT, NO_SOLUTION, SOLVED

from .board import INF, bits
from .features import Score
from .fess import FessSearch, State, check_size, result_of
from .fess_pull import PullFessSearch
from .hotspots import side_pairs
from .problem import SokobanProblem

FESS_AIM = "fess-aim"  # its name as a portfolio member (search:fess-aim)
FESS_AIM_FAR = "fess-aim-far"  # and aiming at the open positions farthest from the goals
OPEN_SECONDS = 3.0  # CPU seconds of its own for the backward search before the forward one sets out
AIM_SECONDS = 0.0  # CPU seconds of the forward search per aim before the next (0: till it runs out)
KEEP = 8  # the most open positions kept as aims
BATCH = 64  # expansions per turn when it runs alone


class OpenPullSearch(PullFessSearch):
    """FESS backwards from the solved position, its cells ranked by openness: floor regions,
    passages blocked, boxes that cannot be pulled from any side (a wall or box beside them
    and a wall or box behind that), then the least pulls that give every box a start square
    of its own (nearest the start first: the forward search has the least to do) or, with
    ``far``, the most pulls from the goals (farthest first: the boxes out of the way of
    every goal).  Neither serves every level: alone for 30 s, nearest the start solves 7 of
    the 27 Sasquatch II levels the default left at 60 s and farthest 3; on 6 XSokoban levels
    farthest solves all 6, nearest none.  `aim` takes the most open position reached off the
    goals that was not taken before."""

    progress = "open"

    def __init__(self, problem: SokobanProblem, *, far: bool = False, observer: Observer | None = None):
        board = problem.board
        self.far: list[int] | None = None
        if far:
            pulls = board.pulls_from(board.goals)
            self.far = [-pulls.get(x, 0) for x in range(board.size)]
        self.sides = side_pairs(board)  # per square, where a player could pull a box there from
        self.best: list[tuple[Score, int]] = []  # the most open positions' ranks and boxes, best first
        self.taken: set[int] = set()  # the boxes of the positions `aim` gave
        super().__init__(problem, name=FESS_AIM_FAR if far else FESS_AIM, observer=observer)
        self.total = self.best_packed = 0  # openness has no "n of total" to report

    def stuck(self, boxes: int) -> int:
        """Boxes that no pull can move now (the player's way to them not checked)."""
        occupied = boxes | ~self.board.floor
        count = 0
        for x in bits(boxes):
            if all(occupied >> a & 1 or occupied >> b & 1 for a, b in self.sides[x]):
                count += 1
        return count

    def score(self, boxes: int, region: int) -> Score:
        home = self.costs.cost(bits(boxes))
        if home >= INF:
            return Score(0, 0, 0, 0, 0, INF)  # some box has no start square of its own: dead
        far = self.far
        last = home if far is None else sum(far[x] for x in bits(boxes))
        features = self.features
        rank = Score(features.connectivity(boxes, region), features.blocked(boxes), self.stuck(boxes), 0, 0, last)
        best = self.best
        if (len(best) < KEEP or rank < best[-1][0]) and boxes != self.board.goals and boxes not in self.taken:
            if all(b != boxes for _r, b in best):  # the same boxes, another player region: one aim
                insort(best, (rank, boxes))
                del best[KEEP:]
        return rank

    def aim(self) -> int | None:
        """The boxes of the most open position not aimed at before (None: none reached)."""
        if not self.best:
            return None
        _rank, boxes = self.best.pop(0)
        self.taken.add(boxes)
        return boxes


class AimSearch:
    """`OpenPullSearch` for ``open_seconds`` of its own CPU time, then FESS forwards aimed at
    its most open position (`FessSearch` with ``aim``), answering where the forward search
    reaches a position the backward one stored."""

    backward = False
    reopened = 0

    def __init__(
        self,
        problem: SokobanProblem,
        *,
        name: str = "sokoban-fess-aim",
        limits: Limits | None = None,
        observer: Observer | None = None,
        open_seconds: float = OPEN_SECONDS,
        aim_seconds: float = AIM_SECONDS,
        far: bool = False,
    ):
        check_size(problem, name)
        self.problem = problem
        self.name = name
        self.run = Run(name, limits, observer)
        self.observer = observer
        self.open_seconds = open_seconds
        self.aim_seconds = aim_seconds
        self.ahead_used = 0.0  # CPU seconds the forward search has had towards its aim
        self.used = 0.0  # CPU seconds the backward search has had
        self.open_until = open_seconds  # and when the forward one sets out
        self.before = {"expanded": 0, "generated": 0, "duplicates": 0}  # by forward searches given up on
        self.back = OpenPullSearch(problem, far=far, observer=observer)
        self.ahead: FessSearch | None = None  # the forward search, once it sets out
        self.met: State | None = None
        self.fresh: list[State] | None = None  # the forward search's new positions, for the portfolio
        self.status: str | None = None
        if self.back.status == SOLVED:  # the start is solved, or the backward search's first aim
            self.status = SOLVED
        elif problem.board.impossible:
            self.status = NO_SOLUTION

    # the counters the portfolio and the Result add up (work done by forward searches given up
    # on counts too; what is stored, only while it is)
    def _both(self, name: str) -> int:
        return getattr(self.back, name) + (getattr(self.ahead, name) if self.ahead is not None else 0)

    @property
    def expanded(self) -> int:
        return self._both("expanded") + self.before["expanded"]

    @property
    def generated(self) -> int:
        return self._both("generated") + self.before["generated"]

    @property
    def duplicates(self) -> int:
        return self._both("duplicates") + self.before["duplicates"]

    @property
    def stored(self) -> int:
        return self._both("stored")

    @property
    def frontier(self) -> int:
        return self._both("frontier")

    @property
    def max_frontier(self) -> int:
        return self._both("max_frontier")

    @property
    def done(self) -> bool:
        return self.status is not None

    def step(self, budget: int | None = None) -> bool:
        """Up to ``budget`` expansions of the search whose turn it is (all it takes when None,
        within the limits); True once over."""
        while self.status is None:
            if self.ahead is None:
                self._back(BATCH if budget is None else budget)
            else:
                self._ahead(BATCH if budget is None else budget)
            if budget is not None:
                break
            if self.run.limit_reached(self.expanded, self.generated, self.stored):
                self.status = LIMIT
        return self.status is not None

    def _back(self, budget: int) -> None:
        back = self.back
        if not back.done:
            began = process_time()
            back.step(budget)
            self.used += process_time() - began
            if back.status == SOLVED:
                self.status = SOLVED
                return
        if self.used < self.open_until and not back.done:
            return
        aim = back.aim()
        if aim is None:  # nothing (more) pulled off the goals to aim at
            if back.done:
                self.status = LIMIT
            else:
                self.open_until = self.used + self.open_seconds
            return
        if self.observer is not None:
            self.observer.note(f"aiming at an open position after {back.expanded} expansions backwards")
        self.ahead = FessSearch(self.problem, name=self.name, observer=self.observer, aim=aim)
        self.ahead_used = 0.0
        self.ahead.fresh = []
        if self.ahead.status == SOLVED:
            self.status = SOLVED

    def _ahead(self, budget: int) -> None:
        ahead = self.ahead
        assert ahead is not None
        began = process_time()
        ahead.step(budget)
        self.ahead_used += process_time() - began
        fresh, ahead.fresh = ahead.fresh or [], []
        knows = self.back.knows
        for state in fresh:
            if knows(state):
                self.met, self.status = state, SOLVED
                break
        if self.fresh is not None:
            self.fresh.extend(fresh)
        if self.status is None and ahead.status == SOLVED:
            self.status = SOLVED
        elif self.status is None and (ahead.done or 0 < self.aim_seconds <= self.ahead_used):
            # every way towards that position tried, or its time up: back to the backward
            # search for a while, then the next most open position
            for name in self.before:
                self.before[name] += getattr(ahead, name)
            self.ahead = None
            self.open_until = self.used + self.open_seconds

    # -- the answer ---------------------------------------------------------------------------
    def knows(self, state: State) -> bool:
        return self.ahead is not None and self.ahead.knows(state)

    def path_to(self, state: State) -> tuple[list, list, int]:
        assert self.ahead is not None
        return self.ahead.path_to(state)

    def path(self) -> tuple[list, list, int]:
        if self.met is not None:
            assert self.ahead is not None
            return joined(self.ahead, self.back, self.met)
        if self.ahead is not None and self.ahead.status == SOLVED:
            return self.ahead.path()
        return self.back.path()

    def result(self) -> Result:
        return result_of(self)


def sokoban_fess_aim(
    problem: Any,
    *,
    open_seconds: float = OPEN_SECONDS,
    aim_seconds: float = AIM_SECONDS,
    far: bool = False,
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """FESS backwards to an open position, then FESS forwards aimed at it."""
    search = AimSearch(
        problem, limits=limits, observer=observer, open_seconds=open_seconds, aim_seconds=aim_seconds, far=far
    )
    search.step()
    return search.result()
