"""Fuzzing the n-puzzle's text options (``--board``, ``--goal``, ``--size``, ``--blank``), the
instance files of n-puzzle suites and ``-P key=value`` engine parameters: a problem or one
``Error:`` line, never a traceback; the solve command exits 0, 2 or 3 within its limits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fuzzing import PROFILES, Profile, assert_clean, parses_or_refuses, run_cli
from hypothesis import strategies as st
from searchkit_npuzzle.board import is_solvable, parse_size
from searchkit_npuzzle.domain import NPuzzleDomain
from searchkit_npuzzle.game import parse_blank

from searchkit.plugins import engines

DOMAIN = NPuzzleDomain()
SEPARATORS = st.sampled_from([" ", ",", ", ", "\t", "\n", "  ", ";", "|", "\u00a0", "\u3000", "_"])
NUMBERS = st.one_of(
    st.integers(-3, 30),
    st.integers(-(10**30), 10**30),
    st.sampled_from(["0", "00", "+1", "-0", "1_0", "0x1", "1e3", "1.0", "\u0661", "\uff11", "\u00b2", "9" * 5000]),
)


@st.composite
def boards(draw: st.DrawFn) -> str:
    """Near-permutations: right or wrong counts, duplicates, odd tokens and separators."""
    n = draw(st.sampled_from([4, 6, 8, 9, 12, 15, 16, 20, 25, 36, 2, 1]))
    tiles: list[Any] = list(range(n))
    draw(st.randoms()).shuffle(tiles)
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(("drop", "add", "replace", "duplicate")))
        if op == "drop" and tiles:
            tiles.pop()
        elif op == "add":
            tiles.append(draw(NUMBERS))
        elif op == "replace" and tiles:
            tiles[draw(st.integers(0, len(tiles) - 1))] = draw(NUMBERS)
        elif op == "duplicate" and tiles:
            tiles.append(tiles[0])
    sep = draw(SEPARATORS)
    return draw(st.sampled_from(["", " ", "\n"])) + sep.join(map(str, tiles)) + draw(st.sampled_from(["", " ", ","]))


BOARD_TEXT = st.one_of(boards(), st.text(max_size=60), st.text(alphabet="0123456789 ,-x", max_size=60))
SIZE_TEXT = st.one_of(
    st.none(),
    st.sampled_from(["3", "4", "2x3", "3x2", " 3 ", "3X3", "16", "17", "1", "0", "-3", "3x", "x3", "3x3x3", "\u0663"]),
    st.text(alphabet="0123456789xX -", max_size=12),
    st.integers(-(10**20), 10**20).map(str),
    st.just("9" * 5000),
)
GOAL_TEXT = st.one_of(st.none(), st.sampled_from(["blank-last", "blank-first", "blank-middle"]), boards())


def check_problem(options: dict[str, Any]) -> None:
    problem = parses_or_refuses(lambda: DOMAIN.make_problem(options, None))
    if problem is not None:
        start = problem.decode(problem.initial_state())
        assert sorted(start) == list(range(problem.width * problem.height))
        assert is_solvable(start, tuple(problem.goal), problem.width)


@pytest.mark.parametrize("profile", PROFILES)
def test_board_strings(profile: Profile) -> None:
    profile.run(BOARD_TEXT, lambda board: check_problem({"board": board}), examples=300)


@pytest.mark.parametrize("profile", PROFILES)
def test_board_size_and_goal_together(profile: Profile) -> None:
    options = st.fixed_dictionaries(
        {
            "board": st.one_of(st.none(), boards()),
            "size": SIZE_TEXT,
            "goal": GOAL_TEXT,
            "seed": st.none() | st.integers(0, 9),  # with a board: refused
        }
    )
    profile.run(options, check_problem, examples=300)


@pytest.mark.parametrize("profile", PROFILES)
def test_size_strings(profile: Profile) -> None:
    def check(text: str | None) -> None:
        size = parses_or_refuses(lambda: parse_size(text))
        assert size is None or all(2 <= side <= 16 for side in size)

    profile.run(SIZE_TEXT, check)


@pytest.mark.parametrize("profile", PROFILES)
def test_blank_cells_for_play(profile: Profile) -> None:
    spec = st.one_of(
        st.sampled_from(["last", "first", "center", "1,1", "3,3", "0,0", "4,1", "1,2,3", ",", "9"]),
        st.text(alphabet="0123456789,- ", max_size=12),
        st.text(max_size=12),
    )

    def check(args: tuple[str, int]) -> None:
        text, side = args
        cell = parses_or_refuses(lambda: parse_blank(text, side, side))
        assert cell is None or 0 <= cell < side * side

    profile.run(st.tuples(spec, st.sampled_from([2, 3, 4, 5])), check)


@pytest.mark.parametrize("profile", PROFILES)
def test_instance_files_of_npuzzle_suites(profile: Profile, tmp_path: Path) -> None:
    path = tmp_path / "boards.txt"
    lines = st.lists(
        st.one_of(boards(), st.just("# comment"), st.just(""), boards().map(lambda b: b + " 31  # with a length")),
        max_size=5,
    ).map("\n".join)
    data = st.one_of(lines.map(str.encode), st.binary(max_size=200), lines.map(lambda t: t.encode("utf-16")))

    def check(raw: bytes) -> None:
        path.write_bytes(raw)
        found = parses_or_refuses(lambda: DOMAIN.load_instances(str(path), tmp_path))
        assert found is None or len(found) > 0

    profile.run(data, check)


# -- engine parameters (-P key=value) ----------------------------------------------------------
SPECS = [(info.name, spec) for info in engines().values() for spec in info.specs.values()]
PARAM_VALUES = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["nan", "inf", "-inf", "1e400", "0", "-1", "1.5", "true", "yes", "", " ", "9" * 5000, "0x10"]),
    st.integers(-(10**20), 10**20).map(str),
    st.floats().map(str),
)


@pytest.mark.parametrize("profile", PROFILES)
def test_engine_parameter_values(profile: Profile) -> None:
    def check(args: tuple[tuple[str, Any], str]) -> None:
        (engine, spec), value = args
        parses_or_refuses(lambda: spec.parse(value, engine))

    profile.run(st.tuples(st.sampled_from(SPECS), PARAM_VALUES), check, examples=300)


# -- end to end --------------------------------------------------------------------------------
LIMITS = ["--max-nodes", "300", "--timeout", "1", "--json"]


@pytest.mark.parametrize("profile", PROFILES)
def test_solve_with_fuzzed_boards(profile: Profile) -> None:
    args = st.tuples(boards(), st.one_of(st.none(), SIZE_TEXT.filter(lambda s: s is not None)))

    def check(pair: tuple[str, str | None]) -> None:
        board, size = pair
        extra = ["--size", size] if size is not None else []
        # manhattan: the defaults on 4x4 and 5x5 use pattern databases whose first build takes
        # minutes (before any --timeout applies), and that is no parser's doing
        outcome = run_cli("solve", "npuzzle", "--board", board, *extra, "-H", "manhattan", *LIMITS)
        assert_clean(outcome, (0, 2, 3))

    profile.run(args, check, examples=40, deadline_s=10)


@pytest.mark.parametrize("profile", PROFILES)
def test_solve_with_fuzzed_engine_parameters(profile: Profile) -> None:
    names = sorted({e for e, _ in SPECS if e not in ("sokoban-portfolio", "sokoban-alternation")})
    keys = st.one_of(st.sampled_from(sorted({s.name for _, s in SPECS})), st.text(max_size=8))
    items = st.tuples(keys, st.sampled_from(["=", "", "=="]), PARAM_VALUES).map("".join)

    def check(args: tuple[str, list[str]]) -> None:
        engine, params = args
        flags = [x for p in params for x in ("-P", p)]
        outcome = run_cli("solve", "npuzzle", "--board", "4 1 3 7 2 6 0 5 8", "-e", engine, *flags, *LIMITS)
        assert_clean(outcome, (0, 2, 3))

    profile.run(st.tuples(st.sampled_from(names), st.lists(items, max_size=3)), check, examples=40, deadline_s=10)
