"""Redis stopped and started again under two nodes: moves are refused with a clear error
meanwhile (never accepted and left unannounced), /api/health says which part is down, and the
service comes back by itself: nothing accepted lost, and the game plays on to its end."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from nodes import Node, cluster, postgres_url
from players import Seat, assert_replays, assert_told_once, record_of
from server_helpers import WS, free_port, fresh_schema


class RedisServer:
    """A redis-server of this test's own (the shared one is never stopped)."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None, "redis-server is not installed (.ci/run installs it)"
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--save", "", "--appendonly", "no"],
            cwd=self.folder,
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while (
            subprocess.run(
                ["redis-cli", "-p", str(self.port), "ping"], capture_output=True
            ).stdout.strip()
            != b"PONG"
        ):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.1)

    def stop(self) -> None:
        assert self.proc is not None
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    from nodes import redis_base_url

    redis_base_url()  # CI sets it: the same rule as every cluster test
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.stop()


def health_of(node: Node) -> tuple[int, dict[str, object]]:
    response = node.http.get("/api/health")
    return response.status_code, response.json()


def wait_health(node: Node, status: int, timeout: float = 30.0) -> dict[str, object]:
    deadline = time.monotonic() + timeout
    while True:
        code, body = health_of(node)
        if code == status:
            return body
        assert time.monotonic() < deadline, (node.name, code, body)
        time.sleep(0.1)


def test_redis_stopped_and_started_again(redis: RedisServer) -> None:
    """The player's socket on one node, the table driven by the other; Redis stopped at the
    player's turn and started again: the player moves at once, the bots answer, and the game
    plays to its end, every event told once and in order."""
    with fresh_schema(postgres_url()) as database, cluster(2, database, redis.url) as nodes:
        home, other = nodes
        created = home.create(
            game="eternity",
            players=3,
            seed=5,
            seats=[{"kind": "human", "name": "Ada"}, {"kind": "bot"}, {"kind": "bot"}],
        )
        table_id, token = created["table_id"], created["seats"][0]["token"]
        player = Seat(other.ws(table_id, token), 0, skip_every=0)  # on the other node
        ws = player.ws
        update = your_turn(ws)
        ws.act(update["view"]["legal_actions"][0], update["ply"])
        update = your_turn(ws, update["ply"] + 1)  # moved, and the bots answered

        redis.stop()
        body = wait_health(other, 503)
        assert body == {"ok": False, "node": other.name, "database": "ok", "redis": "down"}
        time.sleep(0.5)  # whatever got out before Redis went: no bot plays on without it
        ws.act(update["view"]["legal_actions"][0], update["ply"])  # refused: unannounceable
        refused = ws.error()
        assert refused["code"] == "unavailable"
        assert refused["message"].startswith("The server is reconnecting")

        redis.start()  # the same port: both nodes come back by themselves
        wait_health(other, 200)
        ws.act(update["view"]["legal_actions"][0], update["ply"])  # at once
        player.start()  # and on to the end, the bots answering every move
        player.join(timeout=180)
        assert player.error is None, repr(player.error)
        assert not player.is_alive(), f"the game stalled: {home.summary(table_id)}"
        for node in nodes:
            assert wait_health(node, 200)["redis"] == "ok"
        record = record_of(home, table_id)
        assert_replays(record)
        assert_told_once(player, record)  # nothing accepted lost, nothing told twice
        assert len(player.own) >= 3  # the moves before, just after and after Redis's return


def your_turn(ws: WS, ply: int = 0) -> dict[str, object]:
    """The next update at `ply` or later in which seat 0 is to move."""
    update = ws.update(ply)
    while update["table"]["current_player"] != 0:
        update = ws.update(ply)
    return update
