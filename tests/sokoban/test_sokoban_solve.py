"""Solving Sokoban end to end: engines, optimality, LURD replay, the CLI and bench loading."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from project import CONFIGS
from searchkit_sokoban.levels import parse_level
from searchkit_sokoban.lurd import replay_lurd
from typer.testing import CliRunner

from searchkit import Heuristic, InputError, Limits
from searchkit.cli import build_app
from searchkit.plugins import get_domain
from searchkit.solving import execute, prepare

runner = CliRunner()
LIMITS = Limits(timeout_s=20)


def solve(options, engine=None, heuristic=None):
    job = prepare("sokoban", options, engine, heuristic)
    result = execute(job, LIMITS)
    return job, result


@pytest.mark.parametrize("n", range(1, 11))
def test_first_microban_levels_default_solver(n):
    job, result = solve({"level_file": f"microban:{n}"})
    assert result.solved
    data = job.domain.solution_json(job.problem, result, job.options)
    done = replay_lurd(job.problem.board.level, data["lurd"])
    assert (
        (done.moves, done.pushes)
        == (data["moves"], data["pushes"])
        == (len(data["lurd"]), sum(a.count for a in result.actions))
    )


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 9])
def test_optimal_matches_breadth_first_push_count(n):
    _job, best = solve({"level_file": f"microban:{n}", "optimal": True})
    _job, plain = solve({"level_file": f"microban:{n}", "no_deadlock": "all"}, engine="bfs")
    assert best.solved and plain.solved
    assert best.cost == plain.cost == len(best.actions)


def test_optimal_moves_mode_counts_every_step():
    job, result = solve({"level_file": "microban:2", "optimal": True, "optimize": "moves"})
    data = job.domain.solution_json(job.problem, result, job.options)
    assert result.cost == data["moves"] == len(data["lurd"])
    _job, pushes = solve({"level_file": "microban:2", "optimal": True})
    assert data["moves"] <= len(job.domain.solution_json(_job.problem, pushes, {})["lurd"])


@pytest.mark.parametrize("engine", ["bfs", "dijkstra", "astar", "greedy", "idastar", "iddfs", "dfs"])
def test_every_core_engine_solves_a_small_level(engine):
    job, result = solve({"level_file": "microban:1"}, engine=engine)
    assert result.solved, engine


@pytest.mark.parametrize("heuristic", ["matching", "nearest-goal"])
def test_both_heuristics(heuristic):
    _job, result = solve({"level_file": "microban:6"}, engine="astar", heuristic=heuristic)
    assert result.solved and result.cost == sum(a.count for a in result.actions)


def test_replay_rejects_wrong_solutions():
    level = parse_level("#####\n#@$.#\n#####")
    assert replay_lurd(level, "R").pushes == 1
    with pytest.raises(AssertionError, match="not on goals"):
        replay_lurd(level, "")
    with pytest.raises(AssertionError, match="walks into a box"):
        replay_lurd(level, "r")
    with pytest.raises(AssertionError, match="wall"):
        replay_lurd(level, "L")
    with pytest.raises(AssertionError, match="blocked"):
        replay_lurd(level, "RR")


def test_domain_replay_catches_a_tampered_result():
    job, result = solve({"level_file": "microban:3"})
    result.actions = result.actions[:-1]
    result._sokoban_lurd = None
    with pytest.raises(AssertionError):
        job.domain.replay(job.problem, result)


def test_no_deadlock_switches_change_the_search():
    _j, pruned = solve({"level_file": "microban:6"})
    _j, bare = solve({"level_file": "microban:6", "no_deadlock": "all"})
    assert pruned.solved and bare.solved
    assert pruned.stats.generated < bare.stats.generated


def test_load_instances_for_the_bench(tmp_path):
    dom = get_domain("sokoban")
    instances = dom.load_instances("microban", Path("."))
    assert len(instances) == 155 and instances[10].options == {"level_file": "microban", "level": "11"}
    assert [i.name for i in dom.load_instances("microban:44", Path("."))] == ["44"]
    (tmp_path / "two.txt").write_text("; a\n\n#####\n#@$.#\n#####\n\n; b\n\n#####\n#.$@#\n#####\n")
    found = dom.load_instances("two.txt", tmp_path)
    assert [i.name for i in found] == ["a", "b"]
    job, result = solve(found[1].options)
    assert result.solved and result.cost == 1
    # a title that is another level's number (Aymeric du Peloux's collection titles its 269th "11")
    (tmp_path / "clash.txt").write_text("#####\n#@$.#\n#####\n\n; 1\n\n#####\n#.$@#\n#####\n")
    clash = dom.load_instances("clash.txt", tmp_path)
    assert [(i.name, i.options["level"]) for i in clash] == [("1 (#1)", "1"), ("1 (#2)", "2")]
    (picked,) = dom.load_instances("two.txt:b", tmp_path)  # a file's level, found beside the suite
    assert picked.name == "b" and picked.options == {"level_file": str((tmp_path / "two.txt").resolve()), "level": "2"}


def test_suite_files_parse():
    import tomllib

    root = CONFIGS
    for name in ("microban.toml", "microban-optimal.toml"):
        suite = tomllib.loads((root / name).read_text())
        assert suite["domain"] == "sokoban" and suite["instances"]["file"] == "microban"


# -- the command line ---------------------------------------------------------------------
def test_cli_solves_a_bundled_level():
    out = runner.invoke(build_app(), ["solve", "sokoban", "microban:11"])
    assert out.exit_code == 0, out.output
    assert "moves:" in out.output and "pushes: " in out.output


def test_cli_export_then_solve_the_file(tmp_path):
    path = tmp_path / "level11.txt"
    out = runner.invoke(build_app(), ["sokoban", "export", "microban:11", "-o", str(path)])
    assert out.exit_code == 0, out.output
    assert "David W. Skinner" in path.read_text()
    out = runner.invoke(build_app(), ["solve", "sokoban", str(path), "--optimal", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["status"] == "solved" and data["pushes"] == 16 and data["guarantee"] == "optimal"
    assert replay_lurd(parse_level(path.read_text()), data["lurd"]).pushes == 16


def test_cli_boards_and_list():
    out = runner.invoke(build_app(), ["solve", "sokoban", "microban:2", "--boards"])
    assert out.exit_code == 0 and "after push 3:" in out.output
    out = runner.invoke(build_app(), ["sokoban", "list", "microban"])
    assert out.exit_code == 0 and "Duh!" in out.output and len(out.output.splitlines()) == 155


@pytest.mark.parametrize(
    "args, needle",
    [
        (["solve", "sokoban", "microban"], "holds 155 levels"),
        (["solve", "sokoban", "microban", "--level", "999"], "out of range"),
        (["solve", "sokoban", "nope.txt"], "not found"),
        (["solve", "sokoban", "microban:1", "--no-deadlock", "bogus"], "unknown deadlock detector"),
        (["solve", "sokoban", "microban:1", "--optimize", "time"], "--optimize"),
        (["sokoban", "export", "microban:500"], "out of range"),
    ],
)
def test_cli_errors_are_one_line_exit_2(args, needle):
    """Through the installed script: the real entry point turns InputError into exit 2."""
    exe = shutil.which("searchkit") or str(Path(sys.executable).with_name("searchkit"))
    p = subprocess.run([exe, *args], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, (p.stdout, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and needle in lines[0], p.stderr


def test_a_heuristic_without_make_is_one_clear_error():
    # another plugin's heuristic reaches the problem only through its make function
    dom = type(get_domain("sokoban"))()
    dom.with_heuristic(Heuristic("borrowed"))
    with pytest.raises(InputError, match="heuristic 'borrowed' has no make function"):
        dom.make_problem({"level_file": "microban:1"}, dom.heuristics["borrowed"])
