"""The table store: which tables are in memory, and loading the others without stalling the loop.

A table in memory is a `LiveTable` (its stored data and its replayed state). Replaying a game
from its record can take a second for a long one, so it never runs on the event loop: replays
run in their own thread (`replay_pool`), each table is loaded once however many requests ask
for it at the same time, and what needs no state (a finished table's summary and record) is
answered from its stored data alone, with no replay at all. The last `cache_size` finished
tables asked for keep their data and their record encoded (off the loop, once), so repeated
GETs of a long game's record or summary cost neither a load, a replay nor an encode.

On a cluster node a table's channel is watched (cluster.py) before the table is read or made
here, so that every action stored after the read is heard; a table read before its channel
was heard is read again.

After a restart the unfinished tables are resumed lazily: the server listens at once, a
background task replays them one by one (and starts their bots and timers again), and a
request for a table not resumed yet replays that one first.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from eterna.core.errors import EternaError
from eterna.server.live import LiveTable, replay_table, summary_of, table_record
from eterna.server.storage import Storage, TableData

log = logging.getLogger("eterna.server")

MAX_TABLE_ID = 16


def encode_record(data: TableData) -> bytes:
    """A finished table's record as the JSON the API serves (thousands of plies for a long
    game: never encoded on the event loop)."""
    record = table_record(data)
    return json.dumps(record, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


class Finished:
    """A finished table kept in the cache: its data, and its record once encoded."""

    def __init__(self, data: TableData) -> None:
        self.data = data
        self.record: asyncio.Task[bytes] | None = None


class TableStore:
    """Tables in memory by id, loaded on demand (see the module's doc)."""

    def __init__(
        self,
        storage: Storage,
        db: Callable[..., Awaitable[Any]],
        on_loaded: Callable[[LiveTable], Awaitable[None]],
        cache_size: int = 256,
        keeps: Callable[[LiveTable], bool] | None = None,
        watch: Callable[[str], Awaitable[bool]] | None = None,
    ) -> None:
        self.storage = storage
        self.db = db
        self.on_loaded = on_loaded  # starts a loaded table's bots and timers (driver.py)
        self.tables: dict[str, LiveTable] = {}
        self.loading: dict[str, asyncio.Task[LiveTable | None]] = {}
        self.replay_pool = ThreadPoolExecutor(1, thread_name_prefix="eterna-replay")
        self.resumer: asyncio.Task[None] | None = None
        self.finished: OrderedDict[str, Finished] = OrderedDict()  # least recently used first
        self.cache_size = cache_size
        # an unfinished table stays in memory while this holds (a cluster node forgets the
        # copies it neither drives nor serves: peers.py)
        self.keeps: Callable[[LiveTable], bool] = keeps or (lambda _table: True)
        # a cluster node hears a table's events from before it reads the table (cluster.py's
        # `watch`: True when they were not heard before; a single server hears nothing)
        self.watch: Callable[[str], Awaitable[bool]] = watch or _deaf

    def in_use(self) -> set[str]:
        """The tables in memory or being loaded (a cluster node hears their channels)."""
        return set(self.tables) | set(self.loading)

    async def add(self, table: LiveTable) -> None:
        """A table made here (a new table, a rematch) in memory, its channel heard first."""
        await self.watch(table.id)
        self.tables[table.id] = table

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
        # heard first, read after: an action stored after the read is heard, one stored before
        # it is read (and skipped when heard: relay.py); data read before is read again
        if await self.watch(table_id) or data is None:
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
            await self.on_loaded(table)
        return table

    async def stored(self, table_id: str) -> TableData | None:
        """A table's data without replaying it: from memory or the finished tables' cache, else
        from storage."""
        table = self.tables.get(table_id)
        if table is not None:
            return table.data
        cached = self._cached(table_id)
        if cached is not None:
            return cached.data
        if not isinstance(table_id, str) or not table_id or len(table_id) > MAX_TABLE_ID:
            return None
        data: TableData | None = await self.db(self.storage.load_table, table_id)
        if data is not None and data.status == "over":
            self._keep(data)
        return data

    async def record(self, data: TableData) -> bytes:
        """A finished table's record, encoded once in a thread (concurrent requests share it)
        and kept with the table in the cache."""
        entry = self._cached(data.id)
        if entry is None or entry.data is not data:
            entry = self._keep(data, entry)
        if entry.record is None:
            entry.record = asyncio.get_running_loop().create_task(
                asyncio.to_thread(encode_record, data)
            )
        task = entry.record
        try:
            return await asyncio.shield(task)
        except Exception:
            if entry.record is task:  # not kept: the next request tries again
                entry.record = None
            raise

    def _cached(self, table_id: str) -> Finished | None:
        entry = self.finished.get(table_id)
        if entry is not None:
            self.finished.move_to_end(table_id)
        return entry

    def _keep(self, data: TableData, old: Finished | None = None) -> Finished:
        """Cache a finished table's data (its encoded record carried over: it never changes
        once the game is over), dropping the least recently used beyond `cache_size`."""
        entry = Finished(data)
        if old is not None:
            entry.record = old.record
        self.finished[data.id] = entry
        self.finished.move_to_end(data.id)
        while len(self.finished) > max(0, self.cache_size):
            self.finished.popitem(last=False)
        return entry

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
        if table.conns or self.tables.get(table.id) is not table:
            return
        if table.over:
            del self.tables[table.id]
            self._keep(table.data, self.finished.get(table.id))  # with its latest rematch
        elif not self.keeps(table) and table.task is None:
            del self.tables[table.id]


async def _deaf(_table_id: str) -> bool:
    return False


__all__ = ["TableStore"]
