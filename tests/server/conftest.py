"""Fixtures of the web table's tests (helpers in server_helpers.py).

Storage tests always run on SQLite, and on PostgreSQL when ETERNA_TEST_POSTGRES_URL is set
(`.ci/run` starts one). Under CI a missing URL is a failure, not a skip. Each PostgreSQL test gets
its own schema (tests run in parallel with pytest-xdist), dropped afterwards.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from server_helpers import (
    PG_ENV,
    ThreadServer,
    database_params,
    fresh_schema,
    postgres_base_url,
    start_server,
)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema (dropped afterwards)."""
    base = postgres_base_url()
    if base is None:
        pytest.skip(f"{PG_ENV} is not set (CI sets it)")
    with fresh_schema(base) as url:
        yield url


@pytest.fixture(params=database_params())
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Every database the storage must work on: SQLite, and PostgreSQL when available."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'eterna.sqlite3'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """One server per test module (SQLite, bots without delay); tests make their own tables."""
    running = start_server(data_dir=tmp_path_factory.mktemp("data"))
    try:
        yield running
    finally:
        running.stop()
