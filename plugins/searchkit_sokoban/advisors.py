"""FESS advisors: each proposes at most one promising macro move from a position.

The FESS search (`fess`) gives the advisors' moves weight 0 and every other move weight 1,
so a line of advised moves is followed as far as it goes before the search widens.  An
advisor looks at what a move does to the features and, among the moves that improve its
feature, picks the one ranked best by all of them (`features.Score`), as the FESS paper's
program (Festival) does:

* packing: more boxes packed in order;
* connectivity: fewer floor regions (the player gets somewhere new);
* out of plan: fewer boxes parked on goals whose turn has not come;
* room connectivity: fewer passages between rooms blocked by a box;
* hotspots: fewer boxes standing in another box's way to the goals (`hotspots`);
* explorer: a move that can be undone and lets the player push a box it could not before;
* opener, when no move packs a box: the box nearest the goals whose turn has come, moved
  no nearer to them (clearing the way for the next packing moves);
* heuristic: the move with the lowest ``h`` at all (the greedy search's choice).
"""

from __future__ import annotations

from collections.abc import Sequence

from searchkit import feature_advice

from .board import Board
from .features import Score
from .rules import pushable

Advice = tuple[Score, bool, tuple[int, int]]  # per child, what `advised` weighs
ADVISED_FIELDS = 5  # the fields of `Score` with an advisor each (`searchkit.feature_advice`): all but h


def advised(parent: Score, children: Sequence[Advice]) -> set[int]:
    """Indexes of ``children`` that some advisor proposes: per move its result's score,
    whether it `Explorer.opens`, and the moved box's walk from the next goals before and
    after it (`Opener`).  No advisor proposes a move that unpacks a box.  The advisors of
    packing, connectivity, room connectivity, out of plan and hotspots are the core's, one
    per field of `Score` (`searchkit.feature_advice`); explorer, heuristic and opener are
    Sokoban's."""
    best: dict[str, tuple[tuple, int]] = {}

    def offer(name: str, rank: tuple, i: int) -> None:
        if name not in best or rank < best[name][0]:
            best[name] = (rank, i)

    kept = [i for i, (rank, _opens, _away) in enumerate(children) if rank.unpacked <= parent.unpacked]
    scores = [rank for rank, _opens, _away in children]
    chosen = feature_advice(parent, scores, ADVISED_FIELDS, kept)
    packs = any(scores[i].unpacked < parent.unpacked for i in kept)
    for i in kept:
        rank, opens, _away = children[i]
        if opens:
            offer("explorer", rank, i)
        offer("heuristic", (rank.h,), i)
    if not packs:
        for i, (rank, _opens, (before, after)) in enumerate(children):
            if (
                after >= before
                and rank.unpacked <= parent.unpacked
                and rank.connectivity <= parent.connectivity
                and rank.room_connectivity <= parent.room_connectivity
            ):
                offer("opener", (before, -after), i)
    return chosen | {i for _rank, i in best.values()}


class Explorer:
    """The explorer's test: a move that can be undone and lets the player reach a side of
    another box from which it can push it, a side it could not reach before."""

    def __init__(self, board: Board):
        self.board = board
        self._back: dict[int, int] = {}  # square -> the squares a lone box can be pushed to it from

    def opens(self, boxes: int, reach: int, child: int, region: int, src: int, dst: int) -> bool:
        """``boxes``/``reach``: the position and the player's squares before the move of a
        box from ``src`` to ``dst``; ``child``/``region`` after it."""
        new = region & ~reach
        if not new:
            return False
        still = boxes & child
        free = self.board.floor & ~child
        if not any(pushable(still, new, free, o) for o in self.board.offsets):
            return False
        back = self._back.get(src)
        if back is None:
            back = self._back[src] = self.board.reaching(1 << src)
        return bool(back >> dst & 1)


class Opener:
    """The walking distance of every square from the goals whose turn has come (remembered
    per set of such goals), for the opener."""

    def __init__(self, board: Board):
        self.board = board
        self._maps: dict[int, dict[int, int]] = {}

    def distances(self, targets: int) -> dict[int, int]:
        """Per square the steps from the nearest of ``targets`` over the floor (none: no way)."""
        known = self._maps.get(targets)
        if known is None:
            known = self._maps[targets] = self.board.walks_from(targets)
        return known
