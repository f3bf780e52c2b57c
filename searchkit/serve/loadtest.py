"""``searchkit serve-loadtest``: many players at once against a ``searchkit serve`` on this
machine, to show the server keeps up: errors, lost saves, the 95th-percentile answer to a
move and the server's memory before and after.

Each client plays the picture puzzle in a loop: a new game (and its picture), a few moves
by arrow key, undo, redo, a hint, a save downloaded and loaded back (a *lost save* is one
that loads as a different game), then an auto-solve played move by move.  Between two moves
a client waits ``--think-ms`` (50 ms: the page's fastest auto-solve animation)."""

from __future__ import annotations

import json
import math
import random
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Annotated, Any

import typer

from ..errors import InputError

START_S = 30.0
DIRECTIONS = ("up", "down", "left", "right")
COMPARED = ("board", "moves", "goal", "can_undo", "can_redo", "solved")  # what a loaded save must give back


class Failure(Exception):
    """A request the server answered wrongly (counted as an error)."""


@dataclass
class Tally:
    """What the clients saw."""

    requests: int = 0
    moves: list[float] = field(default_factory=list)  # seconds per move request
    errors: Counter[str] = field(default_factory=Counter)
    saves: int = 0
    lost_saves: int = 0
    games: int = 0
    solved: int = 0

    def add(self, other: Tally) -> None:
        self.requests += other.requests
        self.moves += other.moves
        self.errors.update(other.errors)
        self.saves += other.saves
        self.lost_saves += other.lost_saves
        self.games += other.games
        self.solved += other.solved


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``, 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered), max(1, math.ceil(p / 100 * len(ordered)))) - 1]


class Player:
    """One client: plays games until the deadline, counting into ``tally``."""

    def __init__(self, http: Any, rng: random.Random, deadline: float, think_s: float, tally: Tally) -> None:
        self.http = http
        self.rng = rng
        self.deadline = deadline
        self.think_s = think_s
        self.tally = tally

    def call(self, method: str, url: str, what: str, **kw: Any) -> Any:
        start = time.perf_counter()
        r = self.http.request(method, url, **kw)
        took = time.perf_counter() - start
        self.tally.requests += 1
        if r.status_code != 200:
            try:
                why = r.json().get("error", "")
            except ValueError:
                why = r.text[:80]
            raise Failure(f"{what}: HTTP {r.status_code} {why}")
        if what == "move":
            self.tally.moves.append(took)
        return r

    def over(self) -> bool:
        return time.monotonic() >= self.deadline

    def move(self, gid: str, body: dict[str, Any]) -> dict[str, Any]:
        time.sleep(self.think_s)
        doc: dict[str, Any] = self.call("POST", f"/api/games/{gid}/move", "move", json=body).json()
        return doc

    def game(self) -> None:
        rng, t = self.rng, self.tally
        body = {"game": "npuzzle", "size": 3, "depth": rng.randint(8, 40), "seed": rng.randrange(10**9)}
        gid = self.call("POST", "/api/games", "new game", json=body).json()["id"]
        t.games += 1
        try:
            self.play_game(gid)
        finally:  # as the page does when it starts another game
            self.call("DELETE", f"/api/games/{gid}", "drop")

    def play_game(self, gid: str) -> None:
        rng, t = self.rng, self.tally
        self.call("GET", f"/api/games/{gid}/picture", "picture")
        for _ in range(rng.randint(3, 12)):
            if self.over():
                return
            self.move(gid, {"direction": rng.choice(DIRECTIONS)})
        self.call("POST", f"/api/games/{gid}/undo", "undo")
        self.call("POST", f"/api/games/{gid}/redo", "redo")
        self.call("POST", f"/api/games/{gid}/hint", "hint")
        self.check_save(gid)
        if self.over():
            return
        plan = self.call("POST", f"/api/games/{gid}/solve", "auto-solve", json={}).json()["plan"]
        if not plan["found"]:
            raise Failure(f"auto-solve: no plan ({plan['status']})")
        state: dict[str, Any] = {}
        for mv in plan["moves"]:
            if self.over():
                return
            state = self.move(gid, {"move": mv})
        if plan["moves"] and not state.get("solved"):
            raise Failure("auto-solve: the plan's moves did not solve the game")
        t.solved += 1

    def check_save(self, gid: str) -> None:
        saved = self.call("GET", f"/api/games/{gid}/save", "save")
        current = self.call("GET", f"/api/games/{gid}", "show").json()
        self.tally.saves += 1
        try:
            loaded = self.call("POST", "/api/games/load", "load", content=saved.content).json()
        except Failure:
            self.tally.lost_saves += 1
            raise
        self.call("DELETE", f"/api/games/{loaded['id']}", "drop")
        if any(loaded.get(k) != current.get(k) for k in COMPARED):
            self.tally.lost_saves += 1

    def play(self) -> None:
        import httpx

        while not self.over():
            try:
                self.game()
            except Failure as e:
                self.tally.errors[str(e)] += 1
            except httpx.HTTPError as e:
                self.tally.errors[f"{type(e).__name__}: {e}"] += 1
                time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """A ``searchkit serve`` in a subprocess on a free port of 127.0.0.1, stopped on exit."""

    def __init__(self) -> None:
        self.url = f"http://127.0.0.1:{free_port()}"
        port = self.url.rsplit(":", 1)[1]
        cmd = [sys.executable, "-c", "from searchkit.cli import main; main()", "serve", "--port", port]
        self.process = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)

    def __enter__(self) -> Server:
        import httpx

        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise InputError(f"searchkit serve exited at once (code {self.process.returncode})")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.__exit__()
        raise InputError(f"searchkit serve did not answer within {START_S:g} s")

    def __exit__(self, *exc: Any) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def rss_mb(http: Any) -> float:
    value: float = http.get("/api/health").json()["rss_mb"]
    return value


