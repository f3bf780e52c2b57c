"""The CLI: output, JSON, exit codes and one-line errors, in-process and installed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from processes import wait_for_cpu
from typer.testing import CliRunner

from searchkit.cli import build_app

runner = CliRunner()
BOARD = "8 6 7 2 5 4 3 0 1"


def run(*args: str):
    return runner.invoke(build_app(), list(args))


def test_solve_prints_board_moves_and_stats():
    r = run("solve", "npuzzle", "--board", BOARD)
    assert r.exit_code == 0, r.output
    assert "solved: cost 31" in r.stdout
    assert "expanded" in r.stdout and "optimal" in r.stdout


def test_solve_json_has_the_agreed_keys():
    r = run("solve", "npuzzle", "--board", BOARD, "--engine", "astar", "--heuristic", "manhattan", "--json")
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    for key in ("status", "cost", "actions", "start", "engine", "heuristic", "stats"):
        assert key in doc
    for key in ("expanded", "generated", "max_frontier", "elapsed_s"):
        assert key in doc["stats"]
    assert doc["status"] == "solved" and doc["cost"] == 31 and len(doc["actions"]) == 31
    assert doc["start"] == [8, 6, 7, 2, 5, 4, 3, 0, 1]
    assert doc["engine"] == "astar" and doc["heuristic"] == "manhattan"


def test_limit_exits_3_with_partial_stats():
    r = run(
        "solve",
        "npuzzle",
        "--size",
        "4",
        "--seed",
        "1",
        "--engine",
        "astar",
        "--heuristic",
        "manhattan",
        "--max-nodes",
        "100",
        "--json",
    )
    assert r.exit_code == 3
    doc = json.loads(r.stdout)
    assert doc["status"] == "limit" and doc["stats"]["expanded"] == 100


def test_no_solution_exits_3():
    # dfs with depth 0 on an unsolved board: cut off -> limit (3)
    r = run("solve", "npuzzle", "--board", BOARD, "--engine", "dfs", "--depth", "0", "--json")
    assert r.exit_code == 3 and json.loads(r.stdout)["status"] == "limit"


@pytest.mark.parametrize(
    "args,needle",
    [
        (["solve", "npuzzle", "--board", "1 2 3"], "not square"),
        (["solve", "npuzzle", "--board", "1 1 2 3 4 5 6 7 8"], "twice"),
        (["solve", "npuzzle", "--board", "1 2 3 4 5 6 8 7 0"], "unsolvable"),
        (["solve", "npuzzle", "--size", "1"], "at least 2"),
        (["solve", "npuzzle", "--size", "99999"], "at most"),
        (["solve", "npuzzle", "--engine", "nope"], "unknown engine"),
        (["solve", "npuzzle", "--heuristic", "nope"], "unknown heuristic"),
        (["solve", "npuzzle", "--engine", "greedy", "--heuristic", "none"], "needs a heuristic"),
        (["solve", "npuzzle", "--max-nodes", "-5"], "--max-nodes must not be negative"),
        (["solve", "npuzzle", "--timeout", "-1"], "--timeout must not be negative"),
        (["solve", "npuzzle", "--engine", "astar", "--weight", "0.5"], "weight"),
        (["solve", "npuzzle", "--seed", "abc"], "seed"),
        (["solve", "nosuchdomain"], "nosuchdomain"),
        (["solve", "npuzzle", "--param", "weight"], "KEY=VALUE"),
        (["solve", "npuzzle", "--engine", "astar", "-P", "guides=x"], "takes no parameter guides"),
        (["warm-up", "nope"], "unknown engine 'nope'"),
    ],
)
def test_bad_input_is_one_line_exit_2(args, needle):
    """Through the installed script, so the real entry point and stderr are checked."""
    exe = shutil.which("searchkit") or str(__import__("pathlib").Path(sys.executable).with_name("searchkit"))
    p = subprocess.run([exe, *args], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, (p.stdout, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and needle in lines[0], p.stderr
    assert "Traceback" not in p.stderr


def test_installed_script_solves_and_prints_json():
    exe = shutil.which("searchkit") or str(__import__("pathlib").Path(sys.executable).with_name("searchkit"))
    p = subprocess.run(
        [exe, "solve", "npuzzle", "--size", "3", "--seed", "4", "--json"], capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["status"] == "solved" and doc["length"] == len(doc["actions"])


def test_domains_and_engines_listings():
    r = run("domains", "--json")
    assert r.exit_code == 0
    names = {d["name"] for d in json.loads(r.stdout)}
    assert "npuzzle" in names
    r = run("engines", "--json")
    engines = {e["name"] for e in json.loads(r.stdout)}
    assert {"bfs", "dfs", "iddfs", "bidirectional-bfs", "dijkstra", "astar", "greedy", "idastar"} <= engines
    assert run("engines").exit_code == 0 and run("domains").exit_code == 0


@pytest.mark.parametrize("engine", ["bfs", "iddfs", "bidirectional-bfs", "dijkstra", "astar", "greedy", "idastar"])
def test_every_engine_from_the_cli(engine):
    r = run("solve", "npuzzle", "--board", "1 2 3 4 0 6 7 5 8", "--engine", engine, "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["status"] == "solved" and doc["engine"] == engine
    if engine != "greedy":
        assert doc["cost"] == 2


def test_ctrl_c_stops_the_search_prints_stats_and_exits_130():
    import resource
    import signal

    exe = shutil.which("searchkit") or str(__import__("pathlib").Path(sys.executable).with_name("searchkit"))
    # the signal must come once the search runs, not while Python starts and imports: wait
    # until the child has used the CPU a start-up takes here and a second more (CPU time, so
    # a loaded machine makes the wait longer, never too short)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([exe, "engines"], capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    startup = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # a 15-puzzle with a weak heuristic: far more work than the test waits for
    p = subprocess.Popen(
        [
            exe,
            "solve",
            "npuzzle",
            "--size",
            "4",
            "--seed",
            "3",
            "--engine",
            "idastar",
            "--heuristic",
            "hamming",
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_cpu(p.pid, startup + 1.0)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    doc = json.loads(out)
    assert doc["status"] == "limit" and doc["stats"]["limit_reason"] == "interrupted"
    assert doc["stats"]["expanded"] > 0 and "Traceback" not in err


def test_tree_command_caps_the_tree_and_exports(tmp_path):
    import networkx as nx

    out = tmp_path / "t.graphml"
    r = run("tree", "npuzzle", "--board", BOARD, "--engine", "bfs", "--max-nodes", "50", "-o", str(out))
    assert r.exit_code == 0, r.output
    graph = nx.read_graphml(out)
    assert graph.number_of_nodes() == 50
    r = run("tree", "npuzzle", "--board", BOARD, "--engine", "bfs", "--max-expanded", "10", "-o", str(out))
    assert r.exit_code == 3  # the search limit stopped it; the partial tree is still written
    assert out.exists()
    r = run("tree", "npuzzle", "--board", BOARD, "-o", str(tmp_path / "t.xyz"))
    assert r.exit_code != 0 and not (tmp_path / "t.xyz").exists()


def test_param_passes_any_engine_parameter():
    r = run(
        "solve",
        "npuzzle",
        "--size",
        "3",
        "--seed",
        "4",
        "--engine",
        "npuzzle-wida",
        "-H",
        "manhattan",
        "-P",
        "weight=1.2",
        "--param",
        "max_weight=3",
        "--json",
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["params"] == {"weight": 1.2, "max_weight": 3}
    assert doc["guarantee"] == "suboptimal (weight 1.2)"  # the weight that answered, not the ceiling
    r = run("solve", "npuzzle", "--size", "3", "--seed", "4", "--engine", "dfs", "-P", "depth=40", "--json")
    assert r.exit_code in (0, 3) and json.loads(r.stdout)["params"] == {"depth": 40}


def test_tree_labels_with_dollar_signs_are_drawn_literally(tmp_path):
    """Sokoban boards hold '$' (a box), which matplotlib would read as a formula."""
    out = tmp_path / "sokoban.png"
    r = run("tree", "sokoban", "microban:1", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert out.stat().st_size > 10_000


def test_progress_line_keeps_the_engines_word_and_the_time_on_a_narrow_terminal():
    """Rich crops a live line at the terminal's width: the counts of generated nodes and the
    rate go first, so a Sokoban search's best packing and the time stay in 80 columns."""
    from searchkit.cli import progress_line

    fields = [
        ("1,234,567 expanded", 0),
        ("9,876,543 generated", 2),
        ("18,139/s", 1),
        ("", 0),  # no f
        ("packed 11/14", 0),
        ("", 0),  # no incumbent
        ("21.3 s", 0),
    ]
    full = "sokoban-portfolio: 1,234,567 expanded · 9,876,543 generated · 18,139/s · packed 11/14 · 21.3 s"
    assert progress_line("sokoban-portfolio", fields, 200) == full
    assert progress_line("sokoban-portfolio", fields, 78) == (
        "sokoban-portfolio: 1,234,567 expanded · 18,139/s · packed 11/14 · 21.3 s"
    )
    assert (
        progress_line("sokoban-portfolio", fields, 60)
        == "sokoban-portfolio: 1,234,567 expanded · packed 11/14 · 21.3 s"
    )
    # what cannot go is kept, even past the width
    assert progress_line("sokoban-portfolio", fields, 10).endswith("packed 11/14 · 21.3 s")
