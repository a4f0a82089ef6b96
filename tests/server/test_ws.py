"""The WebSocket protocol (docs/web-protocol.md) against a real server: welcome and updates,
views equal to the engine's, public events, stale and out-of-turn refusals, hints, the turn
timer, reconnection and presence."""

from __future__ import annotations

import time
from typing import Any

import pytest
from server_helpers import WS, ThreadServer, human_seats, seated

import eterna
from eterna.core.game import GameState


def engine_state(game: str, players: int, seed: int) -> GameState:
    return eterna.load_game(game).new_game(players=players, seed=seed)


def test_welcome_then_update_with_own_view(server: ThreadServer) -> None:
    created = server.create(game="eternity", players=3, seed=11, seats=human_seats(3))
    state = engine_state("eternity", 3, 11)
    for seat in (0, 1, 2):
        ws = server.ws(created["table_id"], created["seats"][seat]["token"])
        welcome = ws.recv()
        assert welcome["type"] == "welcome"
        assert welcome["seat"] == seat
        assert welcome["table"]["table_id"] == created["table_id"]
        assert welcome["table"]["seats"][seat]["claimed"] is True
        update = ws.update()
        assert update["ply"] == 0 and update["events"] == []
        assert update["view"] == state.view(seat)
        assert ("legal_actions" in update["view"]) == (state.current_player == seat)
    spectator = server.ws(created["table_id"])
    assert spectator.recv()["seat"] is None
    assert spectator.update()["view"] == state.view(None)


def play_full_game(server: ThreadServer, game: str, players: int, seed: int, pick: int) -> None:
    """Every seat a client, plus a spectator; every view checked against the engine."""
    created = server.create(game=game, players=players, seed=seed, seats=human_seats(players))
    table_id = created["table_id"]
    seats = [server.ws(table_id, s["token"]) for s in created["seats"]]
    spectator = server.ws(table_id)
    everyone: list[tuple[int | None, WS]] = [*enumerate(seats), (None, spectator)]
    for _seat, ws in everyone:
        ws.recv()  # welcome
    state = engine_state(game, players, seed)
    # Drain the presence updates, keeping each client at the newest one.
    last: dict[int | None, dict[str, Any]] = {}
    for seat, ws in everyone:
        last[seat] = ws.update()
    time.sleep(0.1)
    for seat, ws in everyone:
        while True:
            try:
                last[seat] = ws.recv(timeout=0.05)
            except TimeoutError:
                break
    ply = 0
    while not state.is_terminal:
        mover = state.current_player
        assert mover is not None
        legal = last[mover]["view"]["legal_actions"]
        assert legal == [str(a) for a in state.legal_actions()]
        choice = legal[pick % len(legal)]
        public = state.public_notation(state.game.parse_action(choice))
        seats[mover].act(choice, ply)
        state.apply(choice)
        ply += 1
        for seat, ws in everyone:
            update = ws.update()
            assert update["ply"] == ply
            assert update["view"] == state.view(seat), f"seat {seat} got another view"
            (event,) = update["events"]
            assert event["ply"] == ply and event["seat"] == mover
            if seat == mover:
                assert event["action"] == choice
            elif public is None:
                assert "action" not in event
            else:
                assert event["action"] == public
            assert update["table"]["plies"] == ply
            last[seat] = update
    final = last[None]["table"]
    assert final["status"] == "over"
    assert final["scores"] == state.scores and final["winners"] == state.winners
    record = server.http.get(f"/api/tables/{table_id}/record").json()
    assert record["actions"] == state.to_record()["actions"]
    assert eterna.load_game(game).from_record(record).scores == state.scores


def test_full_eternity_game_views_and_events(server: ThreadServer) -> None:
    play_full_game(server, "eternity", 3, seed=5, pick=1)


def test_hidden_action_is_shown_to_its_player_only(server: ThreadServer) -> None:
    """Eternitium: 'keep ...' after a skip is private (seed 0, last legal action: ply 5)."""
    created = server.create(game="eternitium", players=2, seed=0, seats=human_seats(2))
    table_id = created["table_id"]
    seats = [server.ws(table_id, s["token"]) for s in created["seats"]]
    spectator = server.ws(table_id)
    state = engine_state("eternitium", 2, 0)
    hidden_seen = False
    for ply in range(6):
        mover = state.current_player
        assert mover is not None
        action = state.legal_actions()[-1]
        public = state.public_notation(action)
        seats[mover].act(str(action), ply)
        state.apply(action)
        other = seats[1 - mover].update(ply + 1)
        watcher = spectator.update(ply + 1)
        own = seats[mover].update(ply + 1)
        assert own["events"] == [{"ply": ply + 1, "seat": mover, "action": str(action)}]
        if public is None:
            hidden_seen = True
            assert other["events"] == [{"ply": ply + 1, "seat": mover}]
            assert watcher["events"] == [{"ply": ply + 1, "seat": mover}]
            assert str(action) not in str(other["view"].get("log", ""))
        else:
            assert other["events"][0]["action"] == public
    assert hidden_seen


