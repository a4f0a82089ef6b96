"""Helpers of the web table's tests: a real server (uvicorn in a thread), HTTP and WebSocket
clients with timeouts, and the databases to test storage against. Imported as `server_helpers`
(conftest.py puts this folder on sys.path).

Storage tests always run on SQLite, and on PostgreSQL when ETERNA_TEST_POSTGRES_URL is set
(`.ci/run` starts one). Under CI a missing URL is a failure, not a skip. Each PostgreSQL test gets
its own schema (tests run in parallel with pytest-xdist), dropped afterwards.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import eterna
from eterna.server.app import create_app
from eterna.server.live import LiveTable
from eterna.server.serving import uvicorn_config
from eterna.server.settings import Settings
from eterna.server.storage import SeatData, TableData

PG_ENV = "ETERNA_TEST_POSTGRES_URL"
TIMEOUT = 10.0
# An HTTP answer may wait for a worker process to start (the positions lane, the search): that
# takes seconds on a 2-core machine running the whole suite.
HTTP_TIMEOUT = 60.0
ACT_PACE = 0.06  # seconds between a test client's moves


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ------------------------------------------------------------------------------ databases


def postgres_base_url() -> str | None:
    url = os.environ.get(PG_ENV)
    if not url and os.environ.get("CI"):
        pytest.fail(f"CI is set but {PG_ENV} is not: the PostgreSQL storage tests must run")
    return url or None


@contextlib.contextmanager
def fresh_schema(base: str) -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema of its own (dropped afterwards)."""
    from sqlalchemy import create_engine, text

    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    separator = "&" if "?" in base else "?"
    try:
        yield f"{base}{separator}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def database_params() -> list[Any]:
    """'sqlite' always; 'postgresql' when a server is available (a failure under CI if not)."""
    params: list[Any] = ["sqlite"]
    if os.environ.get(PG_ENV) or os.environ.get("CI"):
        params.append("postgresql")
    return params


# ------------------------------------------------------------------------------ clients


