"""Deadlock detectors: positions from which no solution exists, found without search.

* dead squares (in `Board`): squares from which no push sequence reaches any goal, found
  once per level by pulling boxes from every goal;
* freeze deadlocks (`frozen_group`, the kernels' rule `freeze_rule`): a box that can move
  along neither axis, because of walls, dead squares on both sides, or boxes that are
  themselves frozen; the position is dead when one of the frozen boxes is off a goal.  Covers 2x2 blocks and boxes stuck
  against walls.  Boxes frozen on goals are walls from then on: a position is dead when,
  with them as walls, some goal or box can no longer reach the other (the player's way
  round to each push counted, `access`), or some goals have fewer boxes that can reach
  them than they number (Hall's condition, `matching`; `sealed_off`) -
  checked after every push, not only one that freezes a box, because a push can also take
  away the last box that could still reach a goal behind them (`FrozenOnGoals`);
* bipartite deadlocks live in the matching heuristic (no perfect matching = dead);
* corral deadlocks: see `corral.py`;
* cluster deadlocks: the boxes round a push, alone, can never all reach goals (`cluster.py`).

Every detector is sound: it only reports positions that no push sequence can solve.

`Pruning` is which of them are on (``--no-deadlock`` turns them off) and what they say
about a position: the search prunes with its parts (`dead_after_push` for each push,
`corral_barrier` for each expanded position, ``bipartite`` for an infinite bound) and the
game's deadlock warning asks `dead_end`, which is those same parts on one position.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .access import access_reach
from .board import INF, around, bits, flood, mask_of, pull_flood
from .board_arrays import arrays_of
from .corral import pi_corral_boxes

DETECTORS = ("dead-squares", "freeze", "bipartite", "corral", "cluster")
DEAD_SQUARES, FREEZE, BIPARTITE, CORRAL, CLUSTER = DETECTORS
FROZEN_MEMO = 1 << 16  # remembered sets of boxes on goals before starting afresh
HALL_MEMO = 1 << 10  # matchings remembered (per set of frozen boxes) before starting afresh


def parse_disabled(spec: str | None) -> frozenset[str]:
    """The detectors named in ``--no-deadlock a,b`` (``all`` for every one)."""
    from searchkit import InputError

    if not spec:
        return frozenset()
    names = {s.strip().lower() for s in spec.split(",") if s.strip()}
    if "all" in names:
        return frozenset(DETECTORS)
    unknown = names - set(DETECTORS)
    if unknown:
        shown = ", ".join(n if n.isprintable() else repr(n) for n in sorted(unknown))  # "\r" would split the line
        raise InputError(f"unknown deadlock detector {shown} (known: {', '.join(DETECTORS)}, all)")
    return frozenset(names)


def frozen_group(sq: int, boxes: int, board) -> list[int]:
    """The boxes that can never move among those joined to the box on ``sq`` through
    neighbouring boxes (``boxes``: every box), ascending; ``sq`` among them exactly when its
    box can never move.  The freeze rule (`freeze_rule.frozen_boxes`), compiled where numba
    runs; O(group size x rounds) and a microsecond or two to hand it the position."""
    arrays = arrays_of(board)
    seen, members, stamp = arrays.seen, arrays.members, arrays.stamp()
    n = arrays.frozen_boxes(sq, arrays.occupancy(boxes), arrays.nbr, arrays.dead, seen, stamp, members)
    return sorted(int(x) for x in members[:n] if seen[x] == stamp)


def freeze_deadlock(sq: int, boxes: int, board, sealed: bool = True) -> bool:
    """True when the box just pushed to ``sq`` is frozen with some frozen box off a goal
    (or, with ``sealed``, frozen on goals that it seals off).  First the cheap test that
    rules most pushes out: each axis blocked by `Board.axis_fixed` or a box beside it.
    `Pruning.dead_after_push` calls it without ``sealed``: its own test of all the boxes
    frozen on goals, this group among them, finds every position this one would."""
    fixed = board.axis_fixed[sq]
    sideways, upways = board.axis_pairs[sq]
    if not ((fixed & 1 or boxes & sideways) and (fixed & 2 or boxes & upways)):
        return False  # an axis free of walls and dead pairs, with no box beside it: it can move
    return frozen_off_goals(sq, boxes, board, sealed)


def frozen_off_goals(sq: int, boxes: int, board, sealed: bool) -> bool:
    """`freeze_deadlock` past its first test (for a caller that made that test itself): a box
    joined to ``sq``'s that can never move is off a goal (`freeze_rule.freeze_dead`, the
    kernels' test), or, with ``sealed``, those boxes, all on goals, seal some off."""
    arrays = arrays_of(board)
    occ = arrays.occupancy(boxes)
    seen, members = arrays.seen, arrays.members
    if not sealed:
        return bool(arrays.freeze_dead(sq, occ, arrays.nbr, arrays.dead, arrays.goal, seen, arrays.meta, members))
    stamp = arrays.stamp()
    n = arrays.frozen_boxes(sq, occ, arrays.nbr, arrays.dead, seen, stamp, members)
    group = [int(x) for x in members[:n] if seen[x] == stamp]
    if not group:
        return False
    is_goal = board.is_goal
    if any(not is_goal[b] for b in group):
        return True
    return sealed_off(mask_of(group), boxes, board)


