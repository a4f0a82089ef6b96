"""The games a browser played (docs/web-protocol.md, `POST /api/history/mine`): the lobby page
remembers each table it created or joined with its seat's token (mytables.js); History asks
for those tables' summaries, private ones included, and learns for each whether the token it
holds still opens the replay. Nothing is told of a table that the id alone would not tell
(`GET /api/tables/{id}` gives the same summary); only whether the replay opens depends on
the token."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import Field

from eterna.server.live import summary_of
from eterna.server.parts import SeatingDep, StoreDep
from eterna.server.protocol import Strict
from eterna.server.rows import TABLE_ID_LENGTH

MAX_MINE = 30  # the tables a browser remembers (mytables.js, KEEP)

router = APIRouter()


class MyTable(Strict):
    table_id: Annotated[str, Field(min_length=1, max_length=TABLE_ID_LENGTH)]
    token: Annotated[str, Field(min_length=1, max_length=64)] | None = None


class MyTables(Strict):
    tables: Annotated[list[MyTable], Field(max_length=MAX_MINE)]


@router.post("/api/history/mine")
async def my_history(body: MyTables, store: StoreDep, seating: SeatingDep) -> dict[str, Any]:
    """The finished tables among `tables`, latest first, each a summary with `seat` (the seat
    its token holds, None without one or once the token expired) and `replay`: `"open"` (a
    public table, or a private one whose token holds a seat), `"private"` (a private table
    without such a token: its replay is for its players). Unknown and unfinished tables are
    left out."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for mine in body.tables:
        if mine.table_id in seen:
            continue
        seen.add(mine.table_id)
        data = await store.stored(mine.table_id)
        if data is None or data.status != "over":
            continue
        seat = seating.seat_in(data, mine.token) if mine.token else None
        summary = summary_of(data, len(data.actions), None, set())
        replay = "open" if data.public or seat is not None else "private"
        out.append(summary | {"seat": seat, "replay": replay})
    out.sort(key=lambda s: -(s["finished_at"] or s["created_at"] or 0.0))
    return {"tables": out}