class WS:
    """A WebSocket client with timeouts and JSON frames."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.frames: list[dict[str, Any]] = []  # every frame received, in order
        self.raw: list[str] = []
        self.last_act = 0.0

    def act(self, action: str, ply: int | None = None) -> None:
        """Send an `act`, paced under the server's 20 frames a second (bots answer at once,
        so a client that plays as soon as it is asked would otherwise be rate-limited)."""
        wait = self.last_act + ACT_PACE - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.last_act = time.monotonic()
        frame: dict[str, Any] = {"type": "act", "action": action}
        if ply is not None:
            frame["ply"] = ply
        self.send(frame)

    def send(self, frame: dict[str, Any] | str | bytes) -> None:
        self.conn.send(frame if isinstance(frame, (str, bytes)) else json.dumps(frame))

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        text = self.conn.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        frame: dict[str, Any] = json.loads(text)
        self.frames.append(frame)
        return frame

    def until(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            frame = self.recv(timeout=max(0.01, deadline - time.monotonic()))
            if pred(frame):
                return frame

    def update(self, ply: int | None = None, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next update (at `ply` or later when given)."""
        return self.until(
            lambda f: f["type"] == "update" and (ply is None or f["ply"] >= ply), timeout
        )

    def error(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        return self.until(lambda f: f["type"] == "error", timeout)

    def close_code(self, timeout: float = TIMEOUT) -> int | None:
        """Read until the server closes (what came is kept in `raw`); its close code."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                text = self.conn.recv(timeout=max(0.01, deadline - time.monotonic()))
                self.raw.append(text if isinstance(text, str) else text.decode())
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd is not None else None
        raise AssertionError("the server did not close the connection")

    def close(self) -> None:
        self.conn.close()


class Server:
    """A running server: base URL, an HTTP client and WebSocket connections."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=HTTP_TIMEOUT, trust_env=False)
        self.sockets: list[WS] = []
        self.stack = contextlib.ExitStack()  # every WebSocket opened, closed at the end

    def ws(
        self,
        table_id: str,
        token: str | None = None,
        lang: str | None = None,
        accept_language: str | None = None,
    ) -> WS:
        query = {"token": token, "lang": lang}
        params = "&".join(f"{k}={v}" for k, v in query.items() if v is not None)
        path = f"/ws/tables/{table_id}" + (f"?{params}" if params else "")
        headers = {"Accept-Language": accept_language} if accept_language else None
        conn = connect(
            self.base.replace("http://", "ws://") + path,
            additional_headers=headers,
            proxy=None,
            open_timeout=TIMEOUT,
            close_timeout=2,
            max_size=2**22,
            compression=None,
        )
        client = WS(self.stack.enter_context(conn))
        self.sockets.append(client)
        return client

    def create(self, **body: Any) -> dict[str, Any]:
        response = self.http.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    def summary(self, table_id: str) -> dict[str, Any]:
        response = self.http.get(f"/api/tables/{table_id}")
        assert response.status_code == 200, response.text
        summary: dict[str, Any] = response.json()
        return summary

    def close(self) -> None:
        self.stack.close()
        self.http.close()


class ThreadServer(Server):
    """The app on uvicorn in a background thread (same settings as `eterna serve`)."""

    def __init__(
        self, app: Any, log_level: str = "warning", forwarded_allow_ips: str | None = None
    ) -> None:
        self.app = app
        port = free_port()
        config = uvicorn_config(
            app, "127.0.0.1", port, log_level=log_level, forwarded_allow_ips=forwarded_allow_ips
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        super().__init__(f"http://127.0.0.1:{port}")

    def stop(self) -> None:
        self.close()
        self.server.should_exit = True
        self.thread.join(timeout=15)


def start_server(
    database_url: str | None = None,
    data_dir: Path | None = None,
    web_dir: Path | None = None,
    log_level: str = "warning",
    forwarded_allow_ips: str | None = None,
    **settings: Any,
) -> ThreadServer:
    # Tests open many tables and connections from 127.0.0.1: no per-address quotas unless asked.
    options = {
        "bot_delay": 0.0,
        "hint_iterations": 30,
        "tables_per_address": 0,
        "connect_rate": 0.0,
        **settings,
    }
    app = create_app(
        database_url=database_url, data_dir=data_dir, web_dir=web_dir, settings=Settings(**options)
    )
    return ThreadServer(app, log_level, forwarded_allow_ips)


def human_seats(players: int) -> list[dict[str, Any]]:
    return [{"kind": "human", "name": f"P{seat}"} for seat in range(players)]


def seated(server: Server, created: dict[str, Any]) -> dict[str, Any]:
    """Take every human seat of a table just created (each seat's link opened once, then
    closed): the game starts only when every human seat is taken (docs/web.md)."""
    for seat in created["seats"][1:]:
        if seat["kind"] == "human":
            ws = server.ws(created["table_id"], seat["token"])
            assert ws.recv()["type"] == "welcome"
            ws.close()
    return created


def all_bots(agents: list[str]) -> dict[str, Any]:
    return {
        "game": "eternity",
        "players": len(agents),
        "seats": [{"kind": "bot", "agent": a} for a in agents],
    }


def wait_for_ply(server: ThreadServer, table_id: str, ply: int, timeout: float) -> float:
    """Seconds until the table reaches `ply` (AssertionError after `timeout`)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if server.summary(table_id)["plies"] >= ply:
            return time.monotonic() - started
        time.sleep(0.05)
    raise AssertionError(f"table {table_id} did not reach ply {ply} in {timeout:g} s")


def live_table(game: str, players: int, seed: int, *, claimed: bool = False) -> LiveTable:
    """A table of humans P0, P1... held in memory (no server, no database), its game narrating
    from the start: for the tests of what one update sends (frames, `told`)."""
    state = eterna.load_game(game).new_game(players=players, seed=seed)
    seats = [SeatData(n, "human", None, f"P{n}", claimed=claimed) for n in range(players)]
    data = TableData(
        id="t",
        game=game,
        players=players,
        seed=seed,
        options={},
        setup=None,
        public=True,
        turn_timer=None,
        bot_delay=0.0,
        status="playing",
        created_at=0.0,
        seats=seats,
    )
    table = LiveTable(data, state)
    state.events_since(0, None)  # it narrates from here on
    return table
