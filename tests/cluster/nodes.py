"""Cluster nodes for the tests: `eterna serve` subprocesses on one PostgreSQL and one Redis
(docs/web.md, "Running on several machines"), killed and started again at will.

Services come from the environment: ETERNA_TEST_POSTGRES_URL and ETERNA_TEST_REDIS_URL (`.ci/run`
starts both). Under CI a missing one is a failure; elsewhere the tests are skipped.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from server_helpers import PG_ENV, Server, free_port, postgres_base_url

from eterna.server.launch import serve_command, wait_until_serving

REDIS_ENV = "ETERNA_TEST_REDIS_URL"
START_TIMEOUT = float(os.environ.get("ETERNA_TEST_NODE_START", "90"))  # seconds, loaded 2 cores


def redis_base_url() -> str:
    url = os.environ.get(REDIS_ENV)
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {REDIS_ENV} is not: the cluster tests must run")
        pytest.skip(f"{REDIS_ENV} is not set (CI sets it)")
    return url


def postgres_url() -> str:
    url = postgres_base_url()
    if url is None:
        pytest.skip(f"{PG_ENV} is not set (CI sets it)")
    return url


class Node(Server):
    """One node: `eterna serve --database-url --redis-url --node-id` in a child process."""

    def __init__(self, name: str, database_url: str, redis_url: str) -> None:
        self.name = name
        self.port = free_port()
        self.database_url = database_url
        self.redis_url = redis_url
        self.proc: subprocess.Popen[bytes] | None = None
        super().__init__(f"http://127.0.0.1:{self.port}")

    def launch(self) -> None:
        """Start the process (without waiting: `wait` does)."""
        command = serve_command(
            self.port,
            database_url=self.database_url,
            redis_url=self.redis_url,
            node_id=self.name,
            limits=False,
            post_rate=0,
        )
        self.proc = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        threading.Thread(target=self._drain_log, args=(self.proc,), daemon=True).start()
        self.log: list[str] = []

    def _drain_log(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            self.log.append(line.decode(errors="replace"))

    def wait(self) -> None:
        assert self.proc is not None
        try:
            wait_until_serving(self.base, self.proc, timeout=START_TIMEOUT)
        except RuntimeError as exc:
            self.proc.kill()
            raise RuntimeError(f"node {self.name}: {exc}: {''.join(self.log[-20:])}") from exc

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL: nothing handed over, nothing flushed."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def term(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=30)


@contextmanager
def cluster(count: int, database_url: str, redis_url: str) -> Iterator[list[Node]]:
    nodes = [Node(f"n{i}", database_url, redis_url) for i in range(count)]
    try:
        for node in nodes:
            node.launch()
        for node in nodes:
            node.wait()
        yield nodes
    finally:
        for node in nodes:
            node.close()
            if node.alive():
                node.kill()


def driver_of(database_url: str, table_id: str) -> str | None:
    """The node holding the table's lease now (leases.py), if any."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    try:
        with engine.begin() as conn:
            row = conn.execute(
                text(
                    "SELECT node FROM leases WHERE table_id = :t "
                    "AND expires_at > extract(epoch from clock_timestamp())"
                ),
                {"t": table_id},
            ).first()
    finally:
        engine.dispose()
    return None if row is None else str(row[0])


def wait_over(node: Server, table_id: str, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        summary = node.summary(table_id)
        if summary["status"] == "over":
            return summary
        assert time.monotonic() < deadline, f"table {table_id} not over: {summary['plies']}"
        time.sleep(0.1)
