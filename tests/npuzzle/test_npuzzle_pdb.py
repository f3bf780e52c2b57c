"""Pattern databases: ranking, the 0-1 BFS builder, reflection, the cache file and bad input."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from searchkit_npuzzle import pdb
from searchkit_npuzzle.board import random_board
from searchkit_npuzzle.pdb import cache as pdb_cache
from searchkit_npuzzle.problem import NPuzzleProblem

from searchkit import InputError

GOAL3 = tuple(range(9))  # blank first
GOAL3_LAST = tuple(range(1, 9)) + (0,)
# the 8-puzzle's states by distance from the blank-first goal (Reinefeld 1993): 181,440 in all, 2 at 31
EIGHT_PUZZLE_LAYERS = [
    1,
    2,
    4,
    8,
    16,
    20,
    39,
    62,
    116,
    152,
    286,
    396,
    748,
    1024,
    1893,
    2512,
    4485,
    5638,
    9529,
    10878,
    16993,
    17110,
    23952,
    20224,
    24047,
    15578,
    14560,
    6274,
    3910,
    760,
    221,
    2,
]


pytestmark = pytest.mark.usefixtures("private_pdb_cache")


def bfs_distances(goal: tuple[int, ...], width: int, height: int) -> dict[tuple[int, ...], int]:
    """Exact distances of every state from the goal, by plain breadth-first search."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        board = queue.popleft()
        b = board.index(0)
        r, c = divmod(b, width)
        for ok, p in ((r > 0, b - width), (r < height - 1, b + width), (c > 0, b - 1), (c < width - 1, b + 1)):
            if ok:
                nxt = list(board)
                nxt[b], nxt[p] = nxt[p], 0
                nxt = tuple(nxt)
                if nxt not in dist:
                    dist[nxt] = dist[board] + 1
                    queue.append(nxt)
    return dist


@pytest.fixture(scope="module")
def exact3():
    return bfs_distances(GOAL3, 3, 3)


# -- ranking --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n,k", [(4, 2), (6, 3), (9, 9), (16, 3)])
def test_rank_is_the_lexicographic_index(n, k):
    cells = np.array(list(itertools.permutations(range(n), k)), dtype=np.uint8)
    ranks = pdb.rank(cells, n)
    assert (ranks == np.arange(len(cells))).all()
    assert (pdb.unrank(ranks, n, k) == cells).all()
    index = pdb.sparse_index(n, k)
    assert (index == cells.astype(np.int64) @ np.array(pdb.place_values(n, k), dtype=np.int64)).all()
    assert (np.diff(index) > 0).all()  # increasing with the rank


@settings(max_examples=200, deadline=None)
@given(st.permutations(list(range(16))), st.integers(1, 9))
def test_rank_one_matches_vectorised_rank(cells, k):
    row = cells[:k]
    assert pdb.rank_one(row, 16) == int(pdb.rank(np.array([row], dtype=np.uint8), 16)[0])


# -- building ---------------------------------------------------------------------------------------


def test_exact_8_puzzle_database_has_the_known_layers():
    table = pdb.build_group(3, 3, GOAL3, tuple(range(1, 9)), progress=False)
    assert len(table) == 362880
    reached = table[table != pdb.UNSEEN]
    assert np.bincount(reached).tolist() == EIGHT_PUZZLE_LAYERS


def test_exact_database_equals_bfs_distances(exact3):
    db = pdb.get_database("pdb-8", 3, 3, GOAL3)
    rng = random.Random(3)
    for board in rng.sample(sorted(exact3), 500):
        assert db.value(board) == exact3[board]