def test_stale_and_out_of_turn_acts_are_refused(server: ThreadServer) -> None:
    created = seated(
        server, server.create(game="eternity", players=3, seed=3, seats=human_seats(3))
    )
    table_id = created["table_id"]
    state = engine_state("eternity", 3, 3)
    mover = state.current_player
    assert mover is not None
    other = (mover + 1) % 3
    ws_mover = server.ws(table_id, created["seats"][mover]["token"])
    ws_other = server.ws(table_id, created["seats"][other]["token"])
    legal = [str(a) for a in state.legal_actions()]
    ws_other.send({"type": "act", "action": legal[0]})
    assert ws_other.error()["code"] == "not_your_turn"
    ws_mover.act(legal[0], 7)
    stale = ws_mover.error()
    assert stale["code"] == "stale"
    assert server.summary(table_id)["plies"] == 0
    ws_mover.act(legal[0], 0)
    assert ws_mover.update(1)["ply"] == 1
    ws_mover.act(legal[1], 0)  # a double click
    assert ws_mover.error()["code"] == "stale"
    assert server.summary(table_id)["plies"] == 1


def test_ping_and_spectator_act(server: ThreadServer) -> None:
    created = server.create(game="vale", players=2, seats=human_seats(2))
    spectator = server.ws(created["table_id"])
    spectator.send({"type": "ping"})
    assert spectator.until(lambda f: f["type"] == "pong")
    spectator.send({"type": "act", "action": "end-turn"})
    assert spectator.error()["code"] == "spectator"
    spectator.send({"type": "hint"})
    assert spectator.error()["code"] == "spectator"


def ask_hint(server: ThreadServer) -> tuple[dict[str, Any], GameState, int, WS]:
    """A 3-player Eternity table of humans (seed 9) whose first mover has asked for a hint:
    (the created table, the engine's own state of it, the mover, the mover's socket)."""
    created = seated(
        server, server.create(game="eternity", players=3, seed=9, seats=human_seats(3))
    )
    state = engine_state("eternity", 3, 9)
    mover = state.current_player
    assert mover is not None
    ws = server.ws(created["table_id"], created["seats"][mover]["token"])
    ws.send({"type": "hint"})
    return created, state, mover, ws


def test_hint_on_the_seats_turn_only(server: ThreadServer) -> None:
    created, state, mover, ws = ask_hint(server)
    hint = ws.until(lambda f: f["type"] == "hint", timeout=30)
    assert hint["iterations"] == 30
    assert sorted(c["action"] for c in hint["candidates"]) == sorted(
        str(a) for a in state.legal_actions()
    )
    assert sum(c["visits"] for c in hint["candidates"]) > 0
    waiting = server.ws(created["table_id"], created["seats"][(mover + 1) % 3]["token"])
    waiting.send({"type": "hint"})
    assert waiting.error()["code"] == "not_your_turn"


def test_bots_play_with_a_human(server: ThreadServer) -> None:
    created = server.create(
        game="eternity",
        players=3,
        seed=4,
        seats=[
            {"kind": "human", "name": "Ada"},
            {"kind": "bot"},
            {"kind": "bot", "agent": "random"},
        ],
    )
    assert [s["kind"] for s in created["seats"]] == ["human", "bot", "bot"]
    assert "token" not in created["seats"][1]
    ws = server.ws(created["table_id"], created["seats"][0]["token"])
    # The human is asked to move within a few bot moves.
    update = ws.until(lambda f: f["type"] == "update" and "legal_actions" in f["view"])
    assert update["table"]["current_player"] == 0
    ply = update["ply"]
    ws.act(update["view"]["legal_actions"][0], ply)
    after = ws.update(ply + 1)
    assert after["events"][0]["seat"] == 0
    summary = server.summary(created["table_id"])
    assert summary["seats"][1] == {
        "seat": 1,
        "kind": "bot",
        "agent": "heuristic",
        "name": "heuristic",
        "claimed": True,
        "connected": True,
        "reserved": False,
    }


