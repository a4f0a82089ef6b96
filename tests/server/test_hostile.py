"""Hostile clients: wrong tokens, another seat's token, malformed and oversized frames, illegal
moves and floods. Each gets an error frame or a close code; none crashes the server or changes
the game, and no token ever reaches anyone but its holder."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from typing import Any

import pytest
from server_helpers import TIMEOUT, WS, ThreadServer, human_seats, seated

import eterna


def table(server: ThreadServer, seed: int = 1) -> dict[str, Any]:
    return server.create(game="eternity", players=3, seed=seed, seats=human_seats(3))


def mover_socket(server: ThreadServer, created: dict[str, Any], seed: int) -> tuple[int, WS]:
    state = eterna.load_game("eternity").new_game(players=3, seed=seed)
    mover = state.current_player
    assert mover is not None
    ws = server.ws(created["table_id"], created["seats"][mover]["token"])
    ws.update()
    return mover, ws


def test_unknown_table_and_wrong_tokens_are_closed(server: ThreadServer) -> None:
    created = table(server)
    other = table(server)
    assert server.ws("no-such-table").close_code() == 4404
    assert server.ws(created["table_id"], "not-a-token").close_code() == 4403
    assert server.ws(created["table_id"], "x" * 5000).close_code() == 4403
    # A token of another table holds no seat here.
    assert server.ws(created["table_id"], other["seats"][0]["token"]).close_code() == 4403


def test_another_seats_token_acts_only_for_that_seat(server: ThreadServer) -> None:
    created = table(server, seed=2)
    state = eterna.load_game("eternity").new_game(players=3, seed=2)
    mover = state.current_player
    assert mover is not None
    intruder = server.ws(created["table_id"], created["seats"][(mover + 1) % 3]["token"])
    welcome = intruder.recv()
    assert welcome["seat"] == (mover + 1) % 3
    intruder.send({"type": "act", "action": str(state.legal_actions()[0])})
    assert intruder.error()["code"] == "not_your_turn"
    intruder.send({"type": "act", "action": str(state.legal_actions()[0]), "seat": mover})
    assert intruder.error()["code"] == "bad_frame"  # no way to name another seat
    assert server.summary(created["table_id"])["plies"] == 0


BAD_FRAMES: list[str | bytes] = [
    "not json",
    "[1, 2, 3]",
    '"act"',
    "null",
    "{}",
    '{"type": "shout"}',
    '{"type": "act"}',
    '{"type": "act", "action": 7}',
    '{"type": "act", "action": "play sea-3", "ply": "0"}',
    '{"type": "act", "action": "play sea-3", "ply": -1}',
    '{"type": "act", "action": "play sea-3", "ply": 1e400}',
    '{"type": "act", "action": "play sea-3", "extra": 1}',
    '{"type": "act", "action": ""}',
    '{"type": "ping", "type": "act"}',
    "[" * 2000 + "]" * 2000,
    '{"type": "act", "action": "' + "\\ud800" + '"}',
    b"\x00\x01binary",
]


def test_malformed_frames_get_bad_frame_and_change_nothing(server: ThreadServer) -> None:
    created = table(server, seed=3)
    _mover, ws = mover_socket(server, created, seed=3)
    before = server.summary(created["table_id"])
    for frame in BAD_FRAMES:
        ws.send(frame)
        error = ws.error()
        assert error["code"] in ("bad_frame", "bad_notation"), (frame, error)
    ws.send({"type": "ping"})  # still connected (all within the rate limit's burst)
    assert ws.recv()["type"] == "pong"
    after = server.summary(created["table_id"])
    assert after["plies"] == before["plies"] == 0


def test_oversized_frames(server: ThreadServer) -> None:
    created = table(server, seed=4)
    _mover, ws = mover_socket(server, created, seed=4)
    ws.send(json.dumps({"type": "act", "action": "a" * 5000}))
    assert ws.error()["code"] == "too_large"
    ws.send("é" * 2100)  # under 4096 characters, over 4096 bytes
    assert ws.error()["code"] == "too_large"
    ws.send({"type": "ping"})
    assert ws.recv()["type"] == "pong"  # still connected
    ws.send("x" * 200_000)  # over the transport's limit: the connection is closed
    assert ws.close_code() == 1009
    assert server.summary(created["table_id"])["plies"] == 0


def test_illegal_moves_name_the_rule_and_change_nothing(server: ThreadServer) -> None:
    created = seated(server, table(server, seed=5))
    state = eterna.load_game("eternity").new_game(players=3, seed=5)
    mover, ws = mover_socket(server, created, seed=5)
    legal = {str(a) for a in state.legal_actions()}
    hand = state.view(mover)["hand"]
    others = [f"{f}-{v}" for f in ("sea", "sky", "earth") for v in range(1, 15)]
    not_held = next(card for card in others if card not in hand)
    ws.act(f"play {not_held}", 0)
    refused = ws.error()
    assert refused["code"] == "illegal_action"
    assert "rules" in refused["message"] or "hold" in refused["message"]
    ws.act("fly away", 0)
    assert ws.error()["code"] == "bad_notation"
    ws.act("play sea-99", 0)
    assert ws.error()["code"] == "bad_notation"
    assert server.summary(created["table_id"])["plies"] == 0
    spectator = server.ws(created["table_id"])
    spectator.recv()
    assert spectator.update()["view"] == state.view(None)
    ws.act(sorted(legal)[0], 0)
    assert ws.update(1)["ply"] == 1


def test_a_flood_is_rate_limited_then_closed(server: ThreadServer) -> None:
    created = table(server, seed=6)
    _mover, ws = mover_socket(server, created, seed=6)
    for _ in range(30):
        ws.send({"type": "ping"})
    codes = []
    for _ in range(30):
        frame = ws.recv()
        codes.append(frame.get("code", frame["type"]))
    assert "rate_limited" in codes and "pong" in codes
    flooder = server.ws(created["table_id"])
    for _ in range(400):
        try:
            flooder.send({"type": "ping"})
        except Exception:
            break
    assert flooder.close_code() == 1008
    # The table still works for everyone else.
    server.ws(created["table_id"]).update()
    assert server.summary(created["table_id"])["plies"] == 0


def test_tokens_never_reach_anyone_else(server: ThreadServer) -> None:
    created = server.create(
        game="eternity",
        players=3,
        seed=7,
        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "agent": "random"}],
    )
    table_id = created["table_id"]
    tokens = [s["token"] for s in created["seats"] if s["kind"] == "human"]
    players = [server.ws(table_id, token) for token in tokens]
    spectator = server.ws(table_id)
    last: dict[int, dict[str, Any]] = {0: players[0].update(), 1: players[1].update()}
    moves = 0
    while moves < 8:  # a few moves of everyone, the bot's included
        summary = server.summary(table_id)
        mover, ply = summary["current_player"], summary["plies"]
        if mover not in (0, 1):
            time.sleep(0.01)
            continue
        if last[mover]["ply"] != ply:
            last[mover] = players[mover].update(ply)
        view = last[mover]["view"]
        players[mover].act(view["legal_actions"][0], ply)
        last[mover] = players[mover].update(ply + 1)
        moves += 1
    spectator.send({"type": "ping"})
    spectator.until(lambda f: f["type"] == "pong")
    for seat, ws in enumerate(players):
        text = "".join(ws.raw)
        assert tokens[1 - seat] not in text
        assert tokens[seat] not in text
    watched = "".join(spectator.raw)
    assert not any(token in watched for token in tokens)
    assert '"seed"' not in watched
    for path in ("/api/tables", f"/api/tables/{table_id}", "/api/history"):
        body = server.http.get(path).text
        assert not any(token in body for token in tokens)
        assert '"seed"' not in body


def test_record_and_replay_stay_secret_while_playing(server: ThreadServer) -> None:
    created = table(server, seed=8)
    table_id = created["table_id"]
    record = server.http.get(f"/api/tables/{table_id}/record")
    assert record.status_code == 409
    assert record.json()["error"]["code"] == "not_over"
    assert server.http.get(f"/api/tables/{table_id}/replay/0").status_code == 409
    rematch = server.http.post(
        f"/api/tables/{table_id}/rematch", json={"token": created["seats"][0]["token"]}
    )
    assert rematch.status_code == 409


def test_a_join_between_token_check_and_attach_wins(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race of a seat's old token against a join, forced: the connection's token is checked
    (still valid), then a join replaces that seat's token, then the connection attaches. The
    re-check under the table's lock refuses it (4403) before it sees anything."""
    created = server.create(
        game="vale", players=2, seed=1, seats=[{"kind": "human", "name": "Host"}, {"kind": "human"}]
    )
    state = eterna.load_game("vale").new_game(players=2, seed=1)
    assert state.current_player == 1  # the seat whose token is replaced moves first
    table_id = created["table_id"]
    old_token = created["seats"][1]["token"]
    seating = server.app.state.seating
    original = seating.attach
    checked, joined = threading.Event(), threading.Event()

    async def attach_after_the_join(live: Any, conn: Any) -> bool:
        if live.id == table_id and conn.token == old_token:
            checked.set()  # the token was found valid: hold the attach until the join is done
            await asyncio.to_thread(joined.wait, TIMEOUT)
        result: bool = await original(live, conn)
        return result

    monkeypatch.setattr(seating, "attach", attach_after_the_join)
    stale = server.ws(table_id, old_token)
    assert checked.wait(TIMEOUT)
    join = server.http.post(f"/api/tables/{table_id}/join", json={"name": "Guest"})
    assert join.status_code == 200 and join.json()["seat"] == 1
    joined.set()
    with contextlib.suppress(Exception):  # a legal move sent in the window goes nowhere
        stale.act(str(state.legal_actions()[0]), 0)
    assert stale.close_code() == 4403
    assert stale.raw == []  # no welcome, no view, no hand
    guest = server.ws(table_id, join.json()["token"])
    assert guest.recv()["seat"] == 1
    summary = server.summary(table_id)
    assert summary["plies"] == 0 and summary["seats"][1]["name"] == "Guest"
