"""How the plugin's own stepped searches answer: the positions along a list of pushes, and the
`Result` of a search stepped to its end.

Why a module of its own: the FESS searches (`fess`, `fess_pull`, `aim`) and the compiled
one (`compiled_search`) all need them, and the FESS searches use the compiled one (their
endgame, `endgame`), so neither may hold them for the other.
"""

from __future__ import annotations

from .board import flood
from .problem import Push

State = tuple[int, int]


def positions_along(board, boxes: int, pushes: list[Push], pulled: bool = False) -> list[State]:
    """The position after each of ``pushes`` in turn from ``boxes``: the player where the
    box was (it followed the box) - or, ``pulled``, the pushes undone in that order, each a
    pull: the box back on the push's square, the player a step behind it."""
    w, floor, offsets = board.width, board.floor, board.offsets
    out: list[State] = []
    for p in pushes:
        o = offsets[p.direction]
        boxes ^= (1 << p.square) | (1 << (p.square + o))
        region = flood(1 << (p.square - o if pulled else p.square), floor & ~boxes, w)
        out.append((boxes, (region & -region).bit_length() - 1))
    return out