def test_additive_partition_is_admissible_and_counts_only_its_tiles(exact3):
    part = pdb.Partition("pdb-4-4", 3, 3, ((1, 2, 3, 5), (4, 6, 7, 8)), "test")
    db = pdb.load_or_build(part, GOAL3)
    rng = random.Random(4)
    values = []
    for board in rng.sample(sorted(exact3), 2000):
        v = db.value(board)
        assert v <= exact3[board]
        values.append(v)
    # stronger than Manhattan on average (it sees interactions inside each group)
    md = NPuzzleProblem(3, 3, GOAL3, GOAL3).manhattan_table()
    sample = rng.sample(sorted(exact3), 300)
    assert sum(map(db.value, sample)) > sum(sum(md[t][p] for p, t in enumerate(b)) for b in sample)
    # a group's table alone never exceeds the moves of its own tiles: one tile off by one move is 1
    assert int(db.tables[0][pdb.rank_one([GOAL3.index(t) for t in db.groups[0]], 9)]) == 0


def test_mirror_keeps_the_distance(exact3):
    cell_map, tile_map = pdb.mirror_maps(3, 3, GOAL3)
    rng = random.Random(5)
    for board in rng.sample(sorted(exact3), 300):
        mirrored = [0] * 9
        for p, t in enumerate(board):
            mirrored[cell_map[p]] = tile_map[t]
        assert exact3[tuple(mirrored)] == exact3[board]
    assert pdb.mirror_maps(3, 3, (1, 0, 2, 3, 4, 5, 6, 7, 8)) is None  # blank's goal off the diagonal
    assert pdb.mirror_maps(4, 3, tuple(range(12))) is None


def test_reflection_only_raises_the_estimate(exact3):
    part = pdb.Partition("pdb-4-4", 3, 3, ((1, 2, 3, 5), (4, 6, 7, 8)), "test")
    db = pdb.load_or_build(part, GOAL3)
    plain = pdb.PatternDatabase("x", 3, 3, GOAL3, db.groups, db.tables)
    plain.mirror = None
    rng = random.Random(6)
    boards = rng.sample(sorted(exact3), 500)
    assert all(db.value(b) >= plain.value(b) for b in boards)
    assert any(db.value(b) > plain.value(b) for b in boards)


def test_goal_groups_follow_the_goal():
    groups = ((1, 2, 3), (4, 5, 6, 7, 8))
    assert pdb.goal_groups(groups, 3, 3, GOAL3) == groups
    # blank last: the 180-degree turn, tile t -> 9 - t
    assert pdb.goal_groups(groups, 3, 3, GOAL3_LAST) == ((6, 7, 8), (1, 2, 3, 4, 5))


def test_other_goal_database_is_exact_for_that_goal():
    exact = bfs_distances(GOAL3_LAST, 3, 3)
    db = pdb.get_database("pdb-8", 3, 3, GOAL3_LAST)
    for board in random.Random(7).sample(sorted(exact), 300):
        assert db.value(board) == exact[board]


def test_state_heuristic_matches_value():
    db = pdb.get_database("pdb-8", 3, 3, GOAL3)
    problem = NPuzzleProblem(3, 3, GOAL3, GOAL3)
    h = db.state_heuristic(problem.bits, problem.mask)
    rng = random.Random(8)
    for _ in range(100):
        board = random_board(GOAL3, 3, rng)
        assert h(problem.encode(board)) == db.value(board)


def test_heuristics_are_registered_and_check_the_size():
    hs = pdb.pdb_heuristics()
    assert {"pdb-555", "pdb-663", "pdb-8"} <= set(hs)
    assert all(h.admissible for h in hs.values())
    with pytest.raises(InputError, match="4x4"):
        hs["pdb-663"].make(NPuzzleProblem(3, 3, GOAL3, GOAL3))
    with pytest.raises(InputError, match="3x3"):
        hs["pdb-8"].make(NPuzzleProblem(5, 5, tuple(range(25)), tuple(range(25))))


