"""Weighted IDA* for the n-puzzle (``npuzzle-wida``): the same path and counts as a plain
reference search, compiled or not; within ``weight`` x optimal; limits honoured; the
defaults pick it on 5x5 only when the compiled kernel can run."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from searchkit_npuzzle import fastida
from searchkit_npuzzle.board import random_board, scrambled_board
from searchkit_npuzzle.compiled import DISABLE_ENV
from searchkit_npuzzle.domain import NPuzzleDomain
from searchkit_npuzzle.korf import KORF24_GOAL
from searchkit_npuzzle.pdb import cache as pdb_cache

from searchkit import Limits, astar, bfs, replay

GOAL3 = tuple(range(1, 9)) + (0,)
GOAL4 = tuple(range(1, 16)) + (0,)


pytestmark = pytest.mark.usefixtures("private_pdb_cache")


def make(board, goal, heuristic, width, height=None):
    height = height or width
    """The problem exactly as the domain builds it (heuristic wiring included)."""
    domain = NPuzzleDomain()
    options = {"size": f"{width}x{height}", "board": " ".join(map(str, board)), "goal": " ".join(map(str, goal))}
    return domain.make_problem(options, domain.heuristics[heuristic])


def run(problem, compiled: bool, monkeypatch, **kw):
    if compiled:
        pytest.importorskip("numba")
    with monkeypatch.context() as m:
        if compiled:
            m.delenv(DISABLE_ENV, raising=False)
        else:
            m.setenv(DISABLE_ENV, "1")
        return fastida.npuzzle_wida(problem, **kw)


def reference_wida(board, goal, width, height, weight):
    """Textbook weighted IDA* on tuples with Manhattan from scratch and exact fractions:
    blank moves U, D, L, R, never straight back, goal tested when a child passes the bound.
    Returns (moves, expanded, generated, iterations)."""
    w = Fraction(weight)
    home = {t: divmod(p, width) for p, t in enumerate(goal)}

    def h(b):
        return sum(
            abs(r - home[t][0]) + abs(c - home[t][1]) for p, t in enumerate(b) if t for r, c in [divmod(p, width)]
        )

    steps = ((-width, "U"), (width, "D"), (-1, "L"), (1, "R"))
    opposite = {"U": "D", "D": "U", "L": "R", "R": "L"}
    counts = {"expanded": 0, "generated": 0}

    def visit(b, blank, g, back, bound, path):
        counts["expanded"] += 1
        best = None
        r, c = divmod(blank, width)
        for step, name in steps:
            if name == back:  # the move back: generated and dropped, as the core's engines count it
                counts["generated"] += 1
                continue
            if (
                (name == "U" and r == 0)
                or (name == "D" and r == height - 1)
                or (name == "L" and c == 0)
                or (name == "R" and c == width - 1)
            ):
                continue
            nb = blank + step
            child = list(b)
            child[blank], child[nb] = child[nb], 0
            child = tuple(child)
            counts["generated"] += 1
            ch = h(child)
            f = g + 1 + w * ch
            if f > bound:
                best = f if best is None or f < best else best
                continue
            path.append(name)
            if ch == 0:
                return True, None
            found, nxt = visit(child, nb, g + 1, opposite[name], bound, path)
            if found:
                return True, None
            path.pop()
            if nxt is not None and (best is None or nxt < best):
                best = nxt
        return False, best

    start = tuple(board)
    if h(start) == 0:
        return [], 0, 0, 0
    bound, iterations = w * h(start), 0
    while True:
        iterations += 1
        path: list[str] = []
        found, nxt = visit(start, start.index(0), 0, None, bound, path)
        if found:
            return path, counts["expanded"], counts["generated"], iterations
        assert nxt is not None
        bound = nxt


CASES = (
    [(3, 3, GOAL3, s, None) for s in (1, 2, 3)]
    + [(4, 4, GOAL4, s, 40) for s in (4, 5)]
    + [(4, 3, tuple(range(1, 12)) + (0,), 6, 35)]
)


@pytest.mark.parametrize("weight", [1, 1.5, 2, 3.25])
@pytest.mark.parametrize("width,height,goal,seed,scramble", CASES)
@pytest.mark.parametrize("compiled", [False, True])
def test_same_path_and_counts_as_the_reference(width, height, goal, seed, scramble, weight, compiled, monkeypatch):
    rng = random.Random(seed)
    board = random_board(goal, width, rng) if scramble is None else scrambled_board(goal, width, height, scramble, rng)
    problem = make(board, goal, "manhattan", width, height)
    r = run(problem, compiled, monkeypatch, weight=weight)
    moves, expanded, generated, iterations = reference_wida(board, goal, width, height, weight)
    assert r.solved and r.engine == "npuzzle-wida"
    replay(problem, r)
    assert r.actions == moves
    assert (r.stats.expanded, r.stats.generated, r.stats.iterations) == (expanded, generated, iterations)


def test_pattern_database_counts_agree_compiled_and_python(monkeypatch):
    pytest.importorskip("numba")
    for seed in (7, 8):
        board = random_board(GOAL3, 3, random.Random(seed))
        problem = make(board, GOAL3, "pdb-8", 3)
        a = run(problem, False, monkeypatch, weight=1.6)
        b = run(problem, True, monkeypatch, weight=1.6)
        assert a.solved and a.actions == b.actions
        assert (a.stats.expanded, a.stats.generated, a.stats.iterations) == (
            b.stats.expanded,
            b.stats.generated,
            b.stats.iterations,
        )


@pytest.mark.parametrize("compiled", [False, True])
def test_within_weight_times_optimal_on_8_puzzles(compiled, monkeypatch):
    rng = random.Random(21)
    saw_longer = False
    for _ in range(6):
        board = random_board(GOAL3, 3, rng)
        optimal = bfs(make(board, GOAL3, "manhattan", 3)).cost
        for weight in (1, 1.25, 2, 4):
            r = run(make(board, GOAL3, "manhattan", 3), compiled, monkeypatch, weight=weight)
            assert r.solved and optimal <= r.cost <= weight * optimal
            if weight == 1:
                assert r.cost == optimal
            saw_longer |= r.cost > optimal
    assert saw_longer  # the weight does trade length for speed here


def test_fewer_nodes_with_a_weight_on_the_15_puzzle(monkeypatch):
    board = scrambled_board(GOAL4, 4, 4, 80, random.Random(34))  # 0.5 M nodes at weight 1, 15 k at 2
    problem = make(board, GOAL4, "manhattan", 4)
    plain = run(problem, False, monkeypatch, weight=1)
    weighted = run(problem, False, monkeypatch, weight=2)
    assert plain.cost == astar(problem).cost
    assert weighted.stats.expanded * 10 < plain.stats.expanded


@pytest.mark.parametrize("compiled", [False, True])
def test_node_limit_is_exact(compiled, monkeypatch):
    board = random_board(KORF24_GOAL, 5, random.Random(41))
    problem = make(board, KORF24_GOAL, "manhattan", 5)
    r = run(problem, compiled, monkeypatch, weight=1.2, limits=Limits(max_expanded=20_000))
    assert r.status == "limit" and r.stats.limit_reason == "nodes" and r.stats.expanded == 20_000
    assert r.engine == "npuzzle-wida" and r.actions == []


def test_time_limit_and_interrupt_stop_the_compiled_search(monkeypatch):
    board = random_board(KORF24_GOAL, 5, random.Random(42))
    problem = make(board, KORF24_GOAL, "manhattan", 5)
    r = run(problem, True, monkeypatch, weight=1.1, limits=Limits(timeout_s=0.3))
    assert r.status == "limit" and r.stats.limit_reason == "time" and r.stats.elapsed_s < 5
    limits = Limits()
    limits.interrupt.set()
    r = run(problem, True, monkeypatch, limits=limits)
    assert r.status == "limit" and r.stats.limit_reason == "interrupted"


def test_weight_ratio_is_exact_and_never_above_the_weight():
    assert fastida.weight_ratio(1) == (1, 1)
    assert fastida.weight_ratio(1.6) == (5, 8)
    assert fastida.weight_ratio(2) == (1, 2)
    gw, hw = fastida.weight_ratio(1.23456789)
    assert 1.23456789 - 1e-3 <= hw / gw <= 1.23456789
    for bad in (0.5, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            fastida.weight_ratio(bad)


def test_guarantee_and_defaults(monkeypatch):
    from searchkit.plugins import engines
    from searchkit.solving import prepare

    info = engines()["npuzzle-wida"]
    assert info.guarantee({}) == f"suboptimal (weight {fastida.WIDA_WEIGHT:g})"
    assert info.guarantee({"weight": 1}) == "optimal"
    job = prepare("npuzzle", {"size": "3", "seed": 1}, "npuzzle-wida", "manhattan", {"weight": 2})
    assert job.guarantee == "suboptimal (weight 2)"
    domain = NPuzzleDomain()
    full = {p.name: p.default for p in domain.params}
    monkeypatch.setenv(DISABLE_ENV, "1")
    assert domain.defaults(dict(full, size="5"))[:2] == ("astar", "pdb-55554")
    monkeypatch.delenv(DISABLE_ENV)
    expected = "npuzzle-wida" if fastida.compiled_kernel_available() else "astar"
    assert domain.defaults(dict(full, size="5"))[0] == expected


@pytest.mark.parametrize("compiled", [False, True])
def test_escalating_weight_when_a_search_runs_long(compiled, monkeypatch):
    """A stage that spends its node budget restarts at a higher weight; the answer says
    which weight found it and the stats add up every stage."""
    monkeypatch.setattr(fastida, "ESCALATE_NODES", 40)
    rng = random.Random(8)
    escalated = 0
    for _ in range(3):
        board = random_board(GOAL4, 4, rng)
        problem = make(board, GOAL4, "manhattan", 4)
        first = run(problem, compiled, monkeypatch, weight=1.5, limits=Limits(max_expanded=40))
        r = run(problem, compiled, monkeypatch, weight=1.5, max_weight=2.5)
        replay(problem, r)
        w = float(r.guarantee.removeprefix("suboptimal (weight ").rstrip(")"))
        assert r.solved and 1.5 <= w <= 2.5
        if first.solved:  # solved within the first budget: no escalation
            assert w == 1.5 and r.actions == first.actions
        else:
            escalated += 1
            assert w > 1.5 and r.stats.expanded > 40
            again = run(problem, compiled, monkeypatch, weight=w)  # the last stage alone
            assert again.actions == r.actions and r.stats.expanded > again.stats.expanded
    assert escalated
    # the caller's own limits still end the run, and say so
    board = random_board(GOAL4, 4, random.Random(9))
    limited = run(
        make(board, GOAL4, "manhattan", 4),
        compiled,
        monkeypatch,
        weight=1.5,
        max_weight=2.5,
        limits=Limits(max_expanded=30),
    )
    assert limited.status == "limit" and limited.stats.limit_reason == "nodes" and limited.stats.expanded <= 30


def test_escalating_guarantee_names_the_ceiling():
    from searchkit.plugins import engines

    info = engines()["npuzzle-wida"]
    assert info.guarantee({"weight": 1.5, "max_weight": 2.5}) == (
        "suboptimal (weight 1.5, raised up to 2.5 if the search runs long)"
    )
    assert info.guarantee({"weight": 1.5, "max_weight": 1.2}) == "suboptimal (weight 1.5)"


def test_other_heuristics_fall_back_to_weighted_astar(monkeypatch):
    board = random_board(GOAL3, 3, random.Random(51))
    optimal = astar(make(board, GOAL3, "manhattan", 3)).cost
    r = run(make(board, GOAL3, "hamming", 3), False, monkeypatch, weight=1.5)
    assert r.solved and optimal <= r.cost <= 1.5 * optimal


@pytest.mark.slow
def test_korf24_within_target():
    """The 50 24-puzzles with pdb-55554 (built once): mean length <= 1.2 x optimal."""
    pytest.importorskip("numba")
    from searchkit_npuzzle.korf import load_korf24

    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.delenv(pdb_cache.ENV_VAR, raising=False)  # the user's cache: the build is long
    try:
        ratios = []
        for board, length in load_korf24():
            r = fastida.npuzzle_wida(make(board, KORF24_GOAL, "pdb-55554", 5), limits=Limits(timeout_s=30))
            assert r.solved and length <= r.cost <= fastida.WIDA_WEIGHT * length
            ratios.append(r.cost / length)
        assert sum(ratios) / len(ratios) <= 1.2
    finally:
        monkeypatch.undo()