def run_load(url: str, clients: int, duration: float, think_s: float, seed: int) -> dict[str, Any]:
    """Warm the server up with one game, then ``clients`` players (threads, each with its own
    connection) for ``duration`` seconds."""
    import httpx

    with httpx.Client(base_url=url, timeout=30.0) as http:
        warm = Tally()
        Player(http, random.Random(seed), time.monotonic() + 60, 0.0, warm).game()
        if warm.errors:
            raise InputError(f"the server failed a first game: {next(iter(warm.errors))}")
        base = rss_mb(http)
        tallies = [Tally() for _ in range(clients)]  # one each: no two threads count into one
        start = time.monotonic()
        deadline = start + duration
        threads = [
            threading.Thread(target=play, args=(url, random.Random(seed + 1 + i), deadline, think_s, t), daemon=True)
            for i, t in enumerate(tallies)
        ]
        for thread in threads:
            thread.start()
        peak, said = base, 0.0
        while any(t.is_alive() for t in threads):
            time.sleep(0.5)
            peak = max(peak, rss_mb(http))
            elapsed = time.monotonic() - start
            if elapsed - said >= 5 or not any(t.is_alive() for t in threads):
                said = elapsed
                requests, errors = sum(t.requests for t in tallies), sum(sum(t.errors.values()) for t in tallies)
                print(f"{elapsed:4.0f} s: {requests:,} requests, {errors} errors", file=sys.stderr, flush=True)
        elapsed = time.monotonic() - start
        tally = Tally()
        for each in tallies:
            tally.add(each)
        time.sleep(2.0)  # let the last answers settle
        after = rss_mb(http)
    return {
        "url": url,
        "clients": clients,
        "duration_s": round(elapsed, 1),
        "think_ms": round(think_s * 1000),
        "seed": seed,
        "requests": tally.requests,
        "requests_per_s": round(tally.requests / elapsed, 1),
        "errors": sum(tally.errors.values()),
        "error_kinds": dict(tally.errors.most_common(5)),
        "games": tally.games,
        "auto_solved": tally.solved,
        "saves": tally.saves,
        "lost_saves": tally.lost_saves,
        "moves": len(tally.moves),
        "move_p50_ms": round(percentile(tally.moves, 50) * 1000, 1),
        "move_p95_ms": round(percentile(tally.moves, 95) * 1000, 1),
        "move_max_ms": round(max(tally.moves, default=0.0) * 1000, 1),
        "rss_base_mb": base,
        "rss_peak_mb": peak,
        "rss_after_mb": after,
    }


