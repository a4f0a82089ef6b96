"""A cluster node's links to the others: leases (leases.py) and the fan-out of events over
Redis pub/sub (docs/web.md, "Running on several machines: design").

Every node publishes what changed at a table (an accepted action with its ply, seats claimed or
filled, a table ended, which seats are connected here) on that table's own Redis channel, in
the order it happened on that node; a node hears a table's channel only while it keeps a copy
of the table in memory (`watch` before the copy is read or made, `release` once it is gone),
and relays what it hears to its own sockets through that copy, applying actions strictly in
ply order: an action it already has is skipped, an action after a gap makes it read the missing
ones from the database first. So each seat, on whichever node its socket is, gets every event
once and in order, and a node hears none of the tables it neither drives nor serves. A finished
table's rematch goes on the one channel every node hears (every node may keep the finished
table in its cache), and so does a stopping node's word that it handed its leases over.

The lease loop renews this node's leases and takes over the tables nobody drives (their driver
died, or was stopped): it sweeps every `renew_every` seconds, at once when Redis answers or a
stopping node handed its leases over, and just after another node's lease lapses, so a dead
node's tables are driven again within about `lease_ttl` seconds. A node cut off from Redis gives its
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
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

import orjson

from eterna.server.leases import Lease, LeaseStore
from eterna.server.shared_limits import SharedLimits

log = logging.getLogger("eterna.server")

CHANNEL = "eterna:events"  # what every node hears: a finished table's rematch
TABLE_CHANNEL = "eterna:t:"  # + a table's id: that table's events, heard by the nodes keeping it
ORPHANS_PER_SWEEP = 50  # tables taken over per lease sweep at most
RELEASED = "released"  # on CHANNEL: a node stopping handed its leases over (wakes the sweeps)
LAPSE_MARGIN = 0.05  # seconds after another node's lease lapses that a sweep looks for orphans
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
        self.epoch: int | None = None  # this node's lease (leases.py), while it holds one
        self.valid_until = 0.0  # monotonic time until which the held leases surely hold
        self.redis_ok = False
        self.db_ok = True
        self.outbox: asyncio.Queue[tuple[bytes, dict[str, Any]]] = asyncio.Queue()
        # the tables whose channel this node hears, each with its subscription's confirmation
        # (done once Redis confirmed it, or given up: the catch-up covers what it missed)
        self.watched: dict[str, asyncio.Future[None]] = {}
        self.pins: Counter[str] = Counter()  # tables being watched right now (never released)
        self.pubsub: Any = None  # the listener's subscriptions while it is connected
        # subscriptions changed one command at a time, in the order they were decided
        self.commands = asyncio.Lock()
        self.heard: Counter[str] = Counter()  # messages heard, by kind (GET /api/cluster)
        # This process's mark on what it publishes (`o`): its own messages, which Redis hands
        # back to it on the channels it hears, are dropped as soon as they are decoded (it
        # told its own sockets already), counted by kind. A mark of the process, not the node's
        # name: a node started again under the same name hears what the dead one published.
        self.origin = os.urandom(4).hex()
        self.own: Counter[str] = Counter()
        self.tasks: list[asyncio.Task[None]] = []
        # set when Redis answers (at start, and when it is back): the lease loop sweeps at once
        # rather than at the end of its sleep, so the node holds its lease within a round trip
        self.wake = asyncio.Event()
        self.sweeps = 0  # lease sweeps done (tests count them)
        # when (monotonic) the first of the other nodes' leases lapses unless renewed, as the
        # last sweep saw it
        self.lapse: float | None = None
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
        self.epoch = None
        self.valid_until = 0.0
        try:
            await self.db(self.leases.release, self.node)
            log.info("node %s: released %d leases", self.node, len(held))
            if held and self.redis_ok:  # the others sweep now, not at the end of their period
                message = _encode({"k": RELEASED, "n": self.node})
                await asyncio.wait_for(self.redis.publish(CHANNEL, message), REDIS_TIMEOUT)
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
        """Take a table's lease now (a table this node just created), under this node's own
        lease (none yet: the lease sweep takes the table soon)."""
        epoch = self.epoch
        if not self.redis_ok or epoch is None:
            return None
        try:
            lease: Lease | None = await self.db(self.leases.acquire, table_id, self.node, epoch)
        except Exception:
            log.exception("table %s: cannot take its lease", table_id)
            return None
        if lease is not None and self.epoch == epoch:
            self.held[table_id] = lease.token
        return lease

    async def acquire_all(self, table_ids: list[str]) -> dict[str, Lease]:
        """Take the leases of these tables nobody drives (a dead node's), in one statement: the
        leases taken, by table (another node's are left out)."""
        epoch = self.epoch
        if not self.redis_ok or epoch is None:
            return {}
        try:
            taken: dict[str, Lease] = await self.db(
                self.leases.acquire_all, table_ids, self.node, epoch
            )
        except Exception:
            log.exception("node %s: cannot take %d tables over", self.node, len(table_ids))
            return {}
        if self.epoch != epoch:  # lost meanwhile: they lapse with that epoch
            return {}
        for table_id, lease in taken.items():
            self.held[table_id] = lease.token
        return taken

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
        """One sweep every `renew_every` seconds, or at once when woken (`wake`: Redis
        answers), never two at a time: a second sweep running beside the first could register
        the node's lease twice, under two epochs. A wake during a sweep makes one more sweep
        right after it; wakes while waiting make one sweep together. When another node's lease
        lapses before the next sweep (that node stopped renewing it: dead, or cut off), the
        next sweep comes just after the lapse, to take its tables over without waiting out
        the period."""
        while True:
            self.wake.clear()
            self.lapse = None
            await self._sweep()
            self.sweeps += 1
            wait = self.renew_every
            if self.lapse is not None:
                wait = min(wait, max(self.lapse - time.monotonic(), 0.0) + LAPSE_MARGIN)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), wait)

    async def _sweep(self) -> None:
        started = time.monotonic()
        if not self.redis_ok:  # a node that cannot announce moves drives nothing
            if self.epoch is not None:
                self.epoch = None  # a new epoch when Redis is back
                self._lose(set(self.held))
                await self._hand_over()
            return
        try:
            epoch = self.epoch
            if epoch is None or not await self.db(self.leases.renew, self.node, epoch, self.ttl):
                if epoch is not None:  # lapsed, or handed over: not one table is ours now
                    log.warning("node %s: its lease lapsed", self.node)
                    self.epoch = None
                    self._lose(set(self.held))
                epoch = self.epoch = await self.db(self.leases.register, self.node, self.ttl)
            self.db_ok = True
        except Exception:
            if self.db_ok:
                log.error("node %s: the database is lost: leases not renewed", self.node)
            self.db_ok = False
            if time.monotonic() > self.valid_until:
                self._lose(set(self.held))
            return
        self.valid_until = started + self.ttl - self.renew_every / 2
        try:
            orphans = await self.db(self.leases.orphans, ORPHANS_PER_SWEEP)
            lapse: float | None = await self.db(self.leases.next_lapse, self.node)
            self.lapse = None if lapse is None else time.monotonic() + lapse
        except Exception:
            return
        taken = await self.acquire_all(orphans) if orphans else {}
        for table_id in orphans:  # the oldest first, as found
            lease = taken.get(table_id)
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
        """Announce a change to the nodes keeping its table (this one included), in this
        node's order; a rematch to every node."""
        channel = CHANNEL_BYTES if message["k"] == "rematch" else channel_of(str(message["t"]))
        self.outbox.put_nowait((channel, {**message, "o": self.origin}))

    async def _publish(self) -> None:
        while True:
            messages = [await self.outbox.get()]
            while not self.outbox.empty():  # what queued meanwhile goes in one round trip
                messages.append(self.outbox.get_nowait())
            try:
                if len(messages) == 1:
                    channel, message = messages[0]
                    await self.redis.publish(channel, _encode(message))
                else:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for channel, message in messages:  # published in this order
                            pipe.publish(channel, _encode(message))
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
            self.wake.set()

    # ----------------------------------------------------------------- subscriptions
    async def watch(self, table_id: str) -> bool:
        """Hear the table's channel from now on: call it before reading the table (or making
        it), so that every action stored after the read is heard. Returns once Redis confirmed
        the subscription (or could not: without Redis nothing is heard, and the copies are
        caught up when it is back). True when the channel was not heard before this call: a
        table read before it may be behind."""
        future = self.watched.get(table_id)
        if future is not None and future.done():
            return False
        self.pins[table_id] += 1
        try:
            if future is None:
                future = self.watched[table_id] = asyncio.get_running_loop().create_future()
                pubsub = self.pubsub
                if pubsub is None:  # not connected: the listener subscribes it when it is
                    future.set_result(None)
                    return True
                async with self.commands:
                    if self.pubsub is pubsub:  # else the new connection subscribed it
                        await pubsub.subscribe(channel_of(table_id))
            await asyncio.wait_for(asyncio.shield(future), REDIS_TIMEOUT)
        except Exception as exc:  # lost meanwhile: caught up from the database later
            log.warning("table %s: its channel is not confirmed (%r)", table_id, exc)
        finally:
            self.pins[table_id] -= 1
            if not self.pins[table_id]:
                del self.pins[table_id]
        return True

    async def release(self, in_use: Iterable[str]) -> None:
        """Stop hearing the channels of the tables not `in_use` (no copy in memory, none
        loading); the lease sweep calls it, so a table that comes and goes keeps its channel
        meanwhile."""
        keep = set(in_use)
        gone = [
            t for t, f in self.watched.items() if f.done() and t not in keep and t not in self.pins
        ]
        for table_id in gone:  # decided at once: a watch from now on subscribes after this
            del self.watched[table_id]
        pubsub = self.pubsub
        if not gone or pubsub is None:
            return
        try:
            async with self.commands:
                if self.pubsub is pubsub:  # else the new connection never subscribed them
                    await pubsub.unsubscribe(*(channel_of(t) for t in gone))
        except Exception as exc:
            log.warning("node %s: channels not released (%r)", self.node, exc)

    def _confirmed(self, channel: bytes) -> None:
        future = self.watched.get(channel[len(TABLE_CHANNEL_BYTES) :].decode())
        if future is not None and not future.done():
            future.set_result(None)

    def _unconfirmed(self) -> None:
        """The listener's connection is gone: nobody waits for its confirmations any more."""
        self.pubsub = None
        for future in self.watched.values():
            if not future.done():
                future.set_result(None)

    async def _listen(self) -> None:
        while True:
            pubsub = self.listener.pubsub()
            try:
                async with self.commands:
                    # every watched table again, in the same command as the node's channel: all
                    # are heard once Redis confirms the first
                    loop = asyncio.get_running_loop()
                    for table_id in self.watched:
                        self.watched[table_id] = loop.create_future()
                    self.pubsub = pubsub
                    await pubsub.subscribe(CHANNEL, *(channel_of(t) for t in self.watched))
                # a blocking read, without a timer armed and cancelled for every message; a
                # lost connection ends it with an error, as it ended a read with a timeout
                async for message in pubsub.listen():
                    kind = message["type"]
                    if kind == "message":
                        try:
                            event = orjson.loads(message["data"])
                            self.heard[str(event.get("k"))] += 1
                            if event.get("o") == self.origin:  # this process published it
                                self.own[str(event.get("k"))] += 1
                                continue
                            if event.get("k") == RELEASED:  # a node handed its tables over
                                if event.get("n") != self.node:
                                    self.wake.set()
                                continue
                            await self.told.on_message(event)
                        except Exception:
                            log.exception("node %s: an event could not be relayed", self.node)
                    elif kind == "subscribe" and message["channel"] == CHANNEL_BYTES:
                        await self._connected()
                    elif kind == "subscribe":
                        self._confirmed(message["channel"])
                raise ConnectionError("the subscription ended")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.redis_ok:
                    log.error("node %s: Redis is lost (%s)", self.node, exc)
                self.redis_ok = False
                self._unconfirmed()
                await asyncio.sleep(0.5)
            finally:
                if self.pubsub is pubsub:
                    self._unconfirmed()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _connected(self) -> None:
        """The listener hears every watched table again (one command): the copies are caught
        up from the database, read after that."""
        await self.redis.ping()
        if not self.redis_ok:
            log.info("node %s: Redis is back", self.node)
        self.redis_ok = True
        self.wake.set()  # the lease sweep at once: the node's lease, the tables nobody drives
        await self.told.on_reconnect()

    async def check_redis(self) -> bool:
        try:
            await self.redis.ping()
            return True
        except Exception:
            return False


CHANNEL_BYTES = CHANNEL.encode()
TABLE_CHANNEL_BYTES = TABLE_CHANNEL.encode()


def channel_of(table_id: str) -> bytes:
    """The channel of one table's events."""
    return TABLE_CHANNEL_BYTES + table_id.encode()


def _encode(message: dict[str, Any]) -> bytes:
    """A message as compact JSON (keys that are not strings, such as seat numbers, written as
    strings, as `json` does)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


async def _no_db(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


__all__ = ["CHANNEL", "TABLE_CHANNEL", "Cluster", "Listener", "channel_of", "default_node_id"]
