"""Limits counted across a cluster (shared_limits.py): the quotas, the POST and WebSocket
connection rates, the caps of open connections per address and per table, and the live-table
cap hold for two nodes together with the same figures as for a single server; while Redis is
away each node counts alone."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from nodes import postgres_url, redis_base_url
from server_helpers import TIMEOUT, ThreadServer, fresh_schema
from services import RedisServer
from sqlalchemy import create_engine
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from eterna.server.app import create_app
from eterna.server.cluster import Cluster
from eterna.server.leases import LeaseStore
from eterna.server.limits import CreateQuota, HintQuota, ShareQuota
from eterna.server.security import AddressLimiter, ConnectionCaps
from eterna.server.settings import RequestError, Settings

LIMITS = {
    "post_rate": 0.01,  # a token every 100 s: a burst is all a test gets
    "post_burst": 4.0,
    "connect_rate": 0.01,
    "connect_burst": 3.0,
    "max_connections_per_address": 2,
    "max_connections_per_table": 4,
    "tables_per_address": 0,
    "bot_delay": 0.0,
    "cheap_workers": 1,
    "search_workers": 1,
}


def an_address() -> str:
    """A client address of this run's own (the shared Redis keeps counts between runs)."""
    return ".".join(str(random.randint(1, 254)) for _ in range(4))


def on_two_nodes(scenario: Callable[[list[Cluster]], Awaitable[None]]) -> None:
    """Run `scenario` with two nodes' links to the shared Redis (no lease is taken)."""

    async def run() -> None:
        leases = LeaseStore(create_engine("sqlite://"))
        nodes = [Cluster(f"q{i}", redis_base_url(), leases) for i in range(2)]
        for node in nodes:
            node.redis_ok = True  # as its listener says once it is connected
        try:
            await scenario(nodes)
        finally:
            for node in nodes:
                await node.redis.aclose()
                await node.listener.aclose()

    asyncio.run(run())


def test_quotas_hold_across_nodes() -> None:
    async def scenario(nodes: list[Cluster]) -> None:
        address = f"192.0.2.{uuid.uuid4().int % 250}-{uuid.uuid4().hex[:6]}"
        quotas = [CreateQuota(3, 60.0) for _ in nodes]
        hints = [HintQuota(1, 60.0) for _ in nodes]
        shares = [ShareQuota(1, 60.0) for _ in nodes]
        for node, quota, hint, share in zip(nodes, quotas, hints, shares, strict=True):
            quota.shared = hint.shared = share.shared = node.limits
        await quotas[0].check(address)
        await quotas[1].check(address)
        await quotas[0].check(address)
        with pytest.raises(RequestError) as refused:  # the fourth, on either node
            await quotas[1].check(address)
        assert refused.value.status == 429 and refused.value.code == "quota"
        assert "at most 3 new tables per address every 60 s" in refused.value.message
        await quotas[0].check(f"{address}-other")  # another address has its own
        await hints[1].check(address)  # another quota too
        with pytest.raises(RequestError) as refused:
            await hints[0].check(address)
        assert refused.value.code == "hint_quota"
        await shares[0].check(address)
        with pytest.raises(RequestError) as refused:
            await shares[1].check(address)
        assert refused.value.code == "share_quota"
        for node in nodes:  # Redis away: each node counts alone, the same figures
            node.redis_ok = False
        alone = f"{address}-alone"
        for quota in quotas:
            for _ in range(3):
                await quota.check(alone)
            with pytest.raises(RequestError):
                await quota.check(alone)

    on_two_nodes(scenario)


