"""Group commit of accepted actions (`ActionWriter`)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from eterna.server.storage import PendingAction

if TYPE_CHECKING:
    from eterna.server.database import Database

log = logging.getLogger("eterna.server")
INLINE_BUSY_MS = 200  # the most an SQLite commit on the event loop waits for a write lock

# ------------------------------------------------------------------------------ group commit


class ActionWriter:
    """Group commit: actions submitted while a commit is running go into the next one, all in
    one transaction. One commit per move costs more than the move itself; under load a batch
    holds many moves, and every submitter still waits for its own action to be durable.

    SQLite commits run on the event loop itself: a local commit takes a fraction of a
    millisecond, while a worker thread would wait for the GIL at every call into SQLite (up to the
    5 ms switch interval each time, as long as the loop is busy), which under load cost far more
    than the commit. So that another process holding the database's write lock cannot freeze
    the loop, such a commit waits for the lock at most `INLINE_BUSY_MS`: then every action of
    the batch is refused (`StorageBusy`: the client gets `server_busy`, bots try again later).
    PostgreSQL commits from the loop too, through psycopg's asyncio connection (its round
    trip is awaited like any socket's: loop_commits.py); a batch that ends a game, and any
    other network database, in a worker thread.
    """

    def __init__(self, database: Database) -> None:
        self.database = database
        self.inline = database.storage.dialect == "sqlite"
        self.pending: list[tuple[PendingAction, asyncio.Future[float]]] = []
        self.flushing = False
        self.task: asyncio.Task[None] | None = None

    async def write(self, item: PendingAction) -> float:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[float] = loop.create_future()
        self.pending.append((item, future))
        if not self.flushing:
            self.flushing = True
            if self.inline:  # after the other callbacks of this loop turn: they may add more
                loop.call_soon(self._flush_inline)
            else:
                self.task = loop.create_task(self._flush_threaded())
        return await future

    def _take(self) -> tuple[list[PendingAction], list[asyncio.Future[float]]]:
        batch, self.pending = self.pending, []
        return [item for item, _ in batch], [future for _, future in batch]

    def _settle(self, futures: list[asyncio.Future[float]], results: list[Any]) -> None:
        for future, outcome in zip(futures, results, strict=True):
            if future.done():
                continue
            if isinstance(outcome, BaseException):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)

    def _store(self, items: list[PendingAction]) -> list[Any]:
        try:
            busy_ms = INLINE_BUSY_MS if self.inline else None
            return list(self.database.storage.add_actions(items, busy_ms))
        except Exception as exc:
            log.exception("cannot store %d actions", len(items))
            return [exc] * len(items)

    def _flush_inline(self) -> None:
        try:
            while self.pending:
                items, futures = self._take()
                self._settle(futures, self._store(items))
        finally:
            self.flushing = False

    async def _flush_threaded(self) -> None:
        try:
            while self.pending:
                items, futures = self._take()
                self._settle(futures, await self._store_elsewhere(items))
        finally:
            self.flushing = False

    async def _store_elsewhere(self, items: list[PendingAction]) -> list[Any]:
        """PostgreSQL: from the loop (loop_commits.py), but a batch that ends a game (it also
        updates the table's row) in a storage thread; without `commits`, in a thread."""
        commits = self.database.commits
        if commits is None or any(item.result is not None for item in items):
            return await self.database.run(self._store, items)
        try:
            return await commits.add_actions(items)
        except Exception as exc:
            log.exception("cannot store %d actions", len(items))
            return [exc] * len(items)
