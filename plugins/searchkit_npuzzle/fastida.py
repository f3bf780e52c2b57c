"""IDA* specialised for the sliding-tile puzzle (the ``npuzzle-idastar`` and ``npuzzle-wida`` engines).

Interface: ``npuzzle_idastar(problem, *, limits=None, observer=None) -> searchkit.Result``
for an `NPuzzleProblem`; ``problem.heuristic_name`` picks ``manhattan``,
``linear-conflict`` or a ``pdb-*`` pattern database (any other name runs the generic
``idastar``).  Actions are the blank's moves (U/D/L/R), states the problem's packed ints.

``npuzzle_wida(problem, *, weight=1.5, ...)`` is the same search with the bound on
``g + weight * h`` (weighted IDA*): with an admissible heuristic its solution is at most
``weight`` times optimal, and far fewer nodes are needed: with the 24-puzzle's pattern
databases at weight 1.5, each of Korf & Felner's instances takes under a second (a few
random boards take several).

Unlike the generic engine it keeps one mutable board and the blank's cell, never moves
the blank straight back, and updates the heuristic per move instead of per state: the
Manhattan sum by a table delta, linear conflicts in the two lines the tile leaves and
enters, pattern-database keys by one addition each (the moved tile's group, and the group
of its mirror image for the reflected lookup).  When numba is installed, Manhattan and the
pattern databases run as the core's compiled IDA* (`searchkit.compiled_idastar`) over the
puzzle's compiled rules (`rules`, `rules_pdb`, `rules_ranked`), in slices of nodes between
limit checks; otherwise, or when an observer wants every node, the same search runs in
Python and returns the same path and counts, only slower.
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable
from typing import Any

from searchkit import (
    LIMIT,
    NO_SOLUTION,
    SOLVED,
    InputError,
    Limits,
    Observer,
    Result,
    Run,
    astar,
    compiled_idastar,
    idastar,
    integer_weights,
)
from searchkit.kernels import wants_nodes

from .blank_paths import DIRS, finish, neighbours
from .compiled import compiled_kernel_available

ESCALATE_NODES = 1 << 22  # expansions (~0.6 s compiled) before npuzzle-wida raises its weight
WEIGHT_STEP = 0.5  # how much it raises it by
WIDA_MAX_WEIGHT = 2.5  # the 5x5 default's ceiling (configs/npuzzle24-random.toml: every seed under 2 s)
WIDA_WEIGHT = 1.5  # npuzzle-wida's default: 1.16x optimal, every Korf 24-puzzle under 1 s (configs/npuzzle24.toml)


# -- incremental heuristics for the Python search --------------------------------------------------
# Each is (h0, slide): ``slide(t, frm, to)`` moves tile t from cell frm to cell to in the
# heuristic's own bookkeeping (the board is already updated) and returns the new estimate;
# the reverse slide restores the previous one exactly.


def _manhattan(problem: Any, board: list[int]) -> tuple[int, Callable[[int, int, int], int]]:
    md = problem.manhattan_table()
    h = sum(md[t][p] for p, t in enumerate(board))
    state = [h]

    def slide(t: int, frm: int, to: int) -> int:
        state[0] += md[t][to] - md[t][frm]
        return state[0]

    return h, slide


def _linear_conflict(problem: Any, board: list[int]) -> tuple[int, Callable[[int, int, int], int]]:

    w, hgt = problem.width, problem.height
    goal_pos = problem.goal_pos
    md = problem.manhattan_table()
    rows = [[r * w + c for c in range(w)] for r in range(hgt)]
    cols = [[r * w + c for r in range(hgt)] for c in range(w)]

    def line_value(is_row: bool, fixed: int):
        @functools.cache
        def value(tiles: tuple[int, ...]) -> int:
            order = [
                goal_pos[t] % w if is_row else goal_pos[t] // w
                for t in tiles
                if t and (goal_pos[t] // w if is_row else goal_pos[t] % w) == fixed
            ]
            best = [1] * len(order)  # longest increasing run ending at each tile
            for i in range(len(order)):
                for j in range(i):
                    if order[j] < order[i] and best[j] + 1 > best[i]:
                        best[i] = best[j] + 1
            return 2 * (len(order) - max(best, default=0))

        return value

    row_value = [line_value(True, r) for r in range(hgt)]
    col_value = [line_value(False, c) for c in range(w)]
    lines = [0] * (hgt + w)  # current conflict value of each row, then each column

    def line(i: int) -> int:
        cells = rows[i] if i < hgt else cols[i - hgt]
        fn = row_value[i] if i < hgt else col_value[i - hgt]
        return fn(tuple(board[p] for p in cells))

    for i in range(hgt + w):
        lines[i] = line(i)
    state = [sum(md[t][p] for p, t in enumerate(board)) + sum(lines)]

    def slide(t: int, frm: int, to: int) -> int:
        h = state[0] + md[t][to] - md[t][frm]
        if frm % w == to % w:  # vertical move: the tile changed row
            a, b = frm // w, to // w
        else:  # horizontal: it changed column
            a, b = hgt + frm % w, hgt + to % w
        va, vb = line(a), line(b)
        h += va + vb - lines[a] - lines[b]
        lines[a], lines[b] = va, vb
        state[0] = h
        return h

    return state[0], slide


def _pattern_db(db: Any, board: list[int]) -> tuple[int, Callable[[int, int, int], int]]:
    sparse = db.sparse()
    tables = [t.tobytes() for t in sparse]  # bytes index to small ints fast, at a byte an entry
    group, weight, mgroup, mweight = db.tile_keys()
    n = db.n
    pos = [0] * n
    for p, t in enumerate(board):
        pos[t] = p
    keys, mkeys = db.keys(pos)
    vals = [tables[i][keys[i]] for i in range(len(keys))]
    sums = [sum(vals), 0]
    mirror = db.mirror is not None
    cmap = db.mirror[0] if mirror else list(range(n))
    mvals = [0] * len(keys)
    if mirror:
        mvals = [tables[i][mkeys[i]] for i in range(len(keys))]
        sums[1] = sum(mvals)

    def slide(t: int, frm: int, to: int) -> int:
        g = group[t]
        k = keys[g] + (to - frm) * weight[t]
        keys[g] = k
        v = tables[g][k]
        hs = sums[0] + v - vals[g]
        vals[g] = v
        sums[0] = hs
        if mirror:
            g = mgroup[t]
            k = mkeys[g] + (cmap[to] - cmap[frm]) * mweight[t]
            mkeys[g] = k
            v = tables[g][k]
            ms = sums[1] + v - mvals[g]
            mvals[g] = v
            sums[1] = ms
            if ms > hs:
                return ms
        return hs

    return max(sums), slide


def _database(problem: Any):
    from .pdb import get_database

    return get_database(problem.heuristic_name, problem.width, problem.height, tuple(problem.goal))


# -- the engine --------------------------------------------------------------------------------------


def npuzzle_idastar(problem: Any, *, limits: Limits | None = None, observer: Observer | None = None) -> Result:
    """Optimal solution of an n-puzzle by IDA* over one mutable board (see the module doc)."""
    return _run(problem, limits, observer, 1, 1, "npuzzle-idastar")


def npuzzle_wida(
    problem: Any,
    *,
    weight: float = WIDA_WEIGHT,
    max_weight: float | None = None,
    improve: bool = False,
    limits: Limits | None = None,
    observer: Observer | None = None,
) -> Result:
    """Weighted IDA*: a solution at most ``weight`` times optimal (see the module doc).

    With ``improve`` and a time or node limit, the rest of the limit goes to cheaper answers
    (`anytime_ida`): the Result is then ``solved`` on a limit too, with the lower bound it
    proved and a guarantee of ``optimal`` or ``within R of optimal``.

    With ``max_weight`` above ``weight``, a search still running after `ESCALATE_NODES`
    expansions starts again with the weight raised by `WEIGHT_STEP` (and twice the node
    budget), up to ``max_weight``: weighted IDA*'s time is heavy-tailed (at 1.5 most
    random 24-puzzles take well under a second, one in ten several), and a slightly larger
    weight cuts such a tail by orders of magnitude.  The Result's ``guarantee`` names the
    weight that answered; the stats add up every stage.
    """
    if max_weight is not None and (
        isinstance(max_weight, bool) or not isinstance(max_weight, (int, float)) or not max_weight >= 1
    ):
        raise InputError(f"max_weight must be a number of at least 1 (got {max_weight!r})")
    bounded = limits is not None and (limits.timeout_s is not None or limits.max_expanded is not None)
    if improve and bounded and specialised(problem) and getattr(problem, "heuristic_admissible", False):
        from .anytime_ida import improve as improving

        run = Run("npuzzle-wida", limits, observer)
        first, answered = _escalate(problem, weight, max_weight, run.rest(), observer)
        run.absorb(first.stats)
        if first.status != SOLVED or run.reason is not None:
            return first

        def capped(w: float, rest: Limits, cap: float) -> Result:
            gw, hw = weight_ratio(w)
            return _run(problem, rest, observer, gw, hw, "npuzzle-wida", cap=cap)

        return improving(problem, run, first, answered, capped)
    return _escalate(problem, weight, max_weight, limits, observer)[0]


def _escalate(
    problem: Any, weight: float, max_weight: float | None, limits: Limits | None, observer: Observer | None
) -> tuple[Result, float]:
    """Weighted IDA* from ``weight``, raised up to ``max_weight`` while searches run long;
    the Result and the weight that answered."""
    if max_weight is None or max_weight <= weight:
        gw, hw = weight_ratio(weight)
        return _run(problem, limits, observer, gw, hw, "npuzzle-wida"), weight
    run = Run("npuzzle-wida", limits, observer)
    budget = ESCALATE_NODES
    w = weight
    while True:
        last = w >= max_weight
        stage = run.rest()
        own_budget = not last and (stage.max_expanded is None or budget < stage.max_expanded)
        if own_budget:
            stage.max_expanded = budget
        gw, hw = weight_ratio(w)
        result = _run(problem, stage, observer, gw, hw, "npuzzle-wida")
        run.absorb(result.stats)
        if result.status != LIMIT or not own_budget or result.stats.limit_reason != "nodes":
            run.reason = result.stats.limit_reason
            path = (result.actions, result.states, result.cost) if result.status == SOLVED else None
            total = run.result(result.status, path)
            total.guarantee = f"suboptimal (weight {w:g})"
            return total, w
        w = min(max_weight, w + WEIGHT_STEP)
        budget *= 2


def _rules(problem: Any) -> Any:
    """The problem's compiled rules when the compiled IDA* can run here (numba, not disabled), else None."""
    if not compiled_kernel_available():
        return None
    return problem.compiled_rules()


