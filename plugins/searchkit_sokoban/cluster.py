"""Cluster deadlocks: the boxes round a push, alone on the board, can never all reach goals.

Why: the freeze, corral and diagonal tests each know one shape of deadlock; the levels that
defeat the search are full of others - three or four boxes in a room's mouth that can be
pushed about but never out, a pair that can only leave by a square a third one blocks.  A
probe on the forward greedy search showed how many: of the positions it expands on Sasquatch
II 26, three in four are dead by four to six boxes near each other (a third on 24 and 42, a
fifth on 6, 19, 33 and 46), and it went on expanding their descendants.

The test needs no shape.  After a push, the *cluster* of the pushed box is found: the boxes
linked to it by chains of boxes at most `RADIUS` rows and columns apart, the nearest
`MAX_BOXES` of them.  Every other box is taken off the board - which only makes pushing
easier - and a small breadth-first search of pushes asks whether the cluster's boxes can
all stand on goals at once.  When the search runs out of positions without that, no push
sequence does it in the real position either, and the position is dead.  The sub-search
prunes only by rules about the sub-position itself (a box where it can reach no goal from
the player's side, a frozen group with a box off goal), and it gives up, saying "alive", at
`MAX_NODES` positions or as soon as the boxes stand apart (no box off goal with another box
of the cluster within `RADIUS`): then the cluster no longer holds the boxes together.

Results are remembered by the cluster's boxes and the player's region among them; when the
sub-search proves its cluster dead, every sub-position it met is dead too (each one leads
only to positions it met), and those are remembered as well.

Where it is used: the game's deadlock warning (`game`), where one proof a move costs
nothing, and searches that ask for it (``--cluster-deadlocks``).  The default searches
leave it off: it prunes, but costs more time than it saves.  Measured on this machine
(``-j 2``): `configs/microban-cluster.toml`, Microban with the optimizer off, 162 thousand
expansions against 229 thousand but 17.9 s of search against 12.8 s (1.4 times; 2.3 times
before a sub-search skipped positions proved dead before and used `Board.region_after`,
1.4 times then with boxes linked only one square apart); the default with it solved
Sasquatch II 24/50 at 60 s (`configs/sasquatch.toml`; 25-27 without, no level gained);
FESS alone took up to twice as long on XSokoban 39 and 71 for the same expansions, and
checking each position FESS expands instead of each push it makes found nothing dead on
XSokoban 25 and 39 (12 % slower); greedy nearest-goal alone with it solves none of
Sasquatch II 6, 19, 24, 26, 33, 42, 46 in 60 s.  On Sasquatch II 7 it proved 97 clusters
dead in 15,416 sub-searches (29 % of the time), so a search where clusters rarely die
stops searching them (`FREE_SEARCHES`, `PER_PROOF`).
"""

from __future__ import annotations

from collections import deque

from .board import INF, bits, flood
from .deadlocks import freeze_deadlock
from .rules import each_push

RADIUS = 2  # boxes this many rows and columns apart are linked (1 misses a pair two columns apart on a wall)
MAX_BOXES = 6  # the nearest boxes of a cluster that are searched
MAX_NODES = 150  # sub-positions searched before the cluster counts as alive
MEMO = 1 << 20  # remembered clusters before starting afresh
FREE_SEARCHES = 200  # sub-searches always allowed; past them, each proof pays for more:
PER_PROOF = 30  # a level where clusters rarely die (Sasquatch II 7: 97 in 15,416) stops searching


