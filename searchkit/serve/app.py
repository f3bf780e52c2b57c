"""The ASGI app: the page (package data), a JSON API for games and a Server-Sent Events
stream for watched searches.  Bad input answers 4xx with ``{"error": "..."}``, never a
traceback; blocking work (solving, pictures, searches) runs off the event loop."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import InputError
from ..limits import current_rss_bytes
from ..plugins import domains, engines
from ..render.save import SUFFIXES
from . import games
from .games import PICTURE_SIDE, Entry, GameStore
from .searches import MAX_EXPANDED, SearchStore, Spec, instance_label, offered
from .workers import Busy, Slots

STATIC = Path(__file__).parent / "static"
MAX_UPLOAD = 8 * 1024 * 1024
MAX_JSON = 64 * 1024
CONCURRENT_SOLVES = 4
CONCURRENT_SEARCHES = 4  # watched searches and tree exports, each a worker process
POLL_S = 0.02
DIRECTIONS = ("up", "down", "left", "right")  # the way a tile slides
MEDIA_TYPES = {
    "png": "image/png",
    "svg": "image/svg+xml",
    "pdf": "application/pdf",
    "json": "application/json",
    "graphml": "application/xml",
    "gexf": "application/xml",
    "dot": "text/vnd.graphviz",
}

Handler = Callable[[Request], Awaitable[Response]]


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def guarded(handler: Handler) -> Handler:
    """Turn the errors a user can cause into one-line JSON answers."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except InputError as e:
            return error(str(e))
        except KeyError:
            return error("no such game or search (the server may have restarted): start a new one", 404)
        except Busy as e:
            return error(str(e), 429)
        except TooLarge as e:
            return error(str(e), 413)

    return wrapped


class TooLarge(Exception):
    """An upload over the size limit."""


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused past ``limit`` bytes without reading it all."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"the file is larger than {limit >> 20 or 1} MB: too large to upload")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"the file is larger than {limit >> 20 or 1} MB: too large to upload")
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request: Request) -> dict[str, Any]:
    raw = await read_body(request, MAX_JSON)
    try:
        doc = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise InputError("the request is not valid JSON") from None
    if not isinstance(doc, dict):
        raise InputError("the request must be a JSON object")
    return doc


