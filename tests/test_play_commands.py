"""``searchkit play npuzzle|sokoban``: every option reaches the game the app is started with.

The apps themselves are driven headless in test_play_npuzzle.py / test_play_sokoban.py;
here the command line is run for real and ``App.play`` is replaced by a recorder.
"""

from __future__ import annotations

import random

import pytest
from PIL import Image
from searchkit_npuzzle.game import NPuzzleGame
from searchkit_npuzzle.play_app import NPuzzleApp
from searchkit_sokoban.play_app import SokobanApp
from typer.testing import CliRunner

from searchkit.cli import build_app
from searchkit.play import autosave_path, write_save

pytestmark = pytest.mark.usefixtures("play_dir")


@pytest.fixture
def started(monkeypatch):
    """Run ``searchkit play ...`` and return the app it would have shown."""
    apps = []
    monkeypatch.setattr(NPuzzleApp, "play", lambda self: apps.append(self))
    monkeypatch.setattr(SokobanApp, "play", lambda self: apps.append(self))

    def run(*args: str):
        res = CliRunner().invoke(build_app(), ["play", *args])
        assert res.exit_code == 0 and res.exception is None, (res.output, res.exception)
        return apps.pop()

    return run


def test_npuzzle_size_blank_seed_numbers_and_image(started, tmp_path):
    app = started("npuzzle", "--size", "4", "--blank", "first", "--seed", "5")
    game = app.session
    assert (game.width, game.height) == (4, 4) and game.goal[0] == 0 and game.board != game.goal
    assert started("npuzzle", "--size", "4", "--blank", "first", "--seed", "5").session.board == game.board
    assert started("npuzzle", "--size", "4", "--blank", "first", "--seed", "6").session.board != game.board
    assert started("npuzzle", "--numbers").start_mode == "numbers"
    assert started("npuzzle").start_mode != "numbers"
    Image.new("RGB", (40, 40), (1, 2, 3)).save(tmp_path / "pic.png")
    assert str(started("npuzzle", "--image", str(tmp_path / "pic.png")).image) == str(tmp_path / "pic.png")


def test_npuzzle_load_and_new(started, tmp_path):
    saved = NPuzzleGame.new(5, "center", random.Random(1))
    write_save(tmp_path / "g.json", saved.to_save())
    app = started("npuzzle", "--load", str(tmp_path / "g.json"))
    assert app.session.board == saved.board and app.session.width == 5 and app.save_path == tmp_path / "g.json"
    write_save(autosave_path("npuzzle"), saved.to_save())
    assert started("npuzzle").resume is not None  # the autosave is offered
    assert started("npuzzle", "--new").resume is None


def test_sokoban_level_file_level_load_and_new(started, tmp_path):
    app = started("sokoban", "microban", "--level", "7")
    assert app.session.level.number == 7 and len(app.levels) == 155
    assert started("sokoban", "microban:9").session.level.number == 9
    (tmp_path / "one.txt").write_text("#####\n#@$.#\n#####\n")
    assert started("sokoban", str(tmp_path / "one.txt")).session.level.rows == ("#####", "#@$.#", "#####")
    write_save(tmp_path / "s.json", app.session.to_save())
    loaded = started("sokoban", "--load", str(tmp_path / "s.json"))
    assert loaded.session.level.number == 7 and len(loaded.levels) == 155
    write_save(autosave_path("sokoban"), app.session.to_save())
    assert started("sokoban").resume is not None
    assert started("sokoban", "--new").resume is None