class ClusterProver:
    """``dead(dst, player, boxes)``: True when the box just pushed onto ``dst`` (the player on
    ``player``, ``boxes`` after the push) belongs to a cluster that can never reach goals."""

    def __init__(self, board, max_boxes: int = MAX_BOXES, max_nodes: int = MAX_NODES, radius: int = RADIUS):
        self.board = board
        self.max_boxes = max_boxes
        self.max_nodes = max_nodes
        w = board.width
        # per square, the squares at most ``radius`` rows and columns away (itself left out)
        self.nearby = [0] * board.size
        for x in bits(board.floor):
            low = 1 << x
            h = low
            for d in range(1, radius + 1):
                h |= low << d | low >> d
            v = h
            for d in range(1, radius + 1):
                v |= h << d * w | h >> d * w
            self.nearby[x] = v & board.floor & ~low
        self.known: dict[tuple[int, int], bool] = {}  # by the player's region (its lowest square)
        self.asked: dict[tuple[int, int], bool] = {}  # by the player's square: no flood to look up
        self.searches = 0  # sub-searches run (for probes and tests)
        self.proved = 0  # of which proved a deadlock

    def cluster(self, dst: int, boxes: int) -> int:
        """The boxes linked to ``dst`` by chains of boxes at most ``radius`` rows and columns
        apart (a mask), cut to the ``max_boxes`` nearest ``dst`` when there are more."""
        w, nearby = self.board.width, self.nearby
        comp, todo = 0, 1 << dst
        while todo:
            low = todo & -todo
            todo ^= low
            comp |= low
            todo |= nearby[low.bit_length() - 1] & boxes & ~comp
        if comp.bit_count() <= self.max_boxes:
            return comp
        r0, c0 = divmod(dst, w)
        ranked = sorted(bits(comp), key=lambda x: max(abs(x // w - r0), abs(x % w - c0)))
        out = 0
        for x in ranked[: self.max_boxes]:
            out |= 1 << x
        return out

    def dead(self, dst: int, player: int, boxes: int) -> bool:
        if not self.nearby[dst] & boxes:
            return False  # a box alone: the dead squares' business
        board = self.board
        group = self.cluster(dst, boxes)
        if not group & ~board.goals:
            return False  # all on goals
        asked = self.asked.get((group, player))
        if asked is not None:
            return asked
        region = flood(1 << player, board.floor & ~group, board.width)
        known = self.known.get((group, region & -region))
        if known is None:
            if self.searches >= FREE_SEARCHES + PER_PROOF * self.proved:
                return False  # not worth searching here: alive as far as this test knows
            known = self._search(group, region)
        if len(self.asked) >= MEMO:
            self.asked.clear()
        self.asked[group, player] = known
        return known

    def _apart(self, boxes: int) -> bool:
        """No box off goal has another box of ``boxes`` within ``radius`` rows and columns."""
        nearby = self.nearby
        return not any(nearby[x] & boxes for x in bits(boxes & ~self.board.goals))

    def _search(self, group: int, region: int) -> bool:
        """Breadth-first over the pushes of ``group`` alone (player's region ``region``):
        True (dead) when every position was met and none had all boxes on goals."""
        board = self.board
        floor, goals, offs = board.floor, board.goals, board.offsets
        nearest, side_comp = board.nearest, board.side_comp
        known, region_after = self.known, board.region_after
        if len(known) >= MEMO:
            known.clear()
        self.searches += 1
        start = (group, region & -region)
        seen = {start}
        queue = deque(((group, region),))
        limit = self.max_nodes
        while queue:
            boxes, reach = queue.popleft()
            if not boxes & ~goals or len(seen) > limit or self._apart(boxes):
                known[start] = False
                return False
            free = floor & ~boxes
            for k, src, dst in each_push(boxes, reach, free & board.live, offs):
                if nearest[dst][side_comp[dst][k ^ 1]] >= INF:
                    continue
                nboxes = boxes ^ (1 << src) ^ (1 << dst)
                if freeze_deadlock(dst, nboxes, board, sealed=False):
                    continue
                nreach = region_after(reach, 1 << src, 1 << dst, 1 << src, floor & ~nboxes)
                key = (nboxes, nreach & -nreach)
                if key in seen:
                    continue
                proved = known.get(key)
                if proved is False:  # met before and not proved dead: nor is this one
                    known[start] = False
                    return False
                if proved:
                    continue  # proved dead before: nothing to find past it
                seen.add(key)
                queue.append((nboxes, nreach))
        self.proved += 1
        for key in seen:
            known[key] = True
        return True
