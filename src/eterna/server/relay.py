"""A cluster node's copy of each table it serves, kept in step with the other nodes (cluster.py
carries the messages, docs/web.md "Running on several machines: design" says why).

Messages (JSON on the cluster's channel, `k` its kind, `t` the table):
- `act`: an action stored as ply `p` (1-based) by seat `s`, notation `n` (`x`: the turn timer
  played it; `f`: when stored; `d`: the next turn's deadline). Applied strictly in ply order.
- `seats`: a seat was claimed or filled: read the seats again.
- `ended`: the table ended early: read it again.
- `rematch`: the finished table's rematch `r`, with each human seat's token `tok`.
- `presence`: the seats `seats` connected to node `node`.

A copy that misses a message (Redis was lost) is caught up from the database: when the next
action arrives after a gap, on every lease sweep (one query for all the unfinished tables in
memory), and when Redis comes back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from eterna.core.errors import EternaError
from eterna.server.broadcast import Broadcaster
from eterna.server.cluster import Cluster
from eterna.server.database import Database
from eterna.server.driver import TurnDriver
from eterna.server.leases import Lease
from eterna.server.limits import Quotas
from eterna.server.live import LiveTable
from eterna.server.moves import Moves
from eterna.server.seating import Seating
from eterna.server.shared_limits import CONNECTIONS_RENEW
from eterna.server.store import TableStore
from eterna.server.workers import Workers

log = logging.getLogger("eterna.server")
REMATCH_TOKENS_TTL = 3600  # seconds a rematch's seat tokens stay shared between nodes


class Relay:
    """Keeps this node's tables in step with the cluster (see the module's doc)."""

    def __init__(
        self,
        cluster: Cluster,
        database: Database,
        store: TableStore,
        seating: Seating,
        fanout: Broadcaster,
        driver: TurnDriver,
        moves: Moves,
        quotas: Quotas,
        workers: Workers,
    ) -> None:
        self.cluster = cluster
        self.database = database
        self.store = store
        self.seating = seating
        self.fanout = fanout
        self.driver = driver
        self.moves = moves
        self.quotas = quotas
        self.workers = workers
        self.background: set[asyncio.Task[Any]] = set()
        self.next_mark = 0.0  # when to mark the games in play here again (on_sweep)

    def start(self) -> None:
        """Listen to the cluster and keep this node's parts in step with it (the quotas
        counted across the cluster; the cheap bots' workers started at once)."""
        cluster = self.cluster
        cluster.on_message = self.on_message
        cluster.on_reconnect = self.on_reconnect
        cluster.on_acquired = self.on_acquired
        cluster.on_lost = self.on_lost
        cluster.on_sweep = self.on_sweep
        self.store.keeps = lambda table: bool(table.conns) or cluster.holds(table.id)
        self.fanout.on_presence = self.presence
        self.seating.on_claimed = lambda table: cluster.publish({"k": "seats", "t": table.id})
        self.seating.keep_tokens = self.keep_tokens
        self.seating.find_tokens = self.find_tokens
        self.moves.resync = self.catch_up  # the actions it missed, each told in turn
        self.quotas.share_across(cluster.limits)  # counted across the cluster
        self.workers.warm()
        cluster.start()

    def later(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def mark_live(self, table: LiveTable) -> None:
        """A game a player's visit brought into play (`presence`) counts against the cluster's
        cap at once, not at the next renewal."""
        if self.in_play(table) and self.cluster.limits.available:
            self.later(self.cluster.limits.mark_live([table.id]))

    async def mark_new(self, table: LiveTable) -> None:
        """A new game in play is counted before its creator hears of it, so that the next
        request, on any node, sees it (a count written in the background could come after)."""
        if self.in_play(table) and self.cluster.limits.available:
            with contextlib.suppress(Exception):  # Redis away: the next renewal counts it
                await self.cluster.limits.mark_live([table.id])

    def in_play(self, table: LiveTable) -> bool:
        """The game counts against the live-table cap (`LiveTable.in_play`; a seat connected
        to another node counts as a visit)."""
        return not table.over and (table.in_play() or self.watched(table))

    @staticmethod
    def watched(table: LiveTable) -> bool:
        """A seat of the table is connected to another node (the table is not abandoned)."""
        return any(table.remote.values())

    # ----------------------------------------------------------------- presence, tokens
    def presence(self, table: LiveTable) -> None:
        """A seat connected or left here: the other nodes are told, and a table a seat's first
        visit brought into play (`LiveTable.in_play`) counts against the cap at once."""
        seats = sorted({c.seat for c in table.conns if c.seat is not None and not c.closed})
        self.cluster.publish(
            {"k": "presence", "t": table.id, "node": self.cluster.node, "seats": seats}
        )
        if seats:
            self.mark_live(table)

    async def keep_tokens(self, rematch_id: str, tokens: dict[int, str]) -> None:
        if tokens:
            key = f"eterna:rematch:{rematch_id}"
            await self.cluster.redis.hset(key, mapping={str(s): t for s, t in tokens.items()})
            await self.cluster.redis.expire(key, REMATCH_TOKENS_TTL)

    async def find_tokens(self, rematch_id: str) -> dict[int, str]:
        try:
            found = await self.cluster.redis.hgetall(f"eterna:rematch:{rematch_id}")
        except Exception:
            return {}
        return {int(s): t.decode() if isinstance(t, bytes) else str(t) for s, t in found.items()}

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
                await self.catch_up(table)
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
            await self.catch_up(table)
            return
        deadline = message.get("d")
        await self.apply(
            table,
            int(message["s"]),
            str(message["n"]),
            float(message.get("f") or time.time()),
            bool(message.get("x")),
            None if deadline is None else float(deadline),
        )

    async def apply(
        self,
        table: LiveTable,
        seat: int,
        notation: str,
        stored_at: float,
        timed_out: bool = False,
        deadline: float | None = None,
    ) -> None:
        """An action another node stored becomes this copy's state, told to its sockets."""
        state = table.state
        action = table.game.parse_action(notation)
        following = state.clone()
        public = state.public_notation(action)
        following.apply(action)
        result = (
            (list(following.scores), list(following.winners)) if following.is_terminal else None
        )
        timing = (stored_at, timed_out)
        await self.moves.accepted(
            table, seat, notation, public, following, result, timing, deadline, remote=True
        )

    async def catch_up(self, table: LiveTable) -> None:
        """With the table's lock held: read it from the database and apply what this copy
        missed, each action told in turn (seats, an early end and a rematch too)."""
        data = await self.database.run(self.database.storage.load_table, table.id)
        if data is None:
            return
        try:
            for seat, notation in data.actions[table.ply :]:
                await self.apply(table, seat, notation, data.finished_at or time.time())
        except EternaError:
            log.exception("table %s: cannot apply the stored actions: reloading", table.id)
            await self.moves.reload(table)
            return
        was_waiting = table.waiting()
        table.data.seats = data.seats
        self.seating._claimed(table, was_waiting)
        if data.status == "over" and not table.over:  # ended early by its driver
            old = table.data
            old.status, old.ended, old.finished_at = data.status, data.ended, data.finished_at
            old.scores, old.winners = data.scores, data.winners
            self.driver.cancel(table)
            table.deadline = None
            self.fanout.nothing_new(table)
        if data.rematch_id is not None and table.data.rematch_id is None:
            table.data.rematch_id = data.rematch_id
        if table.over:
            self.cluster.drop(table.id)

    # ----------------------------------------------------------------- leases
    async def on_acquired(self, table_id: str, lease: Lease) -> None:
        """This node drives the table now: bring its copy up to date, re-arm the turn timer
        where the last driver left it, and start its bots."""
        table = await self.store.get(table_id)
        if table is None:
            self.cluster.drop(table_id)
            return
        async with table.lock:
            await self.catch_up(table)
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
        """Catch up every unfinished copy in memory that is behind the database, end the
        leases of finished tables, and every `CONNECTIONS_RENEW` seconds mark the games in
        play here (the cluster's live-table cap)."""
        tables = self.store.tables
        over = [t for t in self.cluster.held if (x := tables.get(t)) and x.over]
        for table_id in over:
            self.cluster.drop(table_id)
        limits = self.cluster.limits
        if over:
            await limits.unmark_live(over)
        if time.monotonic() >= self.next_mark:
            self.next_mark = time.monotonic() + CONNECTIONS_RENEW
            await limits.mark_live(t.id for t in tables.values() if self.in_play(t))
        live = [t.id for t in tables.values() if not t.over]
        if not live:
            return
        progress = await self.database.run(self.cluster.leases.progress, live)
        for table_id, (status, plies) in progress.items():
            table = tables.get(table_id)
            if table is not None and (plies > table.ply or status != table.data.status):
                async with table.lock:
                    await self.catch_up(table)

    async def on_reconnect(self) -> None:
        """Redis is back: catch up every copy, say again which seats are connected here."""
        for table in list(self.store.tables.values()):
            if table.conns:
                self.presence(table)
            if not table.over:
                self.later(self._catch_up_locked(table))

    async def _catch_up_locked(self, table: LiveTable) -> None:
        async with table.lock:
            await self.catch_up(table)


__all__ = ["Relay"]
