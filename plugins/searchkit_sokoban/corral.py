"""PI-corral pruning for the Python searches: when a closed-off area must be entered, push
into it first.

The rule (what a PI-corral is, why searching only its inward pushes loses no solution and
no push-optimal one, why one with no inward push is dead) is written once, for the compiled
push search and the Python searches alike, in `corral_rule`; here a position held as masks
is handed to it as arrays and its answer returned as a mask of barrier boxes.
"""

from __future__ import annotations

from .board import bits, mask_of
from .board_arrays import arrays_of
from .corral_rule import pi_corral


def pi_corral_boxes(board, boxes: int, reach: int, use_dead: bool) -> int | None:
    """Barrier boxes of the PI-corral with the fewest inward pushes, or None (``reach``: the
    player's squares; ``use_dead``: a push onto a dead square is no push).

    Returns 0 when a PI-corral has no inward push at all (the position is dead).
    """
    if not board.floor & ~boxes & ~reach:
        return None  # no unreachable floor: no corral
    arrays = arrays_of(board)
    occ = arrays.occupancy(boxes)
    boxlist = arrays.squares(boxes, occ)
    group = arrays.group
    dead = arrays.dead if use_dead else arrays.no_dead
    root = pi_corral(
        occ, arrays.occupancy(reach), 1, arrays.nbr, arrays.floor, dead, arrays.goal,
        boxlist, len(boxlist), arrays.area, arrays.uf, group, arrays.spare,
    )  # fmt: skip
    if root == -1:
        return None
    if root == -2:
        return 0
    return mask_of(b for b in bits(boxes) if group[b] == root)
