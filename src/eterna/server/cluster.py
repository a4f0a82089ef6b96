"""A cluster node's links to the others: leases (leases.py) and the fan-out of events over
Redis pub/sub (docs/web.md, "Running on several machines: design").

Every node publishes what changed at a table (an accepted action with its ply, seats claimed or
filled, a table ended, a rematch, which seats are connected here) on one Redis channel, in the
order it happened on that node; every node relays what it hears to its own sockets through its
copy of the table, applying actions strictly in ply order: an action it already has is skipped,
an action after a gap makes it read the missing ones from the database first. So each seat, on
whichever node its socket is, gets every event once and in order.

The lease loop renews this node's leases and takes over the tables nobody drives (their driver
died, or was stopped), within about `lease_ttl` seconds. A node cut off from Redis gives its
leases up (it cannot announce moves) and refuses moves until Redis is back; a node cut off from
the database cannot renew, and its leases lapse: either way another node drives, never two.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import orjson

from eterna.server.leases import Lease, LeaseStore
from eterna.server.shared_limits import SharedLimits

log = logging.getLogger("eterna.server")

CHANNEL = "eterna:events"
ORPHANS_PER_SWEEP = 50  # tables taken over per lease sweep at most
REDIS_TIMEOUT = 2.0  # seconds a Redis command may take before Redis counts as lost
REDIS_CONNECTIONS = 100  # a node's connections to Redis for commands (the listener has its own)

DB = Callable[..., Awaitable[Any]]


class Listener(Protocol):
    """What the node does with what the cluster tells it (relay.py), given when it starts."""

    async def on_message(self, message: dict[str, Any]) -> None: ...
    async def on_reconnect(self) -> None: ...
    async def on_acquired(self, table_id: str, lease: Lease) -> None: ...
    def on_lost(self, table_id: str) -> None: ...
    async def on_sweep(self) -> None: ...


class Deaf:
    """The listener of a cluster link not started yet: nothing to keep in step."""

    async def on_message(self, message: dict[str, Any]) -> None:
        return None

    async def on_reconnect(self) -> None:
        return None

    async def on_acquired(self, table_id: str, lease: Lease) -> None:
        return None

    def on_lost(self, table_id: str) -> None:
        return None

    async def on_sweep(self) -> None:
        return None


def default_node_id() -> str:
    """This node's id when none is given: its host name and process id."""
    return f"{socket.gethostname()[:40]}-{os.getpid()}"