def play(url: str, rng: random.Random, deadline: float, think_s: float, tally: Tally) -> None:
    """One player's thread, on a connection of its own."""
    import httpx

    with httpx.Client(base_url=url, timeout=30.0) as http:
        Player(http, rng, deadline, think_s, tally).play()


def report(doc: dict[str, Any], target_ms: float) -> str:
    return "\n".join(
        [
            f"load test: {doc['clients']} clients for {doc['duration_s']:g} s against {doc['url']}/ "
            f"(think {doc['think_ms']} ms between moves)",
            f"requests {doc['requests']:,} ({doc['requests_per_s']:,.0f}/s) · errors {doc['errors']} · "
            f"games {doc['games']:,} ({doc['auto_solved']:,} auto-solved) · lost saves {doc['lost_saves']} "
            f"of {doc['saves']:,}",
            f"move: p50 {doc['move_p50_ms']:g} ms · p95 {doc['move_p95_ms']:g} ms (target < {target_ms:g}) · "
            f"max {doc['move_max_ms']:g} ms over {doc['moves']:,} moves",
            f"server memory (RSS): base {doc['rss_base_mb']:g} MB · peak {doc['rss_peak_mb']:g} MB · "
            f"after {doc['rss_after_mb']:g} MB ({doc['rss_after_mb'] - doc['rss_base_mb']:+.1f} MB)",
            *(f"  error x{n}: {what}" for what, n in doc["error_kinds"].items()),
        ]
    )


def loadtest(
    clients: Annotated[int, typer.Option("--clients", help="players at once")] = 20,
    duration: Annotated[float, typer.Option("--duration", help="seconds of play")] = 60.0,
    url: Annotated[
        str | None, typer.Option("--url", help="a running server on this machine (default: start one)")
    ] = None,
    think_ms: Annotated[float, typer.Option("--think-ms", help="wait before each move, in ms")] = 50.0,
    target_ms: Annotated[float, typer.Option("--p95-target", help="fail when the p95 move exceeds this (ms)")] = 100.0,
    seed: Annotated[int, typer.Option("--seed", help="seed of the players' choices")] = 1,
    json_output: Annotated[bool, typer.Option("--json", help="print one JSON document on stdout")] = False,
) -> None:
    """Load-test a local web app (searchkit serve): players at once for a while; errors, lost saves,
    move latency and the server's memory.  Exit 1 when any error, lost save or a p95 move over
    the target."""
    if clients < 1 or duration <= 0 or think_ms < 0:
        raise InputError("--clients must be at least 1, --duration positive and --think-ms not negative")
    if url is not None and not url.startswith(("http://127.0.0.1", "http://localhost", "http://[::1]")):
        raise InputError(f"--url must be a server on this machine (http://127.0.0.1:PORT), not {url!r}")
    if url is None:
        with Server() as server:
            doc = run_load(server.url, clients, duration, think_ms / 1000, seed)
    else:
        doc = run_load(url.rstrip("/"), clients, duration, think_ms / 1000, seed)
    typer.echo(json.dumps(doc) if json_output else report(doc, target_ms))
    failed = doc["errors"] or doc["lost_saves"] or doc["move_p95_ms"] > target_ms
    raise typer.Exit(1 if failed else 0)
