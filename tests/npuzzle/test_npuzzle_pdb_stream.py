"""The compiled streaming builder gives the numpy builder's tables, and the compiled search
reads rank-indexed tables (the 7-8 partition's) exactly as it reads base-n ones."""

from __future__ import annotations

import random

import numpy as np
import pytest
from searchkit_npuzzle import fastida, pdb
from searchkit_npuzzle.board import make_goal
from searchkit_npuzzle.compiled import DISABLE_ENV
from searchkit_npuzzle.domain import NPuzzleDomain
from searchkit_npuzzle.korf import KORF_GOAL, load_korf100
from searchkit_npuzzle.pdb import database as pdb_database

from searchkit import InputError, replay

pytest.importorskip("numba")
from searchkit_npuzzle.pdb import build_stream as pdb_stream  # noqa: E402

BLANK_FIRST3 = tuple(range(9))
BLANK_LAST3 = tuple(range(1, 9)) + (0,)


pytestmark = pytest.mark.usefixtures("private_pdb_cache")


@pytest.fixture(autouse=True)
def _compiled(monkeypatch):
    monkeypatch.delenv(DISABLE_ENV, raising=False)


@pytest.mark.parametrize(
    "width,height,goal,tiles",
    [
        (3, 3, BLANK_FIRST3, (1, 2, 3, 4)),
        (3, 3, BLANK_LAST3, tuple(range(1, 9))),  # exact: half the tables is unreachable (255)
        (3, 3, BLANK_FIRST3, (5,)),
        (2, 3, tuple(range(6)), (1, 2)),
        (3, 2, (1, 2, 3, 4, 5, 0), (1, 5)),
        (4, 3, tuple(range(12)), (1, 2, 3, 4, 5)),  # not square: the bitboard edges differ per axis
        (3, 4, (1, 2, 3, 4, 0, 5, 6, 7, 8, 9, 10, 11), (2, 6, 7, 11)),  # blank mid-board
        (4, 4, tuple(range(16)), (4, 5, 8, 9)),
        (5, 5, tuple(range(25)), (1, 2, 5)),  # 22 free cells: 32-bit masks
    ],
)
def test_streaming_builder_equals_numpy_builder(width, height, goal, tiles):
    expected = pdb.build_group(width, height, goal, tiles, progress=False)
    got = pdb_stream.build_group_stream(width, height, goal, tiles)
    assert got.dtype == np.uint8 and got.shape == expected.shape
    assert (got == expected).all()


def test_mask_type_and_memory_estimate():
    assert pdb_stream.mask_dtype(8) == np.uint8 and pdb_stream.mask_dtype(9) == np.uint16
    assert pdb_stream.mask_dtype(20) == np.uint32
    with pytest.raises(ValueError):
        pdb_stream.mask_dtype(33)
    # the 7-8 partition's 8-tile group: 519 million placements, three mask bytes and an answer each
    assert pdb_stream.bytes_needed(16, 8) == 518_918_400 * 4
    assert pdb_stream.bytes_needed(16, 8) <= pdb.MAX_STREAM_BYTES


def test_78_is_offered_and_needs_the_compiled_builder(monkeypatch):
    part = pdb.parse_partition("7-8", 4, 4)
    assert part.name == "pdb-78" and sorted(len(g) for g in part.groups) == [7, 8]
    pdb.check_partition(part.groups, 16, part.name)
    monkeypatch.setenv(DISABLE_ENV, "1")
    with pytest.raises(InputError, match=r"searchkit\[fast\]"):
        pdb.load_or_build(part, KORF_GOAL)


def _drop_views():
    for db in pdb._LOADED.values():
        db._sparse, db._flat = None, {}


def test_rank_indexed_lookups_search_like_base_n_ones(monkeypatch):
    """Forcing the rank-indexed (compact) kernel path on 5-5-5 tables changes no node."""
    domain = NPuzzleDomain()
    for board, length in [load_korf100()[i] for i in (8, 11, 18)]:
        problem = domain.make_problem(
            {"size": "4", "board": " ".join(map(str, board)), "goal": "blank-first"}, domain.heuristics["pdb-555"]
        )
        _drop_views()
        base_n = fastida.npuzzle_idastar(problem)
        with monkeypatch.context() as m:
            m.setattr(pdb_database, "SPARSE_LIMIT", 1)  # where `sparse()` reads it
            _drop_views()
            ranked = fastida.npuzzle_idastar(problem)
        replay(problem, ranked)
        assert base_n.cost == ranked.cost == length
        assert base_n.actions == ranked.actions
        assert (base_n.stats.expanded, base_n.stats.generated) == (ranked.stats.expanded, ranked.stats.generated)
    _drop_views()


def test_rank_indexed_weighted_search_on_a_blank_last_goal(monkeypatch):
    domain = NPuzzleDomain()
    goal = make_goal("blank-last", 4, 4)
    rng = random.Random(5)
    problems = [
        domain.make_problem({"size": "4", "seed": rng.randrange(10**6)}, domain.heuristics["pdb-555"]) for _ in range(3)
    ]
    _drop_views()
    expected = [fastida.npuzzle_wida(p, weight=1.5) for p in problems]
    with monkeypatch.context() as m:
        m.setattr(pdb_database, "SPARSE_LIMIT", 1)  # where `sparse()` reads it
        _drop_views()
        got = [fastida.npuzzle_wida(p, weight=1.5) for p in problems]
    _drop_views()
    for problem, a, b in zip(problems, expected, got):
        assert tuple(problem.goal) == goal
        replay(problem, b)
        assert b.solved and a.actions == b.actions
