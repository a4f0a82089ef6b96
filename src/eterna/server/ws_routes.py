"""The table WebSocket (`/ws/tables/{table_id}`) as an `APIRouter`: connection limits, the
seat's token, then frames read until the client leaves (docs/web-protocol.md). The socket's
route names the parts it uses (parts.py): the store, seating, the broadcaster, moves and the
turn driver (hints)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, WebSocket
from starlette.websockets import WebSocketDisconnect

from eterna.server.broadcast import Broadcaster
from eterna.server.driver import TurnDriver
from eterna.server.live import Connection, LiveTable
from eterna.server.moves import Moves
from eterna.server.parts import (
    CapsDep,
    ConnectsDep,
    DriverDep,
    FanoutDep,
    MovesDep,
    SeatingDep,
    SettingsDep,
    StoreDep,
)
from eterna.server.protocol import (
    ActFrame,
    FrameError,
    HintFrame,
    error_frame,
    parse_frame,
    pong_frame,
    refusal_frame,
)
from eterna.server.seating import Seating
from eterna.server.settings import Settings
from eterna.server.store import TableStore
from eterna.server.told import connection_lang, seat_names

log = logging.getLogger("eterna.server")
WS_CLOSE_TIMEOUT = 5.0
ATTACH_TRIES = 3  # a connection attached to a copy that left memory meanwhile tries again

router = APIRouter()


@dataclass(frozen=True)
class SocketParts:
    """The parts a table's socket uses (`socket_parts`: each one the route's dependency; all
    coroutine functions, which FastAPI calls on the loop, not in a worker thread)."""

    store: TableStore
    seating: Seating
    fanout: Broadcaster
    moves: Moves
    driver: TurnDriver
    settings: Settings


async def socket_parts(
    store: StoreDep,
    seating: SeatingDep,
    fanout: FanoutDep,
    moves: MovesDep,
    driver: DriverDep,
    settings: SettingsDep,
) -> SocketParts:
    return SocketParts(store, seating, fanout, moves, driver, settings)


# ---------------------------------------------------------------- WebSocket
@router.websocket("/ws/tables/{table_id}")
async def table_socket(
    ws: WebSocket,
    table_id: str,
    connects: ConnectsDep,
    caps: CapsDep,
    parts: Annotated[SocketParts, Depends(socket_parts)],
) -> None:
    await ws.accept()
    address = ws.client.host if ws.client else "?"
    if await connects.check(address) is not None:
        await ws.close(4429, "too many connections from this address: retry later")
        return
    full, ticket = await caps.admit(address, table_id)
    if full is not None:
        await ws.close(4429, f"too many open connections to this {full}: retry later")
        return
    try:
        await connect(ws, table_id, parts)
    finally:
        await caps.leave(ticket)


async def connect(ws: WebSocket, table_id: str, parts: SocketParts) -> None:
    """Check the table and the token (from its stored data: a wrong token never loads a
    table), then load the table and serve the connection."""
    store, seating = parts.store, parts.seating
    token = ws.query_params.get("token") or None
    try:
        data = await store.stored(table_id)
        if data is not None and token is not None and seating.seat_in(data, token) is None:
            data = await seating.fresh(table_id, data)  # joined through another node?
        if data is not None and token is not None and seating.seat_in(data, token) is None:
            await ws.close(4403, "this token holds no seat of this table")
            return
        table = None if data is None else await store.get(table_id)
    except Exception:
        log.exception("cannot load table %r", table_id)
        table = None
    if table is None:
        await ws.close(4404, "no such table")
        return
    seat = seating.seat_for(table, token) if token is not None else None
    if token is not None and seat is None:
        await ws.close(4403, "this token holds no seat of this table")
        return
    lang = connection_lang(ws.query_params.get("lang"), ws.headers.get("accept-language"))
    conn = Connection(ws, seat, token, parts.settings, lang)
    tasks: set[asyncio.Task[None]] = set()
    try:
        attached = await parts.seating.attach(table, conn)
        for _again in range(ATTACH_TRIES):  # the copy left memory meanwhile: the table again
            if attached is not None:
                break
            table = await store.get(table_id) or table
            attached = await parts.seating.attach(table, conn)
        if attached is None:
            conn.close(1013, "the table is being reloaded: reconnect")
        elif not attached:
            conn.close(4403, "this token holds no seat of this table")
        else:
            await serve_connection(parts, table, conn, tasks)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("table %s: connection failed", table.id)
    finally:
        for task in tasks:
            task.cancel()
        parts.fanout.detach(table, conn)
        conn.close(1000)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.flushed(), WS_CLOSE_TIMEOUT)
        await conn.finish()


async def serve_connection(
    parts: SocketParts, table: LiveTable, conn: Connection, tasks: set[asyncio.Task[None]]
) -> None:
    """Read frames until the client leaves; each refused one gets an error frame."""
    while not conn.closed:
        message = await conn.ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        if not conn.bucket.take():
            if conn.bucket.strikes >= parts.settings.flood_strikes:
                conn.close(1008, "too many frames")
                return
            conn.send_json(error_frame("rate_limited", "at most 20 frames a second", conn.lang))
            continue
        try:
            text = message.get("text")
            frame = parse_frame(text if text is not None else message.get("bytes"))
        except FrameError as exc:
            conn.send_json(error_frame(exc.code, exc.message, conn.lang))
            continue
        if isinstance(frame, ActFrame):
            if conn.seat is None:
                conn.send_json(error_frame("spectator", "spectators cannot play", conn.lang))
                continue
            refused = await parts.moves.submit(table, conn.seat, frame.action, frame.ply)
            if refused is not None:
                names = seat_names(table, conn.lang)
                conn.send_json(refusal_frame(refused, conn.lang, names))
        elif isinstance(frame, HintFrame):
            task = asyncio.create_task(parts.driver.hint(table, conn))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        else:
            conn.send_json(pong_frame())
