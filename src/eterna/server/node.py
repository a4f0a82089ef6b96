"""This node as a whole: its life (`Lifecycle`: start, drain, stop) and its health (`Health`,
what `/api/health` answers). Each is given the parts it starts, stops or checks when the
server is wired (app.py)."""

from __future__ import annotations

from eterna.server.cluster import Cluster
from eterna.server.database import Database
from eterna.server.driver import TurnDriver
from eterna.server.expiry import Expiry
from eterna.server.relay import Relay
from eterna.server.settings import Settings
from eterna.server.store import TableStore
from eterna.server.workers import Workers


class Lifecycle:
    """Starting the node's background work, draining it and stopping it."""

    def __init__(
        self,
        database: Database,
        store: TableStore,
        driver: TurnDriver,
        workers: Workers,
        expiry: Expiry,
        cluster: Cluster | None = None,
        relay: Relay | None = None,
    ) -> None:
        self.database = database
        self.store = store
        self.driver = driver
        self.workers = workers
        self.expiry = expiry
        self.cluster = cluster
        self.relay = relay

    async def start(self) -> None:
        """Start resuming the unfinished tables (in the background: see store.py), the
        checkpoints and the expiry of abandoned tables."""
        if self.relay is not None:
            self.relay.start()  # the lease sweep takes the tables nobody drives
        else:
            self.store.start()
        self.database.start()
        self.expiry.start()

    async def drain(self) -> None:
        """Stop driving tables, hand them over (a cluster node releases its leases: another
        node drives them at its next sweep) and close every socket with 1012, which a client
        answers by reconnecting (to another node behind the same address)."""
        if self.driver.stopping:
            return
        tables = self.store.tables
        self.driver.stop(list(tables.values()))
        if self.cluster is not None:
            await self.cluster.stop()
        for table in list(tables.values()):
            for conn in list(table.conns):
                conn.close(1012, "server restarting: reconnect")

    async def stop(self) -> None:
        await self.drain()
        self.database.stop()
        self.expiry.stop()
        self.workers.stop()
        self.store.stop()
        await self.database.close_commits()
        self.database.close()


class Health:
    """Whether this node can play: its database answers, and its cluster's Redis."""

    def __init__(
        self, database: Database, settings: Settings, cluster: Cluster | None = None
    ) -> None:
        self.database = database
        self.settings = settings
        self.cluster = cluster

    @property
    def node(self) -> str:
        if self.cluster is not None:
            return self.cluster.node
        return self.settings.node_id or "single"

    async def check(self) -> dict[str, str]:
        """ "ok" or "down" for the database, and for Redis ("off": no cluster)."""
        database = "ok" if await self.database.up() else "down"
        redis = "off"
        if self.cluster is not None:
            up = self.cluster.redis_ok and await self.cluster.check_redis()
            redis = "ok" if up else "down"
        return {"database": database, "redis": redis}

    def hearing(self) -> dict[str, object] | None:
        """What this node hears of its cluster (None without one): the tables whose channel
        it listens to, the messages heard since it started, by kind (and those it published
        itself, dropped unread), whether it holds its own
        lease (without it, it drives no table: just started, or Redis or the database lost)
        and how many tables it drives."""
        if self.cluster is None:
            return None
        return {
            "node": self.cluster.node,
            "channels": len(self.cluster.watched),
            "heard": dict(self.cluster.heard),
            "own": dict(self.cluster.own),  # of those, its own, skipped once decoded
            "leased": self.cluster.epoch is not None,
            "driving": len(self.cluster.held),
        }


__all__ = ["Health", "Lifecycle"]
