"""Deadlock detectors: positions from which no solution exists, found without search.

* dead squares (in `Board`): squares from which no push sequence reaches any goal, found
  once per level by pulling boxes from every goal;
* freeze deadlocks (`frozen_group`): a box that can move along neither axis, because of
  walls, dead squares on both sides, or boxes that are themselves frozen; the whole frozen
  group is dead when one of its boxes is off a goal.  Covers 2x2 blocks and boxes stuck
  against walls;
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
    group = frozen_group(sq, boxes, board.is_wall, board.is_dead, board.width, set())
    if group is None:
        return False
    is_goal = board.is_goal
    return any(not is_goal[b] for b in group)
