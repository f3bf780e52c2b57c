"""PI-corral pruning for the Python searches: when a closed-off area must be entered, push
into it first.

The rule (what a PI-corral is, why searching only its inward pushes loses no solution and
no push-optimal one, why one with no inward push is dead) is written once, for the compiled
push search and the Python searches alike, in `corral_rule`; here a position held as masks
is handed to it as arrays and its answer returned as a mask of barrier boxes.
"""

from __future__ import annotations

from .board import around, bits, mask_of, regions
from .board_arrays import arrays_of


def pi_corral_boxes(board, boxes: int, reach: int, use_dead: bool) -> int | None:
    """Barrier boxes of the PI-corral with the fewest inward pushes, or None (``reach``: the
    player's squares; ``use_dead``: a push onto a dead square is no push).

    Returns 0 when a PI-corral has no inward push at all (the position is dead).
    """
    unreached = board.floor & ~boxes & ~reach
    if not unreached:
        return None  # no unreachable floor: no corral
    arrays = arrays_of(board)
    occ = arrays.occupancy(boxes)
    dead = arrays.dead if use_dead else arrays.no_dead
    if arrays.plain:
        # the areas by bit-parallel floods, and only the boxes beside them listed (the others
        # in no corral: ``group`` -1): plain Python a square at a time costs several times more
        width, size = board.width, arrays.size
        listed = around(unreached, width) & boxes
        boxlist, area, group, uf, spare = bits(listed), [-1] * size, [-1] * size, arrays.uf, arrays.spare
        areas = regions(unreached, width)
        beside, goals, n = around(listed, width), board.goals, len(areas)
        for a, squares in enumerate(areas):
            for x in bits(squares & beside):
                area[x] = a
            uf[a], spare[n + a] = a, 2 if squares & goals else 0
        root = arrays.corral_of(
            occ, arrays.occupancy(reach), 1, arrays.nbr, dead, arrays.goal,
            boxlist, len(boxlist), n, area, uf, group, spare,
        )  # fmt: skip
    else:
        boxlist, group = arrays.squares(boxes, occ), arrays.group
        root = arrays.pi_corral(
            occ, arrays.occupancy(reach), 1, arrays.nbr, arrays.floor, dead, arrays.goal,
            boxlist, len(boxlist), arrays.area, arrays.uf, group, arrays.spare,
        )  # fmt: skip
    if root == -1:
        return None
    if root == -2:
        return 0
    return mask_of(int(b) for b in boxlist if group[b] == root)