def build_app() -> Starlette:
    """A fresh app with its own game and search stores."""
    store = GameStore(Slots(CONCURRENT_SOLVES))
    searches = SearchStore(Slots(CONCURRENT_SEARCHES))

    def entry_of(request: Request) -> tuple[str, Entry]:
        gid = request.path_params["gid"]
        return gid, store.get(gid)

    def answer(gid: str, entry: Entry, **extra: Any) -> JSONResponse:
        return JSONResponse({"id": gid, **entry.state(), **extra})

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def info(request: Request) -> Response:
        doms = {
            d.name: {
                "summary": d.summary,
                "heuristics": list(d.heuristics),
                "instances": [instance_label(o) for o in d.check_instances()],
                "params": [
                    {"name": p.name, "type": p.type.__name__, "default": jsonable(p.default), "help": p.help}
                    for p in offered(d)
                ],
            }
            for d in domains().values()
        }
        engs = [
            {"name": e.name, "summary": e.summary, "heuristic": e.heuristic, "domains": list(e.domains)}
            for e in engines().values()
        ]
        return JSONResponse(
            {
                "games": sorted(store.kinds()),
                "domains": doms,
                "engines": engs,
                "tree_formats": [s[1:] for s in SUFFIXES],
                "max_expanded": MAX_EXPANDED,
            }
        )

    async def health(request: Request) -> Response:
        """What a load test watches: the server's memory and what it holds."""
        return JSONResponse(
            {"rss_mb": round(current_rss_bytes() / 2**20, 1), "games": len(store), "searches": searches.running()}
        )

    async def new_game(request: Request) -> Response:
        doc = await read_json(request)
        gid, entry = await run_in_threadpool(store.create, str(doc.get("game", "npuzzle")), doc)
        return answer(gid, entry)

    async def catalog(request: Request) -> Response:
        kind = store.kind(request.path_params["game"])
        assert kind.session is not None
        return JSONResponse(await run_in_threadpool(kind.session.catalog))

    async def open_file(request: Request) -> Response:
        """A game from an uploaded file: ``?game=NAME&name=FILENAME``, other parameters its options."""
        query = dict(request.query_params)
        game, filename = query.pop("game", ""), query.pop("name", "") or "the upload"
        raw = await read_body(request, MAX_UPLOAD)
        gid, entry = await run_in_threadpool(store.open_file, game, raw, filename[:100], query)
        return answer(gid, entry)

    async def replay(request: Request) -> Response:
        """Check written moves from the start and restart there: the page then plays them."""
        gid, entry = entry_of(request)
        text = (await read_json(request)).get("moves")
        if not isinstance(text, str):
            raise InputError("moves must be a string")
        with entry.lock:
            moves = entry.game.check_moves(text)
            entry.game.restart()
        return answer(gid, entry, replay=moves)

    async def show_game(request: Request) -> Response:
        return answer(*entry_of(request))

    async def drop_game(request: Request) -> Response:
        store.drop(request.path_params["gid"])
        return JSONResponse({"dropped": True})

    async def move(request: Request) -> Response:
        gid, entry = entry_of(request)
        doc = await read_json(request)
        with entry.lock:
            game = entry.game
            mv = doc.get("move")
            cell = doc.get("cell")
            if isinstance(cell, int) and not isinstance(cell, bool) and hasattr(game, "move_for_cell"):
                mv = game.move_for_cell(cell)
            elif doc.get("direction") in DIRECTIONS and hasattr(game, "move_for_key"):
                mv = game.move_for_key(doc["direction"])
            moved = isinstance(mv, str) and game.play(mv)
        return answer(gid, entry, moved=moved)

    def action(name: str) -> Handler:
        async def act(request: Request) -> Response:
            gid, entry = entry_of(request)
            with entry.lock:
                done = getattr(entry.game, name)()
            return answer(gid, entry, done=done is not False)

        return act

    async def hint(request: Request) -> Response:
        gid, entry = entry_of(request)
        plan = await run_in_threadpool(store.plan, entry)
        with entry.lock:
            if plan.found:
                entry.game.hints += 1
        return answer(gid, entry, hint=plan.moves[0] if plan.moves else None, plan=plan_json(plan))

    async def solve(request: Request) -> Response:
        gid, entry = entry_of(request)
        plan = await run_in_threadpool(store.plan, entry)
        return answer(gid, entry, plan=plan_json(plan))

    async def picture(request: Request) -> Response:
        gid, entry = entry_of(request)
        if entry.picture is None:
            if entry.kind.picture is None:
                return error(f"{entry.kind.name} has no picture", 404)
            entry.picture = await run_in_threadpool(store.built_in_picture, entry.kind)
        return Response(entry.picture, media_type="image/png", headers={"Cache-Control": "no-store"})

    async def upload_picture(request: Request) -> Response:
        gid, entry = entry_of(request)
        if entry.kind.picture is None:
            return error(f"{entry.kind.name} has no picture", 404)
        raw = await read_body(request, MAX_UPLOAD)
        if not raw:
            raise InputError("the upload is empty: choose a picture file")
        entry.picture = await run_in_threadpool(entry.kind.picture, raw, PICTURE_SIDE)
        return answer(gid, entry)

    async def save(request: Request) -> Response:
        gid, entry = entry_of(request)
        with entry.lock:
            doc = entry.game.to_save().to_json()
        name = f"searchkit-{entry.kind.name}.json"
        return Response(
            json.dumps(doc, indent=1) + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def load(request: Request) -> Response:
        raw = await read_body(request, MAX_UPLOAD)
        gid, entry = await run_in_threadpool(store.load, raw, request.query_params.get("game") or None)
        return answer(gid, entry)

    async def start_search(request: Request) -> Response:
        spec = Spec.from_request(await read_json(request))
        sid = await run_in_threadpool(searches.start, spec)
        return JSONResponse({"id": sid, **searches.get(sid).header})

    async def export_tree(request: Request) -> Response:
        doc = await read_json(request)
        fmt = str(doc.get("format", "")).lower().lstrip(".")
        if f".{fmt}" not in SUFFIXES:
            raise InputError(f"unknown tree format {fmt!r} (known: {', '.join(s[1:] for s in SUFFIXES)})")
        spec = Spec.from_request(doc)
        data = await run_in_threadpool(searches.export, spec, f".{fmt}")
        name = f"searchkit-tree-{spec.domain}-{spec.engine or 'default'}.{fmt}"
        return Response(
            data,
            media_type=MEDIA_TYPES.get(fmt, "application/octet-stream"),
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def stream(request: Request) -> Response:
        sid = request.path_params["sid"]
        run = searches.get(sid)
        run.streaming = True

        async def events() -> AsyncIterator[str]:
            try:
                while True:
                    message = run.next_message()
                    if message is None:
                        if await request.is_disconnected():
                            return
                        await asyncio.sleep(POLL_S)
                        continue
                    yield f"data: {json.dumps(message, separators=(',', ':'))}\n\n"
                    if "end" in message or "error" in message:
                        return
            finally:
                searches.forget(sid)

        return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    async def cancel_search(request: Request) -> Response:
        searches.forget(request.path_params["sid"])
        return JSONResponse({"cancelled": True})

    routes = [
        Route("/", index),
        Route("/api/info", guarded(info)),
        Route("/api/health", guarded(health)),
        Route("/api/games", guarded(new_game), methods=["POST"]),
        Route("/api/games/load", guarded(load), methods=["POST"]),
        Route("/api/games/open", guarded(open_file), methods=["POST"]),
        Route("/api/catalog/{game}", guarded(catalog)),
        Route("/api/games/{gid}", guarded(show_game)),
        Route("/api/games/{gid}", guarded(drop_game), methods=["DELETE"]),
        Route("/api/games/{gid}/move", guarded(move), methods=["POST"]),
        *(Route(f"/api/games/{{gid}}/{a}", guarded(action(a)), methods=["POST"]) for a in ("undo", "redo", "restart")),
        Route("/api/games/{gid}/hint", guarded(hint), methods=["POST"]),
        Route("/api/games/{gid}/solve", guarded(solve), methods=["POST"]),
        Route("/api/games/{gid}/replay", guarded(replay), methods=["POST"]),
        Route("/api/games/{gid}/picture", guarded(picture)),
        Route("/api/games/{gid}/picture", guarded(upload_picture), methods=["POST"]),
        Route("/api/games/{gid}/save", guarded(save)),
        Route("/api/searches", guarded(start_search), methods=["POST"]),
        Route("/api/searches/{sid}/events", guarded(stream)),
        Route("/api/searches/{sid}", guarded(cancel_search), methods=["DELETE"]),
        Route("/api/trees", guarded(export_tree), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        searches.close()  # the workers go with the server, however it is stopped
        store.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.searches = searches  # for tests and tools that look at the running workers
    app.state.games = store
    return app


def jsonable(value: Any) -> Any:
    return value if value is None or isinstance(value, (bool, int, float, str)) else str(value)


def plan_json(plan: Any) -> dict[str, Any]:
    return {
        "found": plan.found,
        "moves": plan.moves,
        "quality": plan.quality,
        "status": plan.status,
        "detail": plan.detail,
        "stats": plan.stats,
        "limit_s": games.SOLVE_TIMEOUT_S,  # a solve's time limit, for the page to name
    }
