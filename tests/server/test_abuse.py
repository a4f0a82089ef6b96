"""Issue 13, the web table under abuse: what one hostile client could do to everyone else
(bots stalled by a spec, seats taken, the table cap closed, forged addresses, logs with tokens)
and what the server does instead."""

from __future__ import annotations

import logging
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import ThreadServer, all_bots, start_server, wait_for_ply

from eterna.server.serving import HEADER_TIMEOUT


def bot_table(agent: str) -> dict[str, Any]:
    return {
        "game": "eternity",
        "players": 3,
        "seats": [{"kind": "human"}, {"kind": "bot", "agent": agent}, {"kind": "bot"}],
    }


@pytest.mark.parametrize(
    "agent",
    [
        "ismcts:seconds=nan",
        "ismcts:seconds=inf",
        "ismcts:c=nan",
        "ismcts:c=inf",
        "ismcts:trust=nan",
        "ismcts:iterations=0",
        "heuristic:risk=nan",
    ],
)
def test_specs_without_bounds_are_refused(server: ThreadServer, agent: str) -> None:
    response = server.http.post("/api/tables", json=bot_table(agent))
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_agent"
    assert agent.split(":")[1].split("=")[0] in error["detail"]


# ------------------------------------------------------------------------------ bots on a budget


def test_a_search_bot_stops_at_the_budget_whatever_its_spec(tmp_path: Path) -> None:
    # ismcts:iterations=5000 is accepted, and costs half a minute of CPU per decision: on the
    # server it stops at bot_seconds.
    running = start_server(data_dir=tmp_path, bot_seconds=0.5, search_workers=1)
    try:
        created = running.create(**all_bots(["ismcts:iterations=5000"] * 3))
        assert wait_for_ply(running, created["table_id"], 3, timeout=30) < 12
    finally:
        running.stop()


def test_searches_never_starve_another_tables_heuristic_bots(tmp_path: Path) -> None:
    # Six tables of the most expensive accepted spec, then a table of heuristic bots: it moves
    # as fast as its bots' delay allows, since searches never stand in front of cheap bots.
    running = start_server(data_dir=tmp_path, bot_seconds=2.0, search_workers=1)
    try:
        for _ in range(6):
            running.create(**all_bots(["ismcts:seconds=2"] * 3))
        time.sleep(1.0)
        cheap = running.create(**all_bots(["heuristic"] * 3))
        assert wait_for_ply(running, cheap["table_id"], 30, timeout=20) < 10
    finally:
        running.stop()


def test_a_failed_store_does_not_stop_a_tables_bots(tmp_path: Path) -> None:
    running = start_server(data_dir=tmp_path, retry_delay=0.2)
    try:
        storage = running.app.state.database.storage
        real = storage.add_actions
        failures = {"left": 3}

        def flaky(items: Any, *rest: Any) -> Any:
            if failures["left"] > 0:
                failures["left"] -= 1
                raise OSError("disk full")
            return real(items, *rest)

        storage.add_actions = flaky
        created = running.create(**all_bots(["random"] * 3))
        wait_for_ply(running, created["table_id"], 5, timeout=20)
        assert failures["left"] == 0
    finally:
        running.stop()


def test_a_create_on_a_failing_database_answers_json(tmp_path: Path) -> None:
    running = start_server(data_dir=tmp_path)
    try:
        storage = running.app.state.database.storage

        def broken(_data: Any) -> None:
            raise OSError("disk full")

        storage.create_table = broken
        response = running.http.post("/api/tables", json=all_bots(["random"] * 3))
        assert response.status_code == 503
        assert response.json()["error"]["code"] == "storage_unavailable"
    finally:
        running.stop()


def test_the_suggested_specs_fit_the_budget(server: ThreadServer) -> None:
    for spec in server.http.get("/api/agents").json()["suggested"]:
        response = server.http.post("/api/tables", json=bot_table(spec))
        assert response.status_code == 201, (spec, response.text)


# ------------------------------------------------------------------------------ quotas, expiry


def humans(players: int = 3, **extra: Any) -> dict[str, Any]:
    return {
        "game": "eternity",
        "players": players,
        "seats": [{"kind": "human"}] * players,
        **extra,
    }


def test_tables_per_address_are_limited(tmp_path: Path) -> None:
    running = start_server(data_dir=tmp_path, tables_per_address=3)
    try:
        for _ in range(3):
            running.create(**humans())
        response = running.http.post("/api/tables", json=humans())
        assert response.status_code == 429
        assert response.json()["error"]["code"] == "quota"
    finally:
        running.stop()


