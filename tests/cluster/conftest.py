"""Fixtures of the cluster tests: one PostgreSQL schema and three nodes per module."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from nodes import Node, cluster, postgres_url, redis_base_url
from server_helpers import fresh_schema


@pytest.fixture(scope="module")
def database_url() -> Iterator[str]:
    with fresh_schema(postgres_url()) as url:
        yield url


@pytest.fixture(scope="module")
def nodes(database_url: str) -> Iterator[list[Node]]:
    with cluster(3, database_url, redis_base_url()) as running:
        yield running


@pytest.fixture(autouse=True)
def nodes_stay_up(request: pytest.FixtureRequest) -> Iterator[None]:
    """A node that died by itself fails the test that was running, with what it logged."""
    yield
    if "nodes" not in request.fixturenames:
        return
    running: list[Node] = request.getfixturevalue("nodes")
    dead = [n for n in running if not n.alive()]
    assert not dead, "".join(f"node {n.name} died: {''.join(n.log[-30:])}" for n in dead)