class FrozenOnGoals:
    """``frozen(boxes)``: the boxes on goals that can never move (`frozen_group`), found with
    only the boxes on goals on the board.  Freezing is monotone - another box only blocks
    more - so the answer holds whatever the boxes off goals, and is remembered by the goals
    filled (``known``, which the push check reads first)."""

    def __init__(self, board):
        self.board = board
        self.known: dict[int, int] = {}

    def __call__(self, boxes: int) -> int:
        board = self.board
        on_goals = boxes & board.goals
        fixed = self.known.get(on_goals)
        if fixed is None:
            if len(self.known) >= FROZEN_MEMO:
                self.known.clear()
            # a box with no box beside it is frozen by walls and dead squares alone (most of
            # them, on a level of a hundred boxes or more); only the others need a proof
            alone = on_goals & ~around(on_goals, board.width)
            fixed = alone & board.fixed_alone
            for x in bits(on_goals & ~alone):
                if not fixed >> x & 1:
                    fixed |= mask_of(frozen_group(x, on_goals, board))
            self.known[on_goals] = fixed
        return fixed


def sealed_off(frozen: int, boxes: int, board) -> bool:
    """True when boxes frozen on goals (``frozen``) leave a goal or a box with no way to meet.

    Frozen boxes never move again: they are walls.  With them as walls, a goal no other box
    can be pushed to (the player walking round to each push, `access_reach`), a box that
    can reach no free goal, or goals with fewer boxes that can reach them than they number
    make the position dead (the other boxes are ignored as obstacles, so this only errs
    towards "alive").  E.g. a box frozen at the mouth of a dead-end row of goals seals the
    goals behind it.
    """
    reach = access_reach(frozen, board)
    loose = boxes & ~frozen
    # as many loose boxes as free goals: dead exactly when no matching gives each goal a box.
    # A matching of boxes frozen alike is repaired, not made afresh: a push moves one box, so
    # all but a goal or two keep theirs (Sasquatch II 50: matching afresh was 68 % of a FESS
    # search's time, its 94 goals few boxes each)
    memo = board.hall_memo
    last = memo.get(frozen)
    if last is not None and len(reach) == loose.bit_count():
        then, owner = last  # the loose boxes then, every one held by a goal
        owner, gone, unmatched = dict(owner), then & ~loose, []
        while gone:  # a box or two: their goals lost them
            bit = gone & -gone
            gone ^= bit
            unmatched.append(owner.pop(bit))
        owner = matching([r & loose for r in reach], owner, unmatched)
    else:
        union = 0
        options, counts = [], []  # per goal the boxes that can reach it, and how many
        for r in reach:
            r &= loose
            if not r:
                return True
            union |= r
            options.append(r)
            counts.append(r.bit_count())
        if loose & ~union:
            return True
        # Hall's condition fails only for some s goals with s - 1 or fewer boxes each: never
        # when the goals with the i fewest boxes have at least i each (most positions)
        goals = len(options)
        if min(counts, default=goals) >= goals or all(c >= i for i, c in enumerate(sorted(counts), 1)):
            return False
        owner = matching(options)
    if owner is None:
        return True
    if len(memo) >= HALL_MEMO:
        memo.clear()
    memo[frozen] = (loose, owner)
    return False


