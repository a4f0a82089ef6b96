"""Positions on the web (docs/web-protocol.md, "Positions"): a seat's position of a live table,
a finished table's whole position at any ply, and posted positions inspected, hinted and
played on against bots.

Every game goes through the position contract only (`to_position`, `from_position`). A posted
position is at most `MAX_POSITION` characters; a malformed or impossible one is refused with
400 `bad_position` naming its `field`, a game without a format with 422 `no_position`. Loading
runs in the replay thread and searching in the search workers, never on the event loop.
"""

from __future__ import annotations

import random
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from eterna.core.errors import BadPosition, EternaError
from eterna.core.game import GameState
from eterna.core.position import parse, share_code
from eterna.core.registry import load_game
from eterna.i18n import catalog
from eterna.server.api_routes import HubDep, finished, words_lang
from eterna.server.live import start_state
from eterna.server.protocol import PlayPosition, PositionRequest, move_items
from eterna.server.settings import RequestError
from eterna.server.storage import TableData
from eterna.server.tables import Hub
from eterna.server.workers import BudgetExceeded

router = APIRouter()
Lang = Annotated[str | None, Query(max_length=16)]


def load(text: str) -> tuple[GameState, dict[str, Any]]:
    """The state a posted position describes, and the position (in the replay thread)."""
    try:
        position = parse(text)
        if not isinstance(position, dict) or not isinstance(position.get("game"), str):
            raise BadPosition("a position is a JSON object with a 'game' id", field="game")
        try:
            game = load_game(position["game"])
        except EternaError as exc:
            raise BadPosition(f"position game: {exc}", field="game") from None
        return game.from_position(position), position
    except BadPosition as exc:
        raise RequestError(400, "bad_position", str(exc), exc.field) from None
    except EternaError as exc:  # a game without a position format (yet)
        raise RequestError(422, "no_position", str(exc)) from None


def whole_position(state: GameState) -> dict[str, Any]:
    try:
        return state.to_position()
    except EternaError as exc:
        raise RequestError(422, "no_position", str(exc)) from None


def names_of(state: GameState, lang: str) -> list[str]:
    """The seats as the page names them ("Seat 1" for seat 0)."""
    words = catalog(lang)
    return [words.text("common.seat", n=seat + 1) for seat in range(state.players)]


def described(state: GameState, position: dict[str, Any], lang: str) -> dict[str, Any]:
    """What the position page draws: the view of the position's seat (a whole position: the
    spectator's, and every seat's own in `views`), the legal moves in words when that seat (a
    whole position: anyone) is to move, and the share code."""
    seat = position.get("seat")
    names = names_of(state, lang)
    to_move = state.current_player
    moves = None
    if seat in (None, to_move) and not state.is_terminal:
        moves = move_items(state.game.id, state.legal_actions(), lang, names)
    views = None if seat is not None else [state.view(s) for s in range(state.players)]
    return {
        "game": state.game.id,
        "name": state.game.name,
        "players": state.players,
        "options": position.get("options") or {},
        "seat": seat,
        "guess": seat is not None,
        "to_move": to_move,
        "over": state.is_terminal,
        "scores": state.scores,
        "names": names,
        "view": state.view(seat),
        "views": views,
        "moves": moves,
        "code": share_code(position),
    }


def inspect_text(text: str, lang: str) -> dict[str, Any]:
    state, position = load(text)
    return described(state, position, lang)


def address_of(request: Request) -> str:
    return request.client.host if request.client else "?"


@router.post("/api/positions/inspect")
async def inspect(
    body: PositionRequest, request: Request, hub: HubDep, lang: Lang = None
) -> dict[str, Any]:
    """A posted position, checked and described for the page."""
    result: dict[str, Any] = await hub.store.replay(
        inspect_text, body.position, words_lang(request, lang)
    )
    return result


