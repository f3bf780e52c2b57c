"""FESS advisors: each proposes at most one promising macro move from a position.

The FESS search (`fess`) gives the advisors' moves weight 0 and every other move weight 1,
so a line of advised moves is followed as far as it goes before the search widens.  An
advisor looks at what a move does to the features (`features.Cell`) and, among the moves
that improve its feature, picks the one the heuristic ranks best (lowest ``h``):

* packing: more boxes packed in order;
* connectivity: fewer floor regions (the player gets somewhere new);
* out of plan: fewer boxes parked on goals whose turn has not come;
* room connectivity: fewer passages between rooms blocked by a box;
* heuristic: the move with the lowest ``h`` at all (the greedy search's choice).
"""

from __future__ import annotations

from collections.abc import Sequence

from .features import Cell


def advised(parent: Cell, children: Sequence[tuple[Cell, float]]) -> set[int]:
    """Indexes of ``children`` (``(cell, h)`` of each move's result) that some advisor proposes."""
    best: dict[str, tuple[float, int]] = {}

    def offer(name: str, key: float, i: int) -> None:
        if name not in best or key < best[name][0]:
            best[name] = (key, i)

    for i, (cell, h) in enumerate(children):
        if cell.packed > parent.packed:
            offer("packing", -cell.packed * 1e9 + h, i)
        if cell.connectivity < parent.connectivity:
            offer("connectivity", cell.connectivity * 1e9 + h, i)
        if cell.out_of_plan < parent.out_of_plan:
            offer("out-of-plan", cell.out_of_plan * 1e9 + h, i)
        if cell.room_connectivity < parent.room_connectivity:
            offer("room-connectivity", cell.room_connectivity * 1e9 + h, i)
        offer("heuristic", h, i)
    return {i for _key, i in best.values()}
