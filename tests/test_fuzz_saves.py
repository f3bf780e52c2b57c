"""Fuzzing saved games: random bytes, random JSON, saves of both games with values replaced
at any depth, truncated or with bytes flipped.  Loading gives the saved game or one
``Error:`` line; ``searchkit play GAME --load FILE`` exits 0 or 2; a failed save keeps the
file it would have replaced."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from fuzzing import NESTING, PROFILES, Profile, assert_clean, mutated_bytes, parses_or_refuses, run_cli, snapshot
from hypothesis import strategies as st
from searchkit_npuzzle.game import NPuzzleGame
from searchkit_npuzzle.play_app import NPuzzleApp
from searchkit_sokoban.game import SokobanGame
from searchkit_sokoban.levels import load_level
from searchkit_sokoban.play_app import SokobanApp

from searchkit.errors import InputError
from searchkit.play import GameSession, read_save, write_save
from searchkit.play.saves import SaveData


def npuzzle_save() -> dict[str, Any]:
    game = NPuzzleGame.new(3, "last", random.Random(1))
    for move in "UDLRUULL":
        game.play(move)
    game.undo()
    return game.to_save().to_json()


def sokoban_save() -> dict[str, Any]:
    game = SokobanGame(load_level("microban:2"), "microban", 155)
    for move in "rrddlluurr":
        game.play(move)
    game.undo()
    return game.to_save().to_json()


SAVES = {"npuzzle": npuzzle_save(), "sokoban": sokoban_save()}
GAMES: dict[str, type[GameSession]] = {"npuzzle": NPuzzleGame, "sokoban": SokobanGame}
JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**30), 10**30),
        st.floats(),
        st.text(max_size=12),
        st.sampled_from(["U", "D", "L", "R", "u", "d", "l", "r", "U", "#@$.#", "searchkit-play", "npuzzle", "sokoban"]),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=15,
)


@st.composite
def mutated_saves(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A real save with a few values replaced, dropped or extended, at any depth."""
    domain = draw(st.sampled_from(sorted(SAVES)))
    doc = json.loads(json.dumps(SAVES[domain]))
    for _ in range(draw(st.integers(1, 3))):
        node: Any = doc
        while isinstance(node, (dict, list)) and node and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(node))) if isinstance(node, dict) else draw(st.integers(0, len(node) - 1))
            if not isinstance(node[key], (dict, list)):
                break
            node = node[key]
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
            if draw(st.booleans()):
                node[key] = draw(JSON)
            else:
                del node[key]
        elif isinstance(node, list):
            if node and draw(st.booleans()):
                node[draw(st.integers(0, len(node) - 1))] = draw(JSON)
            else:
                node.append(draw(JSON))
    return domain, doc


def save_bytes() -> st.SearchStrategy[tuple[str, bytes]]:
    domains = st.sampled_from(sorted(SAVES))
    return st.one_of(
        mutated_saves().map(lambda d: (d[0], json.dumps(d[1], allow_nan=True).encode())),
        domains.flatmap(lambda d: mutated_bytes(json.dumps(SAVES[d]).encode()).map(lambda b: (d, b))),
        st.tuples(domains, st.binary(max_size=200)),
        st.tuples(domains, JSON.map(lambda v: json.dumps(v).encode())),
        st.tuples(domains, NESTING.map(lambda n: b"[" * n + b"]" * n)),
        st.tuples(domains, st.just(b"1" * 5000)),
        st.tuples(domains, st.sampled_from(sorted(SAVES)).map(lambda d: json.dumps(SAVES[d]).encode("utf-16"))),
    )


def load(path: Path, domain: str) -> GameSession:
    return GAMES[domain].from_save(read_save(path, domain), f"save file {path}")


@pytest.mark.parametrize("profile", PROFILES)
def test_saves_load_or_are_refused(profile: Profile, tmp_path: Path) -> None:
    path = tmp_path / "game.json"

    def check(case: tuple[str, bytes]) -> None:
        domain, data = case
        path.write_bytes(data)
        game = parses_or_refuses(lambda: load(path, domain))
        if game is not None:  # what loaded is what was saved
            doc = json.loads(data)
            assert game.current_json() == doc["current"] and game.history == doc["history"]

    profile.run(save_bytes(), check, examples=300)


def test_a_history_whose_case_disagrees_with_the_moves_is_refused(tmp_path: Path) -> None:
    """Found by the heavy run: ``D`` (a push) saved where the move only walks loaded, and was
    kept as ``d``, so what loaded was not what was saved."""
    doc = {
        "format": "searchkit-play",
        "version": 1,
        "domain": "sokoban",
        "params": {"source": "microban", "level": 2, "title": "2", "count": 155},
        "start": ["######", "#    #", "# #@ #", "# $* #", "# .* #", "#    #", "######"],
        "current": ["######", "#    #", "# #  #", "# $* #", "#$.+ #", "#    #", "######"],
        "history": ["r", "d", "D", "L", "L", "r"],
        "redo": ["r"],
        "elapsed_s": 0.0,
        "hints": 0,
        "saved_at": "2026-12-07T15:51:44+0000",
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError, match="move 3 of the history \\('D'\\) is 'd' there"):
        load(path, "sokoban")
    doc["history"][2] = "d"
    path.write_text(json.dumps(doc))
    assert load(path, "sokoban").history == doc["history"]


@pytest.mark.parametrize("profile", PROFILES)
def test_play_load_end_to_end(profile: Profile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEARCHKIT_PLAY_DIR", str(tmp_path / "autosaves"))
    started: list[Any] = []
    monkeypatch.setattr(NPuzzleApp, "play", lambda self: started.append(self))
    monkeypatch.setattr(SokobanApp, "play", lambda self: started.append(self))
    path = tmp_path / "game.json"

    def check(case: tuple[str, bytes]) -> None:
        domain, data = case
        path.write_bytes(data)
        outcome = run_cli("play", domain, "--load", str(path))
        assert_clean(outcome)
        assert path.read_bytes() == data  # loading never rewrites the file

    profile.run(save_bytes(), check, examples=30, deadline_s=10)


def test_a_failed_save_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    game = NPuzzleGame.new(3, "last", random.Random(2))
    write_save(path, game.to_save())
    before = snapshot(tmp_path)
    game.play("U")

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(InputError, match="No space left"):
        write_save(path, game.to_save())
    assert snapshot(tmp_path) == before  # the old save, and no temporary file beside it


@pytest.mark.parametrize("profile", PROFILES)
def test_move_strings(profile: Profile) -> None:
    """Moves as a save's history holds them (LURD letters for Sokoban, U D L R for the
    n-puzzle), or anything else: a legal move or a refusal, and undo gets back to the start."""
    moves = st.lists(st.one_of(st.sampled_from(list("udlrUDLR")), st.text(max_size=3)), max_size=60)

    def check(case: tuple[str, list[str]]) -> None:
        domain, played = case
        doc = SAVES[domain]
        game = GAMES[domain].from_save(SaveData(domain, doc["params"], doc["start"], doc["current"], doc["history"]))
        game.restart()
        start = game.current_json()
        for move in played:
            assert game.play(move) in (True, False)
        while game.undo():
            pass
        assert game.current_json() == start

    profile.run(st.tuples(st.sampled_from(sorted(SAVES)), moves), check, examples=100)
