"""Fixtures of the cluster tests: one PostgreSQL schema and three nodes per module."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from nodes import Node, cluster, fresh_schema, postgres_url, redis_base_url


@pytest.fixture(scope="module")
def database_url() -> Iterator[str]:
    with fresh_schema(postgres_url()) as url:
        yield url


@pytest.fixture(scope="module")
def nodes(database_url: str) -> Iterator[list[Node]]:
    with cluster(3, database_url, redis_base_url()) as running:
        yield running
