"""The HTTP API of docs/web-protocol.md, as an `APIRouter`: games and agents, creating, joining
and reading tables, history, records, replays and rematches. Each route names the parts it uses
(`StoreDep`, `SeatingDep`, `TablesDep`, ...: parts.py). Refusals are `RequestError`s (app.py turns
them into JSON)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response

from eterna.agents import agent_names
from eterna.core.registry import game_ids, load_game
from eterna.i18n import LANGS, catalog, negotiate
from eterna.server.live import LiveTable, summary_of
from eterna.server.lobby_words import missions, option_words
from eterna.server.parts import DatabaseDep, HealthDep, SeatingDep, StoreDep, TablesDep
from eterna.server.protocol import CreateTable, FillSeat, JoinTable, RematchRequest
from eterna.server.replays import moves_json, replay_json
from eterna.server.settings import RequestError
from eterna.server.storage import TableData
from eterna.server.store import TableStore

SUGGESTED_AGENTS = [
    "heuristic",
    "random",
    "ismcts",
    "ismcts:seconds=2",
    "learned",
]

router = APIRouter()


async def table_or_404(table_id: str, store: TableStore) -> LiveTable:
    table = await store.get(table_id)
    if table is None:
        raise RequestError(404, "not_found", f"no table {table_id!r}")
    return table


# ---------------------------------------------------------------- API
@router.get("/api/health", response_model=None)
async def health(checked: HealthDep) -> dict[str, Any] | JSONResponse:
    """Whether this node can play: its database answers, and its cluster's Redis when it has
    one ("off" without). 503 names the part that is down (a proxy stops sending it players)."""
    parts = await checked.check()
    body = {"ok": "down" not in parts.values(), "node": checked.node} | parts
    return body if body["ok"] else JSONResponse(body, status_code=503)


@router.get("/api/cluster")
async def cluster_hearing(checked: HealthDep) -> dict[str, Any]:
    """What this cluster node hears (docs/web.md, "Fan-out over Redis"): how many tables'
    channels, and the messages heard by kind; 404 on a single server."""
    hearing = checked.hearing()
    if hearing is None:
        raise RequestError(404, "not_found", "this server is not a cluster node")
    return hearing


@router.get("/api/games")
async def games(
    request: Request, lang: str | None = Query(None, max_length=16)
) -> list[dict[str, Any]]:
    """The games and their options; `label`, `help`, `choice_labels` and `missions` are in
    `lang` (else the Accept-Language header's language)."""
    words = catalog(words_lang(request, lang))
    out = []
    for game_id in game_ids():
        game = load_game(game_id)
        said = option_words(game, words)
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
                        "items": list(opt.items) if opt.items else None,
                        **said[name],
                    }
                    for name, opt in game.declared_options.items()
                },
                "missions": missions(game, words),
            }
        )
    return out


@router.get("/api/agents")
async def agents() -> dict[str, list[str]]:
    return {"names": agent_names(), "suggested": SUGGESTED_AGENTS}


@router.post("/api/tables", status_code=201)
async def create_table(body: CreateTable, request: Request, tables: TablesDep) -> dict[str, Any]:
    address = request.client.host if request.client else "?"
    table, tokens = await tables.create(body, address)
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
            seats.append({"seat": seat.seat, "kind": "bot", "agent": seat.agent, "name": seat.name})
    return {"table_id": table.id, "spectator_url": f"/table/{table.id}", "seats": seats}


@router.get("/api/tables")
async def lobby(tables: TablesDep) -> list[dict[str, Any]]:
    return await tables.lobby()


@router.get("/api/tables/{table_id}")
async def table_summary(table_id: str, store: StoreDep) -> dict[str, Any]:
    summary = await store.summary(table_id)
    if summary is None:
        raise RequestError(404, "not_found", f"no table {table_id!r}")
    return summary


async def stored_or_404(table_id: str, store: TableStore) -> TableData:
    data = await store.stored(table_id)
    if data is None:
        raise RequestError(404, "not_found", f"no table {table_id!r}")
    return data


# A join, fill or rematch that its stored data refuses is refused from that data alone: a
# finished table is never loaded (replayed into memory) for a request that changes nothing.


