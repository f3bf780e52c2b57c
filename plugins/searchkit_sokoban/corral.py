"""PI-corral pruning: when a closed-off area must be entered, push into it first.

A corral is a group of unreachable floor areas together with its *barrier*: every box
next to one of its areas (areas that share a barrier box form one corral).  It is a
PI-corral when

* I: every push of a barrier box that the player could make goes into the corral - a push
  out of it is impossible now and stays impossible until a barrier box moves (the square
  beyond is a wall, a dead square, a barrier box, or the pusher's square is a barrier box
  or inside the corral);
* P: every push of a barrier box into the corral that may ever be made first can be made
  now: the pusher's square is reachable, a wall, inside the corral or a barrier box.

If the corral is not solved (a goal inside is empty or a barrier box is off goal) every
solution pushes some barrier box before leaving this state for good, and its first such
push is one of the current inward pushes.  That push commutes with the pushes made before
it (they never touch the corral), so searching only the inward pushes loses no solution
and no push-optimal solution.  A PI-corral with no inward push is a deadlock.
"""

from __future__ import annotations

from .board import around, flood


def pi_corral_boxes(board, boxes: int, reach: int, use_dead: bool) -> int | None:
    """Barrier boxes of the PI-corral with the fewest inward pushes, or None.

    Returns 0 when a PI-corral has no inward push at all (the position is dead).
    """
    floor, w = board.floor, board.width
    unreach = floor & ~boxes & ~reach
    if not unreach:
        return None
    groups: list[list[int]] = []  # [area mask, barrier mask]
    rest = unreach
    while rest:
        area = flood(rest & -rest, unreach, w)
        rest &= ~area
        barrier = around(area, w) & boxes
        merged = [area, barrier]
        kept: list[list[int]] = []
        changed = True
        while changed:
            changed = False
            kept = []
            for g in groups:
                if g[1] & merged[1]:
                    merged[0] |= g[0]
                    merged[1] |= g[1]
                    changed = True
                else:
                    kept.append(g)
            groups = kept
        groups.append(merged)
    goals = board.goals
    target = board.live if use_dead else floor
    best, best_pushes = None, None
    for area, barrier in groups:
        if not (area & goals) and not (barrier & ~goals):
            continue  # solved: nothing forces the player in
        others = boxes & ~barrier
        pushes = 0
        for o in board.offsets:
            # a box on x is pushed to x+o from x-o: shifts by o move masks the push's way
            if o > 0:
                movable = barrier & (target >> o) & (floor << o)
                dst = (movable & (reach << o)) << o
                blocked = ((movable & (others << o)) << o) & ~barrier
            else:
                movable = barrier & (target << -o) & (floor >> -o)
                dst = (movable & (reach >> -o)) >> -o
                blocked = ((movable & (others >> -o)) >> -o) & ~barrier
            if dst & ~area & ~barrier:
                break  # I fails: a push out of the corral is possible
            if blocked:
                break  # P/I fail: a box outside the barrier may free a push later
            pushes += (dst & area).bit_count()
        else:
            if best_pushes is None or pushes < best_pushes:
                best, best_pushes = barrier, pushes
                if pushes == 0:
                    return 0
    return best
