"""Reverse search: pull the boxes from the solved position back to the start.

Forward searches fail where the goals must be filled in a strict order (rooms, dead-end
rows of goals): the heuristic heads for the nearest goal and seals the rest.  Backwards
the order comes for free - a box is pulled off the goal that is free to leave - and the
difficulty moves to the start, where boxes must reach their exact squares.  The two fail
on different levels (greedy nearest-goal forwards misses Microban 146 and 153,
backwards 93 and 153), so ``sokoban-portfolio`` runs this as one of its searches.

A state is the forward one, ``(boxes, lowest square of the player's region)``; a step
pulls a box from ``x`` to ``x + o`` while the player walks from ``x + o`` to ``x + 2o``.
The search is greedy, starting from the solved boxes with the player in each part of the
free floor, ending where the boxes stand on their start squares and the player's region
holds its start.  Two estimates of the pulls still needed (walls only) keep an open list
each, taking turns (the core's alternation, through ``backward_guides``): the sum over
boxes of the pull distance to the nearest start square, and the least sum when each box
must go to a start square of its own (a minimum-cost matching).  Nearest alone crowds the
boxes round a few start squares and wanders near the start (Sasquatch II 41: 2.3 million
expansions without an answer, 14 thousand in turns with matching); matching alone misses
what nearest finds (Sasquatch II 15).  Variants ``pull-nearest-goal`` and ``pull-matching``
keep one list; ``pull-explore`` adds a third, type-based exploration (a random ``(h, g)``
type each turn, the core's `typequeue`), which leaves plateaus the estimates hold (alone
for 40 s it answers Sasquatch II 27, where the two lists wander 1.8 million expansions)
but slows the estimates' lists (it misses 13), and in the default's place it solved 20 of
Sasquatch II's 50 at 60 s, not 21.  ``pull-packing`` adds a third list whose guide fills
the start squares in their own packing order (`Packing.start_layers_of` through
`packing.LayerGuide`: a cramped start is refilled from its deepest squares, where nearest
and matching pile boxes on whichever start square is nearest): alone for 40 s it answers
Sasquatch II 24 (23 s), which the default does not in 60 s, and 16 and 15 sooner (4.5 and
14.5 s, not 10.3 and 17.9), but misses 44 (15 s with two lists); in the default's place,
Sasquatch II 23/50 at 60 s as the default, gaining 4 and 24 and losing 13 and 44.
The default portfolio runs ``pull-nearest-goal`` from
the start and ``pull`` from its third CPU second (in turns from the start, Microban 153
took 11.6 s, not 2.4 s).  A
box on a square no start square can be pulled to is dead, and so is a position where the
boxes cannot each have a start square of their own.  Read from the end, each pull is a
push (the box from ``x + o`` back to ``x``), so the path comes out in forward order:
pushes mode only (the states hold regions, not squares).

With ``gateway`` (a budget of positions, as ``sokoban-portfolio`` runs it) the search aims at the
deepest position near the start that every solution passes through (`gateway.py`)
instead of the start, and the pushes found forwards to it lead the path: a cramped
start, where the pulls put the last boxes back in the wrong order, is left to a small
forward search.  Ties of the estimate go to the newest position (``newest_first``, which the core's
greedy backward search honours; depth first along a plateau): on Microban 153, aimed at
its gateway, that takes 80 thousand expansions where oldest-first takes 430 thousand.

This module only says what a pull is: `PullProblem` offers ``goal_states``,
``predecessors`` (the pulls, as the pushes they undo), ``backward_heuristic`` and
``lead_in`` (the pushes to the gateway), and the core's backward search does the rest.
`compiled_pull` is the same search over arrays in compiled code (numba): the same positions
expanded in the same order, six to seven times as fast (``search:pull-compiled``,
``search:pull-nearest-goal-compiled``).
"""

from __future__ import annotations

import math

from .board import INF, bits, flood, regions
from .gateway import aim
from .heuristics import MATCHING, NEAREST, PACKING, RowCosts, rows_to
from .packing import LayerGuide, Packing
from .problem import MAX_REGIONS, Push, SokobanProblem
from .rules import pullable

PULL = "pull"  # the name composite engines give this problem (``backward:pull``)
# the variants by name: the estimates whose open lists take turns, the first one's first
PULL_NEAREST, PULL_MATCHING = f"{PULL}-{NEAREST}", f"{PULL}-{MATCHING}"
TYPES = "types"  # not an estimate: type-based exploration takes turns with the estimates' lists
PULL_EXPLORE = f"{PULL}-explore"
PULL_PACKING = f"{PULL}-{PACKING}"
PULL_GUIDES = {
    PULL: (NEAREST, MATCHING),
    PULL_NEAREST: (NEAREST,),
    PULL_MATCHING: (MATCHING,),
    PULL_EXPLORE: (NEAREST, MATCHING, TYPES),
    PULL_PACKING: (NEAREST, MATCHING, PACKING),
}


