"""`searchkit warm-up`: each engine's one-off set-up run once, shared set-ups once for all; the
domains' compiled rules compiled once per rules module, and a fresh process after compiles nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from markers import needs_numba
from typer.testing import CliRunner

from searchkit import CompiledRules, Domain, Heuristic, InputError, Param
from searchkit.cli import build_app
from searchkit.compiled import NO_NUMBA_ENV
from searchkit.engines import EngineInfo
from searchkit.plugins import engines
from searchkit.result import Result
from searchkit.warmup import rules_warm_ups, run_warm_ups, warm_ups


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


# -- the domains' compiled rules ------------------------------------------------------------------


class _Rules:
    """A problem that offers compiled rules of the module ``module`` (never compiled here)."""

    def __init__(self, module: str | None, context_dtype: str = "int64"):
        import numpy as np

        self.module = module
        self.context = (np.zeros(3, dtype=context_dtype),)

    def compiled_rules(self):
        if self.module is None:
            return None
        return CompiledRules(self.module, 1, self.context, lambda s: s, lambda w: w, lambda m, w: m, 4)


class _Domain(Domain):
    """Builds a `_Rules` per instance (``rules``: its module, or None), refusing the heuristic
    ``picky`` on the instances marked ``refuse``."""

    params = [Param("rules", str, None), Param("refuse", bool, False), Param("dtype", str, "int64")]

    def __init__(self, name: str, instances: list[dict]):
        self.name, self.instances, self.built = name, instances, []
        super().__init__()

    def builtin_heuristics(self):
        return {"picky": Heuristic("picky"), "plain": Heuristic("plain")}

    def check_instances(self):
        return self.instances

    def make_problem(self, options, heuristic):
        if heuristic is not None and heuristic.name == "picky" and options["refuse"]:
            raise InputError("not for this instance")
        self.built.append((options["rules"], heuristic and heuristic.name))
        return _Rules(options["rules"], options["dtype"])


def test_the_default_warm_up_problems_are_the_check_instances_with_each_heuristic():
    dom = _Domain("d", [{"rules": "m1", "refuse": True}, {"rules": None}])
    assert len(list(dom.warm_up_problems())) == 5  # 2 without a heuristic, 2 with plain, 1 with picky
    assert dom.built == [("m1", None), (None, None), (None, "picky"), ("m1", "plain"), (None, "plain")]


@needs_numba
def test_each_rules_module_is_warmed_once_per_argument_types():
    one = _Domain("one", [{"rules": "m1"}, {"rules": None}, {"rules": "m2"}])
    two = _Domain("two", [{"rules": "m2"}, {"rules": "m1", "dtype": "uint8"}])
    found = rules_warm_ups([one, two])
    assert [(f.module, f.domains) for f in found] == [("m1", ["one"]), ("m2", ["one", "two"]), ("m1", ["two"])]
    assert [(f.module, f.domains) for f in rules_warm_ups([one, two], ["two", "two"])] == [
        ("m2", ["two"]),
        ("m1", ["two"]),
    ]
    with pytest.raises(InputError, match="unknown domain 'x'"):
        rules_warm_ups([one, two], ["one", "x"])


def test_nothing_is_warmed_without_numba(monkeypatch):
    monkeypatch.setenv(NO_NUMBA_ENV, "1")
    assert rules_warm_ups([_Domain("one", [{"rules": "m1"}])]) == []


def test_the_command_warms_engines_and_domains_as_asked(monkeypatch):
    import searchkit.warmup as warmup

    asked: list[tuple[str, object]] = []
    monkeypatch.setattr(warmup, "warm_ups", lambda infos, names: asked.append(("engines", names)) or [])
    monkeypatch.setattr(warmup, "rules_warm_ups", lambda doms, names: asked.append(("domains", names)) or [])
    for args, expected in [
        ([], [("engines", None), ("domains", None)]),
        (["sokoban-alternation"], [("engines", ["sokoban-alternation"])]),
        (["--domain", "npuzzle"], [("domains", ["npuzzle"])]),
        (["astar", "--domain", "npuzzle"], [("engines", ["astar"]), ("domains", ["npuzzle"])]),
    ]:
        asked.clear()
        r = CliRunner().invoke(build_app(), ["warm-up", *args, "--json"])
        assert r.exit_code == 0 and json.loads(r.stdout) == [], r.output
        assert asked == expected, args


def test_an_unknown_domain_is_one_error_line():
    cmd = [sys.executable, "-c", "from searchkit.cli import main; main()", "warm-up", "--domain", "nosuch"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("Error: unknown domain 'nosuch'"), done.stderr
    assert done.stderr.count("\n") == 1 and not done.stdout


@needs_numba
@pytest.mark.slow
def test_after_warm_up_a_fresh_compiled_solve_compiles_nothing(tmp_path):
    env = dict(os.environ, SEARCHKIT_CACHE_DIR=str(tmp_path))
    env.pop("NUMBA_DISABLE_JIT", None)

    def searchkit(*args: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-c", "from searchkit.cli import main; main()", *args]
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr
        return done

    warm = searchkit("warm-up", "--domain", "npuzzle", "--json")
    rows = json.loads(warm.stdout)
    assert [(row["rules"], row["domains"]) for row in rows] == [
        ("searchkit_npuzzle.rules", ["npuzzle"]),
        ("searchkit_npuzzle.rules_pdb", ["npuzzle"]),
    ]
    assert "warming up compiled rules searchkit_npuzzle.rules (npuzzle) ..." in warm.stderr
    kernels = tmp_path / "kernels"
    for stem in ("searchkit_npuzzle_rules__", "searchkit_npuzzle_rules_pdb__"):
        (generated,) = kernels.glob(stem + "*.py")
        assert list((kernels / "__pycache__").glob(generated.stem + ".bestfirst_kernel-*.nbi")), generated
    solve = searchkit("solve", "npuzzle", "--size", "3", "--seed", "1", "-e", "astar", "-H", "manhattan", "--json")
    doc = json.loads(solve.stdout)
    assert doc["status"] == "solved" and doc["compiled"] is True
    assert doc["stats"]["compile_s"] == 0 and "compiling" not in solve.stderr, solve.stderr
