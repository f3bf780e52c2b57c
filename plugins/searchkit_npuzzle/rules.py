"""The sliding-tile puzzle's compiled rules (`searchkit.kernels.rules`), any board size.

Key words: the board, ``bits`` per cell (4 up to 16 cells, else the bits of ``n - 1``), as
many whole cells per word as fit; the 15-puzzle's board is one word.  Derived words: the
blank's cell, and for a pattern database the bookkeeping that makes its estimate
incremental (Korf & Felner 2002): per group the table index of the plain and of the
mirrored placement and their values, the two sums, and for rank-indexed tables the tile ->
cell map.  Moves 0-3 are the blank's U, D, L, R (the Python problem's order); move
``m ^ 1`` takes ``m`` back; every move costs 1.

``ctx = (tab, flat)`` for boards of up to 16 cells, ``(tab, flat, tab)`` for wider ones: the
tuple's length is known when numba compiles, so a one-word board's cells are shifts without
lookups and the other path is not compiled in.  ``flat``: the pattern databases' tables back
to back (`uint8`; one zero without them); ``tab`` (`int64`): the header slots named below,
then the segments they point to: per blank cell and move the cell the blank reaches (-1:
none), the Manhattan distance of tile ``t`` on cell ``p`` at ``t * n + p`` (a one-word board's
at fixed places, for 16 cells whatever its size), each cell's word
and shift, the goal's key words, and for the tables (`searchkit_npuzzle.pdb`) each group's
offset in ``flat``, each tile's group and place value, the same for the tile it becomes in the
mirror image, the mirror's cell map, the identity map, and for rank-indexed tables the tiles
of each group and of its mirror image, the group sizes, the rank factors and the last move
`rules_ranked.h_after` priced (a cache its ``apply`` reads).  `context` builds it.

The functions allocate nothing (the kernels run them without numba's reference counting).
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    from numba import njit
    from numba.cpython.unsafe.numbers import trailing_zeros
except ImportError:  # without numba the compiled engines never run; `searchkit check` skips them

    def njit(*args: Any, **kwargs: Any) -> Any:  # type: ignore[no-redef]
        return args[0] if args and callable(args[0]) else (lambda f: f)

    def trailing_zeros(x: Any) -> int:  # type: ignore[misc]
        return (int(x) & -int(x)).bit_length() - 1


MANHATTAN, PDB, COMPACT = 0, 1, 2  # the estimate: Manhattan distance, base-n or rank-indexed tables
# header slots of ``tab``: scalars, then where each segment starts
KIND, CELLS, BITS, KEYS, GROUPS, ROW = range(6)  # ROW: the rank tables' row length
BLANK, IDX, VAL, SUMS, POS = range(6, 11)  # where the derived words start in a state
NBR, MD, TREC, CDELTA, CW, CS, GOAL, OFFS, GROUP, WEIGHT, MGROUP, MWEIGHT, CMAP, IDENT = range(11, 25)
GTILES, MTILES, GSIZE, FAC, MEMO = range(25, 30)
HEADER = 30
MEMO_SIZE = 4  # the move, then the record and the two keys it gives (`rules_ranked`), then the board's key words
ONE_WORD = 16  # cells of a one-word board's tables, at fixed places: its neighbours at HEADER, then the rest
# a tile's record (``TREC``): the derived words of its group's index and value, its place
# value, its group's table offset, the same for its mirror image, whether it has one, the sums
R_IDX, R_VAL, R_W, R_OFF, R_MIDX, R_MVAL, R_MW, R_MOFF, R_ON, R_SUMS = range(10)
REC = 10


def layout(kind: int, n: int, groups: int) -> tuple[int, int]:
    """``(key words, all words)`` of a state on ``n`` cells with ``groups`` tables."""
    keys = -(-n // (64 // max(4, (n - 1).bit_length())))
    width = keys + 1
    if kind != MANHATTAN:
        width += 4 * groups + 2
    if kind == COMPACT:
        width += n
    return keys, width


def context(
    kind: int,
    width: int,
    height: int,
    goal: tuple[int, ...],
    md: list[list[int]],
    db: Any = None,
) -> tuple[Any, ...]:
    """The ``ctx`` of a ``width`` x ``height`` board with goal ``goal`` (cell -> tile), the
    Manhattan table ``md[t][p]`` and (``kind`` `PDB` or `COMPACT`) the database ``db``."""
    n = width * height
    bits = max(4, (n - 1).bit_length())
    per = 64 // bits
    ng = len(db.groups) if db is not None else 0
    keys, _ = layout(kind, n, ng)
    nbr = [-1] * (4 * n)
    for b in range(n):
        r, c = divmod(b, width)
        for m, (ok, p) in enumerate(
            ((r > 0, b - width), (r < height - 1, b + width), (c > 0, b - 1), (c < width - 1, b + 1))
        ):
            if ok:
                nbr[4 * b + m] = p
    goal_words = [0] * keys
    for p, t in enumerate(goal):
        goal_words[p // per] |= t << (bits * (p % per))
    cells = ONE_WORD if keys == 1 else n  # a one-word board's tables as for 16 cells
    segments: dict[int, list[int]] = {
        # a one-word board's at fixed places (`_nbr`, `_md`): 16 cells, missing ones never reached
        NBR: nbr + [-1] * (4 * (ONE_WORD - n)) if keys == 1 else nbr,
        MD: [md[t][p] if t < n and p < n else 0 for t in range(cells) for p in range(cells)],
        CW: [p // per for p in range(n)],
        CS: [bits * (p % per) for p in range(n)],
        GOAL: [w - (1 << 64) if w >> 63 else w for w in goal_words],  # as int64, bit for bit
    }
    flat = np.zeros(1, dtype=np.uint8)
    row = 1
    if db is not None:
        group, weight, mgroup, mweight = db.tile_keys()
        cmap, tile_map = db.mirror if db.mirror is not None else (list(range(n)), list(range(n)))
        flat, offs = db.flat(sparse=kind == PDB)
        segments.update({OFFS: [int(o) for o in offs], GROUP: group, WEIGHT: weight, MGROUP: mgroup, MWEIGHT: mweight})
        segments.update({CMAP: list(cmap), IDENT: list(range(n))})
        segments.update(_records(keys, n, ng, group, weight, mgroup, mweight, [int(o) for o in offs], cmap, nbr))
        if kind == COMPACT:
            from .pdb.ranking import rank_factors

            row = max(len(g) for g in db.groups)
            gt, mt, fac = [0] * (ng * row), [0] * (ng * row), [0] * (ng * row)
            for i, g in enumerate(db.groups):
                gt[i * row : i * row + len(g)] = g
                mt[i * row : i * row + len(g)] = [tile_map[t] for t in g]
                fac[i * row : i * row + len(g)] = rank_factors(n, len(g))
            segments.update({GTILES: gt, MTILES: mt, GSIZE: [len(g) for g in db.groups], FAC: fac})
            segments[MEMO] = [-1] * (MEMO_SIZE + keys)  # `rules_ranked`'s last move priced: none yet
    head = [0] * HEADER
    head[KIND], head[CELLS], head[BITS], head[KEYS], head[GROUPS], head[ROW] = kind, n, bits, keys, ng, row
    head[BLANK] = keys
    head[IDX] = keys + 1
    head[VAL] = head[IDX] + 2 * ng
    head[SUMS] = head[VAL] + 2 * ng
    head[POS] = head[SUMS] + 2
    body: list[int] = []
    for slot in range(NBR, HEADER):
        head[slot] = HEADER + len(body)
        body += segments.get(slot, [])
    tab = np.array(head + body, dtype=np.int64)
    flat = np.ascontiguousarray(flat, dtype=np.uint8)
    return (tab, flat) if keys == 1 else (tab, flat, tab)


def _records(
    keys: int,
    n: int,
    ng: int,
    group: list[int],
    weight: list[int],
    mgroup: list[int],
    mweight: list[int],
    offs: list[int],
    cmap: list[int],
    nbr: list[int],
) -> dict[int, list[int]]:
    """The ``TREC`` segment (a record per tile, `rules_pdb._keys`) and the ``CDELTA`` one (per
    blank cell and move, the change of the mirror image's cell), 16 cells' worth on a one-word board."""
    idx = keys + 1
    val = idx + 2 * ng
    sums = val + 2 * ng
    cells = ONE_WORD if keys == 1 else n
    recs: list[int] = []
    for t in range(cells):
        g = group[t] if 0 < t < n else -1
        if g < 0:  # the blank (never moves as a tile) and cells past the board
            recs += [idx, val, 0, offs[0], idx + ng, val + ng, 0, offs[0], 0, sums]
            continue
        mg = mgroup[t]
        on = int(mg >= 0)
        m = mg * on
        recs += [idx + g, val + g, weight[t], offs[g], idx + ng + m, val + ng + m, mweight[t] * on, offs[m], on, sums]
    delta = [0] * (4 * cells)
    for i, p in enumerate(nbr):
        if p >= 0:
            delta[i] = cmap[i // 4] - cmap[p]
    return {TREC: recs, CDELTA: delta}


@njit(cache=True, inline="always")
def _record(ctx, t):
    """Where tile ``t``'s record starts in ``tab`` (unsigned: no test for a negative index)."""
    if len(ctx) == 2:
        return np.uint64(HEADER + 4 * ONE_WORD + ONE_WORD * ONE_WORD) + np.uint64(REC) * np.uint64(t)
    return np.uint64(ctx[0][TREC]) + np.uint64(REC) * np.uint64(t)


@njit(cache=True, inline="always")
def _field(tab, r, f):
    """Field ``f`` of the record at ``r``."""
    return tab[r + np.uint64(f)]


@njit(cache=True, inline="always")
def _cdelta(ctx, b, m):
    """How far the mirror image's blank moves when the blank on ``b`` makes move ``m``."""
    tab = ctx[0]
    if len(ctx) == 2:
        return tab[
            np.uint64(HEADER + 4 * ONE_WORD + ONE_WORD * ONE_WORD + REC * ONE_WORD + m) + np.uint64(4) * np.uint64(b)
        ]
    return tab[tab[CDELTA] + 4 * b + m]


@njit(cache=True, inline="always")
def _tile(s, ctx, p):
    """The tile on cell ``p``."""
    if len(ctx) == 2:  # one word of nibbles (up to 16 cells): shifts without lookups
        return np.int64((s[0] >> np.uint64(4 * p)) & np.uint64(15))
    tab = ctx[0]
    sh = np.uint64(tab[tab[CS] + p])
    return np.int64((s[tab[tab[CW] + p]] >> sh) & np.uint64((1 << tab[BITS]) - 1))


@njit(cache=True, inline="always")
def _blank(s, ctx):
    """The blank's cell (the first derived word)."""
    if len(ctx) == 2:  # one key word
        return np.int64(s[1])
    return np.int64(s[ctx[0][BLANK]])


@njit(cache=True, inline="always")
def _nbr(ctx, b, m):
    """The cell the blank on ``b`` reaches by move ``m``, or -1; a one-word board's at a
    fixed place (a header load less per child: measured, 15-20 % more expansions a second)."""
    tab = ctx[0]
    if len(ctx) == 2:  # unsigned: no test for a negative index
        return tab[np.uint64(HEADER + m) + np.uint64(4) * np.uint64(b)]
    return tab[tab[NBR] + 4 * b + m]


@njit(cache=True, inline="always")
def _md(ctx, t, p):
    """The Manhattan distance of tile ``t`` on cell ``p``."""
    tab = ctx[0]
    if len(ctx) == 2:
        return tab[np.uint64(HEADER + 4 * ONE_WORD + p) + np.uint64(ONE_WORD) * np.uint64(t)]
    return tab[tab[MD] + t * tab[CELLS] + p]


@njit(cache=True, inline="always")
def _put(s, ctx, p, t):
    """Tile ``t`` on cell ``p``."""
    if len(ctx) == 2:
        sh = np.uint64(4 * p)
        s[0] = (s[0] & ~(np.uint64(15) << sh)) | (np.uint64(t) << sh)
    else:
        tab = ctx[0]
        w = tab[tab[CW] + p]
        sh = np.uint64(tab[tab[CS] + p])
        s[w] = (s[w] & ~(np.uint64((1 << tab[BITS]) - 1) << sh)) | (np.uint64(t) << sh)


@njit(cache=True, inline="always")
def moves(s, ctx, out):
    b = _blank(s, ctx)
    n = 0
    for m in range(4):
        if _nbr(ctx, b, m) >= 0:
            out[n] = m
            n += 1
    return n


@njit(cache=True, inline="always")
def _slide(s, ctx, m):
    """Make move ``m`` on the board and the blank's word: ``(tile moved, from, to)``."""
    b = _blank(s, ctx)
    nb = _nbr(ctx, b, m)
    t = _tile(s, ctx, nb)
    _put(s, ctx, b, t)
    _put(s, ctx, nb, 0)
    s[ctx[0][BLANK]] = nb
    return t, nb, b


@njit(cache=True, inline="always")
def _find_blank(s, ctx):
    tab = ctx[0]
    if len(ctx) == 2:  # nibbles: the lowest cell whose four bits are all 0 (cells past n are never lower)
        x = ~s[0]
        y = x & (x >> np.uint64(1))
        y = y & (y >> np.uint64(2)) & np.uint64(0x1111111111111111)
        s[tab[BLANK]] = np.uint64(trailing_zeros(y) >> 2)
        return
    for p in range(tab[CELLS]):
        if _tile(s, ctx, p) == 0:
            s[tab[BLANK]] = p


@njit(cache=True, inline="always")
def apply(s, m, ctx):
    _slide(s, ctx, m)
    return 1


@njit(cache=True, inline="always")
def undo(s, m, ctx):
    """Slides the tile back (the key words and the blank; the kernels restore the rest)."""
    c = _blank(s, ctx)
    p = _nbr(ctx, c, m ^ 1)
    _put(s, ctx, c, _tile(s, ctx, p))
    _put(s, ctx, p, 0)
    s[ctx[0][BLANK]] = p


@njit(cache=True, inline="always")
def derive(s, ctx):
    _find_blank(s, ctx)


@njit(cache=True, inline="always")
def h(s, ctx):
    total = 0
    for p in range(ctx[0][CELLS]):
        total += _md(ctx, _tile(s, ctx, p), p)
    return total


@njit(cache=True, inline="always")
def h_after(s, m, hs, ctx):
    b = _blank(s, ctx)
    nb = _nbr(ctx, b, m)
    t = _tile(s, ctx, nb)
    return hs + _md(ctx, t, b) - _md(ctx, t, nb)


@njit(cache=True, inline="always")
def cost(s, m, ctx):
    return 1


@njit(cache=True, inline="always")
def inverse(m, ctx):
    return m ^ 1


@njit(cache=True, inline="always")
def is_goal(s, ctx):
    tab = ctx[0]
    goal = tab[GOAL]
    for i in range(tab[KEYS]):
        if s[i] != np.uint64(tab[goal + i]):
            return False
    return True


# -- the Python side: how states and actions cross ------------------------------------------------


_CONTEXTS: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # per board, goal and database: `_shared_context`


def _shared_context(kind: int, problem: Any, db: Any) -> tuple[Any, ...]:
    """`context` for ``problem``'s board and goal, made once per process for each board, goal
    and database (a run of many instances builds it once; the arrays are never written to,
    but for `rules_ranked`'s transparent cache)."""
    key = (kind, problem.width, problem.height, tuple(problem.goal), problem.heuristic_name)
    if key not in _CONTEXTS:
        if len(_CONTEXTS) >= 16:
            _CONTEXTS.clear()
        _CONTEXTS[key] = context(kind, problem.width, problem.height, key[3], problem.manhattan_table(), db)
    return _CONTEXTS[key]


def offer(problem: Any) -> Any:
    """The `CompiledRules` of ``problem`` (an `NPuzzleProblem`) with its heuristic: Manhattan
    distance or a pattern database; None for other heuristics (linear conflicts have no
    compiled form) or a board whose state would be wider than the kernels take."""
    from searchkit import CompiledRules
    from searchkit.kernels.rules import MAX_WIDTH

    name = problem.heuristic_name or ""
    db = None
    if name == "manhattan":
        kind = MANHATTAN
    elif name.startswith("pdb-"):
        from .pdb import get_database

        db = get_database(name, problem.width, problem.height, tuple(problem.goal))
        kind = PDB if db.sparse() is not None else COMPACT
    else:
        return None
    n = problem.n
    keys, width = layout(kind, n, len(db.groups) if db is not None else 0)
    if width > MAX_WIDTH:
        return None
    bits, mask = problem.bits, problem.mask
    per = 64 // bits

    def encode(state: int) -> Any:
        words = np.zeros(keys, dtype=np.uint64)
        for i in range(keys):
            words[i] = np.uint64((state >> (bits * per * i)) & ((1 << (bits * min(per, n - per * i))) - 1))
        return words

    def decode(words: Any) -> int:  # the board's cells lie in the state as in the words, the blank's cell on top
        board = 0
        for i in range(keys):
            board |= int(words[i]) << (bits * per * i)
        blank = 0
        while (board >> (bits * blank)) & mask:
            blank += 1
        return board | blank << problem.top

    return CompiledRules(
        module={MANHATTAN: __name__, PDB: f"{__package__}.rules_pdb", COMPACT: f"{__package__}.rules_ranked"}[kind],
        width=width,
        key_width=keys,
        context=_shared_context(kind, problem, db),
        encode=encode,
        decode=decode,
        action=lambda m, words: "UDLR"[m],
        max_moves=4,
    )
