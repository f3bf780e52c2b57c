"""Fuzzing pattern-database cache files: truncated, padded, bytes flipped, random bytes,
headers that lie (wrong JSON, sizes, goal, deep nesting).  A bad file is refused
(`CacheError`) and rebuilt, never used: the tables loaded are always the right ones.  The
``npuzzle pdb`` commands exit 0 or 2 with one ``Error:`` line, and leave no temp files."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import numpy as np
import pytest
from fuzzing import NESTING, PROFILES, Profile, assert_clean, mutated_bytes, no_temp_files, parses_or_refuses, run_cli
from hypothesis import strategies as st
from searchkit_npuzzle.board import make_goal
from searchkit_npuzzle.pdb import _LOADED, cache_entry, load_or_build, parse_partition
from searchkit_npuzzle.pdb import cache as pdb_cache

WIDTH, HEIGHT = 3, 2
GROUPS = "1,2/3,4,5"
PARTITION = parse_partition(GROUPS, WIDTH, HEIGHT)
GOAL = make_goal("blank-last", WIDTH, HEIGHT)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, list[np.ndarray]]:
    """The real cache file of a tiny partition and its tables."""
    directory = tmp_path_factory.mktemp("pdb-reference")
    db = load_or_build(PARTITION, GOAL, cache_dir=directory, echo=lambda m: None)
    path, _header, _groups = cache_entry(PARTITION, GOAL, directory)
    return path.read_bytes(), [np.array(t) for t in db.tables]


def header_bytes(header: object, length: int | None = None) -> bytes:
    head = json.dumps(header).encode()
    return pdb_cache.MAGIC + struct.pack("<Q", len(head) if length is None else length) + head


def cache_files(good: bytes) -> st.SearchStrategy[bytes]:
    _path, header, _groups = cache_entry(PARTITION, GOAL, None)
    payload = good[-sum(header["sizes"]) :]
    lies = st.fixed_dictionaries(
        {
            k: st.one_of(st.just(v), st.integers(-5, 10), st.text(max_size=3), st.lists(st.integers(0, 9), max_size=4))
            for k, v in header.items()
        }
    )
    return st.one_of(
        mutated_bytes(good),
        st.binary(max_size=300),
        st.binary(max_size=300).map(lambda b: pdb_cache.MAGIC + b),
        lies.map(lambda h: header_bytes(h) + payload),
        st.integers(0, 2**64 - 1).map(lambda n: header_bytes(header, n) + payload),
        NESTING.map(lambda n: pdb_cache.MAGIC + struct.pack("<Q", 2 * n) + b"[" * n + b"]" * n),
        st.integers(0, len(good)).map(lambda n: good[:n]),
        st.binary(min_size=1, max_size=64).map(lambda b: good + b),
    )


@pytest.mark.parametrize("profile", PROFILES)
def test_bad_cache_files_are_refused_and_rebuilt(
    profile: Profile, reference: tuple[bytes, list[np.ndarray]], tmp_path: Path
) -> None:
    good, tables = reference
    path, header, _groups = cache_entry(PARTITION, GOAL, tmp_path)
    notes: list[str] = []

    def check(data: bytes) -> None:
        path.write_bytes(data)
        try:
            read = pdb_cache.read(path, header)
        except pdb_cache.CacheError as e:
            assert str(e) and "\n" not in str(e)
        else:  # accepted: then it holds exactly the right tables
            assert all(np.array_equal(a, b) for a, b in zip(read, tables))
        _LOADED.clear()
        db = load_or_build(PARTITION, GOAL, cache_dir=tmp_path, echo=notes.append)
        assert all(np.array_equal(a, b) for a, b in zip(db.tables, tables))  # never wrong heuristic values
        assert path.read_bytes() == good or data == good  # a bad file was rebuilt in place
        assert not list(no_temp_files(tmp_path))

    profile.run(cache_files(reference[0]), check)
    assert all("\n" not in n for n in notes)


@pytest.mark.parametrize("profile", PROFILES)
def test_pdb_commands_on_bad_cache_files(
    profile: Profile, reference: tuple[bytes, list[np.ndarray]], tmp_path: Path
) -> None:
    good, _tables = reference
    path, _header, _groups = cache_entry(PARTITION, GOAL, tmp_path)
    common = ["--partition", GROUPS, "--size", f"{WIDTH}x{HEIGHT}", "--cache-dir", str(tmp_path)]

    def check(data: bytes) -> None:
        path.write_bytes(data)
        shutil.copy(path, tmp_path / "other.pdb")  # listed by `info` without --partition
        assert_clean(run_cli("npuzzle", "pdb", "info", "--cache-dir", str(tmp_path)), (0,))
        assert_clean(run_cli("npuzzle", "pdb", "info", *common))
        _LOADED.clear()
        assert_clean(run_cli("npuzzle", "pdb", "build", *common), (0,))
        assert path.read_bytes() == good
        assert not list(no_temp_files(tmp_path))

    profile.run(cache_files(good), check, examples=25, deadline_s=10)


@pytest.mark.parametrize("profile", PROFILES)
def test_partition_strings(profile: Profile) -> None:
    """``--partition``: a name or groups covering every tile once, or one Error line
    (parsed only: building what a valid one asks for may rightly take minutes)."""
    text = st.one_of(
        st.text(alphabet="0123456789,/ -pdbPDB", max_size=30),
        st.text(max_size=15),
        st.sampled_from(["pdb-663", "663", "6-6-3", "pdb-8", "78", "pdb-55554", "1,2/3,4,5", "1,2,3/4,5"]),
    )

    def check(case: tuple[str, tuple[int, int]]) -> None:
        value, (width, height) = case
        part = parses_or_refuses(lambda: parse_partition(value, width, height))
        if part is not None:
            tiles = sorted(t for g in part.groups for t in g)
            assert tiles == list(range(1, width * height))

    profile.run(st.tuples(text, st.sampled_from([(3, 2), (3, 3), (4, 4), (5, 5), (2, 2)])), check)
