"""The command line tells the truth about itself.

Every option of every command, as the command tree lists it (what ``--help`` shows), is
either carried out (a check here sees its effect, or a named test elsewhere does) or
refused with exit 2; a new option without a check fails `test_every_option_is_covered`.
The listings (`engines --json`, `domains --json`) agree with what `solve --json` reports,
and every option README mentions exists.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from project import ROOT
from typer.testing import CliRunner

from searchkit.cli import build_app
from searchkit.errors import InputError
from searchkit.plugins import domains

CLI = [sys.executable, "-c", "from searchkit.cli import main; main()"]
BOARD = "4 1 3 7 2 6 0 5 8"  # 6 moves from the goal
HARD = "8 6 7 2 5 4 3 0 1"  # 31 moves


def invoke(*args: str) -> tuple[int, str, str]:
    """(exit code, stdout, error) as the installed program gives them (InputError: 2)."""
    res = CliRunner().invoke(build_app(), list(args))
    if isinstance(res.exception, InputError):
        return 2, res.stdout, str(res.exception)
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    return res.exit_code, res.stdout, res.output


def doc(*args: str) -> dict:
    code, out, err = invoke(*args, "--json")
    assert code in (0, 3), err
    return json.loads(out)


def refused(*args: str) -> str:
    """Run the real program: exit 2 with one ``Error:`` line."""
    done = subprocess.run(CLI + list(args), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1, done.stderr
    return done.stderr


# -- the options every solve/tree command shares, checked on both domains -----------------------------
def base(command: str, domain: str, tmp: Path) -> list[str]:
    start = ["--board", BOARD] if domain == "npuzzle" else ["microban:4"]
    out = ["-o", str(tmp / "tree.json")] if command == "tree" else []
    return [command, domain, *start, *out]


def big(b: list[str]) -> list[str]:
    """The same command on an instance big enough to reach the first limit check
    (limits are checked every thousand or so expansions)."""
    return [b[0], b[1], "--board", HARD, *b[4:]] if b[1] == "npuzzle" else [b[0], b[1], "microban:144", *b[3:]]


def c_engine(b, tmp):
    assert doc(*b, "--engine", "greedy")["engine"] == "greedy"


def c_heuristic(b, tmp):
    h = "manhattan" if "npuzzle" in b else "matching"
    assert doc(*b, "--engine", "astar", "--heuristic", h)["heuristic"] == h


def c_weight(b, tmp):
    d = doc(*b, "--engine", "astar", "--weight", "2")
    assert d["params"]["weight"] == 2 and d["guarantee"].startswith("suboptimal")
    refused(*b, "--engine", "astar", "--weight", "0.5")


def c_depth(b, tmp):
    d = doc(*b, "--engine", "dfs", "--depth", "1")
    assert d["status"] == "limit" and d["stats"]["limit_reason"] == "depth"
    refused(*b, "--engine", "dfs", "--depth", "-1")


def c_param(b, tmp):
    assert doc(*b, "--engine", "astar", "-P", "weight=3")["params"]["weight"] == 3
    refused(*b, "--engine", "astar", "-P", "weight=abc")
    refused(*b, "--engine", "bfs", "-P", "nothing=1")


def c_max_nodes(b, tmp):  # in `tree` --max-nodes caps the drawing: --max-expanded limits the search
    flag = "--max-expanded" if b[0] == "tree" else "--max-nodes"
    d = doc(*b, "--engine", "bfs", flag, "2")
    assert d["status"] == "limit" and d["stats"]["limit_reason"] == "nodes" and d["stats"]["expanded"] == 2


def c_tree_max_nodes(b, tmp):
    invoke(*b, "--engine", "bfs", "--max-nodes", "5")
    assert len(json.loads((tmp / "tree.json").read_text())["nodes"]) <= 5


def c_timeout(b, tmp):
    d = doc(*big(b), "--engine", "bfs", "--timeout", "0")
    assert d["status"] == "limit" and d["stats"]["limit_reason"] == "time"


def c_max_states(b, tmp):
    d = doc(*big(b), "--engine", "bfs", "--max-states", "1")
    assert d["status"] == "limit" and d["stats"]["limit_reason"] == "states"


def c_max_memory(b, tmp):
    d = doc(*big(b), "--engine", "bfs", "--max-memory", "1")
    assert d["status"] == "limit" and d["stats"]["limit_reason"] == "memory"


def c_json(b, tmp):
    assert doc(*b)["status"] == "solved"


def c_output(b, tmp):
    invoke(*b)
    assert json.loads((tmp / "tree.json").read_text())["nodes"]


def c_tree(b, tmp):
    invoke(*b, "--tree", str(tmp / "t.graphml"))
    assert (tmp / "t.graphml").read_text().startswith("<?xml")


COMMON = {
    "--engine": c_engine,
    "--heuristic": c_heuristic,
    "--weight": c_weight,
    "--depth": c_depth,
    "--param": c_param,
    "--max-nodes": c_max_nodes,
    "--timeout": c_timeout,
    "--max-states": c_max_states,
    "--max-memory": c_max_memory,
    "--json": c_json,
}
SOLVE_ONLY = {"--tree": c_tree}
TREE_ONLY = {"--output": c_output, "--max-nodes": c_tree_max_nodes, "--max-expanded": c_max_nodes}


# -- the domains' own options ---------------------------------------------------------------------------
def n_board(b, tmp):
    assert doc(*b)["start"] == [int(t) for t in BOARD.split()]
    refused(b[0], "npuzzle", "--board", "", *b[4:])


def n_goal(b, tmp):
    assert doc(b[0], "npuzzle", "--size", "3", "--seed", "1", "--goal", "blank-first", *b[4:])["goal"][0] == 0


def n_seed(b, tmp):
    one = doc(b[0], "npuzzle", "--seed", "1", *b[4:])["start"]
    assert (
        one
        == doc(b[0], "npuzzle", "--seed", "1", *b[4:])["start"]
        != doc(b[0], "npuzzle", "--seed", "2", *b[4:])["start"]
    )


def n_scramble(b, tmp):
    assert doc(b[0], "npuzzle", "--scramble", "3", "--seed", "1", *b[4:])["cost"] <= 3


def n_size(b, tmp):
    d = doc(b[0], "npuzzle", "--size", "2x3", "--seed", "1", *b[4:])
    assert (d["width"], d["height"]) == (2, 3)


def n_boards(b, tmp):
    code, out, _ = invoke(*b, "--boards")
    assert code == 0 and "\n1. " in out


def _magic(path: Path, magic: bytes) -> bool:
    return path.read_bytes().startswith(magic)


def n_gif(b, tmp):
    invoke(*b, "--gif", str(tmp / "a.gif"))
    assert _magic(tmp / "a.gif", b"GIF8")
    refused(*b, "--gif", str(tmp / "a.png"))


def n_png(b, tmp):
    invoke(*b, "--png", str(tmp / "a.png"))
    assert _magic(tmp / "a.png", b"\x89PNG")


def n_frames(b, tmp):
    invoke(*b, "--frames", str(tmp / "f"))
    assert len(list((tmp / "f").glob("*.png"))) == 7  # the start and six moves


def n_image(b, tmp):
    from PIL import Image

    Image.new("RGB", (90, 90), (200, 30, 30)).save(tmp / "red.png")
    invoke(*b, "--png", str(tmp / "plain.png"))
    invoke(*b, "--png", str(tmp / "red-board.png"), "--image", str(tmp / "red.png"))
    assert (tmp / "plain.png").read_bytes() != (tmp / "red-board.png").read_bytes()


def n_numbers(b, tmp):
    invoke(*b, "--png", str(tmp / "plain.png"))
    invoke(*b, "--png", str(tmp / "numbered.png"), "--numbers")
    assert (tmp / "plain.png").read_bytes() != (tmp / "numbered.png").read_bytes()


def s_level_file(b, tmp):
    assert "4" in doc(*b)["level"]


def s_level(b, tmp):
    assert "3" in doc(b[0], "sokoban", "microban", "--level", "3", *b[3:])["level"]
    refused(b[0], "sokoban", "microban", "--level", "9999", *b[3:])


def s_optimize(b, tmp):
    d = doc(*b, "--optimize", "moves", "--engine", "dijkstra")
    assert d["status"] == "solved" and (b[0] == "tree" or d["cost"] == d["moves"])
    refused(*b, "--optimize", "steps")


def s_optimal(b, tmp):
    d = doc(*b, "--optimal")
    assert d["engine"] == "astar" and d["guarantee"] == "optimal"


def s_no_deadlock(b, tmp):
    on = doc(*b, "--engine", "bfs")["stats"]["generated"]
    off = doc(*b, "--engine", "bfs", "--no-deadlock", "all")["stats"]["generated"]
    assert off > on
    refused(*b, "--no-deadlock", "nonsense")


def s_cluster_deadlocks(b, tmp):
    plain = doc(*b, "--engine", "bfs")
    proved = doc(*b, "--engine", "bfs", "--cluster-deadlocks")
    assert proved["status"] == plain["status"] == "solved" and proved["cost"] == plain["cost"]
    assert proved["stats"]["generated"] <= plain["stats"]["generated"]


def s_boards(b, tmp):
    code, out, _ = invoke(*b, "--boards")
    assert code == 0 and "after push 1:" in out


def s_gif(b, tmp):
    n_gif(b, tmp)


def s_png(b, tmp):
    n_png(b, tmp)


def s_frames(b, tmp):
    invoke(*b, "--frames", str(tmp / "f"))
    assert len(list((tmp / "f").glob("*.png"))) == doc(*b)["pushes"] + 1


def s_frames_per(b, tmp):
    invoke(*b, "--frames", str(tmp / "f"), "--frames-per", "move")
    assert len(list((tmp / "f").glob("*.png"))) == doc(*b)["moves"] + 1


NPUZZLE = {"--board": n_board, "--goal": n_goal, "--seed": n_seed, "--scramble": n_scramble, "--size": n_size}
NPUZZLE_OUT = {
    "--boards": n_boards,
    "--gif": n_gif,
    "--png": n_png,
    "--frames": n_frames,
    "--image": n_image,
    "--numbers": n_numbers,
}
SOKOBAN = {
    "level_file": s_level_file,
    "--level": s_level,
    "--optimize": s_optimize,
    "--optimal": s_optimal,
    "--no-deadlock": s_no_deadlock,
    "--cluster-deadlocks": s_cluster_deadlocks,
}


def s_improve_time(b, tmp):
    d = doc(*b, "--improve-time", "0")
    assert d["pushes"] == d["found_pushes"] and d["improve_s"] < 1
    refused(*b, "--improve-time", "-1")


def s_no_improve(b, tmp):
    d = doc(*b, "--no-improve")
    assert "found_pushes" not in d and "pushes" in d


SOKOBAN_OUT = {
    "--boards": s_boards,
    "--gif": s_gif,
    "--png": s_png,
    "--frames": s_frames,
    "--frames-per": s_frames_per,
    "--improve-time": s_improve_time,
    "--no-improve": s_no_improve,
}


def ch_json(b, tmp):
    code, out, _ = invoke("check", *b[1:], "--json")
    assert code == 0 and json.loads(out)["failed"] == 0


def ch_npuzzle_instance(b, tmp):
    code, out, _ = invoke("check", "npuzzle", "--size", "2", "--scramble", "3", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["checks"][0]["detail"] == "12 states explored"  # the whole 2x2 space
    assert invoke("check", "npuzzle", "--board", "1 2 3")[0] == 2
    assert invoke("check", "npuzzle", "--size", "3", "--goal", "1 1 1 1 1 1 1 1 1")[0] == 2


def ch_sokoban_instance(b, tmp):
    code, out, _ = invoke("check", "sokoban", "microban:2", "--json")
    explored = json.loads(out)["checks"][0]["detail"]
    assert code == 0 and re.fullmatch(r"\d+ states explored", explored)
    code, out, _ = invoke("check", "sokoban", "microban", "--level", "2", "--json")
    assert code == 0 and json.loads(out)["checks"][0]["detail"] == explored
    assert invoke("check", "sokoban", "microban", "--level", "9999")[0] == 2
    assert invoke("check", "sokoban", "microban:2", "--optimize", "steps")[0] == 2
    assert invoke("check", "sokoban", "microban:2", "--no-deadlock", "nonsense")[0] == 2
    code, out, _ = invoke("check", "sokoban", "microban:2", "--optimal", "--json")
    assert code == 0
    code, out, _ = invoke("check", "sokoban", "microban:2", "--cluster-deadlocks", "--json")
    assert code == 0 and json.loads(out)["checks"][0]["detail"] == explored


def table() -> dict[tuple[str, str], object]:
    out: dict[tuple[str, str], object] = {}
    for command in ("solve", "tree"):
        for domain, own, outputs in (("npuzzle", NPUZZLE, NPUZZLE_OUT), ("sokoban", SOKOBAN, SOKOBAN_OUT)):
            checks = dict(COMMON, **own, **(SOLVE_ONLY if command == "solve" else TREE_ONLY))
            if command == "solve":
                checks.update(outputs)
            for option, fn in checks.items():
                out[(f"{command} {domain}", option)] = fn
    out.update(
        {("check npuzzle", o): ch_npuzzle_instance for o in ("--board", "--goal", "--scramble", "--seed", "--size")}
    )
    out.update(
        {
            ("check sokoban", o): ch_sokoban_instance
            for o in ("level_file", "--level", "--no-deadlock", "--optimal", "--optimize", "--cluster-deadlocks")
        }
    )
    out[("check npuzzle", "--json")] = out[("check sokoban", "--json")] = ch_json
    # options of the other commands, carried out in these tests (each mentions the option)
    elsewhere = {
        "domains": {"--json": "tests/test_cli_options.py::test_listings_agree_with_solve"},
        "engines": {"--json": "tests/test_cli_options.py::test_listings_agree_with_solve"},
        "bench": {
            o: "tests/test_bench.py"
            for o in ("suite", "--jobs", "--json", "--output", "--resume", "--select", "--timeout", "--instances")
        }
        | {"--executor": "tests/test_bench_dask.py", "--scheduler": "tests/test_bench_dask.py"},
        "plot": {
            o: "tests/test_plots.py"
            for o in ("results", "--configs", "--kind", "--metric", "--pair", "--suite", "--output", "--title")
        },
        "sokoban export": {o: "tests/sokoban/test_sokoban_solve.py" for o in ("source", "--level", "--output")},
        "sokoban list": {"source": "tests/sokoban/test_sokoban_levels.py"},
        "sokoban optimize": {
            o: "tests/sokoban/test_sokoban_optimize.py"
            for o in ("source", "--level", "--lurd", "--lurd-file", "--optimize", "--time", "--json")
        },
        "npuzzle pdb build": {
            o: "tests/npuzzle/test_npuzzle_pdb.py"
            for o in ("--partition", "--goal", "--size", "--cache-dir", "--force")
        },
        "npuzzle pdb info": {
            o: "tests/npuzzle/test_npuzzle_pdb.py" for o in ("--partition", "--goal", "--size", "--cache-dir")
        },
        "play npuzzle": {
            o: "tests/test_play_commands.py"
            for o in ("--blank", "--image", "--load", "--new", "--numbers", "--seed", "--size")
        },
        "play sokoban": {o: "tests/test_play_commands.py" for o in ("level_file", "--level", "--load", "--new")},
        "serve": {
            o: "tests/test_serve.py::test_serve_command_binds_loopback_and_says_so"
            for o in ("--host", "--port", "--open")
        },
        "warm-up": {
            **{o: "tests/test_warmup.py::test_the_command_runs_the_named_engines_set_ups" for o in ("names", "--json")},
            "--domain": "tests/test_warmup.py::test_the_command_warms_engines_and_domains_as_asked",
        },
        "serve-loadtest": {
            o: "tests/test_serve_load.py"
            for o in ("--clients", "--duration", "--url", "--think-ms", "--p95-target", "--seed", "--json")
        },
    }
    for command, options in elsewhere.items():
        for option, where in options.items():
            out[(command, option)] = where
    return out


def listed_options() -> set[tuple[str, str]]:
    """Every (command, option) of the real command tree; arguments by their name."""
    found = set()

    def walk(cmd, path):
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, path + [name])
            return
        for p in cmd.params:
            longs = [o for o in p.opts if o.startswith("--")]
            name = longs[0] if longs else p.name
            if name != "--help":
                found.add((" ".join(path), name))

    walk(typer.main.get_command(build_app()), [])
    # the project's own commands and plugins: a separately installed plugin (the tutorial's
    # gridpath, say) brings commands this table does not describe
    return {(command, option) for command, option in found if not set(command.split()) & OTHER_DOMAINS}


OTHER_DOMAINS = set(domains()) - {"npuzzle", "sokoban"}


def test_every_option_is_covered():
    listed, covered = listed_options(), set(table())
    assert listed - covered == set(), "options without a check"
    assert covered - listed == set(), "checks for options the CLI does not have"


CASES = [(k, v) for k, v in table().items() if callable(v)]


@pytest.mark.parametrize("command,option", [k for k, _ in CASES], ids=[f"{k[0]} {k[1]}" for k, _ in CASES])
def test_option_is_carried_out(tmp_path, command, option):
    fn = table()[(command, option)]
    verb, domain = command.split()
    fn(base(verb, domain, tmp_path), tmp_path)


@pytest.mark.parametrize("key", [k for k, v in table().items() if isinstance(v, str)], ids=" ".join)
def test_options_checked_elsewhere_are_named_there(key):
    command, option = key
    path, _, function = table()[key].partition("::")
    text = (ROOT / path).read_text()
    if function:
        assert f"def {function}(" in text
    words = {
        "--jobs": "-j",
        "--output": "-o",
        "results": "jsonl",
        "suite": ".toml",
        "source": "microban",
        "level_file": "microban",
        "--partition": "partition",
        "--cache-dir": "cache",
    }
    assert option in text or words.get(option, "\0") in text, (path, option)


# -- listings agree with solve ----------------------------------------------------------------------------
def test_listings_agree_with_solve():
    from searchkit.plugins import domains

    rows = {r["name"]: r for r in json.loads(invoke("domains", "--json")[1])}
    for name in ("npuzzle", "sokoban"):
        cases = dict(domains()[name].default_cases())
        for case in rows[name]["defaults"]:
            options = cases[case["case"]]
            if name == "npuzzle" and options.get("size") not in ("3", "4"):
                continue  # bigger boards build large tables first; their rows are computed the same way
            args = ["solve", name] + (["microban:2"] if name == "sokoban" else [])
            for key, value in options.items():
                args += [f"--{key}"] if value is True else [f"--{key}", str(value)]
            d = doc(*args, *(["--scramble", "30", "--seed", "1"] if name == "npuzzle" else []))
            assert d["status"] == "solved", (name, case)  # an answer: what a run without one promises is nothing
            assert (d["engine"], d["heuristic"], d["params"], d["guarantee"]) == (
                case["engine"],
                case["heuristic"],
                case["params"],
                case["guarantee"],
            ), (name, case)
    engines = {e["name"]: e for e in json.loads(invoke("engines", "--json")[1])}
    for name in (
        "bfs",
        "iddfs",
        "dijkstra",
        "astar",
        "greedy",
        "idastar",
        "npuzzle-idastar",
        "npuzzle-wida",
        "npuzzle-stages",
        "dfs",
    ):
        d = doc("solve", "npuzzle", "--board", BOARD, "--engine", name)
        assert d["guarantee"] == engines[name]["guarantee"], name
        assert d["params"] == {}  # the engine's own defaults
    for name in ("sokoban-portfolio", "sokoban-alternation"):
        assert doc("solve", "sokoban", "microban:2", "--engine", name)["guarantee"] == engines[name]["guarantee"]


# -- README's options exist ---------------------------------------------------------------------------------
NOT_OURS = {"--nthreads", "--host", "--check"}  # dask's; ruff format --check
GRIDPATH = {"--scen", "--index", "--draw"}  # the tutorial plugin's, installed separately (tests/test_gridpath.py)


def test_every_option_readme_names_exists():
    mentioned = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]+)", (ROOT / "README.md").read_text()))
    ours = {option for _command, option in listed_options()} | {"--help"}
    assert mentioned - ours - NOT_OURS - GRIDPATH == set()