def test_rates_and_caps_count_alone_while_redis_is_away() -> None:
    """The same limits as above, Redis away: each node has its own burst and its own caps,
    with the single server's figures; Redis back, the cluster's count again."""

    async def scenario(nodes: list[Cluster]) -> None:
        address = an_address()
        rates = [AddressLimiter(0.01, 2, "test") for _ in nodes]
        caps = [ConnectionCaps(1, 10) for _ in nodes]
        for node, rate, cap in zip(nodes, rates, caps, strict=True):
            rate.shared = cap.shared = node.limits
            node.redis_ok = False
        for rate, cap in zip(rates, caps, strict=True):
            assert [await rate.check(address) is None for _ in range(3)] == [True, True, False]
            full, ticket = await cap.admit(address, "t")
            assert full is None and ticket
            assert (await cap.admit(address, "t"))[0] == "address"
            await cap.leave(ticket)
        for node in nodes:
            node.redis_ok = True
        other = an_address()
        assert [await rates[n % 2].check(other) is None for n in range(3)] == [True, True, False]
        full, ticket = await caps[0].admit(other, "t")
        assert full is None
        assert (await caps[1].admit(other, "t"))[0] == "address"  # held on the other node
        await caps[0].renew()  # renewed, and still one
        assert (await caps[1].admit(other, "t"))[0] == "address"
        await caps[0].leave(ticket)
        full, ticket = await caps[1].admit(other, "t")
        assert full is None
        await caps[1].leave(ticket)

    on_two_nodes(scenario)


@contextmanager
def two_nodes(redis_url: str, **limits: Any) -> Iterator[list[ThreadServer]]:
    """Two nodes in this process (one fresh database, one Redis) with small limits, believing
    the X-Forwarded-For header: each test's clients come from addresses of their own."""
    with fresh_schema(postgres_url()) as url:
        servers: list[ThreadServer] = []
        try:
            for name in ("s0", "s1"):
                settings = Settings(**{**LIMITS, **limits}, node_id=name)  # type: ignore[arg-type]
                app = create_app(database_url=url, settings=settings, redis_url=redis_url)
                servers.append(ThreadServer(app, forwarded_allow_ips="127.0.0.1"))
            for server in servers:
                linked(server)
            yield servers
        finally:
            for server in servers:
                server.stop()


def linked(server: ThreadServer) -> None:
    """Wait until the node's link to Redis is up (its health says so): a node answers before,
    counting alone as it does while Redis is away, so a table it makes then is counted by the
    others only at its first lease sweep with Redis."""
    deadline = time.monotonic() + TIMEOUT
    while server.http.get("/api/health").json().get("redis") != "ok":
        assert time.monotonic() < deadline, "the node never reached Redis"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def pair() -> Iterator[list[ThreadServer]]:
    with two_nodes(redis_base_url()) as servers:
        yield servers


def post(server: ThreadServer, address: str, path: str, body: dict[str, Any]) -> Any:
    return server.http.post(path, json=body, headers={"X-Forwarded-For": address})


def socket(server: ThreadServer, address: str, table_id: str, stack: ExitStack) -> ClientConnection:
    """A WebSocket from `address` (closed with the `stack` at the latest)."""
    url = server.base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    conn = connect(
        url,
        additional_headers={"X-Forwarded-For": address},
        proxy=None,
        open_timeout=TIMEOUT,
        close_timeout=2,
    )
    return stack.enter_context(conn)


def refused_with(conn: ClientConnection) -> tuple[int, str] | None:
    """The close code and reason of a socket the server closed at once, or None if it is
    serving (it sent the welcome)."""
    try:
        conn.recv(timeout=TIMEOUT)
    except ConnectionClosed as exc:
        assert exc.rcvd is not None
        return exc.rcvd.code, exc.rcvd.reason
    return None


def test_the_post_rate_holds_across_nodes(pair: list[ThreadServer]) -> None:
    address = an_address()
    answers = [post(pair[n % 2], address, "/api/tables", {"game": 1}).status_code for n in range(5)]
    assert answers[:4] == [422] * 4  # the burst of 4, spread over both nodes
    assert answers[4] == 429  # the fifth, on either node
    refused = post(pair[0], address, "/api/tables", {"game": 1})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert post(pair[1], an_address(), "/api/tables", {"game": 1}).status_code == 422


