"""``searchkit serve`` at the HTTP level: every endpoint, bad input answered 4xx in one line,
and a watched search's counters equal to the CLI's ``--json`` statistics."""

from __future__ import annotations

import io
import json
import warnings

import pytest
from PIL import Image
from typer.testing import CliRunner

from searchkit.cli import build_app as build_cli
from searchkit.serve.app import MAX_UPLOAD

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx versions
    from starlette.testclient import TestClient

BOARD = "1 2 3 4 5 6 0 7 8"
COUNTERS = ("expanded", "generated", "duplicates", "reopened", "max_frontier", "stored", "iterations", "limit_reason")


def new_game(client: TestClient, **options: object) -> dict:
    r = client.post("/api/games", json={"game": "npuzzle", "size": 3, "seed": 1, **options})
    assert r.status_code == 200, r.text
    return r.json()


def png(size: tuple[int, int] = (40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 10, 10)).save(out, "PNG")
    return out.getvalue()


def test_page_and_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert "/static/watch.js" in page.text
    for name in ("app.js", "watch.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert "cdn" not in page.text.lower()


def test_info_lists_games_domains_engines(client: TestClient) -> None:
    doc = client.get("/api/info").json()
    assert "npuzzle" in doc["games"] and "npuzzle" in doc["domains"]
    assert "astar" in {e["name"] for e in doc["engines"]}
    assert all(p["type"] != "Path" for d in doc["domains"].values() for p in d["params"])


def test_moves_undo_redo_restart(client: TestClient) -> None:
    g = new_game(client, depth=1)
    gid, board = g["id"], g["board"]
    assert client.get(f"/api/games/{gid}").json()["board"] == board
    blank = board.index(0)
    tile_cell = next(c for c in range(9) if abs(c - blank) in (1, 3) and (c // 3 == blank // 3 or c % 3 == blank % 3))
    moved = client.post(f"/api/games/{gid}/move", json={"cell": tile_cell}).json()
    assert moved["moved"] and moved["moves"] == 1
    assert client.post(f"/api/games/{gid}/move", json={"move": "X"}).json()["moved"] is False
    assert client.post(f"/api/games/{gid}/undo").json()["board"] == board
    assert client.post(f"/api/games/{gid}/redo").json()["moves"] == 1
    restarted = client.post(f"/api/games/{gid}/restart").json()
    assert restarted["moves"] == 0 and restarted["board"] == board
    assert client.post(f"/api/games/{gid}/move", json={"direction": "up"}).status_code == 200


def test_a_dropped_game_is_forgotten(client: TestClient) -> None:
    gid = new_game(client)["id"]
    assert client.delete(f"/api/games/{gid}").json() == {"dropped": True}
    assert client.get(f"/api/games/{gid}").status_code == 404
    assert client.delete(f"/api/games/{gid}").status_code == 200  # twice: still fine


def test_hint_and_solve_win(client: TestClient) -> None:
    g = new_game(client, depth=20)
    gid = g["id"]
    hint = client.post(f"/api/games/{gid}/hint").json()
    plan = hint["plan"]
    assert plan["found"] and hint["hint"] == plan["moves"][0] and plan["stats"]["expanded"] > 0
    for move in client.post(f"/api/games/{gid}/solve").json()["plan"]["moves"]:
        last = client.post(f"/api/games/{gid}/move", json={"move": move}).json()
    assert last["solved"]


def test_a_hint_then_an_auto_solve_solve_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    store = client.app.state.games
    calls = []
    solve = store._solve
    monkeypatch.setattr(store, "_solve", lambda entry: calls.append(1) or solve(entry))
    gid = new_game(client, depth=12)["id"]
    hint = client.post(f"/api/games/{gid}/hint").json()["plan"]
    assert client.post(f"/api/games/{gid}/solve").json()["plan"] == hint and len(calls) == 1
    client.post(f"/api/games/{gid}/move", json={"move": hint["moves"][0]})
    again = client.post(f"/api/games/{gid}/hint").json()["plan"]  # following the plan: its rest, unsolved
    assert again["moves"] == hint["moves"][1:] and len(calls) == 1
    client.post(f"/api/games/{gid}/undo")  # back at the plan's start: still the plan
    assert client.post(f"/api/games/{gid}/hint").json()["plan"] == hint and len(calls) == 1
    off = next(m for m in ("U", "D", "L", "R") if m != hint["moves"][0])
    assert client.post(f"/api/games/{gid}/move", json={"move": off}).status_code == 200
    client.post(f"/api/games/{gid}/hint")  # off the plan: solved again
    assert len(calls) == 2


def test_pictures_builtin_upload_and_bad_files(client: TestClient) -> None:
    gid = new_game(client)["id"]
    built_in = client.get(f"/api/games/{gid}/picture")
    assert built_in.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(built_in.content)).size == (480, 480)
    assert client.post(f"/api/games/{gid}/picture", content=png()).status_code == 200
    assert Image.open(io.BytesIO(client.get(f"/api/games/{gid}/picture").content)).getpixel((240, 240)) == (200, 10, 10)
    bad = client.post(f"/api/games/{gid}/picture", content=b"not a picture")
    assert bad.status_code == 400 and "not a picture" in bad.json()["error"]
    assert client.post(f"/api/games/{gid}/picture", content=b"").status_code == 400
    huge = client.post(f"/api/games/{gid}/picture", content=b"x" * (MAX_UPLOAD + 1))
    assert huge.status_code == 413 and "too large" in huge.json()["error"]


def test_decompression_bomb_is_refused(client: TestClient) -> None:
    gid = new_game(client)["id"]
    out = io.BytesIO()
    Image.new("1", (20_000, 20_000)).save(out, "PNG")  # 400 Mpx in a few kB
    r = client.post(f"/api/games/{gid}/picture", content=out.getvalue())
    assert r.status_code == 400 and "too large" in r.json()["error"]
    assert client.get(f"/api/games/{gid}").status_code == 200


def test_save_download_and_load(client: TestClient) -> None:
    gid = new_game(client, depth=5)["id"]
    client.post(f"/api/games/{gid}/move", json={"direction": "up"})
    client.post(f"/api/games/{gid}/move", json={"direction": "left"})
    client.post(f"/api/games/{gid}/undo")
    saved = client.get(f"/api/games/{gid}/save")
    assert "attachment" in saved.headers["content-disposition"]
    doc = saved.json()
    assert doc["format"] == "searchkit-play" and doc["version"] == 1
    loaded = client.post("/api/games/load", content=saved.content).json()
    original = client.get(f"/api/games/{gid}").json()
    for key in ("board", "moves", "can_redo", "goal"):
        assert loaded[key] == original[key]
    bad = client.post("/api/games/load", content=b"{}")
    assert bad.status_code == 400 and "not a searchkit save" in bad.json()["error"]
    doc["history"] = ["Q"]
    assert client.post("/api/games/load", content=json.dumps(doc)).status_code == 400


@pytest.mark.parametrize(
    "body",
    [{"game": "chess"}, {"size": 9}, {"size": "x"}, {"depth": 0}, {"blank": "nowhere"}],
)
def test_bad_new_game_is_a_400_message(client: TestClient, body: dict) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and r.json()["error"]


def test_bad_requests(client: TestClient) -> None:
    assert client.post("/api/games", content=b"{nope").status_code == 400
    assert client.get("/api/games/nosuch").status_code == 404
    assert client.post("/api/games/nosuch/move", json={}).status_code == 404
    assert client.get("/api/searches/nosuch/events").status_code == 404
    assert client.delete("/api/searches/nosuch").json() == {"cancelled": True}


def read_stream(client: TestClient, sid: str) -> tuple[list, dict]:
    events, last = [], {}
    with client.stream("GET", f"/api/searches/{sid}/events") as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                last = json.loads(line[6:])
                events += last.get("events", [])
    return events, last


def test_search_streams_batches_with_the_clis_counters(client: TestClient) -> None:
    board = "8 6 7 2 5 4 3 0 1"
    r = client.post("/api/searches", json={"domain": "npuzzle", "options": {"board": board}, "engine": "astar"})
    assert r.status_code == 200, r.text
    events, last = read_stream(client, r.json()["id"])
    stats = last["end"]["stats"]
    cli = CliRunner().invoke(build_cli(), ["solve", "npuzzle", "--board", board, "--engine", "astar", "--json"])
    expected = json.loads(cli.stdout)
    assert {k: stats[k] for k in COUNTERS} == {k: expected["stats"][k] for k in COUNTERS}
    assert last["end"]["cost"] == expected["cost"]
    assert sum(e[0] == "x" for e in events) == stats["expanded"]


@pytest.mark.parametrize(
    "body",
    [
        {"domain": "chess"},
        {"domain": "npuzzle", "engine": "nosuch"},
        {"domain": "npuzzle", "heuristic": "nosuch"},
        {"domain": "npuzzle", "options": {"board": "1 2"}},
        {"domain": "npuzzle", "options": {"pdb_dir": "/etc"}},
        {"domain": "npuzzle", "options": "x"},
    ],
)
def test_bad_searches_are_400(client: TestClient, body: dict) -> None:
    r = client.post("/api/searches", json=body)
    assert r.status_code == 400 and r.json()["error"]


def test_cancel_stops_a_search(client: TestClient) -> None:
    body = {"domain": "npuzzle", "options": {"size": "4", "seed": "3"}, "engine": "bfs"}
    sid = client.post("/api/searches", json=body).json()["id"]
    assert client.delete(f"/api/searches/{sid}").json() == {"cancelled": True}
    assert client.get(f"/api/searches/{sid}/events").status_code == 404


def test_serve_command_binds_loopback_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    import uvicorn

    from searchkit.serve import command

    runs: list[tuple] = []
    opened: list[str] = []
    bound: list[tuple[str, int]] = []  # the address asked for; a free port is bound, 8000 may be busy

    def listen(host: str, port: int) -> socket.socket:
        bound.append((host, port))
        return socket.create_server(("127.0.0.1", 0))

    monkeypatch.setattr(command, "listen", listen)
    monkeypatch.setattr(uvicorn.Server, "run", lambda s, **_kw: runs.append((s.config, bound[-1])))
    monkeypatch.setattr("webbrowser.open", opened.append)
    monkeypatch.setattr("threading.Timer", lambda _delay, fn, args: type("T", (), {"start": lambda s: fn(*args)})())
    cli = CliRunner()
    default = cli.invoke(build_cli(), ["serve"])
    assert default.exit_code == 0 and runs[-1][1] == ("127.0.0.1", 8000)
    assert runs[-1][0].log_level == "warning"
    assert "http://127.0.0.1:8000/" in default.output and "this machine only" in default.output
    wide = cli.invoke(build_cli(), ["serve", "--host", "0.0.0.0", "--port", "8123", "--open"])
    assert runs[-1][1] == ("0.0.0.0", 8123)
    assert "reachable from the network" in wide.output and opened == ["http://127.0.0.1:8123/"]
    assert cli.invoke(build_cli(), ["serve", "--port", "0"]).exit_code != 0
