"""Replays (docs/web-protocol.md): once a game is over, each step shows every seat's own view
(every hand) and tells the ply's events in words, and the move list labels every ply in the
page's language; while it runs, nothing of it is served."""

from __future__ import annotations

import time
from typing import Any

from server_helpers import ThreadServer, human_seats

import eterna
from eterna.i18n import describe_action, describe_event


def finished(server: ThreadServer, seed: int = 99) -> str:
    seats = [{"kind": "bot", "agent": "random", "name": f"Bot{n}"} for n in range(3)]
    table_id: str = server.create(game="eternity", players=3, seed=seed, seats=seats)["table_id"]
    deadline = time.monotonic() + 30
    while server.summary(table_id)["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.05)
    return table_id


def test_a_finished_games_replay_step_shows_every_hand_and_tells_its_events(
    server: ThreadServer,
) -> None:
    table_id = finished(server)
    record = server.http.get(f"/api/tables/{table_id}/record").json()
    state = eterna.load_game("eternity").new_game(players=3, seed=99)
    names = ["Bot0", "Bot1", "Bot2"]
    before = 0
    for ply in (0, 1, 2):
        step: dict[str, Any] = server.http.get(
            f"/api/tables/{table_id}/replay/{ply}", params={"lang": "de"}
        ).json()
        assert step["view"] == state.view(None)
        assert step["views"] == [state.view(seat) for seat in range(3)]
        assert all(view["hand"] for view in step["views"])  # every hand, not just sizes
        assert not step["view"].get("hand")  # the spectator's view stays the spectator's
        if ply == 0:
            assert step["told"] == []
        else:
            events = state.events_since(before, None)
            assert [item["text"] for item in step["told"]] == [
                describe_event("eternity", event, "de", names) for event in events
            ]
            assert [item["n"] for item in step["told"]] == list(range(before, before + len(events)))
        if ply < 2:
            before = state.event_count()
            state.apply(record["actions"][ply])


def test_the_move_list_labels_every_ply_in_the_pages_language(server: ThreadServer) -> None:
    table_id = finished(server, seed=7)
    record = server.http.get(f"/api/tables/{table_id}/record").json()
    listed = server.http.get(
        f"/api/tables/{table_id}/replay", headers={"Accept-Language": "fr"}
    ).json()
    assert listed["plies"] == len(record["actions"])
    moves = listed["moves"]
    assert [m["action"] for m in moves] == record["actions"]
    assert [m["ply"] for m in moves] == list(range(1, len(moves) + 1))
    names = ["Bot0", "Bot1", "Bot2"]
    assert moves[0]["label"] == describe_action("eternity", record["actions"][0], "fr", names)
    assert moves[0]["label"].startswith("Jouer ")


def test_a_running_games_replay_shows_nothing(server: ThreadServer) -> None:
    created = server.create(game="eternity", players=3, seed=3, seats=human_seats(3))
    table_id = created["table_id"]
    token = created["seats"][0]["token"]
    for path in (f"/replay/0?token={token}", f"/replay?token={token}", "/replay/0"):
        answer = server.http.get(f"/api/tables/{table_id}{path}")
        assert answer.status_code == 409, path
        assert answer.json()["error"]["code"] == "not_over"
        assert "views" not in answer.text and "hand" not in answer.text
