"""A cluster node's copy of each table it serves, kept in step with the other nodes (cluster.py
carries the messages, docs/web.md "Running on several machines: design" says why).

Messages (JSON on the table's channel, heard while this node keeps a copy of it; a rematch on
the channel every node hears; `k` its kind, `t` the table):
- `act`: an action stored as ply `p` (1-based) by seat `s`, notation `n` (`x`: the turn timer
  played it; `f`: when stored; `d`: the next turn's deadline). Applied strictly in ply order.
- `seats`: a seat was claimed or filled: read the seats again.
- `ended`: the table ended early: read it again.
- `rematch`: the finished table's rematch `r`, with each human seat's token `tok`.
- `presence`: the seats `seats` connected to node `node`.
Each also carries `o`, its publishing process's mark: cluster.py drops this node's own before
they reach the relay (Redis hands them back; the node told its sockets when it stored them).

A copy that misses a message (Redis was lost) is caught up from the database (`Moves.catch_up`):
when the next action arrives after a gap, on every lease sweep (one query for all the unfinished
tables in memory), and when Redis comes back. The lease sweep also forgets the copies this node
no longer keeps, and stops hearing their channels. What this node tells the others is peers.py's.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from eterna.server.broadcast import Broadcaster
from eterna.server.cluster import Cluster
from eterna.server.database import Database
from eterna.server.driver import TurnDriver
from eterna.server.leases import Lease
from eterna.server.live import LiveTable
from eterna.server.moves import Moves
from eterna.server.peers import Peers
from eterna.server.seating import Seating
from eterna.server.shared_limits import CONNECTIONS_RENEW
from eterna.server.store import TableStore
from eterna.server.workers import Workers


class Relay:
    """Keeps this node's tables in step with the cluster (see the module's doc): the cluster's
    listener (`cluster.Listener`), given to it when the node starts."""

    def __init__(
        self,
        cluster: Cluster,
        peers: Peers,
        database: Database,
        store: TableStore,
        seating: Seating,
        fanout: Broadcaster,
        driver: TurnDriver,
        moves: Moves,
        workers: Workers,
    ) -> None:
        self.cluster = cluster
        self.peers = peers
        self.database = database
        self.store = store
        self.seating = seating
        self.fanout = fanout
        self.driver = driver
        self.moves = moves
        self.workers = workers
        self.next_mark = 0.0  # when to mark the games in play here again (on_sweep)

    def start(self) -> None:
        """Listen to the cluster (the cheap bots' workers started at once)."""
        self.workers.warm()
        self.cluster.start(self)

    # ----------------------------------------------------------------- messages
    async def _table(self, table_id: str) -> LiveTable | None:
        """The table if this node has it in memory (or is loading it)."""
        store = self.store
        table = store.tables.get(table_id)
        if table is None and table_id in store.loading:
            table = await asyncio.shield(store.loading[table_id])
        return table

    async def on_message(self, message: dict[str, Any]) -> None:
        kind, table_id = message.get("k"), str(message.get("t"))
        if kind == "presence" and message.get("node") == self.cluster.node:
            return
        if kind == "rematch":  # a finished table kept here without its rematch link
            kept = self.store.finished.get(table_id)
            if kept is not None and kept.data.rematch_id is None:
                kept.data.rematch_id = str(message["r"])
        # the one channel every node hears (a rematch) never waits for a table being loaded,
        # whose channel's confirmation may come after it (a load reads the rematch stored)
        if kind == "rematch":
            table = self.store.tables.get(table_id)
        else:
            table = await self._table(table_id)
        if table is None:
            return
        if kind == "presence":
            table.remote[str(message["node"])] = {int(s) for s in message.get("seats", [])}
            self.fanout.presence(table)
            return
        async with table.lock:
            if kind == "act":
                await self._act(table, message)
            elif kind == "seats":
                await self.seating.refresh(table)
                self.fanout.presence(table)
            elif kind == "ended":
                await self.moves.catch_up(table)
            elif kind == "rematch" and table.data.rematch_id is None:
                table.data.rematch_id = str(message["r"])
                tokens = message.get("tok") or {}
                table.rematch_tokens = {int(s): str(t) for s, t in tokens.items()}
                self.fanout.rematch(table, table.data.rematch_id)

    async def _act(self, table: LiveTable, message: dict[str, Any]) -> None:
        ply = int(message["p"])
        if ply <= table.ply:
            return  # this node stored it, or has read it already
        if ply > table.ply + 1:
            await self.moves.catch_up(table)
            return
        deadline = message.get("d")
        await self.moves.apply(
            table,
            int(message["s"]),
            str(message["n"]),
            float(message.get("f") or time.time()),
            bool(message.get("x")),
            None if deadline is None else float(deadline),
        )

    # ----------------------------------------------------------------- leases
    async def on_acquired(self, table_id: str, lease: Lease) -> None:
        """This node drives the table now: bring its copy up to date, re-arm the turn timer
        where the last driver left it, and start its bots."""
        table = await self.store.get(table_id)
        if table is None:
            self.cluster.drop(table_id)
            return
        async with table.lock:
            await self.moves.catch_up(table)
            if table.over:
                return
            self.driver.cancel(table)
            self.driver.set_deadline(table)
            if (
                table.deadline is not None
                and lease.deadline is not None
                and lease.deadline_ply == table.ply
            ):
                table.deadline = lease.deadline
            self.driver.schedule(table)

    def on_lost(self, table_id: str) -> None:
        table = self.store.tables.get(table_id)
        if table is not None:
            self.driver.cancel(table)
            self.store.forget_if_idle(table)

    async def on_sweep(self) -> None:
        """Forget the copies this node no longer keeps and stop hearing their tables' channels,
        catch up every unfinished copy in memory that is behind the database, end the leases
        of finished tables, and every `CONNECTIONS_RENEW` seconds mark the games in play here
        (the cluster's live-table cap)."""
        self.forget_idle()
        await self.cluster.release(self.store.in_use())
        tables = self.store.tables
        over = [t for t in self.cluster.held if (x := tables.get(t)) and x.over]
        for table_id in over:
            self.cluster.drop(table_id)
        if over:
            await self.cluster.limits.unmark_live(over)
        if time.monotonic() >= self.next_mark:
            self.next_mark = time.monotonic() + CONNECTIONS_RENEW
            await self.peers.mark_playing(tables.values())
        live = [t.id for t in tables.values() if not t.over]
        if not live:
            return
        progress = await self.database.run(self.cluster.leases.progress, live)
        for table_id, (status, plies) in progress.items():
            table = tables.get(table_id)
            if table is not None and (plies > table.ply or status != table.data.status):
                async with table.lock:
                    await self.moves.catch_up(table)

    def forget_idle(self) -> None:
        """Copies read for a request (a page's summary, a join) that no socket here shows and
        this node does not drive are forgotten after `cluster.ttl` seconds (read again when
        needed), so that the node stops hearing their tables."""
        now = time.monotonic()
        for table in list(self.store.tables.values()):
            if not table.over and now - table.last_active >= self.cluster.ttl:
                self.store.forget_if_idle(table)

    async def on_reconnect(self) -> None:
        """Redis is back: catch up every copy, say again which seats are connected here."""
        for table in list(self.store.tables.values()):
            if table.conns:
                self.peers.presence(table)
            if not table.over:
                self.peers.later(self._catch_up_locked(table))

    async def _catch_up_locked(self, table: LiveTable) -> None:
        async with table.lock:
            await self.moves.catch_up(table)


__all__ = ["Relay"]
