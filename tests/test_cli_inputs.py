"""What new users run into on the command line: `serve` on a busy port or an unknown host,
`--version`, options that contradict each other, misleading level errors, a cache
directory that is a file, help text, and the player in Sokoban tree pictures."""

from __future__ import annotations

import socket
from importlib.metadata import version
from pathlib import Path

import pytest
import typer
from fuzzing import assert_clean, run_cli

from searchkit.cli import build_app
from searchkit.plugins import domains
from searchkit.render import TreeRecorder, save_tree
from searchkit.solving import make_problem

SOKOBAN_LEVELS = "; A\n\n#####\n#@$.#\n#####\n\n; B\n\n#####\n#.$@#\n#####\n\n; A\n\n######\n#@$ .#\n######\n"


def refused(*args: str) -> str:
    """``searchkit ARGS`` exits 2 with one ``Error:`` line; that line."""
    outcome = run_cli(*args)
    assert outcome.code == 2, outcome
    assert_clean(outcome)
    return outcome.err.strip()


# -- serve -----------------------------------------------------------------------------------
def test_serve_on_a_port_in_use_is_one_error_line_and_no_banner() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        err = refused("serve", "--port", str(port))
    assert f"port {port}" in err and "in use" in err
    assert "bound to" not in err  # the address line is printed only once the port is bound


def test_serve_on_an_unknown_host_is_one_error_line() -> None:
    err = refused("serve", "--host", "no-such-host.invalid", "--port", "8123")
    assert "no-such-host.invalid" in err and "no such host" in err


# -- --version -------------------------------------------------------------------------------
@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str) -> None:
    outcome = run_cli(flag)
    assert outcome.code == 0 and outcome.err == ""
    assert outcome.out == f"searchkit {version('searchkit')}\n"


# -- contradicting options -------------------------------------------------------------------
def test_npuzzle_board_and_seed_are_refused_together() -> None:
    err = refused("solve", "npuzzle", "--board", "1 2 3 4 5 6 0 7 8", "--seed", "1")
    assert "--board" in err and "--seed" in err
    assert run_cli("solve", "npuzzle", "--board", "1 2 3 4 5 6 0 7 8").code == 0


def test_a_level_title_two_levels_share_is_refused_with_their_numbers(tmp_path: Path) -> None:
    path = tmp_path / "levels.txt"
    path.write_text(SOKOBAN_LEVELS)
    err = refused("solve", "sokoban", str(path), "--level", "a")
    assert "levels 1, 3" in err and "'a'" in err
    assert run_cli("solve", "sokoban", str(path), "--level", "B").code == 0  # a title of one level


# -- files -----------------------------------------------------------------------------------
@pytest.mark.parametrize("partition", [[], ["--partition", "pdb-8"]])
def test_pdb_info_on_a_cache_dir_that_is_a_file(tmp_path: Path, partition: list[str]) -> None:
    path = tmp_path / "file"
    path.write_text("not a directory")
    err = refused("npuzzle", "pdb", "info", "--cache-dir", str(path), *partition)
    assert str(path) in err and "not a directory" in err


# -- help ------------------------------------------------------------------------------------
def _helps(command: typer.core.TyperGroup | typer.core.TyperCommand, path: str) -> list[tuple[str, str]]:
    texts = [(path, command.help or "")] + [(path, getattr(p, "help", None) or "") for p in command.params]
    for name, sub in getattr(command, "commands", {}).items():
        texts += _helps(sub, f"{path} {name}")
    return texts


def test_no_help_text_shows_restructuredtext_markup() -> None:
    helps = _helps(typer.main.get_command(build_app()), "searchkit")  # type: ignore[arg-type]
    assert [where for where, text in helps if "``" in text] == []


def test_the_sokoban_summaries_name_every_bundled_set() -> None:
    from searchkit_sokoban.levels import bundled_names

    out = run_cli("play", "--help").out + run_cli("domains").out
    for name in bundled_names():
        assert out.count(name) >= 2, name  # the game's summary and the domain's


@pytest.mark.parametrize("args", [["play", "--help"], ["play", "sokoban", "--help"], ["play", "npuzzle", "--help"]])
def test_play_help_says_where_the_autosave_is(args: list[str]) -> None:
    out = " ".join(run_cli(*args).out.split())  # rich wraps the help
    assert "SEARCHKIT_PLAY_DIR" in out and "autosave-GAME.json" in out and ".local/state/searchkit/play" in out


# -- Sokoban tree pictures -------------------------------------------------------------------
ROOMY = "#########\n#       #\n#       #\n#   $@  #\n#   .   #\n#       #\n#########\n"


def test_sokoban_tree_boards_put_the_player_where_the_push_left_it(tmp_path: Path) -> None:
    """The state keeps only the player's region (its top-left square): a recorded tree's
    boards show the square the pushed box left instead, and the root the level's start."""
    from searchkit import astar

    path = tmp_path / "roomy.txt"
    path.write_text(ROOMY)
    domain = domains()["sokoban"]
    problem = make_problem("sokoban", heuristic="none", level_file=str(path))
    recorder = TreeRecorder(max_nodes=50)
    graph = recorder.finish(astar(problem, observer=recorder))
    width, squares = problem.board.width, problem.board.width * problem.board.height
    assert domain.describe_reached(problem, graph.nodes[0]["state"], graph.nodes[0]["reached_by"]) == ROOMY.rstrip()
    children = list(graph.successors(0))
    assert len(children) == 4  # the box can go up, down, left and right
    for node in children:
        before, after = graph.nodes[0]["state"][0], graph.nodes[node]["state"][0]
        (left,) = [sq for sq in range(squares) if before >> sq & 1 and not after >> sq & 1]
        rows = domain.describe_reached(problem, graph.nodes[node]["state"], graph.nodes[node]["reached_by"])
        players = [(r, c) for r, row in enumerate(rows.splitlines()) for c, ch in enumerate(row) if ch in "@+"]
        assert players == [divmod(left, width)], rows


def test_tree_pictures_draw_each_board_with_the_action_that_led_to_it(tmp_path: Path) -> None:
    from searchkit import astar

    problem = make_problem("npuzzle", heuristic="manhattan", board="1 2 3 4 5 6 0 7 8")
    recorder = TreeRecorder(max_nodes=50)
    graph = recorder.finish(astar(problem, observer=recorder))
    seen: set[tuple[object, str | None]] = set()

    def board(state: object, action: object) -> str:
        seen.add((state, None if action is None else str(action)))
        return str(state)

    save_tree(graph, tmp_path / "tree.png", board_labels=board)
    expected = set()
    for node, d in graph.nodes(data=True):
        parents = list(graph.in_edges(node, data="action"))
        expected.add((d["state"], parents[0][2] if parents else None))
    assert seen == expected and (problem.initial_state(), None) in seen
