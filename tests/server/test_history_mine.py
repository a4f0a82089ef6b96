"""`POST /api/history/mine`: the finished tables a browser remembers, private ones included,
each saying whether the token it kept opens the replay; bad input is refused, and nothing is
said of a table that its id alone would not tell."""

from __future__ import annotations

import time

from server_helpers import ThreadServer


def finished(server: ThreadServer, public: bool) -> str:
    seats = [{"kind": "bot", "agent": "random"}] * 2
    made = server.create(game="vale", players=2, seed=3, seats=seats, public=public)
    for _ in range(300):
        if server.summary(made["table_id"])["status"] == "over":
            return str(made["table_id"])
        time.sleep(0.05)
    raise AssertionError("the bots did not finish")


def test_the_browsers_finished_tables_and_whether_their_replay_opens(
    server: ThreadServer,
) -> None:
    public, private = finished(server, True), finished(server, False)
    running = server.create(
        game="vale", players=2, seats=[{"kind": "human"}, {"kind": "bot"}], public=False
    )
    asked = [
        {"table_id": private, "token": "not-a-seat-token"},
        {"table_id": public},
        {"table_id": running["table_id"], "token": running["seats"][0]["token"]},
        {"table_id": "nosuchtable"},
        {"table_id": public},  # twice: listed once
    ]
    answer = server.http.post("/api/history/mine", json={"tables": asked})
    assert answer.status_code == 200, answer.text
    rows = answer.json()["tables"]
    assert sorted(r["table_id"] for r in rows) == sorted([public, private])  # over only
    by_id = {r["table_id"]: r for r in rows}
    assert by_id[public]["replay"] == "open" and by_id[public]["seat"] is None
    assert by_id[private]["replay"] == "private"  # the token holds no seat there
    assert by_id[private]["public"] is False and by_id[private]["status"] == "over"
    stamps = [r["finished_at"] for r in rows]
    assert stamps == sorted(stamps, reverse=True)


def test_bad_requests_are_refused(server: ThreadServer) -> None:
    too_many = {"tables": [{"table_id": f"t{i}"} for i in range(31)]}
    for body in (
        too_many,
        {"tables": [{"table_id": "x" * 17}]},
        {"tables": [{"table_id": "abc", "token": "t" * 65}]},
        {"tables": "abc"},
        {"tables": [{"table_id": "abc", "extra": 1}]},
    ):
        answer = server.http.post("/api/history/mine", json=body)
        assert answer.status_code == 422, (body, answer.text)
        assert answer.json()["error"]["code"] == "bad_request"
