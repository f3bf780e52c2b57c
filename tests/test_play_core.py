"""Play mode's core: the clock, game sessions, save files, the background solver, the hook."""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

import pytest

from searchkit import InputError, solve
from searchkit.play import (
    FORMAT,
    VERSION,
    Clock,
    GameSession,
    SaveData,
    SolverRunner,
    autosave_path,
    format_time,
    read_save,
    write_save,
)


class Line(GameSession):
    """A token on cells 0..5 that must reach 5: the smallest game with undo and saves."""

    domain = "line"

    def __init__(self, start: int = 0):
        super().__init__()
        self.start, self.pos = start, start

    def apply(self, move: str) -> str | None:
        step = {"+": 1, "-": -1}.get(move)
        if step is None or not 0 <= self.pos + step <= 5:
            return None
        self.pos += step
        return move

    def revert(self, recorded: str) -> None:
        self.pos -= 1 if recorded == "+" else -1

    def reset_position(self) -> None:
        self.pos = self.start

    @property
    def solved(self) -> bool:
        return self.pos == 5

    def params(self) -> dict[str, Any]:
        return {"cells": 6}

    def start_json(self) -> int:
        return self.start

    def current_json(self) -> int:
        return self.pos

    @classmethod
    def from_params(cls, params, start):
        if params.get("cells") != 6 or not isinstance(start, int) or not 0 <= start <= 5:
            raise InputError("not a line game")
        return cls(start)


# -- clock and session -----------------------------------------------------------------------------
def test_clock_runs_only_between_start_and_stop():
    now = [100.0]
    clock = Clock(5.0, now=lambda: now[0])
    now[0] += 10
    assert clock.elapsed == 5.0 and not clock.running
    clock.start()
    now[0] += 3
    assert clock.elapsed == 8.0
    clock.stop()
    now[0] += 50
    assert clock.elapsed == 8.0
    clock.reset()
    assert clock.elapsed == 0.0
    assert format_time(3725) == "1:02:05" and format_time(65.9) == "1:05"


def test_moves_undo_redo_and_the_redo_branch():
    g = Line()
    assert g.play("+") and g.play("+") and not g.play("x")
    assert g.moves == 2 and g.pos == 2
    assert g.undo() and g.undo() and not g.undo()
    assert g.pos == 0 and g.future == ["+", "+"]
    assert g.play("+")  # the move that is next in the redo list keeps the rest of it
    assert g.future == ["+"]
    assert g.redo() and g.pos == 2 and not g.redo()
    g.undo()
    g.play("-")  # another move: the redo list is gone
    assert g.future == [] and g.pos == 0


def test_a_won_game_takes_no_moves_until_undone_and_stops_the_clock():
    g = Line(4)
    assert g.play("+") and g.solved and not g.clock.running
    assert not g.play("-")
    assert g.undo() and g.play("-")
    g.restart()
    assert (g.pos, g.history, g.future, g.clock.elapsed) == (4, [], [], 0.0)


def test_from_save_replays_and_checks_everything():
    g = Line()
    for m in "+++-+":
        g.play(m)
    g.undo()
    g.hints = 2
    data = g.to_save()
    back = Line.from_save(data)
    assert (back.pos, back.history, back.future, back.hints) == (g.pos, g.history, g.future, 2)
    assert back.undo() and g.undo() and back.pos == g.pos
    bad = [
        (dict(current=4), "does not match"),
        (dict(history=["+", "x"]), "move 2"),
        (dict(redo=["-", "-", "-", "-", "-", "-", "-"]), "redo move"),
        (dict(domain="other"), "not a line one"),
        (dict(params={"cells": 7}), "not a line game"),
    ]
    for change, message in bad:
        fields = dict(vars(data), **change)
        with pytest.raises(InputError, match=message):
            Line.from_save(SaveData(**fields))


# -- save files ---------------------------------------------------------------------------------------
def _saved(tmp_path, game=None) -> Any:
    game = game or Line()
    game.play("+")
    return write_save(tmp_path / "g.json", game.to_save())


