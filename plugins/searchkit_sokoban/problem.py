"""Sokoban as a push-level search problem.

A state is ``(boxes, player)``: ``boxes`` a bit set of box squares and ``player`` the
lowest square of the player's region (pushes mode), so walking is not a search step.  In
``moves`` mode the player's square is exact (where the last push left it) and a push costs
the walk to it plus one.  An action is ``(box_square, direction_index)``, enough for the
LURD writer to replay it with walks found by breadth-first search.

A push follows the rule of `rules.pushable` (all boxes at once, from the player's whole
region); what is pruned is what `deadlocks.Pruning` says, the same detectors the game's
deadlock warning asks.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, cast

from searchkit import InputError

from .board import INF, Board, bits, flood
from .cluster import ClusterProver
from .corral_search import CorralProver
from .deadlocks import CLUSTER, Pruning
from .goalroom import GoalRoom, Route
from .heuristics import MATCHING, NEAREST, RowCosts
from .packing import Packing
from .rules import Push, free_squares, pushable

__all__ = ["Push", "SokobanProblem"]

MAX_REGIONS = 1 << 19  # remembered child regions before starting afresh (~50 MB at most)


class SokobanProblem:
    """Push successors with deadlock pruning and an optional incremental heuristic.

    ``clusters`` adds the cluster deadlock proofs (`cluster`) to the pruning: the game's
    warnings ask for them; the searches do not, since they cost more time than they save."""

    variant: Callable[[str], Any]  # set by SokobanDomain.make_problem: the level under another heuristic
    member_search: Callable[..., Any]  # set there too: FESS for the portfolio (search:fess)
    variant_names: tuple[str, ...]  # the names those two take
    search_names: tuple[str, ...]

    def __init__(
        self,
        board: Board,
        heuristic: str | None = MATCHING,
        disabled: frozenset = frozenset(),
        optimize: str = "pushes",
        packing: bool = False,
        tunnels: bool = False,
        goalroom: bool = False,
        clusters: bool = False,
    ):
        self.board = board
        # the inadmissible goal-room guide replaces the heuristic on levels with a packing order
        self.packing = Packing(board) if packing and heuristic is not None else None
        if self.packing is not None and not self.packing.ordered:
            self.packing = None
        self.h_name = heuristic
        self.disabled = disabled
        self.moves = optimize == "moves"
        # tunnel macros (pushes mode): see `_through_tunnel`
        self.use_tunnels = tunnels and not self.moves
        # goal-room macros (pushes mode, guided searches): see `goalroom`
        self.room = None
        if goalroom and not self.moves and heuristic is not None and not board.impossible:
            room = GoalRoom(board)
            self.room = room if room.active else None
        rows = RowCosts.of_board(board, heuristic) if heuristic in (MATCHING, NEAREST) else None
        self._costs = rows.cost if rows is not None else None
        self._near = rows.near if rows is not None else None
        # inward-first corral pruning keeps push-optimal solutions, not move-optimal ones;
        # bipartite deadlocks are an infinite heuristic (the packing guide is infinite
        # exactly when nearest-goal is, its bound here)
        self.pruning = Pruning(board, disabled, corral=not self.moves, bipartite=rows is not None, bound=self._costs)
        if self.pruning.corral:
            self.pruning.prover = CorralProver(board, self.pruning.dead_squares, self.pruning.frozen_on_goals)
        if clusters and CLUSTER not in self.pruning.disabled:
            self.pruning.clusters = ClusterProver(board)  # off by default: see `cluster`
        if heuristic is None:
            # the engines see "no heuristic" (mypy cannot express an instance switching a method off)
            self.heuristic = None  # type: ignore[method-assign, assignment]
            self.successors_with_h = None  # type: ignore[method-assign, assignment]
        self._start = (board.start_boxes, self._normal(board.start_boxes, board.player_start))
        # the player's region of each generated child (pushes mode): expanding it needs no flood
        self._regions: dict = {}
        # ``admit(src, dst, boxes_after) -> bool``: a caller's own restriction of the pushes,
        # asked before any other work on a child (the optimizer's vicinity, `optimizer`)
        self.admit: Callable[[int, int, int], bool] | None = None
        # what the macros cost the guarantees (`searchkit.problem`): tunnel and goal-room
        # macros skip positions an optimal solution may pass through, and goal-room plans
        # also prune positions, which may in principle cut every solution off
        self.preserves_optimality = not (self.use_tunnels or self.room is not None)
        self.preserves_solutions = self.room is None
        self.optimality_lost_by = "tunnel and goal-room macros; --optimal turns them off"

    # -- Problem protocol ---------------------------------------------------------------
    def initial_state(self):
        return self._start

    def is_goal(self, state) -> bool:
        return state[0] == self.board.goals

    def successors(self, state):
        return [(a, s, c) for a, s, c, _h in self._expand(state, False)]

    def successors_with_h(self, state, h):
        return self._expand(state, True)

    def heuristic(self, state) -> float:
        boxes, player = state
        if self.board.impossible:
            return float("inf")
        b = self.board
        keys = [x * 4 + b.comp_of(x, player) for x in bits(boxes)]
        h = self._cost(keys, boxes)
        return float("inf") if h >= INF else h

    def _cost(self, keys: list[int], boxes: int) -> int:
        """The heuristic of ``boxes`` from their keys: the packing guide's, else the row costs'."""
        if self.packing is not None:
            return self.packing.cost(keys, boxes)
        assert self._costs is not None  # a heuristic's name comes with its row costs (RowCosts)
        return self._costs(keys)

    def compiled_rules(self):  # -> searchkit.CompiledRules | None
        """Sokoban's compiled push rules (`push_rules`, built by `compiled_rules.push_rules_of`)
        when this problem's own successors and heuristic are theirs (`compiled_rules.matches`:
        the matching bound, neither freeze nor corral pruning, no macros) and numba is here,
        else None: the core's ``astar`` and ``greedy`` then run compiled, with the same answers
        and expansions as in Python.  Built once."""
        if "_compiled_rules" not in vars(self):
            from searchkit import numba_available

            from .compiled_rules import matches, push_rules_of

            rules = None
            if numba_available() and matches(self):
                try:
                    rules = push_rules_of(self)
                except InputError:
                    rules = None  # a level the rules cannot take: the Python engines
            self._compiled_rules = rules
        return self._compiled_rules

    def describe(self, state) -> str:
        return "\n".join(self.board.render(state[0], state[1]))

    def use_foreign_heuristic(self, fn) -> None:
        """Order the search by another plugin's ``state -> estimate`` (deadlocks still pruned)."""
        plain = self.successors
        self.heuristic = fn  # type: ignore[method-assign]  # this instance's own, as in __init__
        self.pruning.bipartite = False  # the estimates come from ``successors``: no bound prunes
        self.successors_with_h = lambda state, _h: [(a, s, c, fn(s)) for a, s, c in plain(state)]  # type: ignore[method-assign]

    # -- helpers ------------------------------------------------------------------------------
    def _normal(self, boxes: int, player: int) -> int:
        if self.moves:
            return player
        b = self.board
        region = flood(1 << player, b.floor & ~boxes, b.width)
        return (region & -region).bit_length() - 1

    def region(self, state) -> int:
        """The squares the player can reach in ``state``."""
        b = self.board
        return flood(1 << state[1], b.floor & ~state[0], b.width)

    def _walk_lengths(self, boxes: int, player: int) -> dict[int, int]:
        b = self.board
        free = b.floor & ~boxes
        dist = {player: 0}
        queue = deque((player,))
        offs = b.offsets
        while queue:
            p = queue.popleft()
            nd = dist[p] + 1
            for o in offs:
                n = p + o
                if free >> n & 1 and n not in dist:
                    dist[n] = nd
                    queue.append(n)
        return dist

    def _through_tunnel(self, dst: int, k: int, others: int, target: int) -> int:
        """Pushes in a tunnel macro for a box just pushed from a tunnel square onto ``dst``.

        When the player stands in a tunnel (walls on both sides across the push) behind a
        box that is also in one and off goal, the box is pushed on while it stays in the
        tunnel off goal and the next square is free, alive for this side and not frozen;
        the states in between are never stored.  Returns the pushes made, counting the
        first one (1 = no macro).
        """
        board = self.board
        o = board.offsets[k]
        axis = board.tunnel[k >> 1]
        back = k ^ 1
        side_comp, is_goal = board.side_comp, board.is_goal
        dead_after_push = self.pruning.dead_after_push
        count, cur = 1, dst
        while axis >> cur & 1 and not is_goal[cur]:
            nxt = cur + o
            if not pushable(1 << cur, 1 << (cur - o), target, o):  # target: free squares only
                break
            if dead_after_push(nxt, side_comp[nxt][back], others | 1 << nxt) is not None:
                break
            cur = nxt
            count += 1
        return count

    def _expand(self, state, want_h: bool) -> list:
        """Children ``(action, child, cost, h)`` of ``state`` that no detector prunes."""
        board = self.board
        if board.impossible:
            return []
        boxes, player = state
        w = board.width
        floor = board.floor
        free = free_squares(board, boxes)
        regions = self._regions
        reach = regions.pop(state, None)
        if reach is None:
            reach = flood(1 << player, free, w)
        if len(regions) >= MAX_REGIONS:
            regions.clear()
        pruning = self.pruning
        target = free & board.live if pruning.dead_squares else free
        movable = boxes
        room = self.room
        entrance = -1
        settled = False
        if room is not None:
            entrance = room.entrance
            # boxes the plan has placed stay where they are while the player is out: the
            # next planned entry moves them (so corral pruning, which may pick them, is off)
            settled = bool(reach & ~room.inside) and boxes & room.inside in room.settled
            if settled:
                movable = boxes & ~room.inside
        if pruning.corral and not settled:
            barrier = pruning.corral_barrier(boxes, reach)
            if barrier is not None:
                if not barrier:
                    return []  # a PI-corral nobody can enter
                movable = barrier
        side_comp, multi, compidx = board.side_comp, board.multi, board.compidx
        dead_after_push = pruning.dead_after_push
        clusters = pruning.clusters
        admit = self.admit
        cost_of_keys = self._costs if want_h else None
        prune = pruning.bipartite
        packing = self.packing
        region_after = board.region_after
        box_list: Sequence[int] = bits(boxes) if want_h else ()  # read only when want_h
        # nearest-goal by table deltas: boxes off cut squares keep their cost whatever the push
        quick = want_h and packing is None and self.h_name == NEAREST
        if quick:
            near_of = cast("list[int]", self._near)  # nearest-goal's table (RowCosts) comes with its name
            still = 0
            cut_boxes = []
            for x in box_list:
                if multi[x]:
                    cut_boxes.append(x)
                else:
                    still += near_of[x * 4]
        walks = self._walk_lengths(boxes, player) if self.moves else None
        tunnels, tunnel, is_goal = self.use_tunnels, board.tunnel, board.is_goal
        out = []
        if room is not None and room.prefix and boxes == board.start_boxes and room.plays(room.prefix, boxes, player):
            routed = self._routed(room.prefix, boxes, want_h)
            if routed is not None:
                out.append(routed)  # the room's own boxes first, as planned (one more child)
        for k, o in enumerate(board.offsets):
            cand = pushable(movable, reach, target, o)
            back = k ^ 1
            while cand:
                low = cand & -cand
                cand ^= low
                src = low.bit_length() - 1
                dst = src + o
                side = side_comp[dst][back]
                nboxes = boxes ^ low ^ (1 << dst)
                if admit is not None and not admit(src, dst, nboxes):
                    continue
                if dead_after_push(dst, side, nboxes) is not None:
                    continue
                if dst == entrance and room is not None:  # entrance is -1 without a room
                    steps = room.route(boxes, src, player)
                    if steps is not None:
                        routed = self._routed(steps, boxes, want_h)
                        if routed is not None:
                            out.append(routed)  # replaces the push onto the entrance
                        continue
                count = 1
                if tunnels and tunnel[k >> 1] >> src & 1 and tunnel[k >> 1] >> dst & 1 and not is_goal[dst]:
                    count = self._through_tunnel(dst, k, boxes ^ low, target)
                    if count > 1:
                        dst += (count - 1) * o
                        nboxes = boxes ^ low ^ (1 << dst)
                        side = side_comp[dst][back]
                if clusters is not None and clusters.dead(dst, dst - o, nboxes):
                    continue
                h = 0
                if quick:
                    h = still + near_of[dst * 4 + side]
                    if not multi[src]:
                        h -= near_of[src * 4]
                    for x in cut_boxes:
                        if x != src:
                            h += near_of[x * 4 + compidx[x][src]]  # type: ignore[index]  # x is a cut square
                    if h >= INF:
                        if prune:
                            continue
                        h = INF
                elif cost_of_keys is not None:
                    keys = []
                    for x in box_list:
                        if x == src:
                            keys.append(dst * 4 + side)
                        elif multi[x]:
                            keys.append(x * 4 + compidx[x][src])  # type: ignore[index]  # x is a cut square
                        else:
                            keys.append(x * 4)
                    h = cost_of_keys(keys) if packing is None else packing.cost(keys, nboxes)
                    if h >= INF:
                        if prune:
                            continue
                        h = INF
                if walks is not None:  # moves mode
                    child = (nboxes, src)
                    cost = walks[src - o] + 1
                elif count > 1:
                    region = flood(1 << (dst - o), floor & ~nboxes, w)
                    child = (nboxes, (region & -region).bit_length() - 1)
                    regions[child] = region
                    cost = count
                else:
                    region = region_after(reach, low, 1 << dst, low, floor & ~nboxes)
                    child = (nboxes, (region & -region).bit_length() - 1)
                    regions[child] = region
                    cost = 1
                out.append((Push(src, k, w, count), child, cost, h))
        return out

    def _routed(self, steps: tuple, boxes: int, want_h: bool):
        """The child of a goal-room macro (see `goalroom`), or None when it is dead."""
        board = self.board
        offs = board.offsets
        for sq, k in steps:
            boxes ^= (1 << sq) | (1 << (sq + offs[k]))
        child = (boxes, self._normal(boxes, steps[-1][0]))
        h = 0
        if want_h:
            keys = [x * 4 + board.comp_of(x, child[1]) for x in bits(boxes)]
            h = self._cost(keys, boxes)
            if h >= INF:
                if self.pruning.bipartite:
                    return None
                h = INF
        return Route(steps, board.width), child, len(steps), h
