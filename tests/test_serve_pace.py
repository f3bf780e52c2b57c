"""A watched search goes at the page's pace: paused it neither searches on nor sends more, a
step lets one expansion through, a rate slows it down, and its time limit counts the time it
runs, not the time it waits (`searches.Pace`, `searches.Pacer`)."""

from __future__ import annotations

import json
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from processes import wait_for

from searchkit.limits import Limits
from searchkit.serve import searches
from searchkit.serve.searches import Pace, Pacer

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx versions
    from starlette.testclient import TestClient

LONG = {"domain": "npuzzle", "options": {"size": "4", "seed": "3"}, "engine": "bfs"}


class Reader:
    """A search's stream read in a thread: the expansions so far, and the last message."""

    def __init__(self, live_client: TestClient, sid: str) -> None:
        self.expanded = 0
        self.events = 0
        self.last: dict[str, Any] = {}
        self.thread = threading.Thread(target=self._read, args=(live_client, sid), daemon=True)
        self.thread.start()

    def _read(self, live_client: TestClient, sid: str) -> None:
        with live_client.stream("GET", f"/api/searches/{sid}/events") as r:
            for line in r.iter_lines():
                if line.startswith("data: "):
                    self.last = json.loads(line[6:])
                    events = self.last.get("events", [])
                    self.events += len(events)
                    self.expanded += sum(e[0] == "x" for e in events)

    def settled(self, seconds: float = 1.5) -> int:
        """The expansions read once nothing more came for ``seconds`` (what was under way has arrived)."""
        seen = -1
        while seen != self.expanded:
            seen = self.expanded
            time.sleep(seconds)
        return seen


def pace(live_client: TestClient, sid: str, **body: Any) -> dict:
    r = live_client.post(f"/api/searches/{sid}/pace", json=body)
    assert r.status_code == 200, r.text
    doc: dict = r.json()
    return doc


def test_a_search_started_paused_waits_and_steps_one_expansion_at_a_time(live_client: TestClient) -> None:
    sid = live_client.post("/api/searches", json={**LONG, "max_expanded": 3000, "rate": 0}).json()["id"]
    reader = Reader(live_client, sid)
    assert reader.settled() == 0
    assert pace(live_client, sid, steps=3) == {"rate": 0, "steps": 3}
    assert wait_for(lambda: reader.expanded == 3)
    assert reader.settled() == 3  # three steps, three expansions, then it waits again
    pace(live_client, sid, rate=None)
    reader.thread.join(60)
    end = reader.last["end"]
    assert end["stats"]["expanded"] == reader.expanded == 3000 and end["stats"]["limit_reason"] == "nodes"


@pytest.mark.slow  # over 10 s here: waits out pauses and paces in real time
def test_pause_stops_a_fast_search_and_play_goes_on(live_client: TestClient) -> None:
    sid = live_client.post("/api/searches", json={**LONG, "max_expanded": 200_000}).json()["id"]
    reader = Reader(live_client, sid)
    assert wait_for(lambda: reader.expanded >= 1000)
    pace(live_client, sid, rate=0)
    paused_at = reader.settled()
    assert paused_at < 200_000 and not reader.last.get("end")
    time.sleep(2)
    assert reader.expanded == paused_at, "a paused search went on"
    assert pace(live_client, sid, steps=1)["steps"] == 1
    assert wait_for(lambda: reader.expanded == paused_at + 1)
    pace(live_client, sid, rate=None)
    reader.thread.join(120)
    assert reader.last["end"]["stats"]["expanded"] == reader.expanded == 200_000


def test_a_slow_rate_slows_the_search_down(live_client: TestClient) -> None:
    sid = live_client.post("/api/searches", json={**LONG, "rate": 200}).json()["id"]
    reader = Reader(live_client, sid)
    time.sleep(3)
    assert 0 < reader.events <= 200 * 3 * 3, "200 events a second, give or take a batch, for 3 s"
    live_client.delete(f"/api/searches/{sid}")


def test_steps_while_running_are_not_saved_up(live_client: TestClient) -> None:
    sid = live_client.post("/api/searches", json={**LONG, "rate": 100}).json()["id"]
    assert pace(live_client, sid, steps=5) == {"rate": 100, "steps": 0}
    live_client.delete(f"/api/searches/{sid}")


class Clock:
    """`time` for a `Pacer`: sleeping moves the clock on, and ``on_sleep`` sees each sleep."""

    def __init__(self, on_sleep: Callable[[float], None] = lambda _t: None) -> None:
        self.now = 1000.0
        self.slept = 0.0
        self.on_sleep = on_sleep

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.slept += seconds
        self.on_sleep(self.now)


def test_the_time_limit_counts_running_not_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    shared = Pace(0)
    clock = Clock(lambda now: shared.grant(1) if now >= 1300 and shared.steps() == 0 else None)
    monkeypatch.setattr(searches, "time", clock)
    limits = Limits(timeout_s=60.0 + searches.MAX_WAIT_S)
    pacer = Pacer(shared, 60.0, limits)
    flushed: list[int] = []
    pacer.wait(True, lambda: flushed.append(1))  # paused: waits five minutes for a step
    assert flushed == [1] and pacer.used == 1 and pacer.waited == pytest.approx(300, abs=0.1)
    assert limits.timeout_s == pytest.approx(360, abs=0.1)  # what is left after the search counts running only
    clock.now += 50  # 350 s since the start, 50 of them running
    pacer.check()
    assert pacer.reason is None and not limits.interrupt.is_set()
    clock.now += 11
    pacer.check()
    assert pacer.reason == "time" and limits.interrupt.is_set()


def test_a_search_paused_too_long_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr(searches, "time", clock)
    limits = Limits()
    pacer = Pacer(Pace(0), 60.0, limits)
    pacer.wait(True, lambda: None)
    assert pacer.reason == "paused too long" and limits.interrupt.is_set()
    assert searches.MAX_WAIT_S < clock.slept < searches.MAX_WAIT_S + 1


def test_a_rate_spaces_the_events(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr(searches, "time", clock)
    limits = Limits(timeout_s=60.0 + searches.MAX_WAIT_S)
    pacer = Pacer(Pace(100), 60.0, limits)
    pacer.wait(False, lambda: None)
    assert limits.timeout_s == 60.0  # from the first event: the search's own time limit
    for i in range(999):
        pacer.wait(i % 3 == 0, lambda: None)
    assert clock.slept == pytest.approx(10, abs=0.1)  # 1000 events at 100 a second
    assert pacer.reason is None and pacer.used == 0