def test_the_connection_rate_holds_across_nodes(pair: list[ThreadServer]) -> None:
    address = an_address()
    closes = []
    with ExitStack() as stack:
        for n in range(4):
            closes.append(refused_with(socket(pair[n % 2], address, "no-such-table", stack)))
    assert [c[0] for c in closes if c] == [4404, 4404, 4404, 4429]  # a burst of 3 in all
    assert "too many connections from this address" in closes[3][1]  # type: ignore[index]


def test_open_connections_are_capped_across_nodes(pair: list[ThreadServer]) -> None:
    humans = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    body = {"game": "eternity", "players": 3, "seats": humans}
    created = post(pair[0], an_address(), "/api/tables", body)
    assert created.status_code == 201, created.text
    table_id = created.json()["table_id"]
    one = an_address()
    with ExitStack() as stack:
        first = socket(pair[0], one, table_id, stack)
        second = socket(pair[1], one, table_id, stack)
        assert refused_with(first) is None and refused_with(second) is None
        third = socket(pair[0], one, table_id, stack)  # 2 per address, on either node
        code, reason = refused_with(third) or (0, "")
        assert code == 4429 and "this address" in reason
        for n in range(2):  # the table's 3rd and 4th
            assert refused_with(socket(pair[n], an_address(), table_id, stack)) is None
        fifth = socket(pair[1], an_address(), table_id, stack)  # 4 per table, on either node
        code, reason = refused_with(fifth) or (0, "")
        assert code == 4429 and "this table" in reason
        first.close()  # one leaves (from the other node): there is room again
        deadline = time.monotonic() + 10
        while refused_with(socket(pair[1], an_address(), table_id, stack)) is not None:
            assert time.monotonic() < deadline, "no room after a connection left"
            time.sleep(0.1)


IN_PLAY = {
    "game": "eternity",
    "players": 3,
    "bot_delay": 30.0,  # in play, and not over before the test ends
    "seats": [{"kind": "bot"}] * 3,
}
WAITING = {**IN_PLAY, "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}


def test_the_live_table_cap_holds_across_nodes(redis: RedisServer) -> None:
    """Two games in play at most, on a Redis of the test's own (the shared one counts the games
    of every cluster the tests run)."""
    bots, waiting = IN_PLAY, WAITING
    address = an_address()
    with two_nodes(redis.url, max_live_tables=2) as pair:
        assert post(pair[0], address, "/api/tables", bots).status_code == 201
        assert post(pair[1], address, "/api/tables", waiting).status_code == 201  # nobody came
        assert post(pair[1], address, "/api/tables", bots).status_code == 201  # 2 in play
        for server in pair:
            refused = post(server, an_address(), "/api/tables", bots)
            assert refused.status_code == 503 and refused.json()["error"]["code"] == "busy"


def test_a_visit_counts_against_the_live_table_cap_at_once(redis: RedisServer) -> None:
    """A table nobody came to is not in play; a seat's socket brings it into play, and the
    cluster counts it at once, not at its node's next renewal (every 10 s)."""
    bots, waiting = IN_PLAY, WAITING
    with two_nodes(redis.url, max_live_tables=2) as pair, ExitStack() as stack:
        assert post(pair[0], an_address(), "/api/tables", bots).status_code == 201  # 1 in play
        created = post(pair[1], an_address(), "/api/tables", waiting)
        assert created.status_code == 201
        table_id, token = created.json()["table_id"], created.json()["seats"][0]["token"]
        # a table nobody came to is let in: it does not count (it would not, were it full)
        assert post(pair[0], an_address(), "/api/tables", waiting).status_code == 201
        visit = socket(pair[0], an_address(), f"{table_id}?token={token}", stack)
        assert refused_with(visit) is None  # welcomed: the seat came, 2 in play
        deadline = time.monotonic() + 3  # well within the 10 s renewal
        while True:
            probe = post(pair[1], an_address(), "/api/tables", waiting)  # never in play
            if probe.status_code == 503:
                break
            assert probe.status_code == 201
            assert time.monotonic() < deadline, "the visited table is not counted"
            time.sleep(0.1)
        assert probe.json()["error"]["code"] == "busy"
