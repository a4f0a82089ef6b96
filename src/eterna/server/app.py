"""The FastAPI application: HTTP API, the table WebSocket, the client's pages and static files.

`create_app()` wires storage, the live tables (`tables.Hub`) and the routes of
docs/web-protocol.md. Nothing a client sends can raise out of a handler: bad input becomes a
`4xx` with `{"error": {"code", "message"}}` over HTTP, and an `error` frame over the WebSocket.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import json
import logging
import math
import os
from collections.abc import AsyncIterator, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from eterna.agents import agent_names
from eterna.core.errors import EternaError
from eterna.core.registry import game_ids, load_game
from eterna.server.protocol import (
    MAX_BODY,
    ActFrame,
    CreateTable,
    DuplicateKey,
    FrameError,
    HintFrame,
    JoinTable,
    RematchRequest,
    error_frame,
    no_duplicate_keys,
    parse_frame,
)
from eterna.server.security import AddressLimiter
from eterna.server.settings import Settings
from eterna.server.storage import Storage, TableData, sqlite_url
from eterna.server.tables import (
    Connection,
    Hub,
    LiveTable,
    RequestError,
    summary_of,
    table_record,
)

log = logging.getLogger("eterna.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
DEFAULT_DATA_DIR = Path("data")
PAGES = {
    "index": "index.html",
    "table": "table.html",
    "history": "history.html",
    "replay": "replay.html",
    "rules": "rules.html",
}
SUGGESTED_AGENTS = [
    "heuristic",
    "random",
    "ismcts",
    "ismcts:seconds=2",
]
NOT_FOUND_PAGE = (
    "<!doctype html><meta charset=utf-8><title>Not found · Eterna</title>"
    "<h1>Not found</h1><p>There is nothing here. <a href='/'>Back to the lobby</a>.</p>"
)
WS_CLOSE_TIMEOUT = 5.0
GC_THRESHOLD = 20_000  # allocations between young-generation collections (Python's default: 700)


def database_url_for(database_url: str | None, data_dir: str | Path | None) -> str:
    """The URL given, else SQLite in `data_dir` (default ./data), created if needed."""
    if database_url:
        return database_url
    folder = Path(data_dir) if data_dir is not None else DEFAULT_DATA_DIR
    folder.mkdir(parents=True, exist_ok=True)
    return sqlite_url(folder)


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


class BodyLimit:
    """Refuse request bodies over `limit` bytes with 413, before any route parses them."""

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        too_large = error_response(
            413, "too_large", f"a request body is at most {self.limit} bytes"
        )
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.limit + 1
                if declared > self.limit:
                    await too_large(scope, receive, send)
                    return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.limit:
                await too_large(scope, receive, send)
                return
            if not message.get("more_body"):
                break
        duplicate = _duplicate_keys(bytes(body))
        if duplicate is not None:
            await error_response(422, "duplicate_key", duplicate)(scope, receive, send)
            return
        replayed = False

        async def replay() -> MutableMapping[str, Any]:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"referrer-policy", b"no-referrer"),  # seat links carry tokens: never pass them on
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
]


def _duplicate_keys(body: bytes) -> str | None:
    """The message for a JSON body that names a key twice in one object, else None (a body
    that is not JSON is left to the route's own validation)."""
    try:
        json.loads(body, object_pairs_hook=no_duplicate_keys)
    except DuplicateKey as exc:
        return str(exc)
    except (ValueError, RecursionError):
        return None
    return None


class SecurityHeaders:
    """Every HTTP response gets SECURITY_HEADERS: a content security policy (scripts and styles
    from this server only, no framing), no referrer, no content sniffing."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


class PostRateLimit:
    """Each client address may send `rate` POST requests per second on average, in bursts of
    up to `burst` (a token bucket per address); more are refused with 429 and a Retry-After,
    before any route runs, so a client cannot flood the server with tables, joins or rematches.
    GET requests and WebSocket frames (limited per connection) pass. `rate` 0: no limit."""

    def __init__(self, app: Any, rate: float, burst: float) -> None:
        self.app = app
        self.limiter = AddressLimiter(rate, burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        wait = self.limiter.take(client[0] if client else "?")
        if wait is None:
            await self.app(scope, receive, send)
            return
        seconds = math.ceil(wait)
        limiter = self.limiter
        refused = error_response(
            429,
            "rate_limited",
            f"too many requests from this address: at most {limiter.rate:g} per second on "
            f"average (bursts of {limiter.burst:g}); retry in {seconds} s",
        )
        refused.headers["Retry-After"] = str(seconds)
        await refused(scope, receive, send)


def create_app(
    database_url: str | None = None,
    data_dir: str | Path | None = None,
    bot_delay: float | None = None,
    hint_iterations: int | None = None,
    web_dir: str | Path | None = None,
    settings: Settings | None = None,
    post_rate: float | None = None,
) -> FastAPI:
    """The web table's ASGI app. Storage opens (and migrates) when the app starts. Every
    default is `Settings`'s; the keyword arguments override single settings."""
    url = database_url_for(database_url, data_dir)
    settings = settings or Settings()
    given: dict[str, Any] = {
        "bot_delay": bot_delay,
        "hint_iterations": hint_iterations,
        "post_rate": post_rate,
    }
    settings = dataclasses.replace(settings, **{k: v for k, v in given.items() if v is not None})
    web = Path(web_dir) if web_dir is not None else WEB_DIR

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        game_ids()  # import every game now, not during the first request
        storage = await asyncio.to_thread(Storage, url)
        hub = Hub(storage, settings)
        app.state.hub = hub
        await hub.start()
        if settings.tune_gc:
            tune_gc()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(
        title="Eterna web table",
        lifespan=lifespan,
        docs_url=None,  # FastAPI's Swagger page loads its scripts from a CDN: not served
        redoc_url=None,
        openapi_url="/api/openapi.json" if settings.api_docs else None,
    )
    app.add_middleware(BodyLimit)
    app.add_middleware(PostRateLimit, rate=settings.post_rate, burst=settings.post_burst)
    app.add_middleware(SecurityHeaders)

    connects = AddressLimiter(settings.connect_rate, settings.connect_burst)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    # ---------------------------------------------------------------- errors
    @app.exception_handler(RequestError)
    async def _request_error(_request: Request, exc: RequestError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else "invalid request"
        return error_response(422, "bad_request", message[:300])

    @app.exception_handler(Exception)
    async def _server_error(_request: Request, exc: Exception) -> JSONResponse:
        log.error("request failed", exc_info=exc)
        return error_response(500, "server_error", "the server failed to answer this request")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed"}
        return error_response(exc.status_code, codes.get(exc.status_code, "error"), str(exc.detail))

    async def table_or_404(request: Request, table_id: str) -> LiveTable:
        table = await hub_of(request).get(table_id)
        if table is None:
            raise RequestError(404, "not_found", f"no table {table_id!r}")
        return table

    # ---------------------------------------------------------------- API
    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        out = []
        for game_id in game_ids():
            game = load_game(game_id)
            out.append(
                {
                    "id": game.id,
                    "name": game.name,
                    "min_players": game.min_players,
                    "max_players": game.max_players,
                    "options": game.options,
                    "option_info": {
                        name: {
                            "default": opt.default,
                            "doc": opt.doc,
                            "choices": list(opt.choices) if opt.choices else None,
                        }
                        for name, opt in game.declared_options.items()
                    },
                }
            )
        return out

    @app.get("/api/agents")
    async def agents() -> dict[str, list[str]]:
        return {"names": agent_names(), "suggested": SUGGESTED_AGENTS}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        address = request.client.host if request.client else "?"
        table, tokens = await hub_of(request).create(body, address)
        seats: list[dict[str, Any]] = []
        for seat in table.data.seats:
            if seat.kind == "human":
                token = tokens[seat.seat]
                seats.append(
                    {
                        "seat": seat.seat,
                        "kind": "human",
                        "name": seat.name,
                        "token": token,
                        "url": f"/table/{table.id}?token={token}",
                    }
                )
            else:
                seats.append(
                    {"seat": seat.seat, "kind": "bot", "agent": seat.agent, "name": seat.name}
                )
        return {"table_id": table.id, "spectator_url": f"/table/{table.id}", "seats": seats}

    @app.get("/api/tables")
    async def lobby(request: Request) -> list[dict[str, Any]]:
        return hub_of(request).lobby()

    @app.get("/api/tables/{table_id}")
    async def table_summary(table_id: str, request: Request) -> dict[str, Any]:
        summary = await hub_of(request).store.summary(table_id)
        if summary is None:
            raise RequestError(404, "not_found", f"no table {table_id!r}")
        return summary

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        table = await table_or_404(request, table_id)
        seat, token = await hub_of(request).join(table, body.name)
        return {"seat": seat, "token": token, "url": f"/table/{table.id}?token={token}"}

    @app.get("/api/history")
    async def history(
        request: Request,
        limit: int = Query(20, ge=1, le=100),
        offset: int = Query(0, ge=0, le=1_000_000),
    ) -> dict[str, Any]:
        hub = hub_of(request)
        total, rows = await hub.db(hub.storage.history, limit, offset)
        return {
            "total": total,
            "limit": limit,
            "offset": offset,
            "tables": [summary_of(data, plies, None, set()) for data, plies in rows],
        }

    async def finished(request: Request, table_id: str) -> TableData:
        """A finished table's stored data (never replayed for this). A private table's only
        for its players: `?token=` of one of its seats."""
        data = await hub_of(request).store.stored(table_id)
        if data is None:
            raise RequestError(404, "not_found", f"no table {table_id!r}")
        if data.status != "over":
            raise RequestError(409, "not_over", "the game is not over: its record is secret")
        if not data.public:
            token = request.query_params.get("token") or ""
            if hub_of(request).seat_in(data, token) is None:
                raise RequestError(403, "private", "a private table's record is for its players")
        return data

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request) -> JSONResponse:
        data = await finished(request, table_id)
        return JSONResponse(
            table_record(data),
            headers={"Content-Disposition": f'attachment; filename="eterna-{data.id}.json"'},
        )

    @app.get("/api/tables/{table_id}/replay/{ply}")
    async def replay(table_id: str, ply: int, request: Request) -> dict[str, Any]:
        data = await finished(request, table_id)
        plies = len(data.actions)
        if not 0 <= ply <= plies:
            raise RequestError(404, "not_found", f"ply must be from 0 to {plies}")
        view, seat, action = await hub_of(request).store.replay(replay_view, data, ply)
        return {"ply": ply, "plies": plies, "seat": seat, "action": action, "view": view}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: RematchRequest, request: Request) -> dict[str, Any]:
        table = await table_or_404(request, table_id)
        new_id, token = await hub_of(request).rematch(table, body.token)
        return {"table_id": new_id, "url": f"/table/{new_id}?token={token}"}

    # ---------------------------------------------------------------- WebSocket
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        if connects.take(ws.client.host if ws.client else "?") is not None:
            await ws.close(4429, "too many connections from this address: retry later")
            return
        hub = hub_of(ws)
        try:
            table = await hub.get(table_id)
        except Exception:
            log.exception("cannot load table %r", table_id)
            table = None
        if table is None:
            await ws.close(4404, "no such table")
            return
        token = ws.query_params.get("token") or None
        seat = hub.seat_for(table, token) if token is not None else None
        if token is not None and seat is None:
            await ws.close(4403, "this token holds no seat of this table")
            return
        conn = Connection(ws, seat, token, settings)
        tasks: set[asyncio.Task[None]] = set()
        try:
            if not await hub.attach(table, conn):
                conn.close(4403, "this token holds no seat of this table")
            else:
                await serve_connection(hub, table, conn, tasks)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("table %s: connection failed", table.id)
        finally:
            for task in tasks:
                task.cancel()
            hub.detach(table, conn)
            conn.close(1000)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(conn.writer), WS_CLOSE_TIMEOUT)
            await conn.finish()

    async def serve_connection(
        hub: Hub, table: LiveTable, conn: Connection, tasks: set[asyncio.Task[None]]
    ) -> None:
        """Read frames until the client leaves; each refused one gets an error frame."""
        while not conn.closed:
            message = await conn.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            if not conn.bucket.take():
                if conn.bucket.strikes >= settings.flood_strikes:
                    conn.close(1008, "too many frames")
                    return
                conn.send_json(error_frame("rate_limited", "at most 20 frames a second"))
                continue
            try:
                text = message.get("text")
                frame = parse_frame(text if text is not None else message.get("bytes"))
            except FrameError as exc:
                conn.send_json(error_frame(exc.code, exc.message))
                continue
            if isinstance(frame, ActFrame):
                if conn.seat is None:
                    conn.send_json(error_frame("spectator", "spectators cannot play"))
                    continue
                refused = await hub.submit(table, conn.seat, frame.action, frame.ply)
                if refused is not None:
                    conn.send_json(error_frame(*refused))
            elif isinstance(frame, HintFrame):
                task = asyncio.create_task(hub.hint(table, conn))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            else:
                conn.send_json({"type": "pong"})

    # ---------------------------------------------------------------- pages
    def page(name: str) -> Response:
        path = web / PAGES[name]
        if path.is_file():
            return FileResponse(path, media_type="text/html")
        return HTMLResponse(NOT_FOUND_PAGE, status_code=404)

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index_page() -> Response:
        return page("index")

    @app.api_route("/table/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return page("table")

    @app.api_route("/history", methods=["GET", "HEAD"], include_in_schema=False)
    async def history_page() -> Response:
        return page("history")

    @app.api_route("/replay/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def replay_page(table_id: str) -> Response:
        return page("replay")

    @app.api_route("/rules/{game_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def rules_page(game_id: str) -> Response:
        if game_id not in game_ids():
            return HTMLResponse(NOT_FOUND_PAGE, status_code=404)
        return page("rules")

    app.mount("/static", StaticFiles(directory=web / "static", check_dir=False), name="static")
    return app


def tune_gc() -> None:
    """Keep the cyclic garbage collector out of the way of moves.

    Everything loaded at startup (modules, the games' card tables, resumed tables) lives as
    long as the server: `gc.freeze()` stops rescanning it. A move allocates many short-lived
    containers (views) that reference counting frees at once; a higher first threshold runs the
    young-generation pass less often. Measured under 200 games: full collections had paused the
    loop for up to half a second.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, 20, 20)


def replay_view(data: TableData, ply: int) -> tuple[dict[str, Any], int | None, str | None]:
    """The spectator view after `ply` actions of a finished table, with the action that led
    there and its seat (None at ply 0)."""
    state = load_game(data.game).new_game(
        players=data.players,
        seed=data.seed,
        options=data.options,
        setup=data.setup,
    )
    for _seat, notation in data.actions[:ply]:
        state.apply(notation)
    if ply == 0:
        return state.view(None), None, None
    seat, notation = data.actions[ply - 1]
    return state.view(None), seat, notation


def app_from_env() -> FastAPI:
    """`uvicorn --factory eterna.server.app:app_from_env`: settings from ETERNA_* variables."""
    try:
        return create_app(
            database_url=os.environ.get("ETERNA_DATABASE_URL") or None,
            data_dir=os.environ.get("ETERNA_DATA_DIR") or None,
            bot_delay=float(os.environ.get("ETERNA_BOT_DELAY", str(Settings.bot_delay))),
        )
    except (ValueError, EternaError) as exc:
        raise SystemExit(f"Error: {exc}") from None


__all__ = ["app_from_env", "create_app"]
