"""Reverse search: pull the boxes from the solved position back to the start.

Forward searches fail where the goals must be filled in a strict order (rooms, dead-end
rows of goals): the heuristic heads for the nearest goal and seals the rest.  Backwards
the order comes for free - a box is pulled off the goal that is free to leave - and the
difficulty moves to the start, where boxes must reach their exact squares.  The two fail
on different levels (greedy nearest-goal forwards misses Microban 144, 146 and 153,
backwards 93 and 153), so `alternate` runs this as one of its searches.

A state is the forward one, ``(boxes, lowest square of the player's region)``; a step
pulls a box from ``x`` to ``x + o`` while the player walks from ``x + o`` to ``x + 2o``.
The search is greedy on the sum over boxes of the pull distance to the nearest start
square (walls only), starting from the solved boxes with the player in each part of the
free floor, ending where the boxes stand on their start squares and the player's region
holds its start.  A box on a square no start square can be pulled to is dead.  Read
from the end, each pull is a push (the box from ``x + o`` back to ``x``), so the path
comes out in forward order: pushes mode only (the states hold regions, not squares).

With ``gateway`` (a budget of positions, as `alternate` runs it) the search aims at the
deepest position near the start that every solution passes through (`gateway.py`)
instead of the start, and the pushes found forwards to it lead the path: a cramped
start, where the pulls put the last boxes back in the wrong order, is left to a small
forward search.  Ties of the estimate go to the newest position (depth first along a
plateau): on Microban 153, aimed at its gateway, that takes 80 thousand expansions where
oldest-first takes 430 thousand (Boxworld 24 goes the other way: 130 against 76
thousand, still solved in 10 s).
"""

from __future__ import annotations

from collections import deque
from heapq import heappop, heappush

from .board import INF, bits, flood
from .problem import Push


class PullSearch:
    """A steppable greedy pull search; ``goal`` is the start (or gateway) position once found."""

    def __init__(self, problem, gateway: int = 0):
        self.problem = problem
        b = self.board = problem.board
        # ``gateway`` > 0: aim at the deepest position every solution passes through, found
        # forwards among that many positions (`gateway.py`); its pushes lead the path
        self.prefix = None
        if gateway > 0 and not b.impossible:
            from .gateway import find_gateway
            from .problem import SokobanProblem

            self.prefix = find_gateway(SokobanProblem(b, None, problem.disabled), gateway)
        self.target = self.prefix[1][-1] if self.prefix else (b.start_boxes, b.player_start)
        self.near = _pull_distances(b, self.target[0])
        self.parent: dict = {}  # state -> (next state towards the solved position, push, 1)
        self.open: list = []
        self.seq = 0
        self.spent = 0.0
        self.expanded = self.generated = self.duplicates = 0
        self.goal = None
        if b.impossible:
            return
        h = sum(self.near[x] for x in bits(b.goals))
        free = b.floor & ~b.goals
        rest = free
        while rest and h < INF:
            region = flood(rest & -rest, free, b.width)
            rest &= ~region
            state = (b.goals, (region & -region).bit_length() - 1)
            self.parent[state] = None
            if self._done(b.goals, region):
                self.goal = state
                return
            heappush(self.open, (h, -self.seq, 0, state, region))
            self.seq += 1

    def _done(self, boxes: int, region: int) -> bool:
        target_boxes, player = self.target
        return boxes == target_boxes and bool(region >> player & 1)

    def step(self, count: int) -> bool:
        """Expand up to ``count`` states; True when the search ends (start found or exhausted)."""
        b = self.board
        w, floor, offs, near = b.width, b.floor, b.offsets, self.near
        open_, parent = self.open, self.parent
        for _ in range(count):
            if not open_:
                return True
            h, _newest, g, state, reach = heappop(open_)
            self.expanded += 1
            boxes = state[0]
            free = floor & ~boxes
            for k, o in enumerate(offs):
                # the player on x+o steps back to x+2o, pulling the box on x to x+o
                if o > 0:
                    cand = boxes & (reach >> o) & (free >> (2 * o))
                else:
                    cand = boxes & (reach << -o) & (free << (-2 * o))
                while cand:
                    low = cand & -cand
                    cand ^= low
                    x = low.bit_length() - 1
                    stand = x + o
                    if near[stand] >= INF:
                        continue  # no start square can be reached from there
                    nboxes = boxes ^ low ^ (1 << stand)
                    region = flood(1 << (stand + o), floor & ~nboxes, w)
                    child = (nboxes, (region & -region).bit_length() - 1)
                    self.generated += 1
                    if child in parent:
                        self.duplicates += 1
                        continue
                    parent[child] = (state, Push(stand, k ^ 1, w), 1)  # forwards: push stand -> x
                    if self._done(nboxes, region):
                        self.goal = child
                        return True
                    self.seq += 1
                    heappush(open_, (h - near[x] + near[stand], -self.seq, g + 1, child, region))
        return False

    def path(self) -> tuple[list, list, float]:
        """The forward pushes from the start to the solved position, and their states."""
        actions, states = [], [self.goal]
        link = self.parent[self.goal]
        while link is not None:
            nxt, action, _cost = link
            actions.append(action)
            states.append(nxt)
            link = self.parent[nxt]
        if self.prefix:
            actions = self.prefix[0] + actions
            states = self.prefix[1][:-1] + states
        return actions, states, len(actions)


def _pull_distances(board, targets: int) -> list[int]:
    """Per square: the fewest pulls (walls only) that bring a box there to a square of ``targets``."""
    offs, floor = board.offsets, board.floor
    near = [INF] * board.size
    for t in bits(targets):
        # pushes from t reach x in d steps exactly when pulls from x reach t in d
        dist = {t: 0}
        queue = deque((t,))
        while queue:
            x = queue.popleft()
            d = dist[x] + 1
            for o in offs:
                n = x + o
                if n not in dist and floor >> n & 1 and floor >> (x - o) & 1:
                    dist[n] = d
                    queue.append(n)
        for x, d in dist.items():
            if d < near[x]:
                near[x] = d
    return near