def test_abandoned_tables_expire_into_history(tmp_path: Path) -> None:
    running = start_server(
        data_dir=tmp_path, idle_expiry=0.5, unclaimed_expiry=0.5, expiry_sweep=0.1
    )
    try:
        created = running.create(**humans())
        table_id = created["table_id"]
        deadline = time.monotonic() + 10
        while running.summary(table_id)["status"] != "over":
            assert time.monotonic() < deadline, "the abandoned table never expired"
            time.sleep(0.1)
        summary = running.summary(table_id)
        assert summary["ended"] == "abandoned" and summary["winners"] == []
        history = running.http.get("/api/history").json()["tables"]
        assert table_id in {t["table_id"] for t in history}
    finally:
        running.stop()


def test_the_live_cap_counts_only_tables_in_play(tmp_path: Path) -> None:
    running = start_server(data_dir=tmp_path, max_live_tables=2)
    try:
        for _ in range(5):  # nobody came to these: they do not close the server
            running.create(**humans())
        running.create(**all_bots(["random"] * 3))
    finally:
        running.stop()


def test_a_table_ends_at_the_ply_cap(tmp_path: Path) -> None:
    running = start_server(data_dir=tmp_path, max_plies=7)
    try:
        created = running.create(**all_bots(["random"] * 3))
        table_id = created["table_id"]
        wait_for_ply(running, table_id, 7, timeout=20)
        time.sleep(0.3)
        summary = running.summary(table_id)
        assert summary["status"] == "over" and summary["ended"] == "ply_limit"
        assert summary["plies"] == 7
    finally:
        running.stop()


@pytest.mark.parametrize("limit", [0, -1, 101, 10**9, True, "5"])
def test_options_that_remove_a_games_end_are_refused(server: ThreadServer, limit: Any) -> None:
    body = {
        "game": "eternitium",
        "players": 2,
        "options": {"round_limit": limit},
        "seats": [{"kind": "human"}] * 2,
    }
    response = server.http.post("/api/tables", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] in ("unbounded_game", "bad_request")


# ------------------------------------------------------------------------------ proxies, logs


def forged_posts(running: ThreadServer, count: int) -> list[int]:
    statuses = []
    for n in range(count):
        response = running.http.post(
            "/api/tables", json=humans(), headers={"X-Forwarded-For": f"10.0.{n // 250}.{n % 250}"}
        )
        statuses.append(response.status_code)
    return statuses


def test_forwarded_for_is_not_believed_by_default(tmp_path: Path) -> None:
    running = start_server(data_dir=tmp_path, post_rate=0.01, post_burst=3)
    try:
        statuses = forged_posts(running, 6)
        assert statuses[:3] == [201] * 3 and set(statuses[3:]) == {429}
    finally:
        running.stop()


def test_forwarded_for_is_believed_from_a_trusted_proxy(tmp_path: Path) -> None:
    running = start_server(
        data_dir=tmp_path, post_rate=0.01, post_burst=3, forwarded_allow_ips="127.0.0.1"
    )
    try:
        assert forged_posts(running, 6) == [201] * 6  # each "client" behind the proxy counted
    finally:
        running.stop()


