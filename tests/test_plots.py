"""``searchkit plot``: cactus, nodes-vs-cost and speed-up pictures from bench results."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from searchkit import InputError
from searchkit.bench.command import plot
from searchkit.bench.plots import (
    cactus,
    geometric_mean_ratio,
    load_results,
    nodes_cost,
    plot_results,
    series_names,
    speedup,
    speedup_points,
)

MAGIC = {".png": b"\x89PNG", ".svg": b"<?xml", ".pdf": b"%PDF"}


def record(
    config: str,
    instance: str,
    status: str = "solved",
    seconds: float = 0.1,
    expanded: int = 100,
    cost: float | None = 10,
    suite: str = "s",
) -> dict:
    return {
        "suite": suite,
        "config": config,
        "instance": instance,
        "status": status,
        "cost": cost if status == "solved" else None,
        "stats": {"elapsed_s": seconds, "expanded": expanded, "generated": 2 * expanded},
    }


def results(tmp_path: Path, records: list[dict], name: str = "r.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.fixture
def two_configs() -> list[dict]:
    """Config b is exactly 4x faster than a on 8 instances; a fails on 2 more."""
    rng = random.Random(3)
    out = []
    for i in range(10):
        t = rng.uniform(0.01, 2)
        solved_a = i < 8
        out.append(
            record("a", f"i{i}", "solved" if solved_a else "limit", t if solved_a else 5.0, 1000 * (i + 1), 20 + i)
        )
        out.append(record("b", f"i{i}", "solved", t / 4 if solved_a else 0.3, 250 * (i + 1), 20 + i))
    return out


def cli(*args: str):
    app = typer.Typer()
    app.command()(plot)
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
@pytest.mark.parametrize("kind", ["cactus", "nodes-cost", "speedup"])
def test_every_kind_in_every_format(tmp_path, two_configs, kind, suffix):
    out = tmp_path / f"pic{suffix}"
    result = cli(str(results(tmp_path, two_configs)), "-o", str(out), "--kind", kind)
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(MAGIC[suffix]) and out.stat().st_size > 1000
    assert f"{kind} plot written to" in result.stderr
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left


def test_cactus_lines_are_the_sorted_solved_times(two_configs):
    fig = cactus(series_names(two_configs))
    lines = {line.get_label().split(" ")[0]: line for line in fig.axes[0].get_lines()}
    a_times = sorted(r["stats"]["elapsed_s"] for r in two_configs if r["config"] == "a" and r["status"] == "solved")
    assert list(lines["a"].get_ydata()) == pytest.approx(a_times)
    assert list(lines["a"].get_xdata()) == list(range(1, 9))
    assert len(lines["b"].get_xdata()) == 10 and "(10/10)" in lines["b"].get_label()
    assert fig.axes[0].get_yscale() == "log"
    nodes = cactus(series_names(two_configs), metric="nodes")
    assert max(nodes.axes[0].get_lines()[0].get_ydata()) == 8000


def test_speedup_points_diagonal_and_censoring(two_configs):
    groups = series_names(two_configs)
    points = speedup_points(groups["a"], groups["b"])
    assert len(points) == 10
    both = [(x, y) for _i, x, y, ok in points if ok]
    assert len(both) == 8 and all(x / y == pytest.approx(4) for x, y in both)
    assert geometric_mean_ratio(both) == pytest.approx(4)
    censored = [(x, y) for _i, x, y, ok in points if not ok]
    assert all(x == 5.0 for x, _y in censored)  # a's unsolved runs sit on the largest value
    fig = speedup(groups)
    ax = fig.axes[0]
    assert ax.get_xscale() == ax.get_yscale() == "log"
    (diagonal,) = [line for line in ax.get_lines() if line.get_label() == "equal"]
    assert list(diagonal.get_xdata()) == list(diagonal.get_ydata())
    assert "4.00x faster" in ax.get_title()
    assert "4.00x slower" in speedup(groups, ("b", "a")).axes[0].get_title()


def test_nodes_cost_plots_only_solved_runs(two_configs):
    fig = nodes_cost(series_names(two_configs))
    counts = [len(c.get_offsets()) for c in fig.axes[0].collections]
    assert counts == [8, 10]
    with pytest.raises(InputError, match="no solved runs"):
        nodes_cost(series_names([record("a", "x", "limit")]))


def test_several_suites_are_told_apart_and_filtered(tmp_path):
    recs = [record("astar", "1", suite="s1"), record("astar", "1", suite="s2", seconds=0.5)]
    path = results(tmp_path, recs)
    assert list(series_names(load_results([path]))) == ["s1/astar", "s2/astar"]
    out = tmp_path / "p.png"
    assert cli(str(path), "-o", str(out), "--suite", "s2").exit_code == 0
    assert cli(str(path), "-o", str(out), "--suite", "s3").exit_code == 2


def test_a_torn_last_line_is_skipped_and_a_bad_line_is_an_error(tmp_path, two_configs):
    path = results(tmp_path, two_configs)
    with open(path, "a") as f:
        f.write('{"suite": "s", "conf')
    assert len(load_results([path])) == 20
    bad = results(tmp_path, two_configs[:2], "bad.jsonl")
    bad.write_text(bad.read_text() + "nonsense\n" + json.dumps(two_configs[2]) + "\n")
    with pytest.raises(InputError, match=r"bad.jsonl: line 3 is not JSON"):
        load_results([bad])
    other = results(tmp_path, [{"hello": 1}], "other.jsonl")
    with pytest.raises(InputError, match="line 1 is not a bench result record"):
        load_results([other])


@pytest.mark.parametrize(
    "args, words",
    [
        (["-o", "{tmp}/x.gif"], "use a .png, .svg or .pdf"),
        (["-o", "{tmp}/x.png", "--kind", "pie"], "unknown plot 'pie'"),
        (["-o", "{tmp}/x.png", "--metric", "joules"], "unknown metric 'joules'"),
        (["-o", "{tmp}/x.png", "--kind", "speedup", "--pair", "a"], "--pair takes two"),
        (["-o", "{tmp}/x.png", "--kind", "speedup", "--pair", "a,zz"], "no configuration 'zz'"),
        (["-o", "{tmp}/x.png", "--configs", "a,q"], "no configuration 'q'"),
        (["-o", "{tmp}/nodir/x.png"], "does not exist"),
    ],
)
def test_bad_requests_are_one_line_errors(tmp_path, two_configs, args, words):
    path = results(tmp_path, two_configs)
    result = cli(str(path), *[a.format(tmp=tmp_path) for a in args])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1 and words in result.stderr


def test_missing_or_empty_results(tmp_path):
    assert "not found" in cli(str(tmp_path / "none.jsonl"), "-o", str(tmp_path / "x.png")).stderr
    empty = results(tmp_path, [])
    assert "no results to plot" in cli(str(empty), "-o", str(tmp_path / "x.png")).stderr


def test_a_failed_draw_keeps_the_old_picture(tmp_path, two_configs, monkeypatch):
    out = tmp_path / "keep.png"
    out.write_bytes(b"old")
    from matplotlib.figure import Figure

    def broken(self, *args, **kwargs):
        Path(args[0]).write_bytes(b"half")
        raise RuntimeError("disk full")

    monkeypatch.setattr(Figure, "savefig", broken)
    with pytest.raises(RuntimeError):
        plot_results([results(tmp_path, two_configs)], out)
    assert out.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["keep.png", "r.jsonl"]


def test_plot_of_a_real_bench_run(tmp_path):
    """The bench command's own output plots (8-puzzles, two engines)."""
    from searchkit.bench import load_suite, run_suite

    suite = tmp_path / "s.toml"
    suite.write_text(
        'domain = "npuzzle"\n[options]\nsize = 3\n[instances]\nseeds = [1, 2, 3]\n'
        '[[configs]]\nengine = "astar"\nheuristic = "manhattan"\n'
        '[[configs]]\nengine = "astar"\nheuristic = "linear-conflict"\n'
    )
    out = tmp_path / "r.jsonl"
    run_suite(load_suite(suite), jobs=2, output=out)
    groups = series_names(load_results([out]))
    # two workers write in the order they finish: the series are those two, in either order
    assert sorted(groups) == ["astar-linear-conflict", "astar-manhattan"]
    points = speedup_points(groups["astar-manhattan"], groups["astar-linear-conflict"], "nodes")
    assert len(points) == 3 and all(ok and y <= x for _i, x, y, ok in points)  # LC never expands more
    assert math.isfinite(geometric_mean_ratio([(x, y) for _i, x, y, _ok in points]))
    plot_results([out], tmp_path / "c.svg", "speedup", metric="nodes")
    assert (tmp_path / "c.svg").read_bytes().startswith(b"<?xml")


@pytest.mark.parametrize("kind", ["cactus", "nodes-cost", "speedup"])
def test_title_option_names_the_picture(tmp_path, two_configs, kind):
    out = tmp_path / "pic.svg"
    assert (
        cli(str(results(tmp_path, two_configs)), "-o", str(out), "--kind", kind, "--title", "Zebra run").exit_code == 0
    )
    assert "Zebra run" in out.read_text()