class PullProblem:
    """A level as the core's backward search sees it: from the solved positions, pulling
    boxes back to the start (or to the gateway, behind the pushes that reach it)."""

    newest_first = True  # ties of the estimate: newest first (see the module docstring)
    # pulls skip only positions where boxes cannot each be pulled to a start square of their own
    preserves_solutions = True

    def __init__(self, problem: SokobanProblem, gateway: int = 0, guides: tuple[str, ...] = PULL_GUIDES[PULL]):
        b = self.board = problem.board
        # the forward moves, plain pushes with deadlock pruning only (no macros)
        self.forward = SokobanProblem(b, None, problem.disabled)
        self.lead_in, self.start = aim(self.forward, gateway)
        starts = self.start[0]
        rows = rows_to(b, starts, pulls=True)
        costs = RowCosts(rows, starts.bit_count(), MATCHING if MATCHING in guides else NEAREST)
        self.near = costs.near
        estimates = {NEAREST: costs.nearest, MATCHING: costs.cost}
        self.first = estimates[guides[0]]
        self.incremental = guides[0] == NEAREST  # a pull changes one box's term of the sum
        later = {g: _of_boxes(estimates[g]) for g in estimates}
        if PACKING in guides[1:]:
            # the start squares filled in their own order: the ones deepest in a cramped start first
            order = LayerGuide(rows, bits(starts), Packing.start_layers_of(b, starts, starts)).cost
            later[PACKING] = lambda state: order(bits(state[0]), state[0])  # the box squares are the keys
        self.backward_guides = [later[g] for g in guides[1:] if g != TYPES]
        self.backward_explore = TYPES in guides
        self._regions: dict = {}  # the player's region of each generated state

    # -- the forward problem ------------------------------------------------------------------
    def initial_state(self):
        return self.start

    def is_goal(self, state) -> bool:
        return state[0] == self.board.goals

    def successors(self, state):
        return self.forward.successors(state)

    # -- read backwards -----------------------------------------------------------------------
    def goal_states(self) -> list:
        """The solved boxes with the player in each part of the free floor."""
        if self.board.impossible:
            return []
        roots = solved_positions(self.board)
        self._regions.update(roots)
        return [state for state, _region in roots]

    def backward_heuristic(self, state) -> float:
        """Pulls (walls only) that bring every box to its nearest start square, summed, or
        with ``matching`` to a start square of its own (INF: no such assignment)."""
        return self.first(bits(state[0]))

    def predecessors(self, state):
        return [(a, s, c) for a, s, c, _h in self.predecessors_with_h(state, self.backward_heuristic(state))]

    def predecessors_with_h(self, state, h):
        """Every pull from ``state`` as ``(push that undoes it, pulled state, 1, h)``."""
        b = self.board
        w, floor, offs, near, region_after = b.width, b.floor, b.offsets, self.near, b.region_after
        estimate = None if self.incremental else self.first
        boxes = state[0]
        free = floor & ~boxes
        regions = self._regions
        reach = regions.pop(state, None)
        if reach is None:
            reach = flood(1 << state[1], free, w)
        if len(regions) >= MAX_REGIONS:
            regions.clear()
        out = []
        for k, o in enumerate(offs):
            # the player on x+o steps back to x+2o, pulling the box on x to x+o
            cand = pullable(boxes, reach, free, o)
            while cand:
                low = cand & -cand
                cand ^= low
                x = low.bit_length() - 1
                stand = x + o
                if near[stand] >= INF:
                    continue  # no start square can be reached from there
                sbit = 1 << stand
                nboxes = boxes ^ low ^ sbit
                if estimate is None:
                    ch = h - near[x] + near[stand]
                else:
                    ch = estimate(bits(nboxes))
                    if ch >= INF:
                        continue  # no start square of its own for some box: dead
                region = region_after(reach, low, sbit, 1 << (stand + o), floor & ~nboxes)
                child = (nboxes, (region & -region).bit_length() - 1)
                regions[child] = region
                out.append((Push(stand, k ^ 1, w), child, 1, ch))
        return out


def _of_boxes(estimate):
    """``estimate`` over a box list, as a guide of states: the board's INF (no start square
    for some box) as the core's infinity, which drops the state."""

    def guide(state) -> float:
        value = estimate(bits(state[0]))
        return value if value < INF else math.inf

    return guide


def solved_positions(board) -> list[tuple[tuple[int, int], int]]:
    """The solved boxes with the player in each part of the free floor: ``(position, part)``
    per part, lowest square first (where the searches backwards start)."""
    parts = regions(board.floor & ~board.goals, board.width)
    return [((board.goals, (part & -part).bit_length() - 1), part) for part in parts]
