"""A channel per table (docs/web.md, "Fan-out over Redis"): a node hears a table's events only
while it keeps a copy of the table (a socket of it here, or its lease), counted by the node
itself (`GET /api/cluster`); a socket that attaches while moves flow, on a node that had no
copy, misses none and is told none twice; a subscription is in effect when `watch` returns, and
gone once released."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from typing import Any

import redis.asyncio as aioredis
from nodes import Node, driver_of, redis_base_url, wait_over
from players import Seat, assert_replays, assert_told_once, record_of, your_turn
from sqlalchemy import create_engine, text

from eterna.server.cluster import Cluster, Deaf, channel_of
from eterna.server.leases import LeaseStore

BOTS = [{"kind": "bot", "agent": a} for a in ("heuristic", "random", "heuristic")]


def hearing(node: Node) -> dict[str, Any]:
    response = node.http.get("/api/cluster")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert body["node"] == node.name
    return body


def acts_heard(node: Node) -> int:
    return int(hearing(node)["heard"].get("act", 0))


def wait_leased(nodes: list[Node], timeout: float = 30) -> None:
    """Until every node holds its own lease: a node just started takes it as soon as Redis
    answers, and a table made on a node without one is driven by whichever node sweeps first."""
    deadline = time.monotonic() + timeout
    while not all(hearing(n)["leased"] for n in nodes):
        assert time.monotonic() < deadline, "a node never took its lease"
        time.sleep(0.1)


def bots_alone(home: Node, seed: int) -> str:
    """A table of bots alone created on `home`, which drives it; nobody anywhere reads it."""
    created = home.create(game="eternity", players=3, seed=seed, bot_delay=0.2, seats=BOTS)
    return str(created["table_id"])


def wait_ply(node: Node, table_id: str, ply: int, timeout: float = 60) -> int:
    deadline = time.monotonic() + timeout
    while (plies := int(node.summary(table_id)["plies"])) < ply:
        assert time.monotonic() < deadline, f"table {table_id} stuck at ply {plies}"
        time.sleep(0.05)
    return plies


def wait_channels(node: Node, count: int, timeout: float = 20) -> None:
    """Until the node hears `count` tables' channels (a copy is forgotten `lease_ttl` after
    its last socket left, its channel released at the next lease sweep)."""
    deadline = time.monotonic() + timeout
    while (now := hearing(node)["channels"]) != count:
        assert time.monotonic() < deadline, f"node {node.name} hears {now} channels"
        time.sleep(0.2)


class Watcher(threading.Thread):
    """A spectator's socket, read until the game ends (or until it has seen `leave_at`)."""

    def __init__(self, node: Node, table_id: str, leave_at: int | None = None) -> None:
        super().__init__(daemon=True)
        self.seat = Seat(node.ws(table_id), None)  # its `plies`: every event told, in order
        self.leave_at = leave_at
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while True:
                frame = self.seat.ws.recv(timeout=90)
                if frame["type"] != "update":
                    continue
                if frame["table"]["status"] == "over":
                    return
                if self.leave_at is not None and frame["ply"] >= self.leave_at:
                    self.seat.ws.close()
                    return
        except BaseException as exc:
            self.error = exc


