"""The solution optimizer: never longer, replayed, finds the push-optimal count on small levels,
refuses bad solutions with one line, and its command-line flags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from project import CONFIGS
from searchkit_sokoban.board import Board
from searchkit_sokoban.levels import load_level
from searchkit_sokoban.lurd import replay_lurd
from searchkit_sokoban.optimizer import MOVES, PUSHES, auto_seconds, optimize, parse_solution
from typer.testing import CliRunner

from searchkit import InputError, Limits
from searchkit.bench.report import Display, summarize
from searchkit.bench.suite import Config, Suite
from searchkit.cli import build_app
from searchkit.solving import execute, prepare

runner = CliRunner()

# Microban levels whose default answer is longer than the push-optimal one (A* --optimal)
OPTIMAL_PUSHES = {5: 6, 7: 6, 26: 10, 81: 12}


def found_lurd(n: int) -> str:
    job = prepare("sokoban", {"level_file": f"microban:{n}", "no_improve": True})
    result = execute(job, Limits(timeout_s=20))
    assert result.solved and not hasattr(result, "_sokoban_found")
    return job.domain.solution_json(job.problem, result, job.options)["lurd"]


@pytest.mark.parametrize("n", sorted(OPTIMAL_PUSHES))
def test_finds_the_push_optimal_count(n):
    level = load_level(f"microban:{n}")
    lurd = found_lurd(n)
    given = replay_lurd(level, lurd)
    assert given.pushes > OPTIMAL_PUSHES[n]  # the default's answer has room to improve
    done = optimize(level, lurd, 5.0)
    assert done.pushes == OPTIMAL_PUSHES[n]
    assert (done.found.moves, done.found.pushes) == (given.moves, given.pushes)
    replayed = replay_lurd(level, done.lurd)
    assert (replayed.moves, replayed.pushes) == (done.moves, done.pushes)


def test_never_longer_and_walks_shortened():
    level = load_level("microban:2")
    lurd = found_lurd(2)
    # a detour in a walk: same pushes, more moves
    first_push = next(i for i, ch in enumerate(lurd) if ch.isupper())
    board = Board(level)
    parse_solution(board, lurd)
    longer = None
    for wiggle in ("lr", "rl", "ud", "du"):
        candidate = lurd[:first_push] + wiggle + lurd[first_push:]
        try:
            parse_solution(board, candidate)
        except InputError:
            continue
        longer = candidate
        break
    assert longer is not None
    given = replay_lurd(level, longer)
    for metric in (PUSHES, MOVES):
        done = optimize(level, longer, 2.0, metric)
        assert done.pushes <= given.pushes and done.moves < given.moves
        replay_lurd(level, done.lurd)


def test_no_time_returns_the_pushes_given():
    level = load_level("microban:5")
    lurd = found_lurd(5)
    given = replay_lurd(level, lurd)
    done = optimize(level, lurd, 0.0)
    assert done.pushes == given.pushes and done.moves <= given.moves
    assert done.seconds < 1.0


@pytest.mark.parametrize(
    "lurd, words",
    [
        ("ulx", "'x' is not a LURD letter"),
        ("uuuuuu", "walks into a wall"),
        ("U", "a push with no box to push"),
        ("", "box(es) are off goals"),
    ],
)
def test_bad_solutions_say_why(lurd, words):
    with pytest.raises(InputError) as e:
        optimize(load_level("microban:1"), lurd, 1.0)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_a_solution_for_another_level():
    lurd = found_lurd(1)
    with pytest.raises(InputError) as e:
        optimize(load_level("microban:3"), lurd, 1.0)
    assert "does not" in str(e.value)


def test_auto_budget_scales_with_the_level():
    small, large = Board(load_level("microban:1")), Board(load_level("microban:150"))
    assert 1.0 <= auto_seconds(small, 10) < auto_seconds(large, 100) <= 30.0


# -- the command line ---------------------------------------------------------------------------


def test_solve_improves_by_default_and_prints_both_counts():
    out = runner.invoke(build_app(), ["solve", "sokoban", "microban:5"])
    assert out.exit_code == 0, out.output
    assert "pushes: 6" in out.output and "(found: moves" in out.output
    plain = runner.invoke(build_app(), ["solve", "sokoban", "microban:5", "--no-improve"])
    assert plain.exit_code == 0 and "found:" not in plain.output and "pushes: 10" in plain.output


def test_solve_json_has_found_counts():
    out = runner.invoke(build_app(), ["solve", "sokoban", "microban:5", "--improve-time", "3", "--json"])
    doc = json.loads(out.stdout)
    assert doc["pushes"] == 6 == doc["cost"] and doc["found_pushes"] == 10 == doc["found_cost"]
    assert doc["improve_s"] <= 3.5


@pytest.mark.parametrize("value", ["-1", "nan", "inf"])
def test_bad_improve_time(value):
    out = runner.invoke(build_app(), ["solve", "sokoban", "microban:5", "--improve-time", value])
    assert out.exit_code != 0


def test_optimize_command(tmp_path):
    lurd = found_lurd(5)
    out = runner.invoke(build_app(), ["sokoban", "optimize", "microban", "--level", "5", "--lurd", lurd, "--time", "3"])
    assert out.exit_code == 0, out.output
    assert "pushes: 6" in out.output and "given: moves" in out.output
    path = tmp_path / "solution.txt"
    path.write_text(lurd[:10] + "\n" + lurd[10:] + "\n")
    out = runner.invoke(
        build_app(), ["sokoban", "optimize", "microban:5", "--lurd-file", str(path), "--json", "--optimize", "moves"]
    )
    doc = json.loads(out.stdout)
    assert doc["given_pushes"] == 10 and doc["moves"] <= doc["given_moves"]
    replay_lurd(load_level("microban:5"), doc["lurd"])


@pytest.mark.parametrize(
    "args, words",
    [
        (["microban:5", "--lurd", "q"], "not a LURD letter"),
        (["microban:5", "--lurd", "dddddddd"], "does not replay"),
        (["microban:5"], "--lurd"),
    ],
)
def test_optimize_command_bad_input_is_one_line_exit_2(args, words):
    """Through the installed script: the real entry point's one ``Error:`` line."""
    import shutil
    import subprocess
    import sys

    exe = shutil.which("searchkit") or str(Path(sys.executable).with_name("searchkit"))
    p = subprocess.run([exe, "sokoban", "optimize", *args], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and words in lines[0]


@pytest.mark.parametrize(
    "args, words",
    [
        (["microban:5", "--lurd", "u", "--lurd-file", "x"], "one of them"),
        (["microban:5", "--lurd-file", "/no/such/file"], "cannot read"),
        (["microban", "--lurd", "u"], "--level"),
        (["microban:5", "--lurd", "u", "--optimize", "boxes"], "--optimize"),
        (["microban:5", "--lurd", "u", "--time", "-2"], "--time"),
    ],
)
def test_optimize_command_refuses(args, words):
    out = runner.invoke(build_app(), ["sokoban", "optimize", *args])
    assert isinstance(out.exception, InputError) and words in str(out.exception)
    assert "\n" not in str(out.exception)


def test_game_plan_is_the_improved_solution():
    from searchkit_sokoban.game import SokobanGame

    from searchkit.play.runner import ProgressObserver

    game = SokobanGame(load_level("microban:5"))
    plan = game.solve_task()(Limits(timeout_s=20), ProgressObserver())
    assert sum(m.isupper() for m in plan.moves) == OPTIMAL_PUSHES[5]


# -- the bench shows found and improved costs ------------------------------------------------------


def test_bench_rows_and_summary_show_found_cost():
    from io import StringIO

    from rich.console import Console

    config = Config(name="default")
    records = [
        {
            "config": "default",
            "instance": "5",
            "status": "solved",
            "cost": 6,
            "found_cost": 10,
            "expected_cost": None,
            "stats": {"elapsed_s": 1.0, "expanded": 5, "generated": 9, "expansions_per_s": 5.0, "generated_per_s": 9},
        }
    ]
    row = summarize(records, [config])[0]
    assert row["total_cost"] == 6 and row["total_found_cost"] == 10
    suite = Suite(name="s", domain="sokoban", path=Path("s.toml"), configs=[config], instances=[])
    out = StringIO()
    display = Display(suite, Console(file=out, width=200), Console(file=StringIO()), progress=False)
    display.finished(records[0])
    assert "found 10" in out.getvalue()


def test_a_stop_ends_the_pass_with_a_valid_answer():
    import threading

    from searchkit_sokoban.optimizer import finish

    level = load_level("microban:150")
    lurd = found_lurd(150)
    board = Board(level)
    stop = threading.Event()
    stop.set()
    given = replay_lurd(level, lurd)
    done = finish(board, parse_solution(board, lurd), _counts(given), 30.0, stop=stop)
    assert done.seconds < 2 and done.pushes <= given.pushes
    replay_lurd(level, done.lurd)


def _counts(replay):
    from searchkit_sokoban.optimizer import Counts

    return Counts(replay.moves, replay.pushes)


def test_a_broken_answer_never_loses_the_solution(monkeypatch):
    from searchkit_sokoban import optimizer

    level = load_level("microban:5")
    lurd = found_lurd(5)
    monkeypatch.setattr(optimizer, "improve_pushes", lambda board, pushes, *a: pushes[:-1])  # unsolved
    done = optimize(level, lurd, 1.0)
    assert done.lurd == lurd and done.pushes == replay_lurd(level, lurd).pushes


@pytest.mark.parametrize(
    "name", ["microban.toml", "microban-optimal-moves.toml", "xsokoban-improve.toml", "sasquatch-improve.toml"]
)
def test_suites_load(name):
    import tomllib

    from searchkit.bench.suite import load_suite

    path = CONFIGS / name
    data = tomllib.loads(path.read_text())
    if not Path(data["instances"]["file"]).is_absolute() or Path(data["instances"]["file"]).exists():
        suite = load_suite(path)
        assert suite.instances and suite.domain == "sokoban"
    else:
        pytest.skip("the shared level files are not on this machine")
