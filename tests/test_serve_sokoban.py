"""``searchkit serve``'s Sokoban at the HTTP level: the level catalog, bundled levels and
uploaded files, moves, the deadlock warning, hints and solves, LURD replay and saves;
every bad input a 4xx answer with one line, and the server still serving after it."""

from __future__ import annotations

import json
import warnings

import pytest
from searchkit_sokoban.levels import bundled_text, parse_levels

from searchkit.play import read_save
from searchkit.serve import games
from searchkit.serve.app import MAX_UPLOAD

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx versions
    from starlette.testclient import TestClient

# a box left of its goal; the player walks right twice along the bottom and pushes up
SMALL = "#####\n#.  #\n#$  #\n#@  #\n#####\n"
CORNERED = "#####\n#$ .#\n# @ #\n#####\n"  # the box is in a corner off its goal: never solvable


def new_game(client: TestClient, **options: object) -> dict:
    r = client.post("/api/games", json={"game": "sokoban", **options})
    assert r.status_code == 200, r.text
    return r.json()


def upload(client: TestClient, data: bytes, name: str = "mine.sok", **query: str) -> dict:
    r = client.post("/api/games/open", params={"game": "sokoban", "name": name, **query}, content=data)
    return {"status": r.status_code, **r.json()}


def test_catalog_lists_the_bundled_collections_and_their_levels(client: TestClient) -> None:
    doc = client.get("/api/catalog/sokoban").json()
    got = {c["name"]: c for c in doc["collections"]}
    assert [c["title"] for c in doc["collections"]] == ["Microban", "XSokoban", "Sasquatch II"]
    assert len(got["microban"]["levels"]) == len(parse_levels(bundled_text("microban")))
    assert client.get("/api/catalog/npuzzle").json() == {}
    r = client.get("/api/catalog/chess")
    assert r.status_code == 400 and "unknown game" in r.json()["error"]


def test_a_bundled_level_is_drawn_with_its_counters(client: TestClient) -> None:
    g = new_game(client, collection="xsokoban", level="3")
    level = parse_levels(bundled_text("xsokoban"))[2]
    assert g["board"] == list(level.rows) and (g["width"], g["height"]) == (level.width, level.height)
    assert (g["collection"], g["level"], g["count"], g["pushes"], g["deadlock"], g["lurd"]) == (
        "xsokoban",
        3,
        90,
        0,
        None,
        "",
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"collection": "nosuch"}, "unknown collection"),
        ({"level": "999"}, "out of range"),
        ({"level": "no such title"}, "no level titled"),
    ],
)
def test_a_bad_level_choice_is_a_400_message(client: TestClient, options: dict, message: str) -> None:
    r = client.post("/api/games", json={"game": "sokoban", **options})
    assert r.status_code == 400 and message in r.json()["error"]


def test_keys_clicks_pushes_undo_redo_restart_and_the_win(client: TestClient) -> None:
    g = upload(client, SMALL.encode())
    gid, start = g["id"], g["board"]
    assert g["file"] == "mine.sok" and g["collection"] is None
    r = client.post(f"/api/games/{gid}/move", json={"direction": "up"}).json()  # a push: the box goes on its goal
    assert r["moved"] and r["solved"] and r["lurd"] == "U" and r["pushes"] == 1
    client.post(f"/api/games/{gid}/undo")
    width = g["width"]
    assert client.post(f"/api/games/{gid}/move", json={"cell": 3 * width + 3}).json()["moved"] is False  # not next
    walked = client.post(f"/api/games/{gid}/move", json={"cell": 3 * width + 2}).json()  # the square to the right
    assert walked["moved"] and walked["lurd"] == "r" and walked["pushes"] == 0 and not walked["solved"]
    assert client.post(f"/api/games/{gid}/move", json={"cell": 4 * width + 2}).json()["moved"] is False  # a wall
    assert client.post(f"/api/games/{gid}/undo").json()["can_redo"]
    assert client.post(f"/api/games/{gid}/redo").json()["lurd"] == "r"
    restarted = client.post(f"/api/games/{gid}/restart").json()
    assert restarted["board"] == start and restarted["moves"] == 0


