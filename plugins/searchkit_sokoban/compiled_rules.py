"""Sokoban's compiled push and pull rules (`push_rules`, `pull_rules`) as the core's compiled
engines take them: a level's tables, and how positions and moves cross between Python and
the kernels.

`push_rules_of` builds the `CompiledRules` of a problem's level with its pruning (the
compiled push search, `compiled_search`, and the endgame run them); `matches` says whether
the Python problem's own successors are theirs, so that `SokobanProblem.compiled_rules`
offers them to the core's ``astar`` and ``greedy`` (and ``searchkit check`` holds them to
it).  `pull_rules_of` builds the pull rules of a level aimed at a target position, with one
or two estimates (the compiled pull search, `compiled_pull`).  Both key positions alike
(`_positions`).  Building the rules needs numba (their scratch comes from `push_kernel`);
reading this module does not.
"""

from __future__ import annotations

from typing import Any

from searchkit import CompiledRules, InputError

from .board import INF, bits
from .board_arrays import neighbours
from .deadlocks import CORRAL, FREEZE
from .heuristics import MATCHING
from .rules import Push

State = tuple[int, int]
MAX_BOXES = 64  # a move names its box in six bits (move codes fit a byte)
RULES = f"{__package__}.push_rules"
PULL_RULES = f"{__package__}.pull_rules"


def push_rules_of(problem: Any) -> CompiledRules:
    """The compiled push rules (`push_rules`) of ``problem``'s level with its pruning (dead
    squares, freeze, PI-corrals as its `Pruning` has them on); `InputError` for a level
    they cannot take (moves mode, more than `MAX_BOXES` boxes, goals not as many as boxes).
    Needs numba."""
    if problem.moves:
        raise InputError("the compiled push search counts pushes: use --optimize pushes")
    board = problem.board
    nboxes = board.start_boxes.bit_count()
    if nboxes > MAX_BOXES:
        raise InputError(f"the compiled push search takes at most {MAX_BOXES} boxes (this level has {nboxes})")
    if len(board.goal_list) != nboxes:
        raise InputError("the compiled push search needs as many goals as boxes")
    width = board.width
    words, encode, encode_rows, decode = _positions(board)

    def action(m: int, keys: Any) -> Push:
        return Push(bits(decode(keys)[0])[m >> 2], m & 3, width)

    return CompiledRules(
        module=RULES,
        width=words + 1,
        context=push_context(problem),
        encode=encode,
        encode_rows=encode_rows,
        decode=decode,
        action=action,
        max_moves=4 * max(1, nboxes),
    )


def pull_rules_of(board: Any, target: State, lists: int) -> CompiledRules:
    """The compiled pull rules (`pull_rules`) of ``board``'s level, from its solved positions
    back to ``target`` (a position with the start's boxes), with ``lists`` estimates (1:
    nearest start square; 2: and the matching).  A move's action is the push that undoes
    the pull.  `InputError` for a level they cannot take (more than `MAX_BOXES` boxes).
    Needs numba."""
    nboxes = board.start_boxes.bit_count()
    if nboxes > MAX_BOXES:
        raise InputError(f"the compiled pull search takes at most {MAX_BOXES} boxes (this level has {nboxes})")
    width, offsets = board.width, board.offsets
    words, encode, encode_rows, decode = _positions(board)

    def action(m: int, keys: Any) -> Push:
        k = m & 3
        return Push(bits(decode(keys)[0])[m >> 2] + offsets[k], k ^ 1, width)

    return CompiledRules(
        module=PULL_RULES,
        width=words + 1,
        context=pull_context(board, target),
        encode=encode,
        encode_rows=encode_rows,
        decode=decode,
        action=action,
        max_moves=4 * max(1, nboxes),
        lists=lists,
    )


def _positions(board: Any) -> tuple[int, Any, Any, Any]:
    """``(W, encode, encode_rows, decode)``: the words of a position's boxes and how
    positions cross into the kernels' words (the boxes' ``W`` words, then the player's
    square; ``encode_rows``: many at once, the boxes' bytes in one go) and back."""
    words = (board.size + 63) // 64

    def encode_rows(states: list[State]) -> Any:
        import numpy as np

        rows = np.empty((len(states), words + 1), np.uint64)
        raw = b"".join(boxes.to_bytes(8 * words, "little") for boxes, _player in states)
        rows[:, :words] = np.frombuffer(raw, "<u8").reshape(len(states), words)
        rows[:, words] = [player for _boxes, player in states]
        return rows

    def encode(state: State) -> Any:
        return encode_rows([state])[0]

    def decode(keys: Any) -> State:
        return sum(int(w) << (64 * t) for t, w in enumerate(keys[:words])), int(keys[words])

    return words, encode, encode_rows, decode