@router.post("/api/positions/hint")
async def hint(
    body: PositionRequest, request: Request, hub: HubDep, lang: Lang = None
) -> dict[str, Any]:
    """The ISMCTS's advice to the position's seat (a whole position: the seat to move), in a
    search worker within `hint_seconds`, at most `position_hints` per address and window."""
    state, position = await hub.store.replay(load, body.position)
    if state.is_terminal:
        raise RequestError(409, "game_over", "the game of this position is over")
    seat = position.get("seat")
    mover = state.current_player
    if seat is not None and mover != seat:
        raise RequestError(409, "not_your_turn", f"it is seat {mover}'s turn, not seat {seat}'s")
    assert mover is not None
    address = address_of(request)
    hub.position_hints.take(address)
    iterations = hub.settings.hint_iterations
    try:
        candidates = await hub.workers.hint(
            f"position:{address}",
            hub.settings.hint_seconds,
            state,
            mover,
            iterations,
            random.SystemRandom().getrandbits(32),
        )
    except BudgetExceeded:
        raise RequestError(503, "server_busy", "the hint took too long; try again") from None
    said = words_lang(request, lang)
    items = move_items(
        state.game.id, [c["action"] for c in candidates], said, names_of(state, said)
    )
    labelled = [c | {"label": i["label"]} for c, i in zip(candidates, items, strict=True)]
    return {"seat": mover, "iterations": iterations, "candidates": labelled}


@router.post("/api/positions/play", status_code=201)
async def play(body: PlayPosition, request: Request, hub: HubDep) -> dict[str, Any]:
    """A private table that plays on from the position, the caller at its seat (a whole
    position: the seat to move), bots at the others. From a seat's position, one guess of
    what it cannot see is drawn first and its whole position loaded (`guess`: true)."""
    state, position = await hub.store.replay(load, body.position)
    if state.is_terminal:
        raise RequestError(409, "game_over", "the game of this position is over")
    seat = position.get("seat")
    seat = state.current_player if seat is None else seat
    assert seat is not None
    whole = whole_position(state)
    state = await hub.store.replay(state.game.from_position, whole)
    table, token = await hub.create_from_position(state, whole, seat, body, address_of(request))
    return {
        "table_id": table.id,
        "seat": seat,
        "token": token,
        "url": f"/table/{table.id}?token={token}",
        "guess": position.get("seat") is not None,
    }


def position_at(data: TableData, ply: int) -> dict[str, Any]:
    """A finished table's whole position after `ply` actions (in the replay thread)."""
    state = start_state(data)
    for _seat, notation in data.actions[:ply]:
        state.apply(notation)
    return whole_position(state)


@router.get("/api/tables/{table_id}/position")
async def table_position(
    table_id: str,
    hub: HubDep,
    token: Annotated[str | None, Query(max_length=64)] = None,
    at: Annotated[int | None, Query(ge=0, le=1_000_000)] = None,
) -> dict[str, Any]:
    """A live table: the seat's own position now (`?token=` of that seat), never more. A
    finished table: the whole position after `?at=` plies (default: the end), to whoever may
    see its replay (every hand is shown there once the game is over)."""
    data = await hub.store.stored(table_id)
    if data is None:
        raise RequestError(404, "not_found", f"no table {table_id!r}")
    if data.status == "over":
        data = await finished(table_id, hub, token)
        plies = len(data.actions)
        ply = plies if at is None else at
        if ply > plies:
            raise RequestError(404, "not_found", f"ply must be from 0 to {plies}")
        whole: dict[str, Any] = await hub.store.replay(position_at, data, ply)
        return {"ply": ply, "seat": None, "position": whole, "code": share_code(whole)}
    return await live_position(hub, table_id, token, at)


async def live_position(
    hub: Hub, table_id: str, token: str | None, at: int | None
) -> dict[str, Any]:
    if at is not None:
        raise RequestError(409, "not_over", "a live table gives its seat's position now only")
    table = await hub.get(table_id)
    if table is None:
        raise RequestError(404, "not_found", f"no table {table_id!r}")
    seat = hub.seating.seat_for(table, token or "")
    if seat is None:
        raise RequestError(403, "bad_token", "a live table's position is for its seated players")
    try:
        mine = table.state.to_position(seat)
    except EternaError as exc:
        raise RequestError(422, "no_position", str(exc)) from None
    return {"ply": table.ply, "seat": seat, "position": mine, "code": share_code(mine)}
