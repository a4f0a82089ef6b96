"""The HTTP API (docs/web-protocol.md): games and agents, creating and joining tables, the
lobby, refusals with their error body, history, records, replays, rematches and the pages."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import WS, ThreadServer, human_seats, start_server

import eterna


def wait_over(server: ThreadServer, table_id: str, timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        summary = server.summary(table_id)
        if summary["status"] == "over":
            return summary
        time.sleep(0.05)
    raise AssertionError("the bots did not finish the game")


def bots(players: int, agent: str = "random") -> list[dict[str, Any]]:
    return [{"kind": "bot", "agent": agent} for _ in range(players)]


def test_health_games_and_agents(server: ThreadServer) -> None:
    health = server.http.get("/api/health").json()  # a single server: no Redis
    assert health == {"ok": True, "node": "single", "database": "ok", "redis": "off"}
    games = {g["id"]: g for g in server.http.get("/api/games").json()}
    assert sorted(games) == eterna.game_ids()
    eternity = eterna.load_game("eternity")
    assert games["eternity"]["options"] == eternity.options
    assert games["eternity"]["min_players"] == eternity.min_players
    assert set(games["eternity"]["option_info"]) == set(eternity.options)
    agents = server.http.get("/api/agents").json()
    assert {"heuristic", "random", "ismcts"} <= set(agents["names"])
    assert "heuristic" in agents["suggested"]


def test_create_answers_links_and_hides_secrets(server: ThreadServer) -> None:
    created = server.create(
        game="eternity",
        players=3,
        seats=[{"kind": "human", "name": "Ada"}, {"kind": "human"}, {"kind": "bot"}],
        public=False,
        bot_delay=30,  # the bot does not move during the test, even if it starts
    )
    table_id = created["table_id"]
    assert created["spectator_url"] == f"/table/{table_id}"
    first, second, bot = created["seats"]
    assert first["url"] == f"/table/{table_id}?token={first['token']}"
    assert first["token"] != second["token"] and len(first["token"]) >= 32
    assert bot == {"seat": 2, "kind": "bot", "agent": "heuristic", "name": "heuristic"}
    summary = server.summary(table_id)
    assert summary["status"] == "playing" and summary["plies"] == 0
    assert [s["name"] for s in summary["seats"]] == ["Ada", None, "heuristic"]
    assert [s["claimed"] for s in summary["seats"]] == [True, False, True]  # the creator's
    assert "seed" not in summary and first["token"] not in str(summary)
    assert table_id not in {t["table_id"] for t in server.http.get("/api/tables").json()}


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"game": "chess", "players": 2, "seats": human_seats(2)}, "unknown game"),
        ({"game": "eternity", "players": 2, "seats": human_seats(2)}, "3-5 players"),
        ({"game": "eternity", "players": 3, "seats": human_seats(2)}, "one entry per player"),
        (
            {"game": "eternity", "players": 3, "seats": human_seats(2) + bots(1, "wizard")},
            "unknown agent",
        ),
        (
            {
                "game": "eternity",
                "players": 3,
                "seats": human_seats(2) + bots(1, "ismcts:iterations=999999"),
            },
            "at most",
        ),
        (
            {"game": "eternity", "players": 3, "seats": human_seats(3), "options": {"x": 1}},
            "x",
        ),
        ({"game": "eternity", "players": 3, "seats": human_seats(3), "seed": -1}, "seed"),
        ({"game": "eternity", "players": 3, "seats": human_seats(3), "turn_timer": 0}, "turn"),
        ({"game": "eternity", "players": 3, "seats": human_seats(3), "owner": "me"}, "owner"),
        ({"game": "eternity", "players": "three", "seats": human_seats(3)}, "players"),
        (
            {"game": "eternity", "players": 3, "seats": [{"kind": "alien"}] * 3},
            "kind",
        ),
    ],
)
def test_create_refusals(server: ThreadServer, body: dict[str, Any], where: str) -> None:
    response = server.http.post("/api/tables", json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    agent = where in ("unknown agent", "at most")
    assert error["code"] == ("bad_agent" if agent else "bad_request")
    assert where in error["detail"]


def test_malformed_and_oversized_bodies(server: ThreadServer) -> None:
    bad = server.http.post(
        "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_request"
    huge = server.http.post(
        "/api/tables",
        json={"game": "eternity", "players": 3, "seats": human_seats(3), "pad": "x" * 20000},
    )
    assert huge.status_code == 413 and huge.json()["error"]["code"] == "too_large"
    missing = server.http.get("/api/tables/nope")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert server.http.get("/api/history?limit=1000").status_code == 422


def test_lobby_and_join(server: ThreadServer) -> None:
    created = server.create(
        game="vale", players=2, seats=[{"kind": "human", "name": "Host"}, {"kind": "human"}]
    )
    table_id = created["table_id"]
    host = server.ws(table_id, created["seats"][0]["token"])
    host.update()
    lobby = {t["table_id"]: t for t in server.http.get("/api/tables").json()}
    assert table_id in lobby and lobby[table_id]["seats"][1]["claimed"] is False
    joined = server.http.post(f"/api/tables/{table_id}/join", json={"name": "Guest"}).json()
    assert joined["seat"] == 1
    assert joined["url"] == f"/table/{table_id}?token={joined['token']}"
    assert table_id not in {t["table_id"] for t in server.http.get("/api/tables").json()}
    # The joiner's token works; the seat's unused invite link no longer does.
    guest = server.ws(table_id, joined["token"])
    assert guest.recv()["seat"] == 1
    assert server.ws(table_id, created["seats"][1]["token"]).close_code() == 4403
    assert server.summary(table_id)["seats"][1]["name"] == "Guest"
    full = server.http.post(f"/api/tables/{table_id}/join", json={"name": "Late"})
    assert full.status_code == 409 and full.json()["error"]["code"] == "full"
    private = server.create(game="vale", players=2, seats=human_seats(2), public=False)
    refused = server.http.post(f"/api/tables/{private['table_id']}/join", json={})
    assert refused.status_code == 403


def test_bot_game_history_record_and_replay(server: ThreadServer) -> None:
    created = server.create(game="eternity", players=3, seed=99, seats=bots(3))
    table_id = created["table_id"]
    summary = wait_over(server, table_id)
    record = server.http.get(f"/api/tables/{table_id}/record")
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    body = record.json()
    assert body["seed"] == 99 and body["game"] == "eternity" and body["players"] == 3
    state = eterna.replay(body)
    assert state.is_terminal
    assert state.scores == summary["scores"] == body["meta"]["scores"]
    assert state.winners == summary["winners"]
    assert summary["plies"] == len(body["actions"]) and summary["finished_at"] is not None
    history = server.http.get("/api/history?limit=100").json()
    assert table_id in [t["table_id"] for t in history["tables"]]
    entry = next(t for t in history["tables"] if t["table_id"] == table_id)
    assert entry["plies"] == len(body["actions"]) and entry["scores"] == state.scores
    # Replay move by move: the spectator view after each ply, as the engine gives it.
    replayed = eterna.load_game("eternity").new_game(players=3, seed=99)
    for ply in (0, 1, 2, 3):
        step = server.http.get(f"/api/tables/{table_id}/replay/{ply}").json()
        assert step["ply"] == ply and step["plies"] == len(body["actions"])
        assert step["view"] == replayed.view(None)
        assert step["action"] == (body["actions"][ply - 1] if ply else None)
        if ply < 3:
            replayed.apply(body["actions"][ply])
    last = server.http.get(f"/api/tables/{table_id}/replay/{len(body['actions'])}").json()
    assert last["view"] == state.view(None)
    assert server.http.get(f"/api/tables/{table_id}/replay/100000").status_code == 404


def test_history_is_newest_first(server: ThreadServer) -> None:
    ids = []
    for seed in (1, 2):
        created = server.create(game="eternity", players=3, seed=seed, seats=bots(3))
        wait_over(server, created["table_id"])
        ids.append(created["table_id"])
    history = server.http.get("/api/history?limit=2").json()
    assert [t["table_id"] for t in history["tables"]] == ids[::-1]
    assert history["total"] >= 2
    second = server.http.get("/api/history?limit=1&offset=1").json()
    assert second["tables"][0]["table_id"] == ids[0]


def play_out(ws: WS) -> dict[str, Any]:
    """Play the first legal action whenever asked, until the game is over."""
    while True:
        update = ws.update()
        if update["table"]["status"] == "over":
            return update
        if "legal_actions" in update["view"]:
            action = update["view"]["legal_actions"][0]
            ws.act(action, update["ply"])


def test_rematch(server: ThreadServer) -> None:
    created = server.create(
        game="eternity", players=3, seats=[{"kind": "human", "name": "Ada"}, *bots(2)]
    )
    table_id, token = created["table_id"], created["seats"][0]["token"]
    ws = server.ws(table_id, token)
    spectator = server.ws(table_id)
    final = play_out(ws)
    assert final["table"]["winners"] == final["view"]["winners"]
    wrong = server.http.post(f"/api/tables/{table_id}/rematch", json={"token": "nope"})
    assert wrong.status_code == 403
    made = server.http.post(f"/api/tables/{table_id}/rematch", json={"token": token})
    assert made.status_code == 200
    new_id = made.json()["table_id"]
    # Tokens never carry over: the seat's player gets a fresh one, on their own connection.
    new_token = made.json()["url"].split("?token=")[1]
    assert new_token != token
    frame = ws.until(lambda f: f["type"] == "rematch")
    assert frame == {"type": "rematch", "table_id": new_id, "url": made.json()["url"]}
    watched = spectator.until(lambda f: f["type"] == "rematch")
    assert watched["url"] == f"/table/{new_id}"
    again = server.http.post(f"/api/tables/{table_id}/rematch", json={"token": token})
    assert again.json() == made.json()
    assert server.summary(table_id)["rematch"] == new_id
    summary = server.summary(new_id)
    assert summary["game"] == "eternity" and summary["status"] == "playing"
    assert [(s["kind"], s["agent"], s["name"]) for s in summary["seats"]] == [
        ("human", None, "Ada"),
        ("bot", "random", "random"),
        ("bot", "random", "random"),
    ]
    assert summary["seats"][0]["reserved"] is True  # the lobby cannot take it
    assert server.ws(new_id, token).close_code() == 4403  # the old token holds nothing there
    rejoined = server.ws(new_id, new_token)
    assert rejoined.recv()["seat"] == 0
    # Coming back to the old table later still offers the rematch.
    late = server.ws(table_id, token)
    assert late.until(lambda f: f["type"] == "rematch")["table_id"] == new_id


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[ThreadServer]:
    web = tmp_path / "web"
    (web / "static" / "css").mkdir(parents=True)
    for name in ("index", "table", "history", "replay"):
        (web / f"{name}.html").write_text(f"<title>{name}</title>", encoding="utf-8")
    (web / "static" / "css" / "site.css").write_text("body{}", encoding="utf-8")
    running = start_server(data_dir=tmp_path / "data", web_dir=web)
    try:
        yield running
    finally:
        running.stop()


def test_pages_and_static_files(web_server: ThreadServer) -> None:
    http = web_server.http
    for path, name in [
        ("/", "index"),
        ("/table/abc", "table"),
        ("/history", "history"),
        ("/replay/abc", "replay"),
    ]:
        page = http.get(path)
        assert page.status_code == 200 and page.text == f"<title>{name}</title>"
        assert page.headers["content-type"].startswith("text/html")
    assert http.get("/rules/eternity").status_code == 404  # rules.html missing here
    assert http.get("/rules/chess").status_code == 404
    assert http.get("/static/css/site.css").text == "body{}"
    assert http.get("/static/../index.html").status_code == 404
    assert http.get("/static/nothing.js").status_code == 404


def test_a_page_is_served_with_the_shared_parts_written_in(tmp_path: Path) -> None:
    web = tmp_path / "web"
    (web / "parts").mkdir(parents=True)
    (web / "parts" / "head.html").write_text("<title>{title} - site</title>\n", "utf-8")
    (web / "parts" / "topbar.html").write_text("<nav>one</nav>\n", "utf-8")
    page = "<head>\n<!-- eterna:head History -->\n</head>\n<!-- eterna:topbar -->\n<main></main>\n"
    (web / "history.html").write_text(page, "utf-8")
    running = start_server(data_dir=tmp_path / "data", web_dir=web)
    try:
        got = running.http.get("/history")
        assert got.status_code == 200 and got.headers["content-type"].startswith("text/html")
        assert (
            got.text
            == "<head>\n<title>History - site</title>\n</head>\n<nav>one</nav>\n<main></main>\n"
        )
        # an edited part is served at the next request (the cache follows the files)
        (web / "parts" / "topbar.html").write_text("<nav>two</nav>\n", "utf-8")
        os.utime(web / "parts" / "topbar.html", ns=(1, 1))
        assert "<nav>two</nav>" in running.http.get("/history").text
        assert running.http.head("/history").status_code == 200
    finally:
        running.stop()


def test_names_are_cleaned_and_live_tables_capped(tmp_path: Path) -> None:
    running = start_server(data_dir=tmp_path / "data", max_live_tables=1)
    try:
        created = running.create(
            game="vale",
            players=2,
            seats=[{"kind": "human", "name": " Ada\u202e\n Lovelace\u0000 "}, {"kind": "human"}],
        )
        assert running.summary(created["table_id"])["seats"][0]["name"] == "Ada Lovelace"
        # A table counts against the cap once in play: a seat taken.
        running.ws(created["table_id"], created["seats"][0]["token"]).update()
        refused = running.http.post(
            "/api/tables", json={"game": "vale", "players": 2, "seats": human_seats(2)}
        )
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "busy"
    finally:
        running.stop()


def test_post_flood_is_refused_with_429_and_creates_nothing(tmp_path) -> None:
    """A client address past its POST allowance gets 429 `rate_limited` with Retry-After, and
    the refused requests change nothing; reads still pass."""
    from server_helpers import start_server

    server = start_server(data_dir=tmp_path, post_rate=0.01, post_burst=3)
    try:
        body = {"game": "eternity", "players": 3, "seats": human_seats(3), "public": True}
        made = [server.http.post("/api/tables", json=body) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 201]
        refused = server.http.post("/api/tables", json=body)
        assert refused.status_code == 429, refused.text
        error = refused.json()["error"]
        assert error["code"] == "rate_limited" and "per second" in error["detail"]
        assert int(refused.headers["Retry-After"]) >= 1
        join = server.http.post(
            f"/api/tables/{made[0].json()['table_id']}/join", json={"name": "x"}
        )
        assert join.status_code == 429
        lobby = server.http.get("/api/tables")
        assert lobby.status_code == 200
        assert len(lobby.json()) == 3  # the refused table was never made, nobody joined
    finally:
        server.stop()