def test_partition_names_and_bad_partitions():
    assert pdb.parse_partition("6-6-3", 4, 4).name == "pdb-663"
    assert pdb.parse_partition("pdb-555", 4, 4).name == "pdb-555"
    assert pdb.parse_partition("1,2,3,4/5,6,7,8", 3, 3).groups == ((1, 2, 3, 4), (5, 6, 7, 8))
    with pytest.raises(InputError, match="unknown partition"):
        pdb.parse_partition("9-9", 4, 4)
    with pytest.raises(InputError, match="do not cover tiles 8"):
        pdb.parse_partition("1,2,3,4/5,6,7", 3, 3)
    with pytest.raises(InputError, match="two groups"):
        pdb.parse_partition("1,2,3,4/4,5,6,7,8", 3, 3)
    with pytest.raises(InputError, match="4x4 boards"):
        pdb.parse_partition("6-6-3", 3, 3)


# -- the cache file -----------------------------------------------------------------------------------


def _small(tmp_path: Path):
    part = pdb.Partition("pdb-4-4", 3, 3, ((1, 2, 3, 5), (4, 6, 7, 8)), "test")
    return part, pdb.cache_entry(part, GOAL3, tmp_path)


def test_cache_round_trip_and_atomic_write(tmp_path):
    part, (path, header, _groups) = _small(tmp_path)
    tables = [np.arange(n, dtype=np.int64).astype(np.uint8) for n in header["sizes"]]
    pdb_cache.write(path, header, tables)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left behind
    back = pdb_cache.read(path, header)
    assert all((a == b).all() for a, b in zip(tables, back))


@pytest.mark.parametrize(
    "damage,message",
    [
        (lambda b: b[:-10], "truncated"),
        (lambda b: b[:-1] + bytes([b[-1] ^ 1]), "checksum"),
        (lambda b: b"XX" + b[2:], "bad magic"),
        (lambda b: b[:30], "truncated header"),
    ],
)
def test_damaged_cache_files_are_refused(tmp_path, damage, message):
    part, (path, header, _groups) = _small(tmp_path)
    pdb_cache.write(path, header, [np.zeros(n, dtype=np.uint8) for n in header["sizes"]])
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(pdb_cache.CacheError, match=message):
        pdb_cache.read(path, header)


def test_mismatched_cache_file_is_refused(tmp_path):
    part, (path, header, _groups) = _small(tmp_path)
    pdb_cache.write(path, dict(header, goal=list(GOAL3_LAST)), [np.zeros(n, dtype=np.uint8) for n in header["sizes"]])
    with pytest.raises(pdb_cache.CacheError, match="different goal"):
        pdb_cache.read(path, header)


def test_corrupt_cache_is_reported_and_rebuilt(tmp_path, exact3):
    part, (path, header, _groups) = _small(tmp_path)
    pdb.load_or_build(part, GOAL3, cache_dir=tmp_path, echo=lambda m: None)
    good = path.read_bytes()
    data = bytearray(good)
    data[-5] ^= 0x7F
    path.write_bytes(bytes(data))
    pdb._LOADED.clear()
    said = []
    db = pdb.load_or_build(part, GOAL3, cache_dir=tmp_path, echo=said.append)
    assert len(said) == 2 and "checksum mismatch" in said[0] and "\n" not in said[0]
    assert path.read_bytes() == good
    board = random_board(GOAL3, 3, random.Random(9))
    assert db.value(board) <= exact3[board]
    pdb._LOADED.clear()
    said.clear()
    pdb.load_or_build(part, GOAL3, cache_dir=tmp_path, echo=said.append)
    assert said == []  # a good file loads silently


def test_cache_dir_precedence(tmp_path, monkeypatch):
    monkeypatch.setenv(pdb_cache.ENV_VAR, str(tmp_path / "env"))
    assert pdb_cache.cache_dir() == tmp_path / "env"
    assert pdb_cache.cache_dir(tmp_path / "opt") == tmp_path / "opt"
    monkeypatch.delenv(pdb_cache.ENV_VAR)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert pdb_cache.cache_dir() == tmp_path / "xdg" / "searchkit" / "pdb"