def test_a_node_hears_only_the_tables_it_keeps(nodes: list[Node], database_url: str) -> None:
    """A table driven by n0 and watched there: n1 and n2 hear none of its moves; a spectator
    on n1 makes n1 hear them (and only n1), and once it left n1 stops hearing them."""
    home, guest, idle = nodes
    wait_leased(nodes)
    before = {n.name: acts_heard(n) for n in nodes}
    channels = {n.name: hearing(n)["channels"] for n in nodes}
    table_id = bots_alone(home, seed=31)
    watcher = Watcher(home, table_id)
    watcher.start()
    ply = wait_ply(home, table_id, 12)
    assert acts_heard(guest) == before[guest.name]  # not one of its moves
    assert acts_heard(idle) == before[idle.name]
    assert acts_heard(home) - before[home.name] >= ply - 1  # its driver hears its own

    visitor = Watcher(guest, table_id)  # n1 now has a socket of the table
    visitor.start()
    wait_ply(home, table_id, ply + 10)
    assert hearing(guest)["channels"] == channels[guest.name] + 1
    assert acts_heard(guest) > before[guest.name]
    assert acts_heard(idle) == before[idle.name]
    visitor.seat.ws.close()
    visitor.join(timeout=10)
    wait_channels(guest, channels[guest.name])  # the copy forgotten, its channel released
    heard = acts_heard(guest)
    ply = int(home.summary(table_id)["plies"])
    if home.summary(table_id)["status"] != "over":
        wait_ply(home, table_id, ply + 5)
        assert acts_heard(guest) == heard  # n1 hears none of its moves again

    watcher.join(timeout=120)
    assert watcher.error is None, repr(watcher.error)
    record = record_of(home, table_id)
    assert_told_once(watcher.seat, record)
    assert driver_of(database_url, table_id) in (home.name, None)  # n0 drove it throughout
    assert acts_heard(idle) == before[idle.name]


def test_sockets_attached_while_moves_flow_miss_none(nodes: list[Node]) -> None:
    """Spectators attach on the two nodes that do not drive the table while its bots play,
    each on a node with no copy of it (read after its channel is heard): every one is told
    every event from the first, once and in order, to the end or until it left; one leaves,
    its node forgets the table, and the next one there reads it again."""
    home, first, second = nodes
    wait_leased(nodes)
    unwatched = hearing(first)["channels"]
    table_id = bots_alone(home, seed=32)
    leaving = Watcher(first, table_id, leave_at=8)
    leaving.start()
    leaving.join(timeout=60)
    assert leaving.error is None, repr(leaving.error)
    plies = leaving.seat.plies
    assert plies == list(range(1, len(plies) + 1)) and len(plies) >= 8
    watchers = [Watcher(second, table_id)]  # second: its first copy
    watchers[0].start()
    wait_channels(first, unwatched)  # first forgot it: the next one there reads it again
    for node in (first, second, first):
        time.sleep(0.6)
        watcher = Watcher(node, table_id)
        watcher.start()
        watchers.append(watcher)
    summary = wait_over(home, table_id, 180)
    for watcher in watchers:
        watcher.join(timeout=30)
        assert watcher.error is None, repr(watcher.error)
    record = record_of(home, table_id)
    assert_replays(record)
    assert len(record["actions"]) == summary["plies"]
    for watcher in watchers:  # every event once and in order, from ply 1 to the last
        assert_told_once(watcher.seat, record)


def test_a_channel_is_heard_once_watch_returns() -> None:
    """Redis's own count of receivers: 1 for a message published the moment `watch`
    returned, 0 once the table's channel was released; what was published is heard."""

    class Counting(Deaf):
        def __init__(self) -> None:
            self.tables: list[str] = []

        async def on_message(self, message: dict[str, Any]) -> None:
            self.tables.append(str(message["t"]))

    async def run() -> None:
        leases = LeaseStore(create_engine("sqlite://"))
        node = Cluster(f"w-{uuid.uuid4().hex[:6]}", redis_base_url(), leases)
        told = node.told = Counting()
        listening = asyncio.get_running_loop().create_task(node._listen())
        other = aioredis.from_url(redis_base_url())

        async def publish(table_id: str) -> int:
            message = b'{"k":"x","t":"%s"}' % table_id.encode()
            return int(await other.publish(channel_of(table_id), message))

        try:
            for _ in range(200):  # connected: its own channel confirmed
                if node.redis_ok:
                    break
                await asyncio.sleep(0.05)
            assert node.redis_ok
            tables = [f"w{uuid.uuid4().hex[:10]}" for _ in range(20)]
            for table_id in tables:
                assert await node.watch(table_id)  # not heard before
                assert await publish(table_id) == 1  # heard at once
                assert not await node.watch(table_id)  # heard already
            await node.release(tables[10:])  # the first ten no longer in use
            assert sorted(node.watched) == sorted(tables[10:])
            for _ in range(200):  # the UNSUBSCRIBE was sent; Redis has done it once
                counts = dict(await other.pubsub_numsub(*(channel_of(t) for t in tables)))
                if sum(counts.values()) == 10:
                    break
                await asyncio.sleep(0.05)
            for table_id in tables:
                assert await publish(table_id) == (0 if table_id in tables[:10] else 1)
            for _ in range(200):
                if len(told.tables) >= 30:
                    break
                await asyncio.sleep(0.05)
            assert told.tables == tables + tables[10:]
            assert node.heard["x"] == 30
        finally:
            listening.cancel()
            await other.aclose()
            await node.listener.aclose()
            await node.redis.aclose()

    asyncio.run(run())


