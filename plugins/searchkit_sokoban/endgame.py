"""A FESS search's endgame: a small compiled A* takes a position a box or two short of its
targets (the goals, or an aimed search's aim) the rest of the way.

Why: a FESS search (`fess`), above all one aimed at an open position (`aim`), often stores a
position with every box but one or two on its targets and then stalls there: the last box
needs a box already in place moved out of its way and back, which undoes the feature the
search climbs (Sasquatch II 24: 13 of 14 on the aim after 30 s, stalled for minutes).  A
weighted A* over single pushes on the matching bound to the targets does that in
thousands of expansions (24: 9,397, 25 pushes): the positions before and after differ in
a few boxes only.  So each position that comes within `SLACK` boxes of the targets waits
(or the slack the search gives: the default's `fess-stranded` four, for a plan stalled
further back - Sasquatch II 26), most boxes in place first, then fewest pushes to go, for
`CompiledPushSearch` on the level with the targets for goals, `BUDGET` expansions a try,
the tries taking at most `SHARE` of the search's time (or the share the search gives:
`fess-stranded` a twentieth).  It needs the compiled kernel (numba, ``searchkit[fast]``);
without it the search goes on as before.
"""

from __future__ import annotations

import dataclasses
from time import process_time

from searchkit import BucketQueue, Limits
from searchkit.result import SOLVED

from .board import Board
from .compiled_search import CompiledPushSearch, compiled_available, warm_up
from .heuristics import MATCHING
from .levels import Level
from .problem import Push, SokobanProblem

SLACK = 2  # boxes off the aim at most for a position to be tried
BUDGET = 20_000  # expansions of one try
SHARE = 0.25  # the tries' CPU seconds at most this share of the forward search's
WEIGHT = 2.0  # the A*'s weight on the bound: a short way, not the shortest

State = tuple[int, int]


class Endgame:
    """Tries positions near ``aim`` (a mask of squares, as many as the boxes) with a compiled
    A* onto those squares: `offer` the search's new positions, `finish` the best untried one
    when time allows (the tries at most ``share`` of the search's CPU seconds, default `SHARE`;
    a position at most ``slack`` boxes off the aim, default `SLACK`)."""

    def __init__(self, problem: SokobanProblem, aim: int, share: float | None = None, slack: int | None = None):
        self.problem = problem
        self.share = SHARE if share is None else share
        self.board = problem.board
        self.aim = aim
        self.least = aim.bit_count() - (SLACK if slack is None else slack)  # boxes on the aim a position needs
        self.layout = dataclasses.replace(problem.board.layout, goals=aim)
        self.waiting = BucketQueue()  # positions by (-boxes on the aim, pushes to it), first in first out
        self.tried: set[int] = set()  # the boxes of the positions tried (another player region: the same try)
        self.used = 0.0  # CPU seconds of the tries
        self.expanded = self.generated = 0  # by the tries, which the search counts as its own
        warm_up()  # the kernel compiled (the first run anywhere, some seconds) or loaded, not charged to the tries

    @staticmethod
    def available() -> bool:
        return compiled_available()

    def offer(self, states: list[State], costs: list[float]) -> None:
        """Keep those of ``states`` within the slack's boxes of the aim for a try (``costs``: each
        one's pushes to go, as the search estimated them)."""
        aim, least, waiting, tried = self.aim, self.least, self.waiting, self.tried
        for state, cost in zip(states, costs):
            on = (state[0] & aim).bit_count()
            if on >= least and state[0] not in tried:
                waiting.push((-on, cost), state)

    def finish(self, spent: float) -> tuple[State, list[Push], State] | None:
        """Try the best waiting position if the tries have used less than their share of
        ``spent`` (the forward search's CPU seconds): ``(position, pushes, end)`` when the
        A* puts every box on the aim (``end``: the position there), else None."""
        while self.waiting and self.used <= self.share * spent:
            state = self.waiting.pop()[1]
            if state[0] in self.tried:
                continue
            self.tried.add(state[0])
            began = process_time()
            try:
                found = self._try(state)
            finally:
                self.used += process_time() - began
            if found is not None:
                return found
        return None

    def _try(self, state: State) -> tuple[State, list[Push], State] | None:
        boxes, player = state
        level = Level(tuple(self.layout.rows(boxes, player)))
        problem = SokobanProblem(Board(level), MATCHING, self.problem.disabled)
        search = CompiledPushSearch(problem, weight=WEIGHT, name="endgame", limits=Limits(max_expanded=BUDGET))
        search.step()
        self.expanded += search.expanded
        self.generated += search.generated
        if search.status != SOLVED:
            return None
        pushes, states, _cost = search.path()
        return state, pushes, states[-1]  # its player on the lowest square of its region, as every search keys it
