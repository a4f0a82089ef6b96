"""Fixtures of the cluster tests: one PostgreSQL schema and three nodes per module; a Redis and
a PostgreSQL of a test's own, to stop and start again."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from nodes import Node, cluster, postgres_url, redis_base_url
from server_helpers import fresh_schema
from services import PostgresServer, RedisServer


@pytest.fixture(scope="module")
def database_url() -> Iterator[str]:
    with fresh_schema(postgres_url()) as url:
        yield url


@pytest.fixture(scope="module")
def nodes(database_url: str) -> Iterator[list[Node]]:
    with cluster(3, database_url, redis_base_url()) as running:
        yield running


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server of the test's own (CI sets the shared one's URL: the same rule as every
    cluster test)."""
    redis_base_url()
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL cluster of the test's own, its database `eterna` created."""
    postgres_url()
    server = PostgresServer()
    try:
        server.start()
        server.create_database()
        yield server
    finally:
        server.close()


@pytest.fixture(autouse=True)
def nodes_stay_up(request: pytest.FixtureRequest) -> Iterator[None]:
    """A node that died by itself fails the test that was running, with what it logged."""
    yield
    if "nodes" not in request.fixturenames:
        return
    running: list[Node] = request.getfixturevalue("nodes")
    dead = [n for n in running if not n.alive()]
    assert not dead, "".join(f"node {n.name} died: {''.join(n.log[-30:])}" for n in dead)