def test_a_copy_loaded_on_another_node_shows_the_drivers_countdown(nodes: list[Node]) -> None:
    """A page whose socket is on a node that does not drive its table sees the turn deadline
    the driver armed, from its first frame (before: `deadline: null` until the next move,
    whose message carries it, so the countdown was missing on that page)."""
    home, other, _ = nodes
    wait_leased(nodes)
    created = home.create(
        game="eternity",
        players=3,
        seed=41,
        turn_timer=600,
        bot_delay=0,
        seats=[{"kind": "human", "name": "Ada"}, {"kind": "bot"}, {"kind": "bot"}],
    )
    table_id, token = str(created["table_id"]), created["seats"][0]["token"]
    deadline = time.monotonic() + 60
    while home.summary(table_id)["current_player"] != 0:  # the bots move up to Ada's turn
        assert time.monotonic() < deadline, "the bots never reached the human's turn"
        time.sleep(0.05)
    watcher = home.ws(table_id)  # on the driving node: the deadline it armed
    armed = your_turn(watcher)["deadline"]
    assert armed is not None
    engine = create_engine(home.database_url)
    try:  # the driver stores what it armed right after arming it
        while (stored := _armed(engine, table_id)) is None:
            assert time.monotonic() < deadline, "the driver never stored its deadline"
            time.sleep(0.05)
    finally:
        engine.dispose()
    assert stored[0] == armed
    assert driver_of(home.database_url, table_id) == home.name
    seat = other.ws(table_id, token)  # a copy loaded now, on a node that does not drive it
    first = your_turn(seat)
    assert first["deadline"] == armed, (first["deadline"], armed)


def _armed(engine: Any, table_id: str) -> tuple[float, int] | None:
    with engine.begin() as conn:
        row = conn.execute(
            text("SELECT deadline, deadline_ply FROM leases WHERE table_id = :t"), {"t": table_id}
        ).first()
    return None if row is None or row[0] is None else (float(row[0]), int(row[1]))


def own_heard(node: Node) -> int:
    return int(hearing(node)["own"].get("act", 0))


def test_a_node_drops_its_own_moves_heard_back_and_applies_the_others(nodes: list[Node]) -> None:
    """Redis hands a node back what it published on the channels it hears: the node that
    stores a table's moves (its driver, playing the bots) drops each of its own once decoded,
    never relaying it again; a node that stored none applies every one of them to its copy
    and tells its spectator each once and in order."""
    home, guest, _ = nodes
    wait_leased(nodes)
    acts = {n.name: acts_heard(n) for n in (home, guest)}
    own = {n.name: own_heard(n) for n in (home, guest)}
    table_id = bots_alone(home, seed=33)
    watcher = Watcher(guest, table_id)  # guest keeps a copy: it hears the table's moves
    watcher.start()
    wait_over(home, table_id, 180)
    watcher.join(timeout=60)
    assert watcher.error is None, repr(watcher.error)
    record = record_of(home, table_id)
    assert_told_once(watcher.seat, record)  # guest applied home's moves, each once, in order
    moves = len(record["actions"])
    assert moves > 10
    # home heard each move it stored back, and dropped it (other tests' tables may still be
    # moving on home: at least as many, never fewer)
    own_home = own_heard(home) - own[home.name]
    assert own_home >= moves, (own_home, moves)
    assert acts_heard(home) - acts[home.name] >= own_home
    assert own_heard(guest) == own[guest.name]  # guest stored none: none of them is its own
    assert acts_heard(guest) - acts[guest.name] >= moves - watcher.seat.plies[0]