def test_unwritable_cache_dir_is_input_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    part, _ = _small(tmp_path)
    with pytest.raises(InputError, match="cache directory"):
        pdb.load_or_build(part, GOAL3, cache_dir=blocker / "sub", echo=lambda m: None)


# -- the command line --------------------------------------------------------------------------------


def _cli(*args: str, env_dir: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, SEARCHKIT_CACHE_DIR=str(env_dir))
    return subprocess.run(
        [sys.executable, "-c", "from searchkit.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_cli_build_info_and_errors(tmp_path):
    out = _cli("npuzzle", "pdb", "build", "--partition", "pdb-8", "--goal", "blank-first", env_dir=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "building pattern database pdb-8" in out.stderr and "362,880 entries" in out.stdout
    out = _cli("npuzzle", "pdb", "info", "--partition", "pdb-8", "--goal", "blank-first", env_dir=tmp_path)
    assert out.returncode == 0 and "ok" in out.stdout
    out = _cli("npuzzle", "pdb", "build", "--partition", "pdb-8", "--goal", "blank-first", env_dir=tmp_path)
    assert out.returncode == 0 and "building" not in out.stderr  # cached: not built again
    out = _cli("npuzzle", "pdb", "build", "--partition", "pdb-8", "--goal", "blank-first", "--force", env_dir=tmp_path)
    assert out.returncode == 0 and "building pattern database pdb-8" in out.stderr
    elsewhere = tmp_path / "elsewhere"
    out = _cli("npuzzle", "pdb", "build", "--partition", "pdb-8", "--cache-dir", str(elsewhere), env_dir=tmp_path)
    assert out.returncode == 0 and len(list(elsewhere.glob("*.pdb"))) == 1
    out = _cli("npuzzle", "pdb", "info", "--partition", "pdb-8", "--cache-dir", str(elsewhere), env_dir=tmp_path)
    assert out.returncode == 0 and "ok" in out.stdout
    cached = next(tmp_path.glob("*.pdb"))
    cached.write_bytes(cached.read_bytes()[:-3])
    out = _cli("npuzzle", "pdb", "info", "--partition", "pdb-8", "--goal", "blank-first", env_dir=tmp_path)
    assert out.returncode == 2 and out.stderr.startswith("Error: ") and out.stderr.count("\n") == 1
    for bad in (
        ["--partition", "4-4-4"],
        ["--partition", "1,2,3/4,5,6", "--size", "3"],
        ["--partition", "6-6-3", "--size", "3"],
        ["--partition", "pdb-8", "--goal", "sideways"],
    ):
        out = _cli("npuzzle", "pdb", "build", *bad, env_dir=tmp_path)
        assert out.returncode == 2, (bad, out.stderr)
        assert out.stderr.startswith("Error: ") and out.stderr.count("\n") == 1, out.stderr


@pytest.mark.slow
@pytest.mark.timeout(1800)  # pdb-78's first build: about 10 minutes, more on a loaded machine
@pytest.mark.parametrize("name", ["pdb-555", "pdb-663", "pdb-78"])
def test_15_puzzle_databases_are_admissible_on_korf(name, monkeypatch):
    """Never above the optimum on Korf's 100; pdb-78 (numba, ~10 min to build once, kept
    in the user's cache) is also the strongest of the three on every instance."""
    from searchkit_npuzzle.korf import KORF_GOAL, load_korf100

    if name == "pdb-78":
        pytest.importorskip("numba")
        monkeypatch.delenv(pdb_cache.ENV_VAR)  # the user's cache: the build is long
    db = pdb.get_database(name, 4, 4, KORF_GOAL)
    for board, length in load_korf100():
        assert db.value(board) <= length
    if name == "pdb-78":
        weaker = pdb.get_database("pdb-663", 4, 4, KORF_GOAL)
        total = sum(db.value(b) for b, _ in load_korf100())
        assert total > sum(weaker.value(b) for b, _ in load_korf100())