def warm_up_kernel() -> None:
    """Compile (the first time on this machine) or load the core's IDA* kernels for the
    puzzle's rules, e.g. in a benchmark's parent process; nothing when they cannot run here."""
    if compiled_kernel_available():
        from searchkit import warm_up_compiled

        from .problem import NPuzzleProblem

        problem = NPuzzleProblem(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8), (1, 2, 3, 4, 5, 6, 7, 8, 0), "manhattan")
        warm_up_compiled(problem, problem.compiled_rules())


def weight_ratio(weight: float) -> tuple[int, int]:
    """``(gw, hw)``: small integers with ``hw / gw`` at most ``weight`` and within 1e-3 of it,
    so bounds on ``gw * g + hw * h`` stay exact integers."""
    return integer_weights(weight, 1000)


def _run(
    problem: Any,
    limits: Limits | None,
    observer: Observer | None,
    gw: int,
    hw: int,
    engine: str,
    cap: float | None = None,
) -> Result:
    """One (weighted) IDA*; with ``cap`` (an anytime search's incumbent) only answers
    cheaper than it, and the Result's ``bound`` says what the search proved about them."""
    name = problem.heuristic_name
    generic = not specialised(problem)
    db = None if generic or not name.startswith("pdb-") else _database(problem)
    nodes = wants_nodes(observer)  # every node reported: the Python search
    rules = _rules(problem) if not generic and name != "linear-conflict" and not nodes else None
    # the Python search reads base-n tables; rank-indexed ones (7-8) need the compiled search
    if generic or (rules is None and db is not None and db.sparse() is None):
        if cap is not None:
            raise ValueError("a capped search needs the specialised search (a 'pdb-*' table in base-n form)")
        if gw == hw:  # the generic engine with the same guarantee
            return idastar(problem, limits=limits, observer=observer)
        return astar(problem, weight=hw / gw, limits=limits, observer=observer)
    if rules is not None:
        return compiled_idastar(
            problem,
            rules,
            weights=(gw, hw),
            cap=None if cap is None else math.ceil(cap),
            limits=limits,
            observer=observer,
            name=engine,
        )
    search = _PySearch(problem, db, Run(engine, limits, observer), gw, hw, cap)
    result: Result = search.solve()
    if cap is not None:
        result.bound = cap if result.status == NO_SOLUTION else search.floor
    return result


