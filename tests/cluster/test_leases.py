"""The lease loop (docs/web.md, "Leases with fencing"): a node sweeps as soon as Redis answers
(at start, and when Redis is back), never two sweeps at once; a dead node's tables are taken
over in one statement, one winner when two nodes race for them."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from nodes import postgres_url
from server_helpers import fresh_schema
from services import RedisServer
from sqlalchemy import event, text

from eterna.server.cluster import ORPHANS_PER_SWEEP, Cluster, Deaf
from eterna.server.leases import Lease, LeaseStore
from eterna.server.storage import SeatData, Storage, TableData


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

    def next_lapse(self, node: str) -> float | None:
        return None

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


# ------------------------------------------------------------------ takeovers in one statement
@pytest.fixture
def storage() -> Iterator[Storage]:
    """The storage of a fresh PostgreSQL schema of the test's own (the leases live there)."""
    with fresh_schema(postgres_url()) as url:
        stored = Storage(url)
        try:
            yield stored
        finally:
            stored.close()


def make_tables(storage: Storage, count: int) -> list[str]:
    """`count` unfinished tables, stored a minute ago (no longer their maker's alone), oldest
    first."""
    ids = []
    for n in range(count):
        table_id = f"o{uuid.uuid4().hex[:10]}"
        seats = [SeatData(s, "bot", "random", "random") for s in range(3)]
        storage.create_table(
            TableData(
                id=table_id,
                game="eternity",
                players=3,
                seed=n,
                options={},
                setup=None,
                public=True,
                turn_timer=30.0,
                bot_delay=None,
                status="playing",
                created_at=time.time() - 60 + n * 0.01,
                seats=seats,
            )
        )
        ids.append(table_id)
    return ids


def dead_node(leases: LeaseStore, tables: list[str]) -> dict[str, Lease]:
    """A node that drove `tables` (a turn deadline stored for every other one) and died: its
    lease handed over, as a lapse does."""
    node = f"dead-{uuid.uuid4().hex[:6]}"
    epoch = leases.register(node, 60.0)
    held = {t: lease for t in tables if (lease := leases.acquire(t, node, epoch)) is not None}
    assert sorted(held) == sorted(tables)
    for n, table_id in enumerate(tables[::2]):
        leases.arm(table_id, node, held[table_id].token, 1000.0 + n, n)
    leases.release(node)
    return held


class Taking(Deaf):
    def __init__(self) -> None:
        self.taken: list[tuple[str, Lease]] = []
        self.on_taken: Callable[[], None] = lambda: None

    async def on_acquired(self, table_id: str, lease: Lease) -> None:
        self.on_taken()
        self.taken.append((table_id, lease))


