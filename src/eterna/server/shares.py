"""Short share codes (docs/web-protocol.md, "Positions"): a position stored under a short id,
as lichess stores its analysis links, so that a link reads `/position/<id>` instead of a
self-contained code of several hundred characters. The self-contained code stays: it works
without the server's database.

`POST /api/positions/share` checks the position as `inspect` does (400 `bad_position` naming
its field), stores its share code (at most `MAX_POSITION` characters) with the players' names
to show with it, and answers the short id; the id is the hash of what is stored, so sharing
the same position and names again gives the same id and stores nothing more. New shares count
against a quota per client address (the table quota's numbers, `tables_per_address` per
`address_window`). `GET /api/positions/shared/{id}` gives them back; `/position/<id>` and
`/position#s.<id>` open the position page on one."""

from __future__ import annotations

import base64
import hashlib
import time
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import Field
from sqlalchemy.exc import IntegrityError

from eterna.server.page_routes import page
from eterna.server.parts import DatabaseDep, QuotasDep
from eterna.server.position_routes import LaneDep, address_of, in_worker
from eterna.server.position_work import share_task
from eterna.server.protocol import MAX_POSITION, Name, PositionText, Strict
from eterna.server.rows import SharedPositionRow
from eterna.server.settings import RequestError
from eterna.server.storage import Storage

SHARE_ID_LENGTH = 8  # 48 bits of the content's hash; 12 should two contents ever meet
MAX_SEATS = 16

router = APIRouter()


class SharePosition(Strict):
    """A position to share (its JSON text or its share code) and the seats' names to show."""

    position: PositionText
    names: Annotated[list[Name], Field(max_length=MAX_SEATS)] | None = None


def share_id(code: str, names: list[str] | None, length: int = SHARE_ID_LENGTH) -> str:
    digest = hashlib.sha256(f"{code}\n{names!r}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:length]


def store_share(storage: Storage, code: str, game: str, names: list[str] | None) -> str:
    """The short id of (code, names), stored unless it already is (in the database thread)."""
    for length in (SHARE_ID_LENGTH, SHARE_ID_LENGTH + 4):
        sid = share_id(code, names, length)
        with storage.session() as s:
            row = s.get(SharedPositionRow, sid)
            if row is not None:
                if row.code == code and row.names == names:
                    return sid
                continue  # another content under this id: a longer one
        try:
            with storage.session() as s:
                s.add(
                    SharedPositionRow(
                        id=sid, game=game, code=code, names=names, created_at=time.time()
                    )
                )
        except IntegrityError:  # the same share stored at the same moment
            continue
        return sid
    raise RequestError(409, "share_conflict", "this position could not get a short id; retry")


def load_share(storage: Storage, sid: str) -> dict[str, Any] | None:
    with storage.session() as s:
        row = s.get(SharedPositionRow, sid)
        if row is None:
            return None
        return {"id": row.id, "game": row.game, "code": row.code, "names": row.names}


@router.post("/api/positions/share", status_code=201)
async def share(
    body: SharePosition,
    request: Request,
    lane: LaneDep,
    database: DatabaseDep,
    quotas: QuotasDep,
) -> dict[str, Any]:
    address = address_of(request)
    await quotas.shares.check(address)  # before any work (a refused share counts too)
    game, players, code = await in_worker(lane, f"position:{address}", share_task, body.position)
    names = body.names
    if names is not None and len(names) != players:
        raise RequestError(400, "bad_names", f"names must name the position's {players} seats")
    if len(code) > MAX_POSITION:
        raise RequestError(
            413, "too_large", f"a shared position is at most {MAX_POSITION} characters"
        )
    sid = await database.run(store_share, database.storage, code, game, names)
    return {"id": sid, "url": f"/position/{sid}", "code": code, "names": names}


@router.get("/api/positions/shared/{share_id}")
async def shared(share_id: str, database: DatabaseDep) -> dict[str, Any]:
    if not 1 <= len(share_id) <= 16:
        raise RequestError(404, "no_share", f"no shared position {share_id!r}")
    found = await database.run(load_share, database.storage, share_id)
    if found is None:
        raise RequestError(404, "no_share", f"no shared position {share_id!r}")
    return found


@router.api_route("/position/{share_id}", methods=["GET", "HEAD"], include_in_schema=False)
async def shared_page(request: Request, share_id: str) -> Response:
    """The position page on a shared position (its script reads the id from the path)."""
    return page(request, "position")
