"""``fess-aim``: FESS forwards, aimed at open positions that FESS backwards found.

Why: on levels whose goals must be filled in an order that no analysis of the goals alone
gets right (Sasquatch II), the forward FESS search packs most goals and then stalls, the
last goals sealed off.  Backwards the order comes for free: every box pulled off its goal
leaves the others packable.  So, as in the FESS paper's program (Festival's "HF" searches),
a backward FESS search first ranks the positions it pulls to by how *open* they are (the
boxes leave the floor in one region, block no passage between rooms and can each be pulled
from some side), then either the nearest to the start or the farthest from the goals first
(`OpenPullSearch`: which suits is the level's); then a forward FESS
search sets out from the start towards the most open of them, its boxes' squares taking
the goals' place (packed: boxes on those squares, in any order; its guide the least
pushes that put every box on one of them).  Rearranging boxes into an open position needs
no packing order, and the forward search answers as soon as it reaches *any* position the
backward one stored: the path there, then the backward search's pulls undone.  Where it
stalls a box or two short of its aim, a compiled A* over single pushes takes its nearest
positions the rest of the way (`FessSearch` with ``endgame``, `endgame`; with numba).

`AimSearch` runs the two in turn: the backward search till it has stored ``open_positions``
positions, then the forward one.  `AimLanes` runs several in turns, the forward search that
gains on its aim taking the turns: nearest the start after 90,000 stored positions,
farthest from the goals after 30,000 and, from the same backward search, after 90,000, and
again where those two aimed, in that order, filling each aim in its packing order
(`LANES`).  It is the portfolio's member ``search:fess-aim`` (``search:fess-aim-near`` and
``search:fess-aim-far``: one ranking's lanes alone) and the engine ``sokoban-fess-aim``
(``-P aims=near|far|both``; ``-P open_positions=N``: one lane a ranking, after N;
``-P ordered=true``: each forward search fills its aim's squares in their packing order,
`Packing.layers_of` with the aim for the goals, not in any order; ``-P endgame=false``: no
compiled A* from the positions near the aim).  As a
portfolio member it is a forward search: the positions its forward halves store meet the
pull searches' too.
"""

from __future__ import annotations

from bisect import insort
from time import process_time
from typing import Any, NamedTuple

from searchkit import InputError, Limits, Observer, Result, growth_ahead
from searchkit.engines.paths import joined
from searchkit.engines.run import Run
from searchkit.result import LIMIT, NO_SOLUTION, SOLVED

from .board import INF, bits
from .features import Score
from .fess import FessSearch, State, check_size
from .fess_pull import PullFessSearch
from .problem import SokobanProblem
from .rules import pullable

FESS_AIM = "fess-aim"  # its name as a portfolio member (search:fess-aim): both aims in turns
FESS_AIM_NEAR = "fess-aim-near"  # aiming only at the open positions nearest the start
FESS_AIM_FAR = "fess-aim-far"  # and only at those farthest from the goals
NEAR, FAR, BOTH = "near", "far", "both"  # which open positions it aims at
AIMS = (BOTH, NEAR, FAR)
# positions the backward search stores before the forward one sets out (about 3 CPU seconds;
# a count, not a time, so that a run aims where the last one did), and again before each next aim
OPEN_POSITIONS = 90_000
EARLY_POSITIONS = 30_000  # a shorter look: its first aims are nearer the goals


class Lane(NamedTuple):
    """One forward search of `AimLanes`: aimed at ``ranking``'s open positions (the lanes of
    one ranking share its backward search), setting out after ``after`` stored positions,
    filling its aim in a packing order when ``ordered``; with ``again``, aiming at the
    positions its ranking gave the other lanes, in the order given, before any new one."""

    ranking: str
    after: int
    ordered: bool = False
    again: bool = False


