"""What is fixed for a level: its squares as bits, goals, and push distances.

Squares are numbered ``row * width + column``; a set of squares is a Python int with one
bit per square, so the player's region is a few shifts and masks (`flood`) and the boxes
a push can move are found for all boxes at once.  Only the *interior* (the squares the
player can reach when boxes are ignored) is floor; a box on a goal sealed off from the
player is a wall.

Push distances are player-aware: the distance of a box to a goal depends on which side of
the box the player stands, in the sense of which part of the floor (minus the box square)
the player is in.  ``rowdist[x][c]`` is the tuple of distances from square ``x`` to every
goal with the player in component ``c`` of the floor without ``x`` (``INF`` = never).

`Layout` is what a level's text says about its squares, in the same numbering: the search's
`Board` is built on it, and so are the replay, the pictures and the game, which move the
player and the boxes with `rules.step`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .levels import BOX, BOX_GOAL, GOAL, PLAYER, PLAYER_GOAL, WALL, Level

INF = 1 << 20
WALKING, PUSHING, PULLING = 0, 1, 2  # how `Board._spread` steps
DIRS = "udlr"


def flood(seed: int, free: int, width: int) -> int:
    """All squares of ``free`` connected to the bits of ``seed`` (bit-parallel BFS).

    Each round grows the whole region sideways and then up and down, so one round
    crosses a corner and the rounds number about half a BFS's layers (1.9x faster
    than growing a frontier one layer at a time)."""
    region = seed & free
    while True:
        grown = region | ((region << 1) | (region >> 1)) & free
        grown |= ((grown << width) | (grown >> width)) & free
        if grown == region:
            return region
        region = grown


def pull_flood(seed: int, free: int, width: int) -> int:
    """The squares of ``free`` from which a lone box can be pushed into ``seed`` (bit-parallel,
    as `flood`): a box at ``n`` moves one step when ``n`` and the square behind it, where the
    player stands, are free.  The player's way round to that square is not checked."""
    # a box moves off a square when it and the square behind it, the player's, are free
    return _box_flood(
        seed, free & (free >> 1), free & (free << 1), free & (free >> width), free & (free << width), width
    )


def push_flood(seed: int, free: int, width: int) -> int:
    """The squares of ``free`` to which a lone box on a square of ``seed`` can be pushed
    (bit-parallel, as `pull_flood`, whose converse it is): a box at ``n`` moves one step when
    the square ahead and the player's square behind it are free.  From several squares at
    once it is the union of their floods: one flood answers which squares *some* box reaches."""
    # a box moves onto a square when it and the player's square two behind it are free
    return _box_flood(
        seed, free & (free << 2), free & (free >> 2), free & (free << 2 * width), free & (free >> 2 * width), width
    )


def _box_flood(seed: int, right: int, left: int, down: int, up: int, width: int) -> int:
    """``seed`` grown (bit-parallel, as `flood`) by steps to the squares of each direction's
    mask: one step right onto the squares of ``right``, and so on."""
    region = seed
    while True:
        grown = region | (region << 1) & right | (region >> 1) & left
        grown |= (grown << width) & down | (grown >> width) & up
        if grown == region:
            return region
        region = grown


def parts_round(x: int, free: int, offsets: Iterable[int], width: int) -> tuple[list[int], list[int]]:
    """The parts of ``free`` without square ``x`` that its sides lie in: each part's
    squares, and per side (in the order of ``offsets``) the index of its part, -1 where
    the side is not free."""
    rest = free & ~(1 << x)
    parts: list[int] = []
    sides = []
    for o in offsets:
        n = x + o
        if not rest >> n & 1:
            sides.append(-1)
            continue
        for i, m in enumerate(parts):
            if m >> n & 1:
                sides.append(i)
                break
        else:
            parts.append(flood(1 << n, rest, width))
            sides.append(len(parts) - 1)
    return parts, sides


def around(mask: int, width: int) -> int:
    """The squares beside those of ``mask`` (up, down, left, right; ``mask`` itself may be among them)."""
    return (mask << 1) | (mask >> 1) | (mask << width) | (mask >> width)


def ahead(mask: int, o: int) -> int:
    """``mask`` seen from ``o`` squares back: bit ``x`` of the result is bit ``x + o`` of
    ``mask`` (0 where that square is off the board)."""
    return mask >> o if o > 0 else mask << -o