def matching(
    options: list[int], start: dict[int, int] | None = None, unmatched: list[int] | None = None
) -> dict[int, int] | None:
    """A box of its own for each goal, ``options`` per goal the boxes (a mask of squares) that
    can reach it: ``{box bit: goal}``, or None when Hall's condition fails (a box that two
    goals behind one door both need, where each goal alone passes).  Kuhn's augmenting paths
    over masks, a free box before any path, the goals with fewest boxes first, from nothing
    or from ``start`` (taken over): pairs that hold, which leave the goals ``unmatched``
    without a box.  A goal no augmenting path reaches has no box in any matching."""
    owner: dict[int, int] = {} if start is None else start  # a box (its bit) -> the goal holding it
    goals = range(len(options)) if unmatched is None else unmatched
    taken = [sum(owner)]  # the boxes held, one mask (their bits are distinct)

    def augment(goal: int, seen: list[int]) -> bool:
        free = options[goal] & ~taken[0]
        if free:  # a box no goal holds: the path ends here (looked for before any other)
            bit = free & -free
            owner[bit] = goal
            taken[0] |= bit
            return True
        held = options[goal] & ~seen[0]
        while held:
            bit = held & -held
            held ^= bit
            seen[0] |= bit
            if augment(owner[bit], seen):
                owner[bit] = goal
                return True
        return False

    for goal in sorted(goals, key=lambda g: options[g].bit_count()):
        if not augment(goal, [0]):
            return None
    return owner


def goal_reach(frozen: int, board) -> list[int]:
    """For each goal off ``frozen`` (boxes taken for walls): the squares a box can be pushed
    to it from, the player's way round not checked (cached): ten times as quick as
    `access_reach`, for `Features.stranded`, which counts goals rather than proving."""
    cache = board.sealed_cache
    out = cache.get(frozen)
    if out is not None:
        return out
    free, w = board.floor & ~frozen, board.width
    out = [pull_flood(1 << g, free, w) for g in board.goal_list if not frozen >> g & 1]
    if len(cache) >= 1 << 16:
        cache.clear()
    cache[frozen] = out
    return out


class Deadlock(NamedTuple):
    """Why a position is dead: the detector (one of `DETECTORS`, or ``level`` for a level
    that cannot be solved at all) and what it found, in words."""

    detector: str
    reason: str

    def __str__(self) -> str:
        return f"{self.reason} ({self.detector})"


