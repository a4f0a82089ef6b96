"""The database part: the storage (storage.py) and the threads that call it, so that no
storage call blocks the event loop (`run`); on PostgreSQL, the moves' group commits made from
the loop itself (`commits`: loop_commits.py); SQLite's write-ahead log kept short by a
checkpoint every few seconds. Every other part that reads or writes the database is given
this part (or its `run`) when the server is wired (app.py)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from eterna.server.settings import CHECKPOINT_EVERY
from eterna.server.storage import Storage

if TYPE_CHECKING:  # psycopg is the postgres extra's: `make run` (SQLite) never imports it
    from eterna.server.loop_commits import LoopCommits

log = logging.getLogger("eterna.server")
T = TypeVar("T")
HEALTH_TIMEOUT = 2.0  # seconds the database may take to answer /api/health


class Database:
    """The storage and its threads (see the module's doc)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        writers = 1 if storage.dialect == "sqlite" else 4
        self.pool = ThreadPoolExecutor(writers, thread_name_prefix="eterna-db")
        self.checkpoints: asyncio.Task[None] | None = None
        # PostgreSQL: the group commits of moves from the event loop (loop_commits.py)
        self.commits: LoopCommits | None = None
        if storage.dialect == "postgresql":
            from eterna.server.loop_commits import LoopCommits

            self.commits = LoopCommits(storage.url)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a storage thread."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    async def up(self) -> bool:
        """The database answers within `HEALTH_TIMEOUT` seconds."""
        try:
            await asyncio.wait_for(self.run(self.storage.ping), HEALTH_TIMEOUT)
        except Exception:
            return False
        return True

    def start(self) -> None:
        self.checkpoints = asyncio.get_running_loop().create_task(self._checkpoints())

    async def _checkpoints(self, every: float = CHECKPOINT_EVERY) -> None:
        """Keep SQLite's write-ahead log short, from the storage thread (see Storage)."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.run(self.storage.checkpoint)
            except Exception:
                log.exception("checkpoint failed")

    def stop(self) -> None:
        """No more checkpoints (the server is stopping; `close` comes last)."""
        if self.checkpoints is not None:
            self.checkpoints.cancel()

    async def close_commits(self) -> None:
        """Close the event loop's own connection (PostgreSQL), before `close`."""
        if self.commits is not None:
            await self.commits.close()

    def close(self) -> None:
        """Wait for the storage calls under way, then close the storage."""
        self.pool.shutdown(wait=True)
        self.storage.close()


__all__ = ["Database"]
