"""Fuzzing the text options of the solve and tree commands: Sokoban's ``--level``,
``--optimize``, ``--no-deadlock``, ``--frames-per`` and picture paths, and the tree files
of ``--tree`` / ``tree -o``.  Each run exits 0, 2 or 3; a refused run changes no file."""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzzing import PROFILES, Profile, assert_clean, assert_no_partial_files, run_cli, snapshot
from hypothesis import strategies as st
from searchkit_sokoban.deadlocks import DETECTORS, parse_disabled
from searchkit_sokoban.levels import read_source, select

NAME_CHARS = "abcXYZ019._- "
SUFFIXES = [".png", ".gif", ".svg", ".pdf", ".json", ".graphml", ".gexf", ".dot", ".txt", "", ".PNG", ".GIF"]
FILE_NAMES = (
    st.tuples(st.text(alphabet=NAME_CHARS, min_size=1, max_size=8), st.sampled_from(SUFFIXES))
    .map("".join)
    .filter(lambda n: n.strip(" .") != "")
)
WORDS = st.one_of(st.text(max_size=12), st.text(alphabet="abcdefghijklmnopqrstuvwxyz,-: 0123456789", max_size=20))


def option(flag: str, values: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    return st.one_of(st.just([]), values.map(lambda v: [flag, v]))


def check_refused_or_written(tmp_path: Path, args: list[str], allowed: tuple[int, ...]) -> None:
    before = snapshot(tmp_path)
    outcome = run_cli(*args)
    assert_clean(outcome, allowed)
    if outcome.code == 2:
        assert_no_partial_files(tmp_path, before, set())
    else:  # written files are the ones named, whole (no temporary file beside them)
        named = {Path(a).name for a in args if a.startswith(str(tmp_path))}
        assert_no_partial_files(tmp_path, before, named)


@pytest.mark.parametrize("profile", PROFILES)
def test_sokoban_text_options(profile: Profile) -> None:
    levels, _picked, label = read_source("microban")
    detectors = st.lists(st.sampled_from([*DETECTORS, "all", "none", "x", ""]), max_size=3).map(",".join)

    def check(case: tuple[str, str]) -> None:
        which, disabled = case
        try:
            select(levels, which, label)
        except Exception as e:  # noqa: BLE001 - only InputError is allowed
            assert type(e).__name__ == "InputError", e
        try:
            parse_disabled(disabled)
        except Exception as e:  # noqa: BLE001
            assert type(e).__name__ == "InputError", e

    which = st.one_of(WORDS, st.integers(-5, 200).map(str), st.just("9" * 5000))
    profile.run(st.tuples(which, st.one_of(detectors, WORDS)), check)


@pytest.mark.parametrize("profile", PROFILES)
def test_solve_sokoban_with_fuzzed_options(profile: Profile, tmp_path: Path) -> None:
    paths = FILE_NAMES.map(lambda n: str(tmp_path / n))
    flags = st.tuples(
        option("--level", st.one_of(WORDS, st.sampled_from(["1", "2", "156", "0", "-1"]))),
        option("--optimize", st.one_of(WORDS, st.sampled_from(["pushes", "moves", "MOVES"]))),
        option("--no-deadlock", st.one_of(WORDS, st.sampled_from([*DETECTORS, "all"]))),
        option("--frames-per", st.one_of(WORDS, st.sampled_from(["push", "move"]))),
        option("--gif", paths),
        option("--png", paths),
        option("--frames", paths),
        option("--tree", paths),
    ).map(lambda groups: [x for g in groups for x in g])

    def check(args: list[str]) -> None:
        level = [] if "--level" in args else ["microban:1"]
        level = level or ["microban"]
        cli = ["solve", "sokoban", *level, *args, "--timeout", "2", "--max-nodes", "3000"]
        check_refused_or_written(tmp_path, cli, (0, 2, 3))

    profile.run(flags, check, examples=30, deadline_s=20)


@pytest.mark.parametrize("profile", PROFILES)
def test_tree_files(profile: Profile, tmp_path: Path) -> None:
    board = ["--board", "4 1 3 7 2 6 0 5 8", "-H", "manhattan"]

    def check(case: tuple[str, bool]) -> None:
        name, solve = case
        path = str(tmp_path / name)
        if solve:
            args = ["solve", "npuzzle", *board, "--tree", path, "--max-nodes", "20"]
        else:
            args = ["tree", "npuzzle", *board, "-o", path, "--max-nodes", "30"]
        check_refused_or_written(tmp_path, args, (0, 2, 3))

    profile.run(st.tuples(FILE_NAMES, st.booleans()), check, examples=10, deadline_s=20)


# what the fuzzing found, kept as plain examples (each was a traceback or a split Error line)
FOUND = [
    # two outputs on one path: the tree was written, then the frames refused after the search
    ["solve", "sokoban", "microban:1", "--tree", "{tmp}/0.pdf", "--frames", "{tmp}/0.pdf"],
    ["solve", "sokoban", "microban:1", "--no-deadlock", "0\r0"],
    ["solve", "npuzzle", "--size", "1\n"],
    ["solve", "npuzzle", "--size", "9" * 5000],
    ["solve", "npuzzle", "--board", "9" * 5000],
    ["solve", "npuzzle", "--board", "4 1 3 7 2 6 0 5 8", "-e", "astar", "-P", "a\nb=1"],
    ["solve", "npuzzle", "--board", "4 1 3 7 2 6 0 5 8", "-e", "alternation", "-P", "0\x1e0=1"],
    ["play", "npuzzle", "--blank", "9,\n9"],
    ["solve", "sokoban", "microban", "--level", "9" * 5000],
    ["solve", "sokoban", "microban", "--level", "\u00b2"],
    ["solve", "npuzzle", "--board", "1 2 3 4 5 6 7 0 8", "--tree", "{tmp}/a.pdf"],  # a.pdf is a directory
    ["tree", "npuzzle", "--board", "1 2 3 4 5 6 7 0 8", "-o", "{tmp}/a.pdf"],
]


@pytest.mark.parametrize("args", FOUND, ids=range(len(FOUND)))
def test_found_by_fuzzing(args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEARCHKIT_PLAY_DIR", str(tmp_path))
    (tmp_path / "a.pdf").mkdir()
    before = snapshot(tmp_path)
    assert_clean(run_cli(*[a.replace("{tmp}", str(tmp_path)) for a in args]), (2,))
    assert_no_partial_files(tmp_path, before, set())
