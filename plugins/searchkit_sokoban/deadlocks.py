"""Deadlock detectors: positions from which no solution exists, found without search.

* dead squares (in `Board`): squares from which no push sequence reaches any goal, found
  once per level by pulling boxes from every goal;
* freeze deadlocks (`frozen_group`): a box that can move along neither axis, because of
  walls, dead squares on both sides, or boxes that are themselves frozen; the whole frozen
  group is dead when one of its boxes is off a goal.  Covers 2x2 blocks and boxes stuck
  against walls.  A group frozen on goals is dead when, with its boxes as walls, some goal
  or box can no longer reach the other (`sealed_off`);
* bipartite deadlocks live in the matching heuristic (no perfect matching = dead);
* corral deadlocks: see `corral.py`.

Every detector is sound: it only reports positions that no push sequence can solve.
"""

from __future__ import annotations

DETECTORS = ("dead-squares", "freeze", "bipartite", "corral")


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
        raise InputError(f"unknown deadlock detector {', '.join(sorted(unknown))} (known: {', '.join(DETECTORS)}, all)")
    return frozenset(names)


def frozen_group(sq: int, boxes: int, is_wall, is_dead, width: int, ancestors: set) -> list | None:
    """The boxes proving that the box on ``sq`` can never move, or None.

    An axis is blocked by a wall, by an ancestor in the proof (a box already assumed
    fixed), by dead squares on both sides, or by a neighbouring box that is itself frozen
    with this one assumed fixed.  Every box of a returned group can move only after
    another box of the group has moved, so none ever moves.
    """
    ancestors.add(sq)
    proof = [sq]
    for a, b in ((sq - 1, sq + 1), (sq - width, sq + width)):
        if is_wall[a] or is_wall[b] or a in ancestors or b in ancestors:
            continue
        if is_dead[a] and is_dead[b]:
            continue
        sub = None
        if boxes >> a & 1:
            sub = frozen_group(a, boxes, is_wall, is_dead, width, ancestors)
        if sub is None and boxes >> b & 1:
            sub = frozen_group(b, boxes, is_wall, is_dead, width, ancestors)
        if sub is None:
            ancestors.discard(sq)
            return None
        proof.extend(sub)
    ancestors.discard(sq)
    return proof


def freeze_deadlock(sq: int, boxes: int, board) -> bool:
    """True when the box just pushed to ``sq`` is frozen with some frozen box off a goal."""
    fixed = board.axis_fixed[sq]
    if fixed != 3:  # an axis free of walls and dead pairs needs a box beside it to block it
        sideways, upways = board.axis_pairs[sq]
        if not (fixed & 1 or boxes & sideways) or not (fixed & 2 or boxes & upways):
            return False
    group = frozen_group(sq, boxes, board.is_wall, board.is_dead, board.width, set())
    if group is None:
        return False
    is_goal = board.is_goal
    if any(not is_goal[b] for b in group):
        return True
    return sealed_off(sum(1 << b for b in group), boxes, board)


def sealed_off(frozen: int, boxes: int, board) -> bool:
    """True when boxes frozen on goals (``frozen``) leave a goal or a box with no way to meet.

    Frozen boxes never move again: they are walls.  With them as walls, a goal no other box
    can be pushed to, or a box that can reach no free goal, makes the position dead (the
    other boxes are ignored as obstacles, so this only errs towards "alive").  E.g. a box
    frozen at the mouth of a dead-end row of goals seals the goals behind it.
    """
    reach = _goal_reach(frozen, board)
    loose = boxes & ~frozen
    union = 0
    for r in reach:
        if not r & loose:
            return True
        union |= r
    return bool(loose & ~union)


def _goal_reach(frozen: int, board) -> list[int]:
    """For each goal off ``frozen``: the squares a box can be pushed to it from (cached)."""
    cache = board.sealed_cache
    out = cache.get(frozen)
    if out is not None:
        return out
    walls = frozen | ~board.floor
    offs = board.offsets
    out = []
    for g in board.goal_list:
        if frozen >> g & 1:
            continue
        seen = 1 << g
        stack = [g]
        while stack:  # pull the box from g: the player steps back from x+o to x+2o
            x = stack.pop()
            for o in offs:
                n = x + o
                if walls >> n & 1 or walls >> (n + o) & 1 or seen >> n & 1:
                    continue
                seen |= 1 << n
                stack.append(n)
        out.append(seen)
    if len(cache) >= 1 << 16:
        cache.clear()
    cache[frozen] = out
    return out
