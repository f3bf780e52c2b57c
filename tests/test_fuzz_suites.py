"""Fuzzing benchmark suite files (TOML): random documents, mutations of the shipped
configs/*.toml (as data and as bytes), other encodings, deep nesting.  `load_suite` returns
a suite or raises one `InputError` line; what it refuses, ``searchkit bench`` refuses with
exit 2 (no suite is run here)."""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path
from typing import Any

import pytest
from fuzzing import NESTING, PROFILES, Profile, assert_clean, mutated_bytes, parses_or_refuses, run_cli
from hypothesis import strategies as st

from searchkit.bench.suite import load_suite, parse_select

CONFIGS = Path(__file__).parents[1] / "configs"
SHIPPED = {p.name: p.read_text(encoding="utf-8") for p in sorted(CONFIGS.glob("*.toml"))}
KEYS = ["name", "domain", "description", "options", "instances", "limits", "configs", "file", "seeds", "list"]
KEYS += ["select", "timeout_s", "max_expanded", "max_stored", "max_rss_mb", "engine", "heuristic", "params"]
KEYS += ["observer", "board", "size", "goal", "seed", "expected_cost", "level_file", "level", "scramble", "x"]


def toml_value(value: Any) -> str:
    """``value`` as a TOML inline value (strings as JSON strings, which TOML reads the same)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml_document(doc: dict[str, Any]) -> str:
    return "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in doc.items())


SCALARS = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(),
    st.text(max_size=20),
    st.sampled_from(["npuzzle", "sokoban", "gridpath", "astar", "manhattan", "1-3", "microban:1", "npuzzle:korf100"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=6)), inner)
    ),
    max_leaves=12,
)


@st.composite
def suite_docs(draw: st.DrawFn) -> dict[str, Any]:
    """Documents near a suite's shape: the right top keys with random values, or a shipped
    config with keys dropped, replaced or added at any depth."""
    if draw(st.booleans()):
        keys = draw(st.lists(st.sampled_from(KEYS[:7]), unique=True))
        return {k: draw(VALUES) for k in keys}
    doc = tomllib.loads(draw(st.sampled_from(sorted(SHIPPED.values()))))
    for _ in range(draw(st.integers(1, 4))):
        table: Any = doc
        while isinstance(table, (dict, list)) and table and draw(st.booleans()):
            if isinstance(table, dict):
                table = table[draw(st.sampled_from(sorted(table)))]
            else:
                table = draw(st.sampled_from(table))
        if isinstance(table, dict):
            op = draw(st.sampled_from(("drop", "replace", "add")))
            if op == "drop" and table:
                del table[draw(st.sampled_from(sorted(table)))]
            elif op == "replace" and table:
                table[draw(st.sampled_from(sorted(table)))] = draw(VALUES)
            else:
                table[draw(st.sampled_from(KEYS))] = draw(VALUES)
        elif isinstance(table, list):
            table.append(draw(VALUES))
    return doc


def check_file(path: Path) -> None:
    # validate=False: resolving configurations builds problems (a pattern database may take
    # minutes); the keys, types, instances and names are all checked without it
    suite = parses_or_refuses(lambda: load_suite(path, validate=False))
    if suite is not None:
        assert suite.instances and suite.configs and len(suite.indices) == len(suite.instances)


@pytest.mark.parametrize("profile", PROFILES)
def test_suite_documents(profile: Profile, tmp_path: Path) -> None:
    path = tmp_path / "suite.toml"

    def check(doc: dict[str, Any]) -> None:
        path.write_text(toml_document(doc), encoding="utf-8")
        check_file(path)

    profile.run(suite_docs(), check, examples=150)


SUITE_BYTES = st.one_of(
    st.sampled_from(sorted(SHIPPED.values())).flatmap(lambda t: mutated_bytes(t.encode())),
    st.binary(max_size=300),
    st.sampled_from(sorted(SHIPPED.values())).map(lambda t: t.encode("utf-16")),
    st.sampled_from(sorted(SHIPPED.values())).map(lambda t: b"\xef\xbb\xbf" + t.replace("\n", "\r\n").encode()),
    NESTING.map(lambda n: b"a = " + b"[" * n + b"]" * n),
    NESTING.map(lambda n: b"a = " + b"{b = " * n + b"1" + b"}" * n),
)


@pytest.mark.parametrize("profile", PROFILES)
def test_suite_bytes(profile: Profile, tmp_path: Path) -> None:
    path = tmp_path / "suite.toml"

    def check(data: bytes) -> None:
        path.write_bytes(data)
        check_file(path)

    profile.run(SUITE_BYTES, check)


@pytest.mark.parametrize("profile", PROFILES)
def test_bench_refuses_what_load_suite_refuses(profile: Profile, tmp_path: Path) -> None:
    path = tmp_path / "suite.toml"
    out = tmp_path / "results.jsonl"

    def check(data: bytes) -> None:
        path.write_bytes(data)
        try:
            load_suite(path, validate=False)
        except Exception:  # noqa: BLE001 - only refused suites go on to the command line
            outcome = run_cli("bench", str(path), "-o", str(out), "-j", "1")
            assert_clean(outcome, (2,))
            assert not out.exists()

    profile.run(SUITE_BYTES, check, examples=25, deadline_s=10)


def test_deep_nesting_and_other_encodings_are_one_line(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    for data, needle in (
        (b"a = " + b"[" * 100_000, "nested too deeply"),
        (b"\xff\xfe" + SHIPPED["engines15.toml"].encode("utf-16-le"), "not UTF-8"),
        (b"name = \xe9", "not UTF-8"),
    ):
        path.write_bytes(data)
        outcome = run_cli("bench", str(path))
        assert_clean(outcome, (2,))
        assert needle in outcome.err


@pytest.mark.parametrize("profile", PROFILES)
def test_select_strings(profile: Profile) -> None:
    """``--select`` / ``[instances] select``: 1-based indices and ranges, or one Error line."""
    text = st.one_of(
        st.text(alphabet="0123456789-, ", max_size=20),
        st.text(max_size=12),
        st.integers(-5, 10**30).map(str),
        st.just("1-" + "9" * 5000),
        SCALARS,
    )

    def check(case: tuple[object, int]) -> None:
        value, count = case
        chosen = parses_or_refuses(lambda: parse_select(value, count, "suite.toml: --select"))
        assert chosen is None or (chosen and all(1 <= i <= count for i in chosen) and len(set(chosen)) == len(chosen))

    profile.run(st.tuples(text, st.integers(0, 200)), check)