def specialised(problem: Any) -> bool:
    """Whether ``problem``'s heuristic is one the specialised search updates per move."""
    name = problem.heuristic_name or ""
    return name in ("manhattan", "linear-conflict") or name.startswith("pdb-")


class _PySearch:
    """The pure-Python search: recursive, one board, incremental heuristic, the bound on
    ``gw * g + hw * h`` (as in the compiled IDA*, `searchkit.kernels.idastar`)."""

    def __init__(self, problem: Any, db: Any, run: Run, gw: int = 1, hw: int = 1, cap: float | None = None):
        self.problem, self.db, self.run = problem, db, run
        self.gw, self.hw = gw, hw
        self.cap = math.inf if cap is None else cap
        self.floor = 0  # as the compiled IDA*'s floor
        self.expanded = self.generated = self.duplicates = self.iterations = 0

    def _heuristic(self, board: list[int]):
        name = self.problem.heuristic_name
        if self.db is not None:
            return _pattern_db(self.db, board)
        if name == "manhattan":
            return _manhattan(self.problem, board)
        return _linear_conflict(self.problem, board)

    def solve(self) -> Result:
        problem, run = self.problem, self.run
        board = list(problem.start)
        h0, slide = self._heuristic(board)
        gw = self.gw
        bound = self.hw * h0
        path: list[int] = []
        if h0 == 0:
            return finish(problem, run, SOLVED, path)
        while True:  # an iteration that fails undoes every move: board and slide are as at the start
            self.iterations += 1
            self.floor = bound if gw == self.hw else h0
            if run.observer is not None:
                run.observer.iteration(bound if gw == 1 else bound / gw)
            found, next_bound = self._iteration(board, h0, slide, bound, path)
            counts = {
                "expanded": self.expanded,
                "generated": self.generated,
                "duplicates": self.duplicates,
                "iterations": self.iterations,
            }
            if found:
                return finish(problem, run, SOLVED, path, **counts)
            if run.reason is not None:
                return finish(problem, run, LIMIT, None, **counts)
            if next_bound is None:
                return finish(problem, run, NO_SOLUTION, None, **counts)
            bound = next_bound

    def _iteration(self, board: list[int], h0: int, slide, bound: int, path: list[int]) -> tuple[bool, int | None]:
        problem, run = self.problem, self.run
        observer = run.observer
        moves = neighbours(problem.width, problem.height)
        encode = problem.encode
        gw, hw, cap = self.gw, self.hw, self.cap
        shown = bound if gw == 1 else bound / gw
        expanded, generated, duplicates = self.expanded, 0, 0
        next_check = run.next_check
        best_next: list[int | None] = [None]

        def visit(blank: int, g: int, h: int, back: int) -> bool:
            nonlocal expanded, generated, duplicates, next_check
            if expanded >= next_check:
                if run.limit_reached(expanded, self.generated + generated, g, shown):
                    return False
                next_check = run.next_check
            expanded += 1
            if observer is not None:
                state = encode(tuple(board))
                observer.expand(state, g, h)
            cg = g + 1
            for d, nb in moves[blank]:
                if d == back:  # counted as the core's engines count it: generated, a duplicate
                    generated += 1
                    duplicates += 1
                    if observer is not None:
                        board[blank], board[nb] = board[nb], 0
                        observer.generate(state, DIRS[d], encode(tuple(board)), cg, None, "duplicate")
                        board[nb], board[blank] = board[blank], 0
                    continue
                t = board[nb]
                board[blank] = t
                board[nb] = 0
                ch = slide(t, nb, blank)
                generated += 1
                f = gw * cg + hw * ch
                if cg + ch >= cap:  # no cheaper answer through it: cut for good
                    if observer is not None:
                        observer.generate(state, DIRS[d], encode(tuple(board)), cg, ch, "pruned")
                elif f > bound:
                    nxt = best_next[0]
                    if nxt is None or f < nxt:
                        best_next[0] = f
                    if observer is not None:
                        observer.generate(state, DIRS[d], encode(tuple(board)), cg, ch, "pruned")
                else:
                    if observer is not None:
                        observer.generate(state, DIRS[d], encode(tuple(board)), cg, ch, "new")
                    path.append(d)
                    if ch == 0 or visit(nb, cg, ch, d ^ 1):
                        return True  # the board stays as it is: the search is over
                    path.pop()
                    if run.reason is not None:
                        return False
                slide(t, blank, nb)
                board[nb] = t
                board[blank] = 0
            return False

        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 10_000))
        try:
            found = visit(board.index(0), 0, h0, -1)
        finally:
            sys.setrecursionlimit(old)
            self.expanded = expanded
            self.generated += generated
            self.duplicates += duplicates
        return found, best_next[0]
