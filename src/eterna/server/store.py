"""The table store: which tables are in memory, and loading the others without stalling the loop.

A table in memory is a `LiveTable` (its stored data and its replayed state). Replaying a game
from its record can take a second for a long one, so it never runs on the event loop: replays
run in their own thread (`replay_pool`), each table is loaded once however many requests ask
for it at the same time, and what needs no state (a finished table's summary and record) is
answered from its stored data alone, with no replay at all.

After a restart the unfinished tables are resumed lazily: the server listens at once, a
background task replays them one by one (and starts their bots and timers again), and a
request for a table not resumed yet replays that one first.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from eterna.core.errors import EternaError
from eterna.server.live import LiveTable, replay_table, summary_of
from eterna.server.storage import Storage, TableData

log = logging.getLogger("eterna.server")

MAX_TABLE_ID = 16


class TableStore:
    """Tables in memory by id, loaded on demand (see the module's doc)."""

    def __init__(
        self,
        storage: Storage,
        db: Callable[..., Awaitable[Any]],
        on_resumed: Callable[[LiveTable], None],
    ) -> None:
        self.storage = storage
        self.db = db
        self.on_resumed = on_resumed  # starts a resumed table's bots and timers
        self.tables: dict[str, LiveTable] = {}
        self.loading: dict[str, asyncio.Task[LiveTable | None]] = {}
        self.replay_pool = ThreadPoolExecutor(1, thread_name_prefix="eterna-replay")
        self.resumer: asyncio.Task[None] | None = None

    async def replay(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a replay (or anything that walks a game's history) off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.replay_pool, fn, *args)

    def start(self) -> None:
        self.resumer = asyncio.get_running_loop().create_task(self._resume_all())

    def stop(self) -> None:
        if self.resumer is not None:
            self.resumer.cancel()
        for task in list(self.loading.values()):
            task.cancel()
        self.replay_pool.shutdown(wait=False, cancel_futures=True)

    async def _resume_all(self) -> None:
        unfinished = await self.db(self.storage.load_unfinished)
        for data in unfinished:
            try:
                await self.get(data.id, data)
            except Exception:
                log.exception("table %s could not be resumed", data.id)
        log.info("resumed %d unfinished tables", len(unfinished))

    async def get(self, table_id: str, data: TableData | None = None) -> LiveTable | None:
        """A table by id: from memory, else loaded from storage and replayed (once)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or not table_id or len(table_id) > MAX_TABLE_ID:
            return None
        task = self.loading.get(table_id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._load(table_id, data))
            self.loading[table_id] = task
            task.add_done_callback(lambda _done: self.loading.pop(table_id, None))
        return await asyncio.shield(task)

    async def _load(self, table_id: str, data: TableData | None) -> LiveTable | None:
        if data is None:
            data = await self.db(self.storage.load_table, table_id)
            if data is None:
                return None
        try:
            state = await self.replay(replay_table, data)
        except EternaError as exc:  # a record this version cannot replay: leave it stored
            log.error("table %s cannot be replayed: %s", table_id, exc)
            return None
        table = self.tables.get(table_id)
        if table is not None:
            return table
        table = self.tables[table_id] = LiveTable(data, state)
        if not table.over:
            self.on_resumed(table)
        return table

    async def stored(self, table_id: str) -> TableData | None:
        """A table's data without replaying it: from memory, else from storage."""
        table = self.tables.get(table_id)
        if table is not None:
            return table.data
        if not isinstance(table_id, str) or not table_id or len(table_id) > MAX_TABLE_ID:
            return None
        data: TableData | None = await self.db(self.storage.load_table, table_id)
        return data

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        """A table's public summary; a finished table not in memory is not replayed."""
        table = self.tables.get(table_id)
        if table is not None:
            return table.summary()
        data = await self.stored(table_id)
        if data is None:
            return None
        if data.status == "over":
            return summary_of(data, len(data.actions), None, set())
        live = await self.get(table_id, data)
        return live.summary() if live is not None else None

    def forget_if_idle(self, table: LiveTable) -> None:
        """Finished tables leave memory once nobody watches them (storage keeps them)."""
        if table.over and not table.conns and self.tables.get(table.id) is table:
            del self.tables[table.id]


__all__ = ["TableStore"]
