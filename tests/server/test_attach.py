"""A connection is welcomed only by the copy of its table that is in memory: a copy forgotten
between loading it and attaching (its last socket left, or a cluster node's lease sweep forgot
it) would never be kept in step again, so the connection is attached to the table read again
(ws_routes.py, `connect`)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from server_helpers import live_table

from eterna.server.broadcast import Broadcaster
from eterna.server.store import TableStore


class FakeConnection:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.lang = "en"
        self.closed = False
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)

    def send_json(self, frame: dict[str, Any]) -> None:
        self.sent.append(json.dumps(frame))


async def _no_db(fn: Any, *args: Any) -> Any:
    return fn(*args)


async def _loaded(_table: Any) -> None:
    return None


def test_a_forgotten_copy_welcomes_nobody() -> None:
    async def run() -> None:
        store = TableStore(None, _no_db, _loaded)  # type: ignore[arg-type]
        fanout = Broadcaster(store)
        table = live_table("eternity", 3, seed=1)
        late = FakeConnection(None)
        assert await fanout.welcome(table, late) is False  # not in memory: nothing sent
        assert late.sent == [] and late not in table.conns
        store.tables[table.id] = table
        conn = FakeConnection(None)
        assert await fanout.welcome(table, conn) is True
        assert conn in table.conns
        assert [json.loads(t)["type"] for t in conn.sent] == ["welcome", "update"]
        store.stop()

    asyncio.run(run())