Lanes = tuple[Lane, ...]
# the fourth lane: the aim the second lane stalls short of, filled in order, takes Sasquatch
# II 42 in 4 s alone (the default, in any order: not in 120 s); an ordered lane with an aim
# of its own (the next best) did not take it in 60 s
LANES: Lanes = (
    Lane(NEAR, OPEN_POSITIONS),
    Lane(FAR, EARLY_POSITIONS),
    Lane(FAR, OPEN_POSITIONS),
    Lane(FAR, EARLY_POSITIONS, ordered=True, again=True),
)
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
        self.best: list[tuple[Score, int]] = []  # the most open positions' ranks and boxes, best first
        self.taken: list[int] = []  # the boxes of the positions `aim` gave, in that order (`Lane.again`)
        super().__init__(problem, name=FESS_AIM_FAR if far else FESS_AIM_NEAR, observer=observer)
        self.total = self.best_done = 0  # openness has no "n of total" to report

    def stuck(self, boxes: int) -> int:
        """Boxes that no pull can move now (the player's way to them not checked)."""
        free = self.board.floor & ~boxes
        movable = 0
        for o in self.board.offsets:
            movable |= pullable(boxes, free, free, o)
        return (boxes & ~movable).bit_count()

    def score(self, boxes: int, region: int, squares: list[int] | None = None) -> Score:
        if squares is None:
            squares = bits(boxes)
        home = self.costs.cost(squares)
        if home >= INF:
            return Score(0, 0, 0, 0, 0, INF)  # some box has no start square of its own: dead
        far = self.far
        last = home if far is None else sum(far[x] for x in squares)
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
        self.taken.append(boxes)
        return boxes


class Composite:
    """What a search made of others shows the portfolio and its `Result`: their counters
    summed (and ``before``'s, work by parts given up on), done once it has a status."""

    backward = False  # the portfolio joins its forward path to a backward member's
    reopened = 0
    status: str | None
    before: dict[str, int] = {}
    run: Run

    def parts(self) -> list[Any]:
        raise NotImplementedError

    def _advance(self, budget: int) -> None:
        """``budget`` expansions of the part whose turn it is; sets ``status`` when over."""
        raise NotImplementedError

    def step(self, budget: int | None = None) -> bool:
        """Up to ``budget`` expansions of the part whose turn it is (all it takes when None,
        within the limits); True once over."""
        while self.status is None:
            self._advance(BATCH if budget is None else budget)
            if budget is not None:
                break
            if self.status is None and self.run.limit_reached(self.expanded, self.generated, self.stored):
                self.status = LIMIT
        return self.status is not None

    def growth_ahead(self, within: int) -> int:
        """What its parts' tables claim if they grow within ``within`` more positions."""
        return growth_ahead(self.parts(), within)

    def _sum(self, name: str) -> int:
        return sum(getattr(part, name) for part in self.parts()) + self.before.get(name, 0)

    expanded = property(lambda self: self._sum("expanded"))
    generated = property(lambda self: self._sum("generated"))
    duplicates = property(lambda self: self._sum("duplicates"))
    stored = property(lambda self: self._sum("stored"))
    frontier = property(lambda self: self._sum("frontier"))
    max_frontier = property(lambda self: self._sum("max_frontier"))

    @property
    def done(self) -> bool:
        return self.status is not None

    def result(self) -> Result:
        return self.run.result_of(self)


