"""Hamming, Manhattan and linear-conflict heuristics, each with an incremental form.

The incremental successor functions compute a child's estimate from its parent's with
table lookups: a move changes one tile's place, so Manhattan changes by a precomputed
delta and linear conflicts change only in the two lines the tile leaves and enters.
"""

from __future__ import annotations

from functools import cache

from searchkit import Heuristic

from .problem import NPuzzleProblem


def _attach_tile_sum(problem: NPuzzleProblem, table: list[list[int]]) -> None:
    """Attach a heuristic that sums ``table[tile][cell]`` over the board, incrementally."""
    bits, mask, n = problem.bits, problem.mask, problem.n
    moves = problem.moves_with_tile_delta(table)
    top = problem.top

    def h(state: int) -> int:
        return sum(table[(state >> (bits * p)) & mask][p] for p in range(n))

    def successors_with_h(state: int, hv: float) -> list:
        out = []
        for action, _p, sp, change, delta in moves[state >> top]:
            t = (state >> sp) & mask
            out.append((action, state + change[t], 1, hv + delta[t]))
        return out

    problem.use_heuristic(h, successors_with_h)


def attach_hamming(problem: NPuzzleProblem) -> None:
    table = [[0 if t == 0 or problem.goal_pos[t] == p else 1 for p in range(problem.n)] for t in range(problem.n)]
    _attach_tile_sum(problem, table)


def attach_manhattan(problem: NPuzzleProblem) -> None:
    _attach_tile_sum(problem, problem.manhattan_table())


def _lis_length(seq: tuple[int, ...]) -> int:
    """Length of the longest increasing subsequence (patience sorting)."""
    from bisect import bisect_left

    tails: list[int] = []
    for x in seq:
        i = bisect_left(tails, x)
        if i == len(tails):
            tails.append(x)
        else:
            tails[i] = x
    return len(tails)


def attach_linear_conflict(problem: NPuzzleProblem) -> None:
    """Manhattan plus 2 per tile that must leave its goal line to let the others pass.

    In each row (column), the tiles whose goal is in that row (column) must end in goal
    order; the fewest that must step out of the line is the line's length minus the
    longest run already in order (Hansson, Mayer and Yung's conflicts, counted exactly
    with a longest increasing subsequence), and each costs two extra moves.
    """
    w, hgt, n, bits, mask, top = problem.width, problem.height, problem.n, problem.bits, problem.mask, problem.top
    goal_pos = problem.goal_pos
    md = problem.manhattan_table()
    lines = [tuple(r * w + c for c in range(w)) for r in range(hgt)] + [
        tuple(r * w + c for r in range(hgt)) for c in range(w)
    ]

    def make_line_value(index: int):
        cells = lines[index]
        is_row = index < hgt
        fixed = index if is_row else index - hgt

        @cache
        def value(tiles: tuple[int, ...]) -> int:
            order = []
            for t in tiles:
                if t:
                    g = goal_pos[t]
                    if is_row and g // w == fixed:
                        order.append(g % w)
                    elif not is_row and g % w == fixed:
                        order.append(g // w)
            return 2 * (len(order) - _lis_length(tuple(order)))

        shifts = tuple(bits * p for p in cells)
        return lambda state: value(tuple((state >> s) & mask for s in shifts))

    line_value = [make_line_value(i) for i in range(len(lines))]
    moves = []
    for b, per_blank in enumerate(problem.moves_with_tile_delta(md)):
        row = []
        for a, p, sp, change, delta in per_blank:
            if a in "UD":  # the tile changes row: rows b//w and p//w change
                affected = (line_value[b // w], line_value[p // w])
            else:  # the tile changes column
                affected = (line_value[hgt + b % w], line_value[hgt + p % w])
            row.append((a, sp, change, delta, affected[0], affected[1]))
        moves.append(row)

    def h(state: int) -> int:
        total = sum(md[(state >> (bits * p)) & mask][p] for p in range(n))
        return total + sum(v(state) for v in line_value)

    def successors_with_h(state: int, hv: float) -> list:
        out = []
        for action, sp, change, delta, la, lb in moves[state >> top]:
            t = (state >> sp) & mask
            child = state + change[t]
            out.append((action, child, 1, hv + delta[t] + la(child) + lb(child) - la(state) - lb(state)))
        return out

    problem.use_heuristic(h, successors_with_h)


BUILTIN = {
    "hamming": (attach_hamming, "misplaced tiles"),
    "manhattan": (attach_manhattan, "sum of taxicab distances of the tiles to their goal cells"),
    "linear-conflict": (attach_linear_conflict, "Manhattan + 2 per tile that must leave its goal row/column"),
}


def builtin_heuristics() -> dict[str, Heuristic]:
    # all three are consistent: a move changes one tile's distance by one, and linear
    # conflicts by at most the change of that tile's Manhattan distance plus two
    return {name: Heuristic(name, None, summary, consistent=True) for name, (_attach, summary) in BUILTIN.items()}
