"""Positions on the web (docs/web-protocol.md, "Positions"): a seat's position of a live table,
a finished table's whole position at any ply, and posted positions inspected, hinted and
played on against bots.

Every game goes through the position contract only (`to_position`, `from_position`). A posted
position is at most `MAX_POSITION` characters; a malformed, impossible or too costly one is
refused with 400 `bad_position` naming its `field`, a game without a format with 422
`no_position`. The quota of each route is taken before any work. Parsing, loading, guessing and
writing positions run in the positions lane's worker processes (position_work.py: memory and
time caps), searching in the search workers: never on the event loop or a thread of the server.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from eterna.core.errors import EternaError
from eterna.server.api_routes import finished, words_lang
from eterna.server.limits import check_options
from eterna.server.parts import (
    QuotasDep,
    SeatingDep,
    SettingsDep,
    StoreDep,
    TablesDep,
    WorkersDep,
)
from eterna.server.position_work import (
    bounded,
    finished_task,
    hint_task,
    inspect_task,
    names_of,
    play_task,
    seat_task,
)
from eterna.server.protocol import PlayPosition, PositionRequest, move_items
from eterna.server.seating import Seating
from eterna.server.settings import RequestError, Settings
from eterna.server.store import TableStore
from eterna.server.workers import BudgetExceeded, LaneBusy, Workers

log = logging.getLogger("eterna.server")
router = APIRouter()
Lang = Annotated[str | None, Query(max_length=16)]


def address_of(request: Request) -> str:
    return request.client.host if request.client else "?"


@dataclass(frozen=True)
class PositionLane:
    """The worker processes that run positions, with the server's budgets for them."""

    workers: Workers
    settings: Settings


async def position_lane(workers: WorkersDep, settings: SettingsDep) -> PositionLane:
    return PositionLane(workers, settings)


LaneDep = Annotated[PositionLane, Depends(position_lane)]


async def in_worker(lane: PositionLane, key: str, fn: Callable[..., Any], *args: Any) -> Any:
    """A task of position_work.py in the positions lane: past its caps a 400 `bad_position`
    (the position costs more than any game needs), behind a long queue a 503."""
    try:
        return await lane.workers.position(key, lane.settings.position_seconds, fn, *args)
    except LaneBusy:
        raise RequestError(503, "server_busy", "too many positions at once; try again") from None
    except BudgetExceeded:
        raise RequestError(
            400,
            "bad_position",
            "the position costs more time or memory than the server gives one",
            "",
        ) from None


@router.post("/api/positions/inspect")
async def inspect(
    body: PositionRequest, request: Request, lane: LaneDep, quotas: QuotasDep, lang: Lang = None
) -> dict[str, Any]:
    """A posted position, checked and described for the page (at most `position_inspects`
    per address and window)."""
    address = address_of(request)
    await quotas.inspects.check(address)
    result: dict[str, Any] = await in_worker(
        lane, f"position:{address}", inspect_task, body.position, words_lang(request, lang)
    )
    return result


@router.post("/api/positions/hint")
async def hint(
    body: PositionRequest, request: Request, lane: LaneDep, quotas: QuotasDep, lang: Lang = None
) -> dict[str, Any]:
    """The ISMCTS's advice to the position's seat (a whole position: the seat to move), in a
    search worker within `hint_seconds`, at most `position_hints` per address and window."""
    address = address_of(request)
    await quotas.hints.check(address)
    key = f"position:{address}"
    state, mover = await in_worker(lane, key, hint_task, body.position)
    settings = lane.settings
    iterations = settings.hint_iterations
    try:
        candidates = await lane.workers.hint(
            key,
            settings.hint_seconds,
            state,
            mover,
            iterations,
            random.SystemRandom().getrandbits(32),
        )
    except BudgetExceeded:
        raise RequestError(503, "server_busy", "the hint took too long; try again") from None
    except (EternaError, LookupError, ValueError, TypeError, MemoryError) as exc:
        # a position the search cannot follow is refused, never answered with a 500
        log.warning("a hint on a posted position failed: %s", bounded(repr(exc)))
        raise RequestError(
            400, "bad_position", bounded(f"the position cannot be searched: {exc}"), ""
        ) from None
    said = words_lang(request, lang)
    items = move_items(
        state.game.id, [c["action"] for c in candidates], said, names_of(state, said)
    )
    labelled = [c | {"label": i["label"]} for c, i in zip(candidates, items, strict=True)]
    return {"seat": mover, "iterations": iterations, "candidates": labelled}


@router.post("/api/positions/play", status_code=201)
async def play(
    body: PlayPosition, request: Request, lane: LaneDep, tables: TablesDep, quotas: QuotasDep
) -> dict[str, Any]:
    """A private table that plays on from the position, the caller at its seat (a whole
    position: the seat to move), bots at the others. From a seat's position, one guess of
    what it cannot see is drawn first and its whole position loaded (`guess`: true). The
    position's options pass the bounds of `POST /api/tables`; the table quota is taken first."""
    address = address_of(request)
    await tables.check_room()
    await quotas.tables.check(address)
    state, whole, seat, guess = await in_worker(
        lane, f"position:{address}", play_task, body.position
    )
    check_options(state.game.id, dict(whole.get("options") or {}))
    table, token = await tables.create_from_position(state, whole, seat, body)
    return {
        "table_id": table.id,
        "seat": seat,
        "token": token,
        "url": f"/table/{table.id}?token={token}",
        "guess": guess,
    }


@router.get("/api/tables/{table_id}/position")
async def table_position(
    table_id: str,
    store: StoreDep,
    seating: SeatingDep,
    lane: LaneDep,
    token: Annotated[str | None, Query(max_length=64)] = None,
    at: Annotated[int | None, Query(ge=0, le=1_000_000)] = None,
) -> dict[str, Any]:
    """A live table: the seat's own position now (`?token=` of that seat), never more. A
    finished table: the whole position after `?at=` plies (default: the end), to whoever may
    see its replay (every hand is shown there once the game is over)."""
    data = await store.stored(table_id)
    if data is None:
        raise RequestError(404, "not_found", f"no table {table_id!r}")
    if data.status == "over":
        data = await finished(table_id, store, seating, token)
        plies = len(data.actions)
        ply = plies if at is None else at
        if ply > plies:
            raise RequestError(404, "not_found", f"ply must be from 0 to {plies}")
        whole, code = await in_worker(lane, f"table:{table_id}", finished_task, data, ply)
        return {"ply": ply, "seat": None, "position": whole, "code": code}
    return await live_position(store, seating, lane, table_id, token, at)


async def live_position(
    store: TableStore,
    seating: Seating,
    lane: PositionLane,
    table_id: str,
    token: str | None,
    at: int | None,
) -> dict[str, Any]:
    if at is not None:
        raise RequestError(409, "not_over", "a live table gives its seat's position now only")
    table = await store.get(table_id)
    if table is None:
        raise RequestError(404, "not_found", f"no table {table_id!r}")
    seat = seating.seat_for(table, token or "")
    if seat is None:
        raise RequestError(403, "bad_token", "a live table's position is for its seated players")
    ply = table.ply
    mine, code = await in_worker(lane, f"table:{table_id}", seat_task, table.state.clone(), seat)
    return {"ply": ply, "seat": seat, "position": mine, "code": code}
