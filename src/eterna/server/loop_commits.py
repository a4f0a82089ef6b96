"""PostgreSQL's action commits on the event loop (`LoopCommits`): psycopg's asyncio connection,
one kept open for the group commits of writer.py.

Handing each group commit to a storage thread (`Database.run`) cost more than the commit's own
work: a thread woken and the GIL handed over and back, SQLAlchemy's execution layer around
three statements. Here the loop sends them itself and waits for PostgreSQL's answers like any
socket: a batch of moves people made in one statement (one round trip, its own transaction),
a batch with driven moves in the same transaction as `Storage.add_actions` (the fencing check,
the inserts, one commit), and the same outcomes for each action (its time, `LeaseLost`,
`PlyConflict`). A move that ends its game also updates the table row: such a batch goes to
`Storage.add_actions` in a thread, as before (one commit in a game's life). The connection is
opened on first use and again after a failure; a failure to reach the database is raised as
SQLAlchemy's `OperationalError`, which moves.py turns into the `unavailable` refusal.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence

import psycopg
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from eterna.server.storage import DB_NOW, LeaseLost, PendingAction, PlyConflict

CONNECT_TIMEOUT = 5  # seconds to open the connection (libpq's granularity is one second)
INSERT_SQL = (
    "INSERT INTO actions (table_id, ply, seat, notation, created_at) VALUES (%s, %s, %s, %s, %s)"
)
# the whole batch in one statement, one round trip, its own transaction (moves people made:
# nothing to check under a lease)
INSERT_ALL_SQL = (
    "INSERT INTO actions (table_id, ply, seat, notation, created_at) "
    "SELECT t, p, s, n, %s FROM unnest(%s::text[], %s::int[], %s::int[], %s::text[]) "
    "AS batch(t, p, s, n)"
)
FENCE_SQL = (  # storage.py's FENCE_SQL
    "SELECT 1 FROM table_leases l JOIN node_leases n ON n.node = l.node AND n.epoch = l.epoch "
    "WHERE l.table_id = %s AND l.node = %s AND l.token = %s "
    f"AND n.expires_at > {DB_NOW} FOR SHARE OF l"
)


def conninfo(url: str) -> str:
    """libpq's URI of a SQLAlchemy PostgreSQL URL (`postgresql+psycopg://...`), its query
    (a test's `options=-csearch_path=...`, for instance) kept."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class LoopCommits:
    """Group commits of actions on PostgreSQL from the event loop (see the module's doc)."""

    def __init__(self, url: str) -> None:
        self.conninfo = conninfo(url)
        self.conn: psycopg.AsyncConnection[tuple[object, ...]] | None = None

    async def _connection(self) -> psycopg.AsyncConnection[tuple[object, ...]]:
        conn = self.conn
        if conn is None or conn.closed or conn.broken:
            self.conn = None
            if conn is not None:
                await conn.close()
            conn = self.conn = await psycopg.AsyncConnection.connect(
                self.conninfo, autocommit=True, connect_timeout=CONNECT_TIMEOUT
            )
        return conn

    async def add_actions(self, batch: Sequence[PendingAction]) -> list[float | Exception]:
        """`Storage.add_actions` for batches without a game's end: one transaction, each action
        its time or its refusal (a conflict retries the batch one action at a time)."""
        now = time.time()
        try:
            conn = await self._connection()
            if all(item.fence is None for item in batch):
                tables, plies, seats, notations = _columns(batch)
                await conn.execute(INSERT_ALL_SQL, (now, tables, plies, seats, notations))
                return [now] * len(batch)
            async with conn.transaction():
                lost: set[int] = set()
                for item in batch:
                    if item.fence is not None:
                        node, token = item.fence
                        cursor = await conn.execute(FENCE_SQL, (item.table_id, node, token))
                        if await cursor.fetchone() is None:
                            lost.add(id(item))
                rows = [
                    (b.table_id, b.ply, b.seat, b.notation, now) for b in batch if id(b) not in lost
                ]
                if rows:
                    async with conn.cursor() as cursor:
                        await cursor.executemany(INSERT_SQL, rows)
            return [
                LeaseLost(f"table {b.table_id}: lease lost") if id(b) in lost else now
                for b in batch
            ]
        except psycopg.errors.UniqueViolation:
            if len(batch) == 1:
                item = batch[0]
                return [PlyConflict(f"table {item.table_id} already has ply {item.ply}")]
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            await self.close()
            raise OperationalError(INSERT_SQL, None, exc) from exc
        out: list[float | Exception] = []
        for item in batch:
            out.extend(await self.add_actions([item]))
        return out

    async def close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(Exception):  # already broken: nothing to close cleanly
                await conn.close()


def _columns(
    batch: Sequence[PendingAction],
) -> tuple[list[str], list[int], list[int], list[str]]:
    """The batch's actions as four arrays (table ids, plies, seats, notations)."""
    return (
        [item.table_id for item in batch],
        [item.ply for item in batch],
        [item.seat for item in batch],
        [item.notation for item in batch],
    )


__all__ = ["LoopCommits", "conninfo"]