class Captured(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_tokens_never_reach_the_log(tmp_path: Path) -> None:
    running = start_server(data_dir=tmp_path, log_level="info")
    captured = Captured()
    loggers = [logging.getLogger(n) for n in ("uvicorn.access", "uvicorn.error")]
    for logger in loggers:
        logger.addHandler(captured)
    try:
        created = running.create(
            game="eternity",
            players=3,
            seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
        )
        token = created["seats"][0]["token"]
        assert running.http.get(created["seats"][0]["url"]).status_code in (200, 404)
        ws = running.ws(created["table_id"], token)
        ws.update()
        ws.close()
        time.sleep(0.3)
        text = "\n".join(captured.lines)
        assert "token=[redacted]" in text
        assert token not in text
    finally:
        for logger in loggers:
            logger.removeHandler(captured)
        running.stop()


def test_half_sent_requests_are_closed(server: ThreadServer) -> None:
    host, port = server.base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # the headers never end
        started = time.monotonic()
        assert sock.recv(1024) == b""  # closed by the server
        assert time.monotonic() - started < HEADER_TIMEOUT + 5


# ------------------------------------------------------------------------------ headers


@pytest.mark.parametrize("path", ["/", "/history", "/api/health", "/api/tables", "/nowhere"])
def test_security_headers_on_every_answer(server: ThreadServer, path: str) -> None:
    headers = server.http.get(path).headers
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", ["/", "/history", "/table/abc", "/replay/abc", "/rules/vale"])
def test_pages_answer_head(server: ThreadServer, path: str) -> None:
    response = server.http.head(path)
    assert response.status_code in (200, 404), response.status_code
    assert response.content == b""
    assert response.status_code == server.http.get(path).status_code


def test_api_docs_are_off_by_default(server: ThreadServer) -> None:
    assert server.http.get("/api/docs").status_code == 404
    assert server.http.get("/api/openapi.json").status_code == 404


def test_api_docs_on_request_are_the_schema_alone(tmp_path: Path) -> None:
    # No Swagger page: FastAPI's loads its scripts from a CDN.
    running = start_server(data_dir=tmp_path, api_docs=True)
    try:
        assert running.http.get("/api/openapi.json").json()["info"]["title"]
        assert running.http.get("/api/docs").status_code == 404
    finally:
        running.stop()


# ------------------------------------------------------------------------------ no replays


def test_finished_summaries_and_records_are_never_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import eterna.server.store

    running = start_server(data_dir=tmp_path)
    try:
        created = running.create(**all_bots(["random"] * 3))
        table_id = created["table_id"]
        deadline = time.monotonic() + 60
        while running.summary(table_id)["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        store = running.app.state.store
        deadline = time.monotonic() + 5
        while table_id in store.tables:  # nobody watches: it leaves memory
            assert time.monotonic() < deadline
            time.sleep(0.05)
        replays: list[str] = []
        real = eterna.server.store.replay_table

        def counted(data: Any) -> Any:
            replays.append(data.id)
            return real(data)

        monkeypatch.setattr(eterna.server.store, "replay_table", counted)
        for _ in range(3):
            assert running.summary(table_id)["status"] == "over"
            assert running.http.get(f"/api/tables/{table_id}/record").status_code == 200
        assert replays == []
        assert table_id not in store.tables
    finally:
        running.stop()


def test_tables_resume_lazily_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    import eterna.server.store
    from eterna.server.app import assemble
    from eterna.server.settings import Settings
    from eterna.server.storage import Storage

    first = start_server(data_dir=tmp_path)
    try:
        created = first.create(**humans())
    finally:
        first.stop()
    replays: list[str] = []
    real = eterna.server.store.replay_table

    def counted(data: Any) -> Any:
        replays.append(data.id)
        return real(data)

    monkeypatch.setattr(eterna.server.store, "replay_table", counted)

    async def restart() -> tuple[list[str], bool]:
        parts = assemble(Storage(f"sqlite:///{tmp_path / 'eterna.sqlite3'}"), Settings())
        await parts.lifecycle.start()
        before = list(replays)  # start() returns before any replay: the server listens
        table = await parts.store.get(created["table_id"])  # a request replays what it needs
        await parts.lifecycle.stop()
        return before, table is not None and table.ply == 0

    before, resumed = asyncio.run(restart())
    assert before == [] and resumed
    assert replays == [created["table_id"]]  # once, however it was asked for


# ------------------------------------------------------------------------------ seats


def test_the_lobby_cannot_take_the_creators_seat(server: ThreadServer) -> None:
    created = server.create(**humans())
    table_id = created["table_id"]
    joins = [server.http.post(f"/api/tables/{table_id}/join", json={}) for _ in range(3)]
    assert [j.status_code for j in joins] == [200, 200, 409]
    assert sorted(j.json()["seat"] for j in joins[:2]) == [1, 2]
    creator = server.ws(table_id, created["seats"][0]["token"])
    assert creator.recv()["seat"] == 0  # the creator's link still holds seat 0


def test_invite_seats_are_not_offered_to_the_lobby(server: ThreadServer) -> None:
    created = server.create(
        game="eternity",
        players=3,
        seats=[{"kind": "human"}, {"kind": "human", "reserved": True}, {"kind": "bot"}],
    )
    table_id = created["table_id"]
    assert table_id not in {t["table_id"] for t in server.http.get("/api/tables").json()}
    refused = server.http.post(f"/api/tables/{table_id}/join", json={})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "full"
    assert server.summary(table_id)["seats"][1]["reserved"] is True
    invited = server.ws(table_id, created["seats"][1]["token"])
    assert invited.recv()["seat"] == 1  # its invite link still works


def test_a_chosen_seed_is_shown_in_the_lobby(server: ThreadServer) -> None:
    chosen = server.create(**humans(seed=7))
    drawn = server.create(**humans())
    lobby = {t["table_id"]: t for t in server.http.get("/api/tables").json()}
    assert lobby[chosen["table_id"]]["seed_chosen"] is True
    assert lobby[drawn["table_id"]]["seed_chosen"] is False


# ------------------------------------------------------------------------------ loose input


@pytest.mark.parametrize(
    "change",
    [
        {"players": "3"},
        {"players": 3.0},
        {"players": True},
        {"seed": "7"},
        {"seed": True},
        {"seed": 7.0},
        {"public": "yes"},
        {"public": 1},
    ],
)
def test_loose_types_are_refused(server: ThreadServer, change: dict[str, Any]) -> None:
    response = server.http.post("/api/tables", json={**humans(), **change})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "bad_request"


def test_duplicate_json_keys_are_refused(server: ThreadServer) -> None:
    body = (
        '{"game": "eternity", "players": 3, "players": 4, '
        '"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}'
    )
    response = server.http.post(
        "/api/tables", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "duplicate_key"
    created = server.create(**humans())
    ws = server.ws(created["table_id"], created["seats"][0]["token"])
    ws.update()
    ws.send('{"type": "ping", "type": "act", "action": "x"}')
    assert ws.error()["code"] == "bad_frame"


def test_private_tables_stay_private_when_over(tmp_path: Path) -> None:
    running = start_server(data_dir=tmp_path, max_plies=3)
    try:
        private = running.create(
            game="eternity",
            players=3,
            public=False,
            seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}, {"kind": "bot"}],
        )
        table_id, token = private["table_id"], private["seats"][0]["token"]
        ws = running.ws(table_id, token)
        state = ws.until(lambda f: f["type"] == "update" and "legal_actions" in f["view"])
        while state["table"]["status"] != "over":
            if state["table"]["current_player"] == 0 and "legal_actions" in state["view"]:
                ws.act(state["view"]["legal_actions"][0], state["ply"])
            state = ws.update()
        history = running.http.get("/api/history").json()["tables"]
        assert table_id not in {t["table_id"] for t in history}
        record = f"/api/tables/{table_id}/record"
        assert running.http.get(record).status_code == 403
        assert running.http.get(f"/api/tables/{table_id}/replay/1").status_code == 403
        assert running.http.get(f"{record}?token={token}").status_code == 200
    finally:
        running.stop()


def test_tokens_expire_after_the_game(tmp_path: Path) -> None:
    running = start_server(data_dir=tmp_path, max_plies=1, token_ttl=0.5)
    try:
        created = running.create(
            game="eternity",
            players=3,
            seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}, {"kind": "bot"}],
        )
        table_id, token = created["table_id"], created["seats"][0]["token"]
        ws = running.ws(table_id, token)
        state = ws.update()
        while state["table"]["status"] != "over":
            if state["table"]["current_player"] == 0 and "legal_actions" in state["view"]:
                ws.act(state["view"]["legal_actions"][0], state["ply"])
            state = ws.update()
        ws.close()
        time.sleep(1.0)
        assert running.ws(table_id, token).close_code() == 4403
        late = running.http.post(f"/api/tables/{table_id}/rematch", json={"token": token})
        assert late.status_code == 403
    finally:
        running.stop()