def test_a_push_into_a_deadlock_warns_as_the_terminal_game_does(client: TestClient) -> None:
    gid = upload(client, b"######\n#    #\n# $  #\n#.  @#\n######\n")["id"]
    client.post(f"/api/games/{gid}/move", json={"direction": "left"})
    client.post(f"/api/games/{gid}/move", json={"direction": "left"})
    dead = client.post(f"/api/games/{gid}/move", json={"direction": "up"}).json()  # the box against the top wall
    assert dead["lurd"] == "llU" and "box" in dead["deadlock"]
    assert client.post(f"/api/games/{gid}/hint").json()["plan"]["status"] == "no-solution"
    assert client.post(f"/api/games/{gid}/undo").json()["deadlock"] is None


def test_hint_and_auto_solve_from_the_current_position(client: TestClient) -> None:
    gid = new_game(client, collection="microban", level="1")["id"]
    client.post(f"/api/games/{gid}/move", json={"direction": "down"})
    hint = client.post(f"/api/games/{gid}/hint").json()
    plan = hint["plan"]
    assert plan["found"] and hint["hint"] == plan["moves"][0] and hint["hints"] == 1
    assert plan["stats"]["expanded"] > 0 and plan["stats"]["generated"] > 0
    for move in client.post(f"/api/games/{gid}/solve").json()["plan"]["moves"]:
        last = client.post(f"/api/games/{gid}/move", json={"move": move}).json()
    assert last["solved"] and last["lurd"].startswith("d")


def test_a_level_the_solver_cannot_do_in_the_limit_says_so(client: TestClient, monkeypatch) -> None:
    monkeypatch.setattr(games, "SOLVE_TIMEOUT_S", 0.01)
    gid = new_game(client, collection="sasquatch", level="50")["id"]
    plan = client.post(f"/api/games/{gid}/solve").json()["plan"]
    assert (plan["found"], plan["status"], plan["detail"], plan["moves"], plan["limit_s"]) == (
        False,
        "limit",
        "time",
        [],
        0.01,
    )
    assert plan["stats"]["elapsed_s"] < 5  # the limit reached the solver process


def test_a_pasted_lurd_replays_from_the_start_or_is_refused_naming_the_move(client: TestClient) -> None:
    gid = upload(client, SMALL.encode())["id"]
    client.post(f"/api/games/{gid}/move", json={"direction": "right"})
    ok = client.post(f"/api/games/{gid}/replay", json={"moves": " r\nl U "}).json()
    assert ok["replay"] == ["r", "l", "U"] and ok["moves"] == 0 and ok["lurd"] == ""
    for text, message in [
        ("rlu", "move 3 (u): walks into a box (a push must be uppercase)"),
        ("ll", "move 1 (l): walks into a wall"),
        ("rx", "move 2: 'x' is not a LURD letter"),
        ("R", "move 1 (R): a push with no box to push"),
        ("   ", "paste some LURD moves"),
    ]:
        r = client.post(f"/api/games/{gid}/replay", json={"moves": text})
        assert r.status_code == 400 and message in r.json()["error"], text
    assert client.post(f"/api/games/{gid}/replay", json={"moves": 7}).status_code == 400
    npuzzle = client.post("/api/games", json={"game": "npuzzle", "seed": 1}).json()["id"]
    r = client.post(f"/api/games/{npuzzle}/replay", json={"moves": "UD"})
    assert r.status_code == 400 and "do not replay" in r.json()["error"]


