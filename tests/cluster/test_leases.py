"""The lease loop (docs/web.md, "Leases with fencing"): a node sweeps as soon as Redis answers
(at start, and when Redis is back), never two sweeps at once; a dead node's tables are taken
over in one statement, one winner when two nodes race for them."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from typing import Any

from services import RedisServer

from eterna.server.cluster import Cluster, Deaf
from eterna.server.leases import Lease


class CountingLeases:
    """A lease store that counts what the sweeps ask of it, each call taking a few event-loop
    turns, so that two sweeps running at once would overlap inside it."""

    def __init__(self) -> None:
        self.registered = 0  # epochs handed out
        self.renewed = 0
        self.released = 0
        self.running = 0
        self.most_at_once = 0

    def register(self, node: str, ttl: float) -> int:
        self.registered += 1
        return self.registered

    def renew(self, node: str, epoch: int, ttl: float) -> bool:
        self.renewed += 1
        return epoch == self.registered and self.released == 0

    def release(self, node: str) -> None:
        self.released += 1

    def orphans(self, limit: int) -> list[str]:
        return []

    def acquire_all(self, table_ids: list[str], node: str, epoch: int) -> dict[str, Lease]:
        return {}


async def until(check: Callable[[], bool], what: str, timeout: float = 30) -> None:
    """Poll: the figures asserted are counts, the timeout only ends a test that failed."""
    for _ in range(int(timeout / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"never: {what}")


def test_the_node_sweeps_as_soon_as_redis_answers(redis: RedisServer) -> None:
    """With a renew period of an hour, only a wake-up sweeps after the first sweep (which ran
    before Redis answered): the node's lease is registered once Redis confirms the listener,
    again under a new epoch once Redis is back after being lost; repeated wake-ups never run
    two sweeps at once nor register a second epoch."""
    leases = CountingLeases()

    async def db(fn: Callable[..., Any], *args: Any) -> Any:
        leases.running += 1
        leases.most_at_once = max(leases.most_at_once, leases.running)
        try:
            for _ in range(3):
                await asyncio.sleep(0)
            return fn(*args)
        finally:
            leases.running -= 1

    async def run() -> None:
        node = Cluster(f"s-{uuid.uuid4().hex[:6]}", redis.url, leases, ttl=7200, renew=3600, db=db)
        node.start(Deaf())
        try:
            await until(lambda: node.epoch == 1, "the lease registered once Redis answered")
            assert node.redis_ok and leases.registered == 1
            sweeps = node.sweeps
            for _ in range(20):  # wake-ups while a sweep runs, and between sweeps
                node.wake.set()
                await asyncio.sleep(0)
            await asyncio.gather(*(node._connected() for _ in range(5)))
            await until(lambda: not node.wake.is_set() and leases.running == 0, "the wakes")
            assert node.sweeps > sweeps and leases.renewed >= 1
            assert leases.registered == 1 and node.epoch == 1 and leases.most_at_once == 1

            redis.stop()
            await until(lambda: not node.redis_ok, "Redis seen lost")
            node.wake.set()  # a sweep without Redis: the node hands its lease over
            await until(lambda: leases.released == 1 and node.epoch is None, "handed over")
            released = leases.released
            redis.start()  # the same port: the listener connects again by itself
            await until(lambda: node.epoch == 2, "the lease registered again once Redis is back")
            assert leases.registered == 2 and leases.released == released
            assert leases.most_at_once == 1
        finally:
            await node.stop()

    asyncio.run(run())