# ------------------------------------------------------------------------------ reconnect storms


def test_connections_per_address_are_rate_limited(tmp_path: Path) -> None:
    running = start_server(data_dir=tmp_path, connect_rate=0.01, connect_burst=5)
    try:
        created = running.create(**humans())
        token = created["seats"][1]["token"]
        for _ in range(5):
            running.ws(created["table_id"], token).update()
        assert running.ws(created["table_id"], token).close_code() == 4429
    finally:
        running.stop()


def test_a_reconnect_storm_sends_only_small_presence_frames(server: ThreadServer) -> None:
    created = server.create(**humans())
    table_id, token = created["table_id"], created["seats"][1]["token"]
    listener = server.ws(table_id, created["seats"][0]["token"])
    listener.update()
    for _ in range(10):
        server.ws(table_id, token).close()
    time.sleep(0.5)
    server.ws(table_id).update()  # a marker: everything before it has been sent
    sizes = []
    try:
        while True:
            frame = listener.recv(timeout=0.5)
            assert frame["type"] == "presence", frame["type"]
            sizes.append(len(listener.raw[-1]))
    except TimeoutError:
        pass
    assert len(sizes) >= 10 and max(sizes) < 1000


def test_the_hard_cap_interrupts_a_runaway_decision() -> None:
    # Whatever an agent does (an engine loop, a spec the cooperative cap misses), the worker's
    # interval timers end the decision.
    from eterna.server.workers import BudgetExceeded, hard_cap

    started = time.monotonic()
    with pytest.raises(BudgetExceeded), hard_cap(0.3):
        while True:
            pass
    assert time.monotonic() - started < 2.0