def regions(free: int, width: int) -> list[int]:
    """The connected parts of ``free``, each a mask (lowest square first)."""
    out = []
    while free:
        part = flood(free & -free, free, width)
        out.append(part)
        free &= ~part
    return out


def mask_of(squares: Iterable[int]) -> int:
    """The mask of square numbers (the inverse of `bits`); a square named twice counts once."""
    out = 0
    for x in squares:
        out |= 1 << x
    return out


FEW_BITS = 12  # fewer set bits are read one at a time (about where the two ways cost alike)
_BYTE_SQUARES: list[list[tuple[int, ...]]] = []  # per byte of a mask, the squares of each of its 256 values


def bits(mask: int) -> list[int]:
    """The square numbers of the set bits (of a mask not below 0), ascending.

    A byte at a time from a table, not a bit at a time (``mask & -mask``, four operations
    on the whole int a bit): Sasquatch II 40's 52 boxes on 540 squares in 3.9 us against
    8.1 us (25 on 420: 3.1 against 3.9), where the aimed searches' matching converts every
    position they make.  A bit at a time below `FEW_BITS` set, where a byte at a time pays
    for every byte of the board: 3 of 400 squares in 0.3 us against 1.05."""
    out: list[int] = []
    if mask.bit_count() <= FEW_BITS:
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    nbytes = (mask.bit_length() + 7) >> 3
    table = _BYTE_SQUARES
    while len(table) < nbytes:  # grown to the largest board met (~23 kB a byte)
        base = 8 * len(table)
        table.append([tuple(base + j for j in range(8) if value >> j & 1) for value in range(256)])
    for squares, value in zip(table, mask.to_bytes(nbytes, "little")):
        if value:
            out += squares[value]
    return out


class BoxSquares:
    """A position's boxes as square numbers, and a child's (one box moved) from them: the
    same list with the moved box's square changed, not `bits` again (on Sasquatch II 40's
    52 boxes ~1 us against ~4), and in the same order, so that a matching kept from a
    sibling (`heuristics.RowCosts`) finds one row changed."""

    def __init__(self, boxes: int):
        self.boxes = boxes
        self.squares = bits(boxes)
        self.slot = {x: i for i, x in enumerate(self.squares)}

    def child(self, boxes: int) -> list[int]:
        """The squares of ``boxes``, one box moved from this position's."""
        squares = self.squares.copy()
        squares[self.slot[(self.boxes & ~boxes).bit_length() - 1]] = (boxes & ~self.boxes).bit_length() - 1
        return squares


def square_char(i: int, goals: int, boxes: int, player: int | None) -> str:
    """The level-file character of floor square ``i`` in a position."""
    goal = goals >> i & 1
    if boxes >> i & 1:
        return BOX_GOAL if goal else BOX
    if i == player:
        return PLAYER_GOAL if goal else PLAYER
    return GOAL if goal else " "


@dataclass(frozen=True)
class Layout:
    """A level's squares as bit sets: ``walls`` (``#``), ``floor`` (the squares the player
    can reach when boxes are ignored), every goal and every box of the start, and the
    player's start square.  Everything else (outside the walls) is neither."""

    width: int
    height: int
    walls: int
    floor: int
    goals: int
    boxes: int
    player: int
    offsets: tuple[int, int, int, int] = field(init=False, compare=False)  # square steps u d l r (`DIRS`)

    def __post_init__(self) -> None:
        object.__setattr__(self, "offsets", (-self.width, self.width, -1, 1))

    @classmethod
    def of(cls, level: Level) -> Layout:
        w = max(len(r) for r in level.rows)
        text = "".join(r.ljust(w) for r in level.rows)
        player = next(i for i, ch in enumerate(text) if ch in (PLAYER, PLAYER_GOAL))
        walls = sum(1 << i for i, ch in enumerate(text) if ch == WALL)
        # a level is closed (`levels.validate`): the player's flood never reaches the border
        floor = flood(1 << player, ((1 << len(text)) - 1) & ~walls, w)
        boxes = sum(1 << i for i, ch in enumerate(text) if ch in (BOX, BOX_GOAL))
        goals = sum(1 << i for i, ch in enumerate(text) if ch in (GOAL, BOX_GOAL, PLAYER_GOAL))
        return cls(w, len(level.rows), walls, floor, goals, boxes, player)

    def cell(self, square: int) -> tuple[int, int]:
        """``(row, column)`` of a square number."""
        return divmod(square, self.width)

    def cells(self, mask: int) -> frozenset[tuple[int, int]]:
        """``(row, column)`` of every square of a bit set."""
        w = self.width
        return frozenset(divmod(x, w) for x in bits(mask))

    def rows(self, boxes: int, player: int | None) -> list[str]:
        """A position in level-file characters, every row the level's full width."""
        out = []
        for r in range(self.height):
            line = []
            for i in range(r * self.width, (r + 1) * self.width):
                line.append(WALL if self.walls >> i & 1 else square_char(i, self.goals, boxes, player))
            out.append("".join(line))
        return out


