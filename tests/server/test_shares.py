"""Short share codes (docs/web-protocol.md, "Positions"): a position stored under a short id with
the players' names, opened again at `/position/<id>`; the same share gives the same id; bad
input is refused with a code and changes nothing; new shares count against a quota."""

from __future__ import annotations

import json
import random
from pathlib import Path

from server_helpers import ThreadServer, start_server

import eterna
from eterna.core.position import parse, share_code


def position(seed: int = 5, moves: int = 7) -> dict:
    state = eterna.load_game("eternity").new_game(players=3, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state.to_position()


def test_a_shared_position_has_a_short_id_and_keeps_the_players_names(
    server: ThreadServer,
) -> None:
    whole = position()
    long_code = share_code(whole)
    names = ["Ada", "Bob", "Cy"]
    made = server.http.post("/api/positions/share", json={"position": long_code, "names": names})
    assert made.status_code == 201, made.text
    got = made.json()
    assert len(got["id"]) == 8 < len(long_code) / 10  # short: a lichess-like id
    assert got["url"] == f"/position/{got['id']}"
    back = server.http.get(f"/api/positions/shared/{got['id']}").json()
    assert back["names"] == names and back["game"] == "eternity"
    assert parse(back["code"]) == whole  # the self-contained code, whole
    # the same position and names (even as JSON text): the same id, nothing stored twice
    again = server.http.post(
        "/api/positions/share", json={"position": json.dumps(whole), "names": names}
    )
    assert again.json()["id"] == got["id"]
    other = server.http.post("/api/positions/share", json={"position": long_code})
    assert other.json()["id"] != got["id"] and other.json()["names"] is None
    page = server.http.get(got["url"])
    assert page.status_code == 200 and "position.js" in page.text


def test_bad_shares_are_refused_with_a_code(server: ThreadServer) -> None:
    def refused(response, status: int, code: str) -> None:
        assert response.status_code == status, response.text
        assert response.json()["error"]["code"] == code

    code = share_code(position())
    share = "/api/positions/share"
    refused(server.http.post(share, json={"position": "ep1.nonsense"}), 400, "bad_position")
    refused(server.http.post(share, json={"position": code, "names": ["A"]}), 400, "bad_names")
    too_many = {"position": code, "names": ["A"] * 17}
    refused(server.http.post(share, json=too_many), 422, "bad_request")
    refused(server.http.post(share, json={"position": "x" * 12_001}), 422, "bad_request")
    refused(server.http.get("/api/positions/shared/nothere1"), 404, "no_share")
    refused(server.http.get("/api/positions/shared/" + "a" * 40), 404, "no_share")


def test_new_shares_count_against_a_quota(tmp_path: Path) -> None:
    running = start_server(data_dir=tmp_path, tables_per_address=2)
    try:
        for seed in (1, 2):
            body = {"position": share_code(position(seed))}
            assert running.http.post("/api/positions/share", json=body).status_code == 201
        body = {"position": share_code(position(3))}
        answer = running.http.post("/api/positions/share", json=body)
        assert answer.status_code == 429
        assert answer.json()["error"]["code"] == "share_quota"
    finally:
        running.stop()