def test_a_long_finished_record_is_encoded_once_off_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    import eterna
    import eterna.server.store

    running = start_server(data_dir=tmp_path)
    try:
        bots = [{"kind": "bot", "agent": "random"}] * 2
        created = running.create(game="eternitium", players=2, seed=3, seats=bots)
        table_id = created["table_id"]
        deadline = time.monotonic() + 120
        while running.summary(table_id)["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.2)
        store = running.app.state.store
        while table_id in store.tables:  # nobody watches: it leaves memory
            assert time.monotonic() < deadline
            time.sleep(0.05)
        encodes: list[str] = []
        real = eterna.server.store.encode_record

        def counted(data: Any) -> bytes:
            encodes.append(threading.current_thread().name)
            return real(data)

        monkeypatch.setattr(eterna.server.store, "encode_record", counted)
        path = f"/api/tables/{table_id}/record"
        health: list[float] = []
        fetching = threading.Event()

        def fetch(_: int) -> httpx.Response:
            with httpx.Client(base_url=running.base, timeout=30, trust_env=False) as client:
                return client.get(path)

        def poll_health() -> None:
            while not fetching.is_set():
                started = time.monotonic()
                assert running.http.get("/api/health").status_code == 200
                health.append(time.monotonic() - started)

        poller = threading.Thread(target=poll_health)
        poller.start()
        try:
            with ThreadPoolExecutor(6) as pool:
                responses = list(pool.map(fetch, range(30)))
        finally:
            fetching.set()
            poller.join()
        first = responses[0]
        assert first.status_code == 200
        disposition = f'attachment; filename="eterna-{table_id}.json"'
        assert first.headers["content-disposition"] == disposition
        record = first.json()
        assert len(record["actions"]) == running.summary(table_id)["plies"] > 300
        assert eterna.replay(record).is_terminal  # the record replays to its end
        assert all(r.status_code == 200 and r.content == first.content for r in responses)
        assert len(encodes) == 1  # 30 GETs, at once and after: one encode
        assert encodes[0] != running.thread.name  # never on the server's event loop
        assert health and max(health) < 2.0
        print(f"record: {len(first.content)} bytes; /api/health worst {max(health) * 1000:.1f} ms")
    finally:
        running.stop()


def test_a_cached_finished_table_shows_its_later_rematch(tmp_path: Path) -> None:
    running = start_server(data_dir=tmp_path, max_plies=3)
    try:
        created = running.create(
            game="eternity",
            players=3,
            seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}, {"kind": "bot"}],
        )
        table_id, token = created["table_id"], created["seats"][0]["token"]
        store = running.app.state.store

        def left_memory() -> None:
            deadline = time.monotonic() + 10
            while table_id in store.tables:
                assert time.monotonic() < deadline
                time.sleep(0.05)

        ws = running.ws(table_id, token)
        state = ws.until(lambda f: f["type"] == "update" and "legal_actions" in f["view"])
        while state["table"]["status"] != "over":
            if state["table"]["current_player"] == 0 and "legal_actions" in state["view"]:
                ws.act(state["view"]["legal_actions"][0], state["ply"])
            state = ws.update()
        ws.close()
        left_memory()
        assert running.summary(table_id)["rematch"] is None  # its data is cached now
        rematch = running.http.post(f"/api/tables/{table_id}/rematch", json={"token": token})
        assert rematch.status_code == 200
        spectator = running.ws(table_id)  # comes and goes: the table leaves memory again
        spectator.update()
        spectator.close()
        left_memory()
        assert running.summary(table_id)["rematch"] == rematch.json()["table_id"]
    finally:
        running.stop()