@router.post("/api/tables/{table_id}/join")
async def join(
    table_id: str, body: JoinTable, store: StoreDep, seating: SeatingDep
) -> dict[str, Any]:
    data = await stored_or_404(table_id, store)
    if not data.public:
        raise RequestError(403, "private", "this table is not open to the lobby")
    if data.status == "over":
        raise RequestError(409, "game_over", "the game is over")
    table = await table_or_404(table_id, store)
    seat, token = await seating.join(table, body.name)
    return {"seat": seat, "token": token, "url": f"/table/{table.id}?token={token}"}


@router.post("/api/tables/{table_id}/fill")
async def fill(
    table_id: str, body: FillSeat, store: StoreDep, seating: SeatingDep
) -> dict[str, Any]:
    """The host (the first human seat's token) gives an untaken human seat to a bot."""
    data = await stored_or_404(table_id, store)
    host = seating.host_seat(data)
    if host is None or seating.seat_in(data, body.token) != host:
        raise RequestError(403, "not_host", "only the table's host can fill a seat")
    if data.status == "over":
        raise RequestError(409, "game_over", "the game is over")
    table = await table_or_404(table_id, store)
    await seating.fill(table, body.token, body.seat, body.agent)
    return table.summary()


@router.get("/api/history")
async def history(
    database: DatabaseDep,
    limit: int = Query(20, ge=1, le=100),
    offset: int = Query(0, ge=0, le=1_000_000),
) -> dict[str, Any]:
    total, rows = await database.run(database.storage.history, limit, offset)
    return {
        "total": total,
        "limit": limit,
        "offset": offset,
        "tables": [summary_of(data, plies, None, set()) for data, plies in rows],
    }


async def finished(
    table_id: str, store: StoreDep, seating: SeatingDep, token: str | None = None
) -> TableData:
    """A finished table's stored data (never replayed for this). A private table's only
    for its players: `?token=` of one of its seats."""
    data = await store.stored(table_id)
    if data is None:
        raise RequestError(404, "not_found", f"no table {table_id!r}")
    if data.status != "over":
        raise RequestError(409, "not_over", "the game is not over: its record is secret")
    if not data.public and seating.seat_in(data, token or "") is None:
        raise RequestError(403, "private", "a private table's record is for its players")
    return data


FinishedDep = Annotated[TableData, Depends(finished)]


@router.get("/api/tables/{table_id}/record")
async def record(data: FinishedDep, store: StoreDep) -> Response:
    """The record, encoded off the loop once and then served from the finished tables' cache."""
    return Response(
        await store.record(data),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="eterna-{data.id}.json"'},
    )


def words_lang(request: Request, lang: str | None) -> str:
    """The language of a response's words: `?lang=`, else the Accept-Language header's."""
    return lang if lang in LANGS else negotiate(request.headers.get("accept-language"))


@router.get("/api/tables/{table_id}/replay")
async def replay_moves(
    data: FinishedDep,
    store: StoreDep,
    request: Request,
    lang: str | None = Query(None, max_length=16),
) -> Response:
    """A finished game's move list, each ply's label in the page's language."""
    body = await store.replay(moves_json, data, words_lang(request, lang))
    return Response(body, media_type="application/json")


@router.get("/api/tables/{table_id}/replay/{ply}")
async def replay(
    data: FinishedDep,
    ply: int,
    store: StoreDep,
    request: Request,
    lang: str | None = Query(None, max_length=16),
) -> Response:
    """A step of a finished game (every hand shown): replayed and encoded in the replay
    thread."""
    plies = len(data.actions)
    if not 0 <= ply <= plies:
        raise RequestError(404, "not_found", f"ply must be from 0 to {plies}")
    body = await store.replay(replay_json, data, ply, words_lang(request, lang))
    return Response(body, media_type="application/json")


@router.post("/api/tables/{table_id}/rematch")
async def rematch(
    table_id: str, body: RematchRequest, store: StoreDep, seating: SeatingDep, tables: TablesDep
) -> dict[str, Any]:
    data = await stored_or_404(table_id, store)
    if seating.seat_in(data, body.token) is None:
        raise RequestError(403, "bad_token", "this token holds no seat of this table")
    if data.status != "over":
        raise RequestError(409, "not_over", "the game is not over yet")
    table = await table_or_404(table_id, store)
    new_id, token = await tables.rematch(table, body.token)
    return {"table_id": new_id, "url": f"/table/{new_id}?token={token}"}
