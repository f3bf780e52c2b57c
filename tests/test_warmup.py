"""`searchkit warm-up`: each engine's one-off set-up run once, shared set-ups once for all."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from searchkit import InputError
from searchkit.cli import build_app
from searchkit.engines import EngineInfo
from searchkit.plugins import engines
from searchkit.result import Result
from searchkit.warmup import run_warm_ups, warm_ups


def _engine(name: str, warm_up=None) -> EngineInfo:
    def run(problem, **kw) -> Result:  # pragma: no cover - never run here
        raise AssertionError

    return EngineInfo(name, run, "test engine", warm_up=warm_up)


def test_a_shared_set_up_runs_once_for_all_its_engines():
    calls: list[str] = []

    def shared() -> None:
        calls.append("shared")

    def own() -> None:
        calls.append("own")

    infos = [_engine("a", shared), _engine("b"), _engine("c", own), _engine("d", shared)]
    groups = warm_ups(infos)
    assert [served for served, _ in groups] == [["a", "d"], ["c"]]  # b has none
    told: list[list[str]] = []
    done = run_warm_ups(groups, told.append)
    assert calls == ["shared", "own"] and told == [["a", "d"], ["c"]]
    assert [row["engines"] for row in done] == [["a", "d"], ["c"]]
    assert all(row["seconds"] >= 0 for row in done)


def test_names_pick_engines_and_an_unknown_one_is_refused():
    def shared() -> None:
        pass

    infos = [_engine("a", shared), _engine("b", shared), _engine("c")]
    assert [served for served, _ in warm_ups(infos, ["b", "b", "c"])] == [["b"]]
    with pytest.raises(InputError, match="unknown engine 'x'"):
        warm_ups(infos, ["a", "x"])


def test_every_installed_set_up_is_listed_once():
    groups = warm_ups(engines().values())
    served = [name for names, _ in groups for name in names]
    with_set_up = [e.name for e in engines().values() if e.warm_up is not None]
    assert sorted(served) == sorted(with_set_up) and len(served) == len(set(served))
    assert "sokoban-portfolio" in served and "npuzzle-idastar" in served


def test_the_command_runs_the_named_engines_set_ups():
    r = CliRunner().invoke(build_app(), ["warm-up", "sokoban-alternation", "--json"])
    assert r.exit_code == 0, r.output
    done = json.loads(r.stdout)
    assert [row["engines"] for row in done] == [["sokoban-alternation"]]
    r = CliRunner().invoke(build_app(), ["warm-up", "sokoban-alternation"])
    assert r.exit_code == 0 and "sokoban-alternation" in r.stdout and "ready: 1 set-up in" in r.stdout