def test_a_collection_file_opens_at_the_chosen_level(client: TestClient) -> None:
    two = f"; first\n\n{SMALL}\n; second\n\n{CORNERED.replace('$ ', ' $')}".encode()
    g = upload(client, two, "pair.txt", level="2")
    assert g["status"] == 200 and (g["level"], g["count"], g["title"]) == (2, 2, "second")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not text"),
        (b"", "empty"),
        (b"hello, this is a letter\n", "no level found"),
        (b"#####\n#@$ #\n#####\n", "1 boxes but 0 goals"),
        (b"#####\n#@$.\n#####\n", "not closed"),
        (CORNERED.encode(), "cannot be solved"),
        (SMALL.encode(), "out of range"),  # level 2 of a file of one
    ],
)
def test_a_bad_level_file_is_a_400_message_and_the_server_goes_on(
    client: TestClient, data: bytes, message: str
) -> None:
    query = {"level": "2"} if data == SMALL.encode() else {}
    got = upload(client, data, **query)
    assert got["status"] == 400 and message in got["error"]
    assert client.get("/api/catalog/sokoban").status_code == 200


def test_a_huge_level_file_is_refused_unread(client: TestClient) -> None:
    got = upload(client, b"#" * (MAX_UPLOAD + 1))
    assert got["status"] == 413 and "too large" in got["error"]
    assert upload(client, b"x", game="chess")["status"] == 400  # an unknown game
    npuzzle = upload(client, b"1 2 3", game="npuzzle")
    assert npuzzle["status"] == 400 and "not started from a file" in npuzzle["error"]


def test_saves_are_the_terminal_games_and_load_back(client: TestClient, tmp_path) -> None:
    gid = new_game(client, collection="microban", level="2")["id"]
    for direction in ("right", "down", "down"):
        client.post(f"/api/games/{gid}/move", json={"direction": direction})
    client.post(f"/api/games/{gid}/undo")
    saved = client.get(f"/api/games/{gid}/save")
    assert saved.headers["content-disposition"] == 'attachment; filename="searchkit-sokoban.json"'
    path = tmp_path / "save.json"
    path.write_bytes(saved.content)
    data = read_save(path, "sokoban")  # what ``searchkit play sokoban --load`` reads
    from searchkit_sokoban.game import SokobanGame

    terminal = SokobanGame.from_save(data)
    assert (terminal.history, terminal.future, terminal.source, terminal.level.number) == (
        ["r", "d"],
        ["d"],
        "microban",
        2,
    )
    loaded = client.post("/api/games/load", params={"game": "sokoban"}, content=saved.content).json()
    original = client.get(f"/api/games/{gid}").json()
    for key in ("board", "moves", "lurd", "can_redo", "collection", "level", "count"):
        assert loaded[key] == original[key]
    wrong = client.post("/api/games/load", params={"game": "npuzzle"}, content=saved.content)
    assert wrong.status_code == 400 and "is a sokoban game, not a npuzzle one" in wrong.json()["error"]
    doc = json.loads(saved.content)
    doc["history"] = ["r", "r"]
    bad = client.post("/api/games/load", params={"game": "sokoban"}, content=json.dumps(doc))
    assert bad.status_code == 400 and "move 2 of the history" in bad.json()["error"]


def test_following_the_hints_reuses_the_plan_and_leaving_it_solves_again(client: TestClient, monkeypatch) -> None:
    store = client.app.state.games
    solves: list[str] = []
    solve = store._solve  # the call that hands a position to a solver process
    monkeypatch.setattr(store, "_solve", lambda entry: solves.append(entry.game.position_key()) or solve(entry))
    gid = new_game(client, collection="microban", level="4")["id"]
    plan = client.post(f"/api/games/{gid}/hint").json()["plan"]["moves"]
    for i in range(3):
        hint = client.post(f"/api/games/{gid}/hint").json()
        assert hint["hint"] == plan[i] and hint["plan"]["moves"] == plan[i:]
        client.post(f"/api/games/{gid}/move", json={"move": hint["hint"]})
    assert client.post(f"/api/games/{gid}/solve").json()["plan"]["moves"] == plan[3:]
    assert len(solves) == 1
    client.post(f"/api/games/{gid}/restart")
    assert client.post(f"/api/games/{gid}/solve").json()["plan"]["moves"] == plan and len(solves) == 1
    off_plan = (d for d in "udlr" if d != plan[0].lower())
    assert any(client.post(f"/api/games/{gid}/move", json={"move": d}).json()["moved"] for d in off_plan)
    client.post(f"/api/games/{gid}/hint")
    assert len(solves) == 2