def test_save_round_trip_is_versioned_json(tmp_path):
    path = _saved(tmp_path)
    doc = json.loads(path.read_text())
    assert doc["format"] == FORMAT and doc["version"] == VERSION and doc["domain"] == "line"
    assert doc["history"] == ["+"] and doc["current"] == 1
    data = read_save(path, "line")
    assert Line.from_save(data).pos == 1
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temporary file left


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temp(tmp_path, monkeypatch):
    path = _saved(tmp_path)
    before = path.read_bytes()
    g = Line()
    g.play("+"), g.play("+")

    def broken(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(InputError, match="No space left"):
        write_save(path, g.to_save())
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda t: t[: len(t) // 2], "corrupt or truncated"),
        (lambda t: "", "corrupt or truncated"),
        (lambda t: "[1, 2]", "not a searchkit save"),
        (lambda t: t.replace(f'"version": {VERSION}', '"version": 99'), "version 99"),
        (lambda t: t.replace('"domain": "line"', '"domain": "chess"'), "is a chess game, not a line one"),
        (lambda t: t.replace('"history": [', '"histories": ['), "'history' is missing"),
        (lambda t: json.dumps(dict(json.loads(t), elapsed_s=-3)), "elapsed_s"),
        (lambda t: json.dumps(dict(json.loads(t), hints="many")), "hints"),
        (lambda t: t.replace('"+"', "3"), "not a string"),
    ],
)
def test_bad_save_files_give_one_line_errors(tmp_path, mutate, message):
    path = _saved(tmp_path)
    path.write_text(mutate(path.read_text()))
    with pytest.raises(InputError, match=message) as e:
        read_save(path, "line")
    assert "\n" not in str(e.value) and str(path) in str(e.value)


def test_unreadable_save_paths(tmp_path):
    with pytest.raises(InputError, match="not found"):
        read_save(tmp_path / "nope.json")
    with pytest.raises(InputError, match="directory"):
        read_save(tmp_path)
    (tmp_path / "bin").write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(InputError, match="not text"):
        read_save(tmp_path / "bin")


def test_autosave_location_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SEARCHKIT_PLAY_DIR", str(tmp_path / "saves"))
    assert autosave_path("npuzzle") == tmp_path / "saves" / "autosave-npuzzle.json"
    monkeypatch.delenv("SEARCHKIT_PLAY_DIR")
    assert autosave_path("npuzzle").name == "autosave-npuzzle.json"


# -- the background solver --------------------------------------------------------------------------
def test_runner_cancel_stops_a_real_engine_promptly(counter):
    runner = SolverRunner()
    assert runner.start(lambda limits, observer: solve(counter, "astar", limits, observer), "test")
    deadline = time.time() + 5
    while runner.status().expanded == 0 and time.time() < deadline:
        time.sleep(0.01)
    status = runner.status()
    assert status.phase == "searching" and status.expanded > 0 and "expanded" in status.line()
    assert not runner.start(lambda limits, observer: None)  # one at a time
    started = time.perf_counter()
    assert runner.cancel()
    assert runner.wait(5) and time.perf_counter() - started < 2
    result, error, cancelled = runner.collect()
    assert cancelled and error is None and result.stats.limit_reason == "interrupted"
    assert not runner.busy and not runner.done


def test_runner_reports_errors_as_text_and_allows_the_next_task():
    runner = SolverRunner()

    def bad(limits, observer):
        raise InputError("the board is unsolvable")

    runner.start(bad)
    runner.wait(5)
    assert runner.collect() == (None, "the board is unsolvable", False)
    gate = threading.Event()
    runner.start(lambda limits, observer: gate.wait(5) and 42)
    assert runner.busy and runner.status().phase == "preparing"
    gate.set()
    runner.wait(5)
    assert runner.collect() == (42, None, False)


# -- the hook and the command ----------------------------------------------------------------------
def test_games_come_from_the_register_games_hook():
    from typer.testing import CliRunner

    from searchkit.play.command import build_play_app
    from searchkit.plugins import games

    found = games()
    assert {"npuzzle", "sokoban"} <= set(found)
    out = CliRunner().invoke(build_play_app(), ["--help"]).output
    assert "npuzzle" in out and "sokoban" in out