class Pruning:
    """The deadlock detectors a search prunes with, on one board.

    ``disabled``: detectors turned off (`parse_disabled`).  ``corral`` and ``bipartite``
    False turn those off too, for searches that do not use them: moves mode does no corral
    pruning (inward-first pruning is not move-optimal), and a search without a heuristic
    has no bound to find bipartite deadlocks with.  ``bound``: a function of row keys
    (``square * 4 + component``, see `heuristics`), infinite when the boxes cannot all
    reach goals - the search's own heuristic; None: `dead_end` builds the matching bound.
    """

    def __init__(
        self, board, disabled: frozenset = frozenset(), corral: bool = True, bipartite: bool = True, bound=None
    ):
        self.board = board
        self.disabled = frozenset(disabled)
        self.dead_squares = DEAD_SQUARES not in self.disabled
        self.freeze = FREEZE not in self.disabled
        self.bipartite = BIPARTITE not in self.disabled and bipartite
        self.corral = CORRAL not in self.disabled and corral
        self._bound = bound
        self.frozen_on_goals = FrozenOnGoals(board)  # shared with the corral proofs
        self.dead_after_push = self._after_push()
        # the corral proofs (`corral_search.CorralProver`, which builds on the freeze test
        # here), set by the problem when corral pruning is on
        self.prover: Any = None
        # the cluster proofs (`cluster.ClusterProver`, also built on the freeze test), asked
        # after `dead_after_push` with the player's square; set by the problem when asked
        # for (the game's warnings are, the searches are not: see `cluster`)
        self.clusters: Any = None

    def _after_push(self):
        board = self.board
        nearest, axis_fixed, axis_pairs, goals = board.nearest, board.axis_fixed, board.axis_pairs, board.goals
        dead, freeze = self.dead_squares, self.freeze
        frozen_on_goals = self.frozen_on_goals
        known = frozen_on_goals.known

        def dead_after_push(dst: int, side: int, boxes: int) -> str | None:
            """The detector that fires for the box just pushed onto ``dst`` - with the
            player in component ``side`` of the floor without ``dst`` and ``boxes`` the
            boxes after the push - or None.  The search calls this for every push."""
            if dead and nearest[dst][side] >= INF:
                return DEAD_SQUARES  # no goal can be reached from this side of the box
            if not freeze:
                return None
            fixed = axis_fixed[dst]
            sideways, upways = axis_pairs[dst]
            # freeze_deadlock's first test, inline: most pushes end here without a call, and
            # the rest go on past it; a group frozen on goals is left to the test of all the
            # boxes frozen on goals below
            blocked = (fixed & 1 or boxes & sideways) and (fixed & 2 or boxes & upways)
            if blocked and frozen_off_goals(dst, boxes, board, sealed=False):
                return FREEZE
            frozen = known.get(boxes & goals)
            if frozen is None:
                frozen = frozen_on_goals(boxes)
            if frozen and sealed_off(frozen, boxes, board):
                return FREEZE  # the push took away the last box that could reach a goal behind them
            return None

        return dead_after_push

    def corral_barrier(self, boxes: int, reach: int, prove: bool = True) -> int | None:
        """`pi_corral_boxes` when corral pruning is on, else None; 0 when the position is
        dead: a PI-corral without an inward push, or an area a small search proves shut
        (``prove=False``: not asked, for a search that proved the position when it made it)."""
        if not self.corral:
            return None
        barrier = pi_corral_boxes(self.board, boxes, reach, self.dead_squares)
        prover = self.prover if prove else None
        if barrier != 0 and prover is not None and reach != self.board.floor & ~boxes and prover.dead(boxes, reach):
            return 0
        return barrier

    @property
    def bound(self):
        if self._bound is None:
            from .heuristics import MATCHING, RowCosts

            self._bound = RowCosts.of_board(self.board, MATCHING).cost
        return self._bound

    def dead_end(self, boxes: int, player: int, pushed: int | None = None) -> Deadlock | None:
        """Why the position ``boxes`` with the player on square ``player`` is pruned, or None.

        ``pushed``: the square of the box the last move pushed, which is all that the
        search checks after a push (the other boxes were checked when they were pushed);
        None checks every box.  The search (`SokobanProblem.successors_with_h`) prunes the
        position exactly when this says so: in this order, the detectors it asks when it
        generates the position, then the corral deadlock it finds when it expands it.
        """
        board = self.board
        if board.impossible:
            return Deadlock("level", board.impossible)
        for x in bits(boxes) if pushed is None else (pushed,):
            which = self.dead_after_push(x, board.comp_of(x, player), boxes)
            if which is not None:
                return Deadlock(which, _describe(which, x, boxes, board))
        if self.bipartite:
            keys = [x * 4 + board.comp_of(x, player) for x in bits(boxes)]
            if self.bound(keys) >= INF:
                return Deadlock(BIPARTITE, "the boxes can no longer all reach different goals")
        if self.clusters is not None:  # after the others, which name the cause better
            for x in bits(boxes) if pushed is None else (pushed,):
                if self.clusters.dead(x, player, boxes):
                    return Deadlock(CLUSTER, _describe(CLUSTER, x, boxes, board))
        if self.corral:
            reach = flood(1 << player, board.floor & ~boxes, board.width)
            if self.corral_barrier(boxes, reach) == 0:
                return Deadlock(CORRAL, "the boxes wall off an area that no push can open")
        return None


def _describe(detector: str, x: int, boxes: int, board) -> str:
    r, c = divmod(x, board.width)
    where = f"the box at row {r + 1}, column {c + 1}"
    if detector == FREEZE:
        group = frozen_group(x, boxes, board)
        if x not in group:  # it can move, but boxes frozen on goals wall a goal or a box off
            return f"boxes frozen on goals seal a goal or a box off (after the push of {where})"
        if all(board.is_goal[b] for b in group):
            return f"boxes frozen on goals seal a goal or a box off ({where} can never move)"
        return f"boxes are frozen in place with one off its goal ({where} can never move)"
    if detector == CLUSTER:
        return f"{where} and the boxes near it can never all reach goals, even alone on the board"
    if board.live >> x & 1:
        return f"{where} can reach no goal from the side the player is on"
    return f"{where} is on a square from which no push reaches a goal"