class Cluster:
    """This node's leases and its end of the pub/sub fan-out (see the module's doc)."""

    def __init__(
        self,
        node: str,
        redis_url: str,
        leases: LeaseStore,
        ttl: float = 3.0,
        renew: float = 1.0,
        db: DB | None = None,
    ) -> None:
        import redis.asyncio as aioredis

        self.node = node
        self.leases = leases
        self.db: DB = db or _no_db  # the node's storage threads (database.py)
        self.background: set[asyncio.Task[None]] = set()
        self.ttl = ttl
        self.renew_every = renew
        # a command waits for a free connection (up to REDIS_TIMEOUT) rather than failing at
        # once when a burst (hundreds of sockets connecting) has them all in use
        pool = aioredis.BlockingConnectionPool.from_url(
            redis_url,
            max_connections=REDIS_CONNECTIONS,
            timeout=REDIS_TIMEOUT,
            socket_timeout=REDIS_TIMEOUT,
            socket_connect_timeout=REDIS_TIMEOUT,
        )
        self.redis = aioredis.Redis.from_pool(pool)
        self.listener = aioredis.from_url(redis_url, socket_connect_timeout=REDIS_TIMEOUT)
        self.limits = SharedLimits(self.redis, node, lambda: self.redis_ok)  # quotas, rates, caps
        self.held: dict[str, int] = {}  # table id: fencing token
        self.valid_until = 0.0  # monotonic time until which the held leases surely hold
        self.redis_ok = False
        self.db_ok = True
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []
        self.told: Listener = Deaf()  # the node's parts kept in step (relay.py), from start()

    # ----------------------------------------------------------------- lifecycle
    def start(self, told: Listener) -> None:
        """Listen, publish and sweep the leases; what comes in goes to `told`."""
        self.told = told
        loop = asyncio.get_running_loop()
        self.tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._publish()),
            loop.create_task(self._lease_loop()),
        ]

    async def stop(self) -> None:
        """Drain: stop driving and give every lease up, so another node takes over at once."""
        for task in self.tasks:
            task.cancel()
        held, self.held = list(self.held), {}
        self.valid_until = 0.0
        try:
            await self.db(self.leases.release, self.node)
            log.info("node %s: released %d leases", self.node, len(held))
        except Exception:
            log.exception("node %s: cannot release its leases (they expire)", self.node)
        for client in (self.redis, self.listener):
            with contextlib.suppress(Exception):
                await client.aclose()

    # ----------------------------------------------------------------- leases
    def holds(self, table_id: str) -> bool:
        """This node drives the table (its lease is held and not about to lapse)."""
        return table_id in self.held and time.monotonic() < self.valid_until

    def fence(self, table_id: str) -> tuple[str, int] | None:
        token = self.held.get(table_id)
        return None if token is None else (self.node, token)

    async def acquire(self, table_id: str) -> Lease | None:
        """Take a table's lease now (a table this node just created)."""
        if not self.redis_ok:
            return None
        started = time.monotonic()
        try:
            lease: Lease | None = await self.db(self.leases.acquire, table_id, self.node, self.ttl)
        except Exception:
            log.exception("table %s: cannot take its lease", table_id)
            return None
        if lease is not None:
            self.held[table_id] = lease.token
            if not self.valid_until:
                self.valid_until = started + self.ttl - self.renew_every / 2
        return lease

    def drop(self, table_id: str) -> None:
        """Forget a lease this node no longer needs (its table is over), releasing it."""
        if self.held.pop(table_id, None) is not None:
            task = asyncio.get_running_loop().create_task(self._release(table_id))
            self.background.add(task)
            task.add_done_callback(self.background.discard)

    async def _release(self, table_id: str) -> None:
        try:
            await self.db(self.leases.forget, self.node, [table_id])
        except Exception:
            log.warning("table %s: its lease could not be released (it expires)", table_id)

    def arm_later(self, table_id: str, deadline: float, ply: int) -> None:
        task = asyncio.get_running_loop().create_task(self.arm(table_id, deadline, ply))
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def arm(self, table_id: str, deadline: float, ply: int) -> None:
        """Store the turn deadline armed at `ply`, for a node that takes the table over."""
        token = self.held.get(table_id)
        if token is None:
            return
        try:
            await self.db(self.leases.arm, table_id, self.node, token, deadline, ply)
        except Exception:
            log.warning("table %s: its turn deadline could not be stored", table_id)

    async def _lease_loop(self) -> None:
        while True:
            await self._sweep()
            await asyncio.sleep(self.renew_every)

    async def _sweep(self) -> None:
        started = time.monotonic()
        if not self.redis_ok:  # a node that cannot announce moves drives nothing
            if self.held:
                self._lose(set(self.held))
                await self._hand_over()
            return
        driving = dict(self.held)
        try:
            held = await self.db(self.leases.renew, self.node, self.ttl, list(driving))
            self.db_ok = True
        except Exception:
            if self.db_ok:
                log.error("node %s: the database is lost: leases not renewed", self.node)
            self.db_ok = False
            if time.monotonic() > self.valid_until:
                self._lose(set(self.held))
            return
        self.valid_until = started + self.ttl - self.renew_every / 2
        # lost: a lease renewed in vain, unless taken again meanwhile (a new token)
        self._lose({t for t, k in driving.items() if held.get(t) != k and self.held.get(t) == k})
        try:
            orphans = await self.db(self.leases.orphans, ORPHANS_PER_SWEEP)
        except Exception:
            return
        for table_id in orphans:
            lease = await self.acquire(table_id)
            if lease is not None:
                log.info("node %s drives table %s (token %d)", self.node, table_id, lease.token)
                try:
                    await self.told.on_acquired(table_id, lease)
                except Exception:
                    log.exception("table %s: cannot take it over", table_id)
        try:
            await self.told.on_sweep()
        except Exception:
            log.exception("node %s: the sweep failed", self.node)

    async def _hand_over(self) -> None:
        """End this node's leases now, so that a node that still reaches Redis drives them at
        its next sweep (if the database does not answer either, they expire by themselves)."""
        try:
            await self.db(self.leases.release, self.node)
        except Exception:
            log.warning("node %s: its leases could not be handed over (they expire)", self.node)

    def _lose(self, table_ids: set[str]) -> None:
        for table_id in table_ids:
            self.held.pop(table_id, None)
            log.warning("node %s no longer drives table %s", self.node, table_id)
            self.told.on_lost(table_id)

    # ----------------------------------------------------------------- fan-out
    def publish(self, message: dict[str, Any]) -> None:
        """Announce a change to every node (this one included), in this node's order."""
        self.outbox.put_nowait(message)

    async def _publish(self) -> None:
        while True:
            messages = [await self.outbox.get()]
            while not self.outbox.empty():  # what queued meanwhile goes in one round trip
                messages.append(self.outbox.get_nowait())
            try:
                if len(messages) == 1:
                    await self.redis.publish(CHANNEL, _encode(messages[0]))
                else:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for message in messages:  # published in this order
                            pipe.publish(CHANNEL, _encode(message))
                        await pipe.execute()
            except Exception as exc:
                # nodes that missed it read the move from the database (on_sweep, reconnect)
                if self.redis_ok:
                    log.error("node %s: Redis is lost (%s)", self.node, exc)
                self.redis_ok = False
                await self._recover()

    async def _recover(self) -> None:
        """After a failed publish (a timeout while the node was starved, or Redis lost): once
        Redis answers, the tables are caught up and moves accepted again. The subscriber does
        the same when its own connection breaks; a subscriber still connected missed nothing,
        and without this a publish that timed out would leave the node refusing moves."""
        while not await self.check_redis():
            await asyncio.sleep(0.5)
        if not self.redis_ok:
            try:
                await self.told.on_reconnect()
            except Exception:
                log.exception("node %s: the tables could not be caught up", self.node)
                return
            log.info("node %s: Redis is back", self.node)
            self.redis_ok = True

    async def _listen(self) -> None:
        while True:
            pubsub = self.listener.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                await self.redis.ping()
                if not self.redis_ok:
                    log.info("node %s: Redis is back", self.node)
                self.redis_ok = True
                await self.told.on_reconnect()
                # a blocking read, without a timer armed and cancelled for every message; a
                # lost connection ends it with an error, as it ended a read with a timeout
                async for message in pubsub.listen():
                    try:
                        await self.told.on_message(orjson.loads(message["data"]))
                    except Exception:
                        log.exception("node %s: an event could not be relayed", self.node)
                raise ConnectionError("the subscription ended")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.redis_ok:
                    log.error("node %s: Redis is lost (%s)", self.node, exc)
                self.redis_ok = False
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def check_redis(self) -> bool:
        try:
            await self.redis.ping()
            return True
        except Exception:
            return False


def _encode(message: dict[str, Any]) -> bytes:
    """A message as compact JSON (keys that are not strings, such as seat numbers, written as
    strings, as `json` does)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


async def _no_db(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


__all__ = ["CHANNEL", "Cluster", "Listener", "default_node_id"]