def pull_context(board: Any, target: State) -> tuple:
    """The ``ctx`` of the pull rules (`pull_rules`, laid out as the push rules') for
    ``board``, aimed at ``target``: a new one each call (it holds the scratch)."""
    import numpy as np

    from .heuristics import rows_to
    from .matching_rule import BIG
    from .push_kernel import META, scratch

    size, starts = board.size, target[0]
    nboxes = board.start_boxes.bit_count()
    nstarts = starts.bit_count()
    dist = np.full((size * 4, nstarts), BIG, np.int64)
    for x, row in enumerate(rows_to(board, starts, pulls=True)):
        if row:
            dist[4 * x : 4 * x + 4] = np.minimum(row, BIG)  # the board's INF as the kernel's BIG
    near = dist[::4].min(axis=1) if nstarts else np.full(size, BIG, np.int64)
    comp = np.broadcast_to(np.zeros(1, np.int8), (size, size))  # every square on side 0
    words, encode, _rows, _decode = _positions(board)
    geo = np.array([words, nboxes, 0, 0, 0, board.impossible is not None], np.int64)
    none = np.zeros(0, np.uint8)
    occ, buf, costs, ints, used = scratch(size, nboxes)
    memo = np.zeros(META, np.int64)
    key = np.zeros(words + 1, np.uint64)
    h_out = np.zeros(1, np.int64)
    tables = (neighbours(board), none, none, none, none, dist, comp, geo, encode(target))
    return (*tables, occ, buf, costs, ints, used, memo, key, near, h_out)


def push_context(problem: Any) -> tuple:
    """The ``ctx`` of the push rules (`push_rules`) for ``problem``'s board and pruning: a
    new one each call (it holds the scratch the rules work in)."""
    import numpy as np

    from .push_kernel import META, scratch

    board, pruning = problem.board, problem.pruning
    nbr, floor, dead, goal, dist, comp = _tables(board, pruning.dead_squares, np)
    alive = np.zeros(4 * board.size, np.uint8)
    for x in bits(board.floor):
        for c, near in enumerate(board.nearest[x]):
            alive[4 * x + c] = near < INF
    nboxes = board.start_boxes.bit_count()
    words = (board.size + 63) // 64
    geo = np.array(
        [words, nboxes, pruning.freeze, pruning.corral, pruning.dead_squares, board.impossible is not None], np.int64
    )
    goals = np.frombuffer(board.goals.to_bytes(8 * words, "little"), "<u8").astype(np.uint64)
    occ, buf, costs, ints, used = scratch(board.size, nboxes)
    memo = np.zeros(META, np.int64)
    key = np.zeros(words + 1, np.uint64)
    return (nbr, floor, dead, goal, alive, dist, comp, geo, goals, occ, buf, costs, ints, used, memo, key)


def matches(problem: Any) -> bool:
    """Whether ``problem``'s own successors and heuristic are those of its push rules: pushes,
    the matching bound, no macros, packing, cluster proofs or foreign heuristic, and neither
    freeze nor corral pruning (the Python freeze test also finds boxes frozen on goals that
    seal others off, and the Python corral pruning proves areas shut by a small search:
    pruning the rules leave to the search)."""
    return (
        not problem.moves
        and problem.h_name == MATCHING
        and "heuristic" not in vars(problem)  # `use_foreign_heuristic`
        and problem.packing is None
        and not problem.use_tunnels
        and problem.room is None
        and problem.pruning.clusters is None
        and problem.admit is None
        and FREEZE in problem.pruning.disabled
        and CORRAL in problem.pruning.disabled
    )


def _tables(board: Any, use_dead: bool, np: Any) -> tuple:
    """The board as the kernel reads it: neighbours per direction (-1: wall), floor, dead
    squares, goals, push distances per (square, player's side) and goal, and the side index
    of every square seen from a cut square (0 elsewhere)."""
    from .matching_rule import BIG  # imports numba: only when the rules are built

    size = board.size
    nbr = neighbours(board)
    floor_bits = board.floor
    floor = np.array([floor_bits >> x & 1 for x in range(size)], np.uint8)
    dead = np.array([0 if (board.live >> x & 1 or not use_dead) else 1 for x in range(size)], np.uint8)
    goal = np.array(list(board.is_goal), np.uint8)
    ngoals = len(board.goal_list)
    dist = np.full((size * 4, ngoals), BIG, np.int64)
    comp = np.zeros((size, size), np.int8)
    for x in bits(floor_bits):
        for c, row in enumerate(board.rowdist[x]):
            for j, d in enumerate(row):
                if d != float("inf"):
                    dist[x * 4 + c, j] = int(d)
        if board.multi[x]:
            comp[x, :] = np.frombuffer(bytes(board.compidx[x]), np.int8)
    return nbr, floor, dead, goal, dist, comp