def test_turn_timer_plays_the_heuristic_move(server: ThreadServer) -> None:
    seats = human_seats(3)
    created = seated(
        server, server.create(game="eternity", players=3, seed=8, seats=seats, turn_timer=1)
    )
    state = engine_state("eternity", 3, 8)
    mover = state.current_player
    assert mover is not None
    ws = server.ws(created["table_id"], created["seats"][mover]["token"])
    first = ws.update()
    assert first["deadline"] is not None
    assert 0 < first["deadline"] - time.time() <= 1.0
    timed_out = ws.update(1, timeout=5)
    (event,) = timed_out["events"]
    assert event["seat"] == mover
    assert event["action"] in {str(a) for a in state.legal_actions()}
    assert timed_out["deadline"] is not None and timed_out["deadline"] > first["deadline"]


def test_reconnect_resumes_where_the_game_stands(server: ThreadServer) -> None:
    created = server.create(game="vale", players=2, seed=21, seats=human_seats(2))
    table_id = created["table_id"]
    tokens = [s["token"] for s in created["seats"]]
    state = engine_state("vale", 2, 21)
    clients = [server.ws(table_id, t) for t in tokens]
    for ply in range(6):
        mover = state.current_player
        assert mover is not None
        action = str(state.legal_actions()[0])
        clients[mover].act(action, ply)
        clients[mover].update(ply + 1)
        state.apply(action)
    for client in clients:
        client.close()
    for seat, token in enumerate(tokens):
        again = server.ws(table_id, token)
        assert again.recv()["seat"] == seat
        update = again.update()
        assert update["ply"] == 6
        assert update["view"] == state.view(seat)


def test_presence_updates_the_summary(server: ThreadServer) -> None:
    created = server.create(game="eternity", players=3, seats=human_seats(3))
    table_id = created["table_id"]
    spectator = server.ws(table_id)
    spectator.update()
    player = server.ws(table_id, created["seats"][2]["token"])
    # A seat's holder coming or going is a small `presence` frame, not a full update.
    joined = spectator.until(lambda f: f["type"] == "presence")
    assert joined["seats"][2]["connected"] is True
    assert joined["seats"][2]["claimed"] is True
    player.close()
    left = spectator.until(lambda f: f["type"] == "presence")
    assert left["seats"][2]["connected"] is False
    assert left["seats"][2]["claimed"] is True
    assert server.summary(table_id)["seats"][2]["connected"] is False


def test_a_failing_hint_answers_with_an_error_frame(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A bug in the search must not leave the client waiting: it gets `server_error`, and the
    # game goes on.
    from eterna.server.workers import Workers

    async def broken(*args: object, **kwargs: object) -> None:
        raise AttributeError("simulated search bug")

    monkeypatch.setattr(Workers, "hint", broken)
    _created, state, _mover, ws = ask_hint(server)
    assert ws.error()["code"] == "server_error"
    ws.act(str(state.legal_actions()[0]), 0)
    assert ws.update(1)["ply"] == 1


def test_a_late_client_gets_every_move_so_far_in_its_first_update(server: ThreadServer) -> None:
    # docs/web-protocol.md: the first update after the welcome carries the game so far.
    created = seated(server, server.create(game="vale", players=2, seed=4, seats=human_seats(2)))
    table_id = created["table_id"]
    state = engine_state("vale", 2, 4)
    played: list[dict[str, Any]] = []
    for ply in range(6):
        seat = state.current_player
        assert seat is not None
        action = str(state.legal_actions()[0])
        ws = server.ws(table_id, created["seats"][seat]["token"])
        ws.act(action)
        ws.update(ply + 1)
        ws.close()
        state.apply(action)
        played.append({"ply": ply + 1, "seat": seat, "action": action})
    late = server.ws(table_id)
    late.recv()  # welcome
    first = late.update(6)
    assert first["events"] == played
    assert first["view"] == state.view(None)


def test_history_events_hide_what_the_game_keeps_private() -> None:
    # GameState.public_notation: another seat sees that a move was made, not which.
    from types import SimpleNamespace

    from eterna.server.tables import LiveTable

    table = LiveTable.__new__(LiveTable)
    table.data = SimpleNamespace(actions=[(0, "keep droid"), (1, "end")])  # type: ignore[assignment]
    table._shown = [None, "end"]
    assert table.history_events(0) == [
        {"ply": 1, "seat": 0, "action": "keep droid"},
        {"ply": 2, "seat": 1, "action": "end"},
    ]
    assert table.history_events(1) == [
        {"ply": 1, "seat": 0},
        {"ply": 2, "seat": 1, "action": "end"},
    ]
    assert table.history_events(None)[0] == {"ply": 1, "seat": 0}