class AimSearch(Composite):
    """`OpenPullSearch` till it stores ``open_positions`` positions, then FESS forwards aimed at
    its most open position (`FessSearch` with ``aim``), answering where the forward search
    reaches a position the backward one stored."""

    def __init__(
        self,
        problem: SokobanProblem,
        *,
        name: str = "sokoban-fess-aim",
        limits: Limits | None = None,
        observer: Observer | None = None,
        open_positions: int = OPEN_POSITIONS,
        aim_seconds: float = AIM_SECONDS,
        far: bool = False,
        back: OpenPullSearch | None = None,
        ordered: bool = False,
        endgame: bool = True,
        again: bool = False,
    ):
        """``back``: another lane's backward search to aim from (its ranking, not ``far``);
        ``endgame``: the forward searches' positions near their aim tried with a compiled A*;
        ``again``: the aims ``back`` gave before, in order, then new ones (`Lane.again`)."""
        check_size(problem, name)
        self.problem = problem
        self.name = name
        self.run = Run(name, limits, observer)
        self.run.watch(self)  # under a memory limit: `growth_ahead`
        self.observer = observer
        self.open_positions = open_positions
        self.aim_seconds = aim_seconds
        self.ordered = ordered
        self.endgame = endgame
        self.again = again
        self.aims = 0  # the aims it has set out for
        self.ahead_used = 0.0  # CPU seconds the forward search has had towards its aim
        self.nearest = 0  # the most boxes on its aim a position of the forward search has had
        self.since = 0  # the forward search's stored positions when ``nearest`` last grew
        self.open_until = open_positions  # the backward search's stored positions when the forward one sets out
        self.opened_at = 0  # its stored positions when it last took the turn back
        self.before = {"expanded": 0, "generated": 0, "duplicates": 0}  # by forward searches given up on
        self.owns_back = back is None  # its counters are this search's (else the owner's)
        self.back = OpenPullSearch(problem, far=far, observer=observer) if back is None else back
        self.ahead: FessSearch | None = None  # the forward search, once it sets out
        self.met: State | None = None
        self.fresh: list[State] | None = None  # the forward search's new positions, for the portfolio
        self.status: str | None = None
        if self.back.status == SOLVED:  # the start is solved, or the backward search's first aim
            self.status = SOLVED
        elif problem.board.impossible:
            self.status = NO_SOLUTION

    def parts(self) -> list[Any]:
        # work done by forward searches given up on counts too (``before``); what is
        # stored, only while it is
        mine = [self.back] if self.owns_back else []
        return mine if self.ahead is None else [*mine, self.ahead]

    def _advance(self, budget: int) -> None:
        if self.ahead is None:
            self._back(budget)
        else:
            self._ahead(budget)

    def _back(self, budget: int) -> None:
        back = self.back
        if not back.done:
            back.step(budget)
            if back.status == SOLVED:
                self.status = SOLVED
                return
        if back.stored < self.open_until and not back.done:
            return
        again = self.again and self.aims < len(back.taken)
        aim = back.taken[self.aims] if again else back.aim()
        if aim is None:  # nothing (more) pulled off the goals to aim at
            if back.done:
                self.status = LIMIT
            else:
                self._hand_back()
            return
        self.aims += 1
        if self.observer is not None:
            where = "nearest the start" if back.far is None else "farthest from the goals"
            how = ("again " if again else "") + ("in order " if self.ordered else "")
            self.observer.note(f"aiming {how}at an open position {where} after {back.expanded} expansions backwards")
        self.ahead = FessSearch(
            self.problem, name=self.name, observer=self.observer, aim=aim, ordered=self.ordered, endgame=self.endgame
        )
        self.ahead_used = 0.0
        self.nearest, self.since = self.ahead.best_done, self.ahead.stored
        self.ahead.fresh = []
        if self.ahead.status == SOLVED:
            self.status = SOLVED

    def _ahead(self, budget: int) -> None:
        ahead = self.ahead
        assert ahead is not None
        began = process_time()
        ahead.step(budget)
        self.ahead_used += process_time() - began
        if ahead.best_done > self.nearest:
            self.nearest, self.since = ahead.best_done, ahead.stored
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
            self._hand_back()

    def _hand_back(self) -> None:
        """The backward search's turn for another ``open_positions`` stored positions."""
        self.open_until, self.opened_at = self.back.stored + self.open_positions, self.back.stored

    def stalled(self) -> int:
        """The positions the forward search stored since it last came nearer its aim, or the
        backward search since it took the turn back (`AimLanes`' turns: a count, so a run
        repeats, that grows with the time either way, where expansions backwards take longer)."""
        if self.ahead is None:
            return self.back.stored - self.opened_at
        return self.ahead.stored - self.since

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