def test_a_dead_nodes_tables_are_taken_over_in_one_statement(storage: Storage) -> None:
    """One sweep of a live node takes every orphan of a dead node with one INSERT: each
    table's token one more than the dead node's, the turn deadline it stored returned with it;
    then each table is handed to the node's parts (`on_acquired`) as before, oldest first."""
    leases = LeaseStore(storage.engine)
    tables = make_tables(storage, 30)
    assert len(tables) < ORPHANS_PER_SWEEP
    before = dead_node(leases, tables)
    statements: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        statements.append(statement)

    async def run() -> None:
        node = Cluster("live", "redis://127.0.0.1:1/0", leases)  # Redis never asked here
        node.redis_ok = True
        told = node.told = Taking()
        event.listen(storage.engine, "before_cursor_execute", count)
        try:
            await node._sweep()
        finally:
            event.remove(storage.engine, "before_cursor_execute", count)
            await node.redis.aclose()
            await node.listener.aclose()
        assert [t for t, _ in told.taken] == tables  # oldest first
        for n, (table_id, lease) in enumerate(told.taken):
            assert lease.token == before[table_id].token + 1
            armed = (1000.0 + n // 2, n // 2) if n % 2 == 0 else (None, None)
            assert (lease.deadline, lease.deadline_ply) == armed
            assert node.held[table_id] == lease.token
        assert node.epoch is not None and node.holds(tables[0])

    asyncio.run(run())
    takeovers = [s for s in statements if "INSERT INTO table_leases" in s]
    assert len(takeovers) == 1, f"{len(takeovers)} statements took the tables over"
    assert leases.orphans(ORPHANS_PER_SWEEP) == []


def test_two_nodes_racing_for_orphans_one_winner_each(storage: Storage) -> None:
    """Two live nodes take overlapping sets of a dead node's tables at the same instant, in
    opposite orders, round after round: every table has exactly one winner, whose token is
    the one stored; a node whose own lease lapsed takes nothing, nor a table another holds."""
    leases = LeaseStore(storage.engine)
    b, c = leases.register("b", 60.0), leases.register("c", 60.0)
    for _ in range(6):
        tables = make_tables(storage, 40)
        before = dead_node(leases, tables)
        start = threading.Barrier(2)
        won: dict[str, dict[str, Lease]] = {}

        racers = [
            threading.Thread(target=take, args=(leases, start, won, "b", b, tables[:30])),
            threading.Thread(target=take, args=(leases, start, won, "c", c, tables[10:][::-1])),
        ]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join()
        assert not set(won["b"]) & set(won["c"])
        assert set(won["b"]) | set(won["c"]) == set(tables)
        with storage.engine.connect() as conn:
            rows = conn.execute(
                text("SELECT table_id, node FROM table_leases WHERE table_id = ANY(:ids)"),
                {"ids": tables},
            )
            stored = {str(r[0]): str(r[1]) for r in rows}
        for node in ("b", "c"):
            for table_id, lease in won[node].items():
                assert stored[table_id] == node
                assert lease.token == before[table_id].token + 1
        assert leases.orphans(100) == []
    assert leases.acquire_all(tables, "b", b) == {}  # each held by a live node
    held_by_c = list(won["c"])
    assert held_by_c
    leases.release("c")  # c stops: its epoch lapsed, it takes nothing under it
    assert leases.acquire_all(tables, "c", c) == {}
    assert sorted(leases.acquire_all(tables, "b", b)) == sorted(held_by_c)


def take(
    leases: LeaseStore,
    start: threading.Barrier,
    won: dict[str, dict[str, Lease]],
    node: str,
    epoch: int,
    wanted: list[str],
) -> None:
    """One racer: all at once with the other, the tables it wants."""
    start.wait()
    won[node] = leases.acquire_all(wanted, node, epoch)


def test_a_dead_nodes_tables_are_taken_when_its_lease_lapses(storage: Storage) -> None:
    """With a renew period of an hour, the sweep after the first comes when the other node's
    lease lapses (it was not renewed: that node is dead), and takes its tables; one sweep at
    start, one at the lapse (two if it woke a hair early), none after while no other lease
    is held."""
    leases = LeaseStore(storage.engine)
    tables = make_tables(storage, 3)
    epoch = leases.register("d", 1.0)  # d dies: its lease lapses a second from now
    assert sorted(leases.acquire_all(tables, "d", epoch)) == sorted(tables)

    async def run() -> None:
        node = Cluster("live", "redis://127.0.0.1:1/0", leases, ttl=7200, renew=3600)
        node.redis_ok = True  # Redis never asked here
        told = node.told = Taking()
        during: list[int] = []  # the sweep that took each table: 1 is the first
        told.on_taken = lambda: during.append(node.sweeps + 1)
        loop = asyncio.get_running_loop().create_task(node._lease_loop())
        try:
            await until(lambda: len(told.taken) == 3, "the dead node's tables taken over")
            assert sorted(t for t, _ in told.taken) == sorted(tables)
            assert during[0] in (2, 3) and set(during) == {during[0]}
            await until(lambda: node.sweeps == during[0], "the sweep ended")
            assert node.lapse is None  # no other lease held: the next sweep in an hour
        finally:
            loop.cancel()
            await node.redis.aclose()
            await node.listener.aclose()

    asyncio.run(run())


def test_a_stopping_node_wakes_the_others_to_take_its_tables(
    storage: Storage, redis: RedisServer
) -> None:
    """A node stopped (SIGTERM's drain) hands its leases over and says so on the channel every
    node hears: the other node sweeps at once and takes its tables, with a renew period of an
    hour and leases that would lapse in two."""
    leases = LeaseStore(storage.engine)
    tables = make_tables(storage, 3)

    async def run() -> None:
        a = Cluster("a", redis.url, leases, ttl=7200, renew=3600)
        b = Cluster("b", redis.url, leases, ttl=7200, renew=3600)
        told = Taking()
        a.start(Deaf())
        try:
            await until(lambda: sorted(a.held) == sorted(tables), "a took the tables nobody drove")
            b.start(told)
            await until(lambda: b.epoch is not None and not b.wake.is_set(), "b leased")
            await until(lambda: b.sweeps > 0, "b's sweep done")
            assert told.taken == []
            sweeps = b.sweeps
            await a.stop()
            await until(lambda: len(told.taken) == 3, "b took the stopped node's tables")
            assert sorted(t for t, _ in told.taken) == sorted(tables)
            assert b.sweeps <= sweeps + 1 and b.heard["released"] == 1
        finally:
            await b.stop()

    asyncio.run(run())
