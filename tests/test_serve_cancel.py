"""Stopping a game's solve in ``searchkit serve``: a hard Sokoban level's auto-solve, stopped
(or its game left), answers at once as unfinished and ``interrupted``, with no guarantee,
instead of running out its time limit."""

from __future__ import annotations

import threading
import time
import warnings
from typing import Any

from searchkit.serve import games

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx versions
    from starlette.testclient import TestClient

HARD = {"game": "sokoban", "collection": "sasquatch", "level": "50"}  # not solved within the limit


def solve_in_thread(live_client: TestClient, gid: str) -> tuple[threading.Thread, dict[str, Any]]:
    answer: dict[str, Any] = {}

    def solve() -> None:
        answer.update(live_client.post(f"/api/games/{gid}/solve").json())

    thread = threading.Thread(target=solve, daemon=True)
    thread.start()
    entry = live_client.app.state.games.get(gid)
    deadline = time.monotonic() + 30
    while not entry.solving and time.monotonic() < deadline:
        time.sleep(0.02)
    assert entry.solving, "the solve did not start"
    return thread, answer


def assert_interrupted(plan: dict[str, Any]) -> None:
    assert (plan["found"], plan["status"], plan["detail"], plan["moves"], plan["quality"]) == (
        False,
        "limit",
        "interrupted",
        [],
        None,
    )
    assert plan["stats"]["elapsed_s"] < games.SOLVE_TIMEOUT_S / 2


def test_a_stopped_solve_answers_at_once_unfinished(live_client: TestClient) -> None:
    gid = live_client.post("/api/games", json=HARD).json()["id"]
    assert live_client.post(f"/api/games/{gid}/cancel").json() == {"id": gid, "cancelled": False}  # nothing runs yet
    thread, answer = solve_in_thread(live_client, gid)
    time.sleep(1)
    assert live_client.post(f"/api/games/{gid}/cancel").json() == {"id": gid, "cancelled": True}
    thread.join(games.SOLVE_TIMEOUT_S / 2 + games.POOL_GRACE_S)
    assert_interrupted(answer["plan"])
    assert not live_client.app.state.games.get(gid).solving
    # the next solve of the game is not stopped by the last one's flag
    thread, answer = solve_in_thread(live_client, gid)
    assert live_client.post(f"/api/games/{gid}/cancel").json()["cancelled"]
    thread.join(games.SOLVE_TIMEOUT_S)
    assert_interrupted(answer["plan"])


def test_leaving_a_game_stops_its_solve(live_client: TestClient) -> None:
    gid = live_client.post("/api/games", json=HARD).json()["id"]
    thread, answer = solve_in_thread(live_client, gid)
    live_client.delete(f"/api/games/{gid}")
    thread.join(games.SOLVE_TIMEOUT_S / 2 + games.POOL_GRACE_S)
    assert_interrupted(answer["plan"])