class AimLanes(Composite):
    """`AimSearch` searches in turns (lanes), by ``lanes`` (`Lane`: the ranking, nearest the
    start or farthest from the goals, the stored positions after which the forward search
    sets out, and whether it fills its aim in order), the lanes of one ranking sharing its
    backward search.  The first lane runs alone till it sets out, then whichever stored the
    fewest positions since it last came nearer its aim (or took up its backward search), so
    the one gaining keeps the turns and the others do as much work as the leader spends
    without gain.

    Which aim suits is the level's: alone for 30 s, nearest the start solved 7 of 27 hard
    Sasquatch II levels and farthest 3, while on 6 XSokoban levels farthest solved all 6 in
    4-26 s and nearest none; the one that suits takes its level a few thousand expansions
    after it sets out, the other stalls one to three boxes short.  *When* it sets out matters
    too: farthest from the goals after 30,000 stored positions solved Sasquatch II 19, 20
    and 45 alone, after 90,000 XSokoban 13, 18, 31, 41, 66 and 88, so that ranking has a lane
    for each (`LANES`).  Each ranking has its own backward search: one search keeping both
    rankings' lists solved 1 of those 6 XSokoban levels guided nearest the start, and 1 of 6
    Sasquatch II levels the near aims solve guided farthest."""

    def __init__(
        self,
        problem: SokobanProblem,
        *,
        name: str = "sokoban-fess-aim",
        limits: Limits | None = None,
        lanes: Lanes = LANES,
        **options: Any,
    ):
        """``lanes``: `Lane` rows (`LANES`); ``options``: `AimSearch`'s other keywords (the
        observer, ``aim_seconds``)."""
        self.run = Run(name, limits, options.get("observer"))
        self.run.watch(self)  # under a memory limit: `growth_ahead`
        self.lanes: list[AimSearch] = []
        backs: dict[str, OpenPullSearch] = {}  # per ranking, its backward search
        for row in lanes:
            lane = lane_search(problem, row, backs.get(row.ranking), name=name, **options)
            lane.fresh, backs[row.ranking] = [], lane.back
            self.lanes.append(lane)
        self.fresh: list[State] | None = None  # the forward searches' new positions, for the portfolio
        self.by: AimSearch | None = None  # the one that answered
        self.status: str | None = None
        self._settle()

    def parts(self) -> list[Any]:
        return self.lanes

    def _advance(self, budget: int) -> None:
        lane = self._turn()
        lane.step(budget)
        if self.fresh is not None:
            self.fresh.extend(lane.fresh or ())
        lane.fresh = []
        self._settle()

    def _turn(self) -> AimSearch:
        first = self.lanes[0]
        if not first.back.taken and not first.done:
            return first  # nearest the start sets out before the other searches at all
        return min((lane for lane in self.lanes if not lane.done), key=AimSearch.stalled)

    def _settle(self) -> None:
        """The status once a lane answers or all are over."""
        for lane in self.lanes:
            if lane.status == SOLVED:
                self.status, self.by = SOLVED, lane
                return
        if all(lane.done for lane in self.lanes):
            self.status = self.lanes[0].status

    # -- the answer ---------------------------------------------------------------------------
    def knows(self, state: State) -> bool:
        return any(lane.knows(state) for lane in self.lanes)

    def path_to(self, state: State) -> tuple[list, list, int]:
        return next(lane for lane in self.lanes if lane.knows(state)).path_to(state)

    def path(self) -> tuple[list, list, int]:
        assert self.by is not None
        return self.by.path()


def aimed_search(
    problem: SokobanProblem, aims: str = BOTH, open_positions: int | None = None, ordered: bool = False, **options: Any
) -> AimSearch | AimLanes:
    """The aimed search at ``aims`` (`AIMS`): the lanes of `LANES` of those rankings, or one
    lane a ranking setting out after ``open_positions`` stored positions, every lane filling
    its aim in order when ``ordered``; `AimSearch` when that is one lane."""
    if aims not in AIMS:
        raise InputError(f"{options.get('name', 'sokoban-fess-aim')} aims at {', '.join(AIMS)} (got {aims!r})")
    rankings = (NEAR, FAR) if aims == BOTH else (aims,)
    if open_positions is None:
        lanes = tuple(lane for lane in LANES if lane.ranking in rankings)
    else:
        lanes = tuple(Lane(ranking, open_positions) for ranking in rankings)
    if ordered:  # every lane in order: one that aims again in order would repeat another
        lanes = tuple(lane._replace(ordered=True) for lane in lanes if not lane.again)
    if len(lanes) == 1:
        return lane_search(problem, lanes[0], **options)
    return AimLanes(problem, lanes=lanes, **options)


def lane_search(problem: SokobanProblem, lane: Lane, back: OpenPullSearch | None = None, **options: Any) -> AimSearch:
    """The `AimSearch` of ``lane`` (``back``: its ranking's backward search, when another
    lane has one already); ``options``: `AimSearch`'s other keywords."""
    return AimSearch(
        problem,
        far=lane.ranking == FAR,
        back=back,
        open_positions=lane.after,
        ordered=lane.ordered,
        again=lane.again,
        **options,
    )


def sokoban_fess_aim(
    problem: Any,
    *,
    open_positions: int | None = None,
    aim_seconds: float = AIM_SECONDS,
    aims: str = BOTH,
    ordered: bool = False,
    endgame: bool = True,
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """FESS backwards to open positions, then FESS forwards aimed at them."""
    search = aimed_search(
        problem,
        aims,
        limits=limits,
        observer=observer,
        open_positions=open_positions,
        aim_seconds=aim_seconds,
        ordered=ordered,
        endgame=endgame,
    )
    search.step()
    return search.result()
