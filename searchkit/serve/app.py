"""The ASGI app: the page (package data), a JSON API for games and a Server-Sent Events
stream for watched searches.  Bad input answers 4xx with ``{"error": "..."}``, never a
traceback; blocking work (solving, pictures, searches) runs off the event loop."""

from __future__ import annotations

import asyncio
import json
import re
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
from .searches import MAX_EXPANDED, MAX_STEPS, Pace, SearchStore, Spec, instance_label, offered, whole
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
FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)")


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def field_names(message: str) -> str:
    """A message written for the command line in the API's words: its options are fields,
    ``--level-file`` is ``level_file``."""
    return FLAG.sub(lambda m: m.group(1).replace("-", "_"), message)


def guarded(handler: Handler) -> Handler:
    """Turn the errors a user can cause into one-line JSON answers."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except InputError as e:
            return error(field_names(str(e)))
        except KeyError:
            return error("no such game or search (the server may have restarted): start a new one", 404)
        except Busy as e:
            return error(str(e), 429)
        except TooLarge as e:
            return error(str(e), 413)
        except Exception as e:  # a bug, not the user's doing: still one line, never a bare 500
            return error(f"the server failed ({type(e).__name__}): please report this", 500)

    return wrapped


class TooLarge(Exception):
    """A request body over its size limit."""


def size_text(n: int) -> str:
    return f"{n >> 20} MB" if n >= 1 << 20 else f"{n >> 10} KB"


async def read_body(request: Request, limit: int, what: str = "the file") -> bytes:
    """The request's body, refused (`TooLarge`, naming ``what`` and the limit) past ``limit``
    bytes without reading it all."""
    too_large = TooLarge(f"{what} is larger than {size_text(limit)}: too large to send")
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and (len(declared) > 18 or int(declared) > limit):
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object (an empty body is ``{}``); anything else an `InputError` or
    `TooLarge` saying what is wrong."""
    raw = await read_body(request, MAX_JSON, "the request")
    try:
        doc = json.loads(raw or b"{}")
    except UnicodeDecodeError:
        raise InputError("the request is not valid JSON: it is not UTF-8 text") from None
    except RecursionError:
        raise InputError("the request is not valid JSON: it is nested too deeply") from None
    except json.JSONDecodeError as e:
        raise InputError(f"the request is not valid JSON: {e.msg} at character {e.pos}") from None
    except ValueError:  # Python reads no integer of thousands of digits
        raise InputError("the request holds a number with too many digits") from None
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
        """One move, named by one of ``move`` (the game's own letter), ``cell`` (the square
        clicked) or ``direction`` (a key or a swipe); a move the rules refuse is ``moved: false``."""
        gid, entry = entry_of(request)
        doc = await read_json(request)
        given = [k for k in ("move", "cell", "direction") if doc.get(k) is not None]
        if len(given) != 1:
            raise InputError("name one move: move (a letter), cell (a square's number) or direction")
        cell, direction = doc.get("cell"), doc.get("direction")
        if "move" in given and not isinstance(doc["move"], str):
            raise InputError(f"move must be a string (got {doc['move']!r:.40})")
        if "cell" in given and (isinstance(cell, bool) or not isinstance(cell, int)):
            raise InputError(f"cell must be a whole number (got {cell!r:.40})")
        if "direction" in given and direction not in DIRECTIONS:
            raise InputError(f"direction must be one of {', '.join(DIRECTIONS)} (got {direction!r:.40})")
        with entry.lock:
            game = entry.game
            mv = doc.get("move")
            if cell is not None and hasattr(game, "move_for_cell"):
                mv = game.move_for_cell(cell)
            elif direction is not None and hasattr(game, "move_for_key"):
                mv = game.move_for_key(direction)
            moved = isinstance(mv, str) and game.play(mv)
        return answer(gid, entry, moved=moved)

    def action(name: str) -> Handler:
        async def act(request: Request) -> Response:
            gid, entry = entry_of(request)
            await read_json(request)  # none is needed: a body, if any, is still a JSON object
            with entry.lock:
                done = getattr(entry.game, name)()
            return answer(gid, entry, done=done is not False)

        return act

    async def hint(request: Request) -> Response:
        gid, entry = entry_of(request)
        await read_json(request)
        plan = await run_in_threadpool(store.plan, entry)
        with entry.lock:
            if plan.found:
                entry.game.hints += 1
        return answer(gid, entry, hint=plan.moves[0] if plan.moves else None, plan=plan_json(plan))

    async def solve(request: Request) -> Response:
        gid, entry = entry_of(request)
        await read_json(request)
        plan = await run_in_threadpool(store.plan, entry)
        return answer(gid, entry, plan=plan_json(plan))

    async def cancel_solve(request: Request) -> Response:
        """Stop the game's running hint or solve: it answers at once, not found, ``interrupted``."""
        gid, entry = entry_of(request)
        await read_json(request)
        return JSONResponse({"id": gid, "cancelled": store.cancel(entry)})

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
        """A watched search; ``rate``: as for `pace`, from its first event."""
        doc = await read_json(request)
        spec = Spec.from_request(doc)
        rate = Pace.rate_of(doc)
        sid = await run_in_threadpool(searches.start, spec, rate)
        return JSONResponse({"id": sid, **searches.get(sid).header})

    async def pace(request: Request) -> Response:
        """How fast a watched search goes: ``rate`` events a second (0: paused; null: full
        speed) and ``steps``, expansions let through while paused."""
        run = searches.get(request.path_params["sid"])
        doc = await read_json(request)
        if "rate" in doc:
            run.pace.set_rate(Pace.rate_of(doc))
        if "steps" in doc:
            run.pace.grant(whole(doc, "steps", 0, 1, MAX_STEPS))
        return JSONResponse({"rate": run.pace.rate(), "steps": run.pace.steps()})

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
        Route("/api/games/{gid}/cancel", guarded(cancel_solve), methods=["POST"]),
        Route("/api/games/{gid}/replay", guarded(replay), methods=["POST"]),
        Route("/api/games/{gid}/picture", guarded(picture)),
        Route("/api/games/{gid}/picture", guarded(upload_picture), methods=["POST"]),
        Route("/api/games/{gid}/save", guarded(save)),
        Route("/api/searches", guarded(start_search), methods=["POST"]),
        Route("/api/searches/{sid}/events", guarded(stream)),
        Route("/api/searches/{sid}/pace", guarded(pace), methods=["POST"]),
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
        "quality": plan.quality if plan.found else None,  # an unfinished search guarantees nothing
        "status": plan.status,
        "detail": plan.detail,
        "stats": plan.stats,
        "limit_s": games.SOLVE_TIMEOUT_S,  # a solve's time limit, for the page to name
    }
