"""Fuzzing bench results files (JSON Lines, read by ``searchkit plot`` and ``bench --resume``):
random lines, records with values of any type, torn and nested lines.  A plot is drawn or
refused with one ``Error:`` line; a refused plot leaves the picture it would have replaced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fuzzing import (
    NESTING,
    PROFILES,
    Profile,
    assert_clean,
    assert_no_partial_files,
    mutated_bytes,
    parses_or_refuses,
    run_cli,
    snapshot,
)
from hypothesis import strategies as st

from searchkit.bench.plots import cactus, load_results, nodes_cost, series_names, speedup
from searchkit.bench.runner import read_records

ANY = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(), st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8,
)
NUMBER = st.one_of(st.floats(0, 1e6), st.integers(0, 10**6))


def field(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly a good value, sometimes anything."""
    return st.one_of(good, good, good, ANY)


RECORDS = st.fixed_dictionaries(
    {
        "suite": field(st.sampled_from(["s", "t"])),
        "config": field(st.sampled_from(["a", "b", "c"])),
        "instance": field(st.sampled_from(["1", "2", "3"])),
        "status": field(st.sampled_from(["solved", "limit", "error"])),
        "cost": field(st.one_of(st.none(), NUMBER)),
        "stats": field(st.fixed_dictionaries({"elapsed_s": field(NUMBER), "expanded": field(NUMBER)})),
    }
)
LINES = st.one_of(
    RECORDS.map(lambda r: json.dumps(r)),
    ANY.map(json.dumps),
    st.text(max_size=30),
    NESTING.map(lambda n: "[" * n + "]" * n),
    st.just("1" * 5000),
)
FILES = st.one_of(
    st.lists(LINES, max_size=6).map(lambda lines: ("\n".join(lines) + "\n").encode()),
    st.lists(RECORDS.map(json.dumps), min_size=1, max_size=6)
    .map("\n".join)
    .flatmap(lambda t: mutated_bytes(t.encode())),
    st.binary(max_size=200),
)


@pytest.mark.parametrize("profile", PROFILES)
def test_results_files_read_or_are_refused(profile: Profile, tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"

    def check(data: bytes) -> None:
        path.write_bytes(data)
        records = parses_or_refuses(lambda: load_results([path]))
        assert records is None or all(isinstance(r, dict) for r in records)
        if records:  # what was read, each picture drawn (not saved) or refused
            groups = series_names(records)
            for draw in (lambda: cactus(groups), lambda: nodes_cost(groups), lambda: speedup(groups)):
                parses_or_refuses(draw)
        path.write_bytes(data)
        parses_or_refuses(lambda: read_records(path, "s"))

    profile.run(FILES, check, examples=120, deadline_s=10)  # 10 s: the first picture imports matplotlib


@pytest.mark.parametrize("profile", PROFILES)
def test_plot_end_to_end(profile: Profile, tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    picture = tmp_path / "plot.svg"

    def check(case: tuple[bytes, str]) -> None:
        data, kind = case
        results.write_bytes(data)
        picture.write_bytes(b"previous")
        before = snapshot(tmp_path)
        outcome = run_cli("plot", str(results), "-o", str(picture), "-k", kind)
        assert_clean(outcome)
        assert_no_partial_files(tmp_path, before, {picture.name} if outcome.code == 0 else set())

    profile.run(
        st.tuples(FILES, st.sampled_from(["cactus", "nodes-cost", "speedup"])), check, examples=25, deadline_s=10
    )