class Board:
    """A level's static data.  ``impossible`` names why it can never be solved (or None).

    ``start_boxes`` and ``goals`` are those on the floor: a box on a goal sealed off from
    the player is a wall here (`Layout` keeps it)."""

    def __init__(self, level: Level):
        self.level = level
        self.layout = layout = Layout.of(level)
        self.width = w = layout.width
        self.height = layout.height
        self.size = w * self.height
        self.offsets = layout.offsets  # u d l r
        self.player_start = layout.player
        self.floor = layout.floor
        box_all, goal_all = layout.boxes, layout.goals
        sealed = (box_all | goal_all) & ~self.floor
        self.impossible = None
        if (box_all & ~goal_all) & sealed or (goal_all & ~box_all) & sealed:
            self.impossible = "a box or goal is sealed off from the player"
        self.start_boxes = box_all & self.floor
        self.goals = goal_all & self.floor
        self.goal_list = bits(self.goals)
        self.is_wall = bytearray(0 if self.floor >> i & 1 else 1 for i in range(self.size))
        self.is_goal = bytearray(self.goals >> i & 1 for i in range(self.size))
        self._pull_graph: list[tuple[tuple[int, int], ...]] | None = None  # built when first needed
        self._components()
        self._rings()
        self._tunnels()
        self._distances()
        self._axes()
        self.sealed_cache: dict[int, list[int]] = {}  # for `deadlocks.goal_reach` (`Features.stranded`)
        self.access_cache: dict[int, list[int]] = {}  # for `access.access_reach`
        # for `deadlocks.sealed_off`: per set of frozen boxes, the loose boxes and their goals last
        self.hall_memo: dict[int, tuple[int, dict[int, int]]] = {}
        self.rule_arrays: Any = None  # the board as the shared rules read it (`board_arrays.arrays_of`)

    # -- components of the floor without one square ----------------------------------
    def _components(self) -> None:
        w, floor, offs = self.width, self.floor, self.offsets
        self.compmask: list[tuple[int, ...]] = [()] * self.size
        self.side_comp: list[tuple[int, ...]] = [()] * self.size  # per direction, -1 = wall
        self.multi = bytearray(self.size)
        # compidx[x][p]: the component of square p (for cut squares x only; else one component)
        self.compidx: list[bytes | None] = [None] * self.size
        for x in bits(floor):
            comps, sides = parts_round(x, floor, offs, w)
            self.compmask[x] = tuple(comps)
            self.side_comp[x] = tuple(sides)
            self.multi[x] = len(comps) > 1
            if len(comps) > 1:
                index = bytearray(self.size)
                for i, m in enumerate(comps):
                    for p in bits(m):
                        index[p] = i
                self.compidx[x] = bytes(index)

    def _rings(self) -> None:
        """The 8 squares around each floor square, clockwise from above (for `keeps_region`)."""
        w = self.width
        around = (-w, -w + 1, 1, w + 1, w, w - 1, -1, -w - 1)
        self.ring: list[tuple[int, ...] | None] = [None] * self.size
        for x in bits(self.floor):
            sq = tuple(x + o for o in around)
            if all(0 <= n < self.size for n in sq) and abs(x % w - (x + 1) % w) == 1 and x % w:
                self.ring[x] = sq

    def _tunnels(self) -> None:
        """``tunnel[axis]``: squares walled on both sides across that axis (0 = up/down pushes).

        A box there can only move along the axis; `SokobanProblem` uses these for tunnel macros.
        """
        w, wall = self.width, self.is_wall
        self.tunnel = [0, 0]
        for x in bits(self.floor):
            if wall[x - 1] and wall[x + 1]:
                self.tunnel[0] |= 1 << x
            if wall[x - w] and wall[x + w]:
                self.tunnel[1] |= 1 << x

    def region_after(self, reach: int, left: int, entered: int, player: int, free: int) -> int:
        """The player's region once a box has gone from square ``left`` to ``entered`` (bits),
        the player on ``player`` (a bit), ``free`` the floor without the boxes now and
        ``reach`` the region before.

        Flood fills are most of what a push or pull costs, and most are not needed: the old
        region less the box's new square stays joined when that square was a dead end of it
        or the ring round it joins its sides (`keeps_region`); the square the box left joins
        it through its free sides, and only then can what lies beyond them join too.
        """
        w = self.width
        region = reach
        if entered & reach:
            beside = around(entered, w) & reach
            if beside & (beside - 1) and not self.keeps_region(entered.bit_length() - 1, free):
                return flood(player, free, w)  # it may have split: the player's part
            region ^= entered
        sides = around(left, w) & free
        if not sides & region:
            return region
        return region | left if not sides & ~region else flood(region | left, free, w)

    def keeps_region(self, x: int, free: int) -> bool:
        """True when filling square ``x`` cannot split the free area around it.

        The free side neighbours of ``x`` must all be joined through the free squares of
        the ring around it; then any walk through ``x`` has a detour around it.
        """
        ring = self.ring[x]
        if ring is None:
            return False
        groups = 0
        for i in (0, 2, 4, 6):
            if free >> ring[i] & 1:
                nxt = ring[(i + 2) & 7]
                if not (free >> ring[i + 1] & 1 and free >> nxt & 1):
                    groups += 1
        return groups <= 1

    def comp_of(self, x: int, p: int) -> int:
        """Index of the component of floor-without-``x`` holding square ``p``."""
        index = self.compidx[x]
        return 0 if index is None else index[p]

    # -- push distances ------------------------------------------------------------------
    def _distances(self) -> None:
        """Backward BFS from each goal over (box square, player component) states."""
        squares = bits(self.floor)
        ngoals = len(self.goal_list)
        per_goal = [self.pulls_to(g) for g in self.goal_list]
        self.rowdist: list[tuple[tuple[int, ...], ...]] = [()] * self.size
        self.nearest: list[tuple[int, ...]] = [()] * self.size
        live = 0
        for x in squares:
            rows = tuple(
                tuple(per_goal[j].get((x, c), INF) for j in range(ngoals)) for c in range(len(self.compmask[x]))
            )
            self.rowdist[x] = rows
            self.nearest[x] = tuple(min(r, default=INF) for r in rows)  # INF: every goal sealed off
            if any(v < INF for v in self.nearest[x]):
                live |= 1 << x
        self.live = live
        self.is_dead = bytearray(0 if live >> i & 1 else 1 for i in range(self.size))

    def pulls_to(self, target: int) -> dict[tuple[int, int], int]:
        """Push distances to square ``target`` from every ``(square, player component)`` that
        can get a lone box there (a backward search of pulls)."""
        return {(s >> 2, s & 3): d for d, layer in enumerate(self._pulled(1 << target)) for s in layer}

    def pushes_from(self, sources: int) -> dict[int, int]:
        """Per square a lone box can be pushed to from a square of ``sources`` (walls only,
        the player anywhere behind it), the fewest pushes; the same as the fewest pulls from
        that square back to a source."""
        return self._spread(sources, self.floor, PUSHING)

    def pulls_from(self, sources: int) -> dict[int, int]:
        """Per square a lone box can be pulled to from a square of ``sources`` (walls only),
        the fewest pulls: the fewest pushes that bring a box there to a source."""
        return self._spread(sources, self.floor, PULLING)

    def walks_from(self, sources: int, area: int | None = None) -> dict[int, int]:
        """Per square of ``area`` (the floor when None) the player can walk to from a square
        of ``sources`` inside it, boxes ignored, the fewest steps."""
        return self._spread(sources, self.floor if area is None else area, WALKING)

    def _spread(self, sources: int, area: int, mode: int) -> dict[int, int]:
        """Breadth-first steps from ``sources`` over ``area``: a step from x to x + o also
        needs floor where the player stands, on x - o when ``PUSHING`` and on x + 2o when
        ``PULLING`` (he steps back there)."""
        offs, floor = self.offsets, self.floor
        dist = dict.fromkeys(bits(sources), 0)
        queue = deque(dist)
        while queue:
            x = queue.popleft()
            d = dist[x] + 1
            for o in offs:
                n = x + o
                if n in dist or not area >> n & 1:
                    continue
                if mode and not floor >> (x - o if mode == PUSHING else n + o) & 1:
                    continue
                dist[n] = d
                queue.append(n)
        return dist

    def reaching(self, targets: int, blocked: int = 0) -> int:
        """The squares from which a lone box can be pushed to one of ``targets`` (a mask),
        the squares of ``blocked`` taken as walls (the player's components stay those of
        the open board: a wall that only shuts the player out is not seen)."""
        return mask_of(s >> 2 for layer in self._pulled(targets & ~blocked, blocked) for s in layer)

    def _pulled(self, targets: int, blocked: int = 0) -> list[list[int]]:
        """The `pull_graph` nodes a lone box on a square of ``targets`` is pulled to, layer by
        layer (layer d: d pulls away), the squares of ``blocked`` taken as walls."""
        graph = self.pull_graph
        seen = bytearray(len(graph))
        layer = self._pull_starts(targets)
        for s in layer:
            seen[s] = 1
        layers = []
        while layer:
            layers.append(layer)
            nxt = []
            for s in layer:
                for before, needs in graph[s]:
                    if not seen[before] and not blocked & needs:
                        seen[before] = 1
                        nxt.append(before)
            layer = nxt
        return layers

    def _pull_starts(self, targets: int) -> list[int]:
        """The `pull_graph` nodes of a box on a square of ``targets``, the player on any side."""
        return [t << 2 | c for t in bits(targets) for c in range(len(self.compmask[t]))]

    @property
    def pull_graph(self) -> list[tuple[tuple[int, int], ...]]:
        """The pulls of a lone box, walls only: per node ``square * 4 + player component``
        (`side_comp`), the nodes one push before it with the squares that push needs free
        (the box's and the player's), so a search with extra walls only tests those.  Built
        once: hotspots search it per goal and blocker square (5x faster than keying by
        pairs)."""
        graph = self._pull_graph
        if graph is None:
            offs, is_wall, side_comp = self.offsets, self.is_wall, self.side_comp
            graph = [()] * (self.size * 4)
            for x in bits(self.floor):
                for c in range(len(self.compmask[x])):
                    before = []
                    for k, o in enumerate(offs):
                        # the last push went in direction o: the player stood at x - 2o
                        prev, behind = x - o, x - 2 * o
                        if is_wall[prev] or is_wall[behind] or side_comp[x][_opposite(k)] != c:
                            continue
                        before.append((prev << 2 | side_comp[prev][_opposite(k)], (1 << prev) | (1 << behind)))
                    graph[x << 2 | c] = tuple(before)
            self._pull_graph = graph
        return graph

    def _axes(self) -> None:
        """Per square: which axes walls or dead squares block, and the neighbour pairs.

        The freeze check (`deadlocks.Pruning.dead_after_push`) starts with these: a box can be
        frozen only when each axis is blocked statically or by a box beside it, which most
        pushes rule out at once.
        """
        w, wall, dead = self.width, self.is_wall, self.is_dead
        self.axis_fixed = bytearray(self.size)
        self.axis_pairs: list[tuple[int, int]] = [(0, 0)] * self.size
        self.fixed_alone = 0  # squares where a box with no box beside it can never move
        for x in bits(self.floor):
            fixed = 0
            for bit, (a, b) in ((1, (x - 1, x + 1)), (2, (x - w, x + w))):
                if wall[a] or wall[b] or (dead[a] and dead[b]):
                    fixed |= bit
            self.axis_fixed[x] = fixed
            if fixed == 3:
                self.fixed_alone |= 1 << x
            self.axis_pairs[x] = ((1 << (x - 1)) | (1 << (x + 1)), (1 << (x - w)) | (1 << (x + w)))

    # -- display ----------------------------------------------------------------------------
    def render(self, boxes: int, player: int | None) -> list[str]:
        """Board lines for a position (``player`` None: no player drawn)."""
        lines = []
        for r, row in enumerate(self.level.rows):
            out = []
            for c, ch in enumerate(row):
                i = r * self.width + c
                if not self.floor >> i & 1:
                    out.append(ch if ch in (WALL, BOX_GOAL) else " ")
                    continue
                out.append(square_char(i, self.goals, boxes, player))
            lines.append("".join(out).rstrip())
        return lines


def _opposite(k: int) -> int:
    return k ^ 1  # u<->d, l<->r
