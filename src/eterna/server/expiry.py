"""The expiry part: abandoned tables end, finished ones leave memory (docs/web.md, "Quotas,
expiry and bounded games").

Every `expiry_sweep` seconds, a table nobody has been connected to for `idle_expiry` seconds
(`unclaimed_expiry` when no seat ever came and nothing was played) ends as abandoned, by the
node that drives it (on a cluster, not while a seat is connected to another node); finished
tables nobody watches leave memory (storage keeps them). Tables of bots alone play on: they end
by themselves."""

from __future__ import annotations

import asyncio
import time

from eterna.server.driver import TurnDriver
from eterna.server.live import LiveTable
from eterna.server.moves import Moves
from eterna.server.peers import watched
from eterna.server.settings import Settings
from eterna.server.store import TableStore


class Expiry:
    """The sweep of abandoned and finished tables (see the module's doc)."""

    def __init__(
        self, settings: Settings, store: TableStore, driver: TurnDriver, moves: Moves
    ) -> None:
        self.settings = settings
        self.store = store
        self.driver = driver
        self.moves = moves
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._sweeps())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _sweeps(self) -> None:
        while True:
            await asyncio.sleep(self.settings.expiry_sweep)
            await self.sweep()

    async def sweep(self) -> None:
        now = time.monotonic()
        for table in list(self.store.tables.values()):
            if table.over:
                self.store.forget_if_idle(table)
                continue
            if not self._abandoned(table, now):
                continue
            async with table.lock:
                if not table.over and not table.conns:
                    await self.moves.end_early(table, "abandoned")
            self.store.forget_if_idle(table)

    def _abandoned(self, table: LiveTable, now: float) -> bool:
        """Nobody has come to the unfinished table for its time, and this node drives it."""
        if table.conns or not table.has_humans() or not self.driver.drives(table):
            return False
        if watched(table):  # a seat connected to another node of the cluster
            return False
        limit = self.settings.idle_expiry
        if not table.visited and table.ply == 0:
            limit = self.settings.unclaimed_expiry
        return now - table.last_active >= limit


__all__ = ["Expiry"]
