"""Fuzzing Sokoban level files: random bytes and text, random grids of level characters,
mutated Microban levels, other encodings and huge sizes.  Every input is a list of levels
or one ``Error:`` line, in bounded time; the commands that read levels exit 0, 2 or 3."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fuzzing import (
    PROFILES,
    Profile,
    assert_clean,
    assert_no_partial_files,
    mutated,
    parses_or_refuses,
    run_cli,
    snapshot,
)
from hypothesis import strategies as st
from searchkit_sokoban.board import Board, Layout
from searchkit_sokoban.levels import (
    BOARD_CHARS,
    MAX_FILE_BYTES,
    MAX_SIDE,
    Level,
    bundled_text,
    parse_levels,
    read_source,
)
from searchkit_sokoban.play_app import SokobanApp

LEVEL_CHARS = "#@+$*. _-"
TEXT_CHARS = LEVEL_CHARS + "\n0123456789|;'\"\tTitle:abc\r"
MICROBAN = [lv.text() for lv in parse_levels(bundled_text("microban"), "microban")[:30]]


def check_levels(levels: list[Level] | None) -> None:
    """What a parsed level promises: rectangular, within the limits, one player, boxes = goals,
    and a `Layout` and `Board` can be built on it."""
    if levels is None:
        return
    for level in levels:
        assert 0 < level.height <= MAX_SIDE and 0 < level.width <= MAX_SIDE
        assert all(len(r) == level.width and set(r) <= BOARD_CHARS for r in level.rows)
        text = "".join(level.rows)
        assert text.count("@") + text.count("+") == 1
        assert text.count("$") + text.count("*") == text.count(".") + text.count("+") + text.count("*") > 0
        Layout.of(level)
    if len(levels) == 1:
        Board(levels[0])  # the push distances (what solving builds first)


def parse(text: str) -> None:
    check_levels(parses_or_refuses(lambda: parse_levels(text, "fuzz.txt")))


@st.composite
def grids(draw: st.DrawFn) -> str:
    """A random rectangle of level characters, usually walled in, with title and comment lines."""
    width, height = draw(st.integers(1, 12)), draw(st.integers(1, 10))
    weights = draw(st.sampled_from(("#  $.@", "#   ", LEVEL_CHARS, "#$.*+@ ")))
    rows = ["".join(draw(st.lists(st.sampled_from(weights), min_size=width, max_size=width))) for _ in range(height)]
    if draw(st.booleans()):
        rows = ["#" * (width + 2)] + [f"#{r}#" for r in rows] + ["#" * (width + 2)]
    head = draw(st.lists(st.sampled_from(["; a comment", "'Title'", "Title: x", "", "Author: y"]), max_size=3))
    tail = draw(st.lists(st.sampled_from(["Title: after", "", "; end"]), max_size=2))
    return "\n".join(head + rows + tail) + draw(st.sampled_from(["", "\n", "\n\n"]))


LEVEL_TEXTS = st.one_of(
    st.text(max_size=300),
    st.text(alphabet=TEXT_CHARS, max_size=400),
    grids(),
    st.sampled_from(MICROBAN).flatmap(lambda t: mutated(t, TEXT_CHARS)),
    st.lists(st.sampled_from(MICROBAN), min_size=2, max_size=4).map("\n; next\n\n".join),
)


@pytest.mark.parametrize("profile", PROFILES)
def test_level_text_parses_or_is_refused(profile: Profile) -> None:
    profile.run(LEVEL_TEXTS, parse, examples=300)


def encodings(text: str) -> st.SearchStrategy[bytes]:
    return st.sampled_from(
        [
            text.encode("utf-8"),
            b"\xef\xbb\xbf" + text.encode("utf-8"),
            text.encode("utf-16"),  # with its BOM
            text.encode("utf-16-be"),
            text.replace("\n", "\r\n").encode("latin-1", "replace"),
            text.replace("\n", "\r").encode("utf-8"),
            text.encode("utf-32"),
        ]
    )


LEVEL_BYTES = st.one_of(
    st.binary(max_size=400),
    st.sampled_from(MICROBAN).flatmap(encodings),
    LEVEL_TEXTS.flatmap(encodings),
)


@pytest.mark.parametrize("profile", PROFILES)
def test_level_files_in_any_encoding(profile: Profile, tmp_path: Path) -> None:
    path = tmp_path / "level.txt"

    def check(data: bytes) -> None:
        path.write_bytes(data)
        check_levels(parses_or_refuses(lambda: read_source(str(path))[0]))

    profile.run(LEVEL_BYTES, check)


def test_microban_in_utf16_and_crlf_reads_as_in_utf8(tmp_path: Path) -> None:
    text = MICROBAN[3]
    want = parse_levels(text)[0].rows
    for data in (text.encode("utf-16"), text.replace("\n", "\r\n").encode(), b"\xef\xbb\xbf" + text.encode()):
        (tmp_path / "l.txt").write_bytes(data)
        assert read_source(str(tmp_path / "l.txt"))[0][0].rows == want


# -- huge inputs: an Error in bounded time, never a hang or a memory blow-up ----------------------
HUGE = [
    ("2000x2000 grid", lambda: "\n".join(["#" * 2000] + ["#" + " " * 1998 + "#"] * 1998 + ["#" * 2000]) + "\n"),
    ("a run-length bomb", lambda: "#####\n#@$.#\n99999999999#\n"),
    ("run-length rows", lambda: "#####\n#@$.#\n99999999|#\n"),
    ("a wide run-length row", lambda: "#####\n#@$.#\n" + "9" * 5000 + "#\n"),
    ("101 rows", lambda: "\n".join(["#" * 5] * 101) + "\n"),
    ("a 101-column row", lambda: "#" * 101 + "\n"),
    ("one 8 MB line", lambda: "#" * (MAX_FILE_BYTES - 10) + "\n"),
]


@pytest.mark.parametrize("name,make", HUGE, ids=[h[0] for h in HUGE])
def test_huge_levels_are_refused_quickly(name: str, make: Callable[[], str], tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_text(make())
    started = time.perf_counter()
    outcome = run_cli("sokoban", "list", str(path))
    assert time.perf_counter() - started < 10
    assert_clean(outcome, (2,))


def test_a_50_mb_level_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    with open(path, "wb") as f:
        for _ in range(50):
            f.write(("#" * 1023 + "\n").encode() * 1024)
    started = time.perf_counter()
    outcome = run_cli("solve", "sokoban", str(path), "--timeout", "2")
    assert time.perf_counter() - started < 5
    assert_clean(outcome, (2,))
    assert "larger than 8 MB" in outcome.err


def test_the_largest_allowed_level_sets_up_in_bounded_time() -> None:
    n = MAX_SIDE
    rows = ["#" * n] + ["#" + " " * (n - 2) + "#"] * (n - 2) + ["#" * n]
    rows[1] = "#@$." + " " * (n - 5) + "#"
    started = time.perf_counter()
    Board(parse_levels("\n".join(rows))[0])
    assert time.perf_counter() - started < 20


# -- end to end: solve, list and export --------------------------------------------------------
SMALL_LEVELS = st.one_of(grids(), st.sampled_from(MICROBAN[:8]).flatmap(lambda t: mutated(t, LEVEL_CHARS + "\n")))


@pytest.mark.parametrize("profile", PROFILES)
def test_solve_list_export_and_play_on_fuzzed_levels(
    profile: Profile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SEARCHKIT_PLAY_DIR", str(tmp_path / "autosaves"))
    started: list[Any] = []
    monkeypatch.setattr(SokobanApp, "play", lambda self: started.append(self))
    level = tmp_path / "in.txt"
    out = tmp_path / "out.txt"

    def check(text: str) -> None:
        level.write_text(text)
        out.write_text("previous export\n")
        assert_clean(run_cli("solve", "sokoban", str(level), "--timeout", "1", "--max-nodes", "2000"), (0, 2, 3))
        assert_clean(run_cli("sokoban", "list", str(level)))
        assert_clean(run_cli("play", "sokoban", str(level), "--new"))
        before = snapshot(tmp_path)
        done = run_cli("sokoban", "export", str(level), "--level", "1", "-o", str(out))
        assert_clean(done)
        if done.code == 2:
            assert_no_partial_files(tmp_path, before, set())
        else:
            assert set(snapshot(tmp_path)) == set(before)  # no temp file left beside it
            assert parse_levels(out.read_text())  # what was exported reads back

    profile.run(SMALL_LEVELS, check, examples=20, deadline_s=15)
