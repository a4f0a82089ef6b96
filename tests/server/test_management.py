"""Table management (docs/web.md, "Waiting for players"): a game starts only when every human
seat is taken, the host can give an untaken seat to a bot, and a move the turn timer played is
told as such."""

from __future__ import annotations

import time
from typing import Any

from server_helpers import ThreadServer

import eterna
from eterna.i18n import catalog, describe_action

SEED = 5


def first_mover(seed: int = SEED) -> int:
    player = eterna.load_game("eternity").new_game(players=3, seed=seed).current_player
    assert player is not None
    return player


def seats_with(kinds: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """Three seats: the given ones, bots elsewhere (named after their seat)."""
    bot = {"kind": "bot", "agent": "random"}
    return [kinds.get(n, bot | {"name": f"Bot{n}"}) for n in range(3)]


def create(server: ThreadServer, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return server.create(game="eternity", players=3, seed=SEED, seats=seats, **extra)


def two_humans_and_the_bot_to_move(server: ThreadServer) -> tuple[dict[str, Any], int, int]:
    """A table whose first mover is a bot, with two humans: the host and an invited one."""
    mover = first_mover()
    host, guest = [n for n in range(3) if n != mover]
    seats = seats_with(
        {host: {"kind": "human", "name": "Ada"}, guest: {"kind": "human", "name": "Bob"}}
    )
    return create(server, seats, turn_timer=30.0), host, guest


def token_of(created: dict[str, Any], seat: int) -> str:
    token: str = next(s["token"] for s in created["seats"] if s["seat"] == seat)
    return token


def test_a_two_human_table_does_not_move_until_the_second_joins(server: ThreadServer) -> None:
    created, host, guest = two_humans_and_the_bot_to_move(server)
    table_id = created["table_id"]
    ada = server.ws(table_id, token_of(created, host))
    assert ada.recv()["type"] == "welcome"
    first = ada.update()
    assert first["table"]["waiting"] is True
    assert first["deadline"] is None  # no turn timer runs
    time.sleep(0.6)  # bots play at once on the test server: this one must not
    summary = server.summary(table_id)
    assert summary["plies"] == 0 and summary["waiting"] is True
    # The second human comes: the game starts, and the bot plays.
    bob = server.ws(table_id, token_of(created, guest))
    assert bob.recv()["type"] == "welcome"
    moved = ada.update(ply=1)
    assert moved["events"][0]["seat"] == first_mover()
    assert moved["table"]["waiting"] is False
    assert server.summary(table_id)["waiting"] is False


def test_the_seat_to_move_is_told_to_wait(server: ThreadServer) -> None:
    seed = 1
    assert first_mover(seed) == 0  # the host moves first
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]
    created = server.create(game="eternity", players=3, seed=seed, seats=seats)
    ws = server.ws(created["table_id"], token_of(created, 0), lang="fr")
    update = ws.update()
    assert update["moves"]  # what the host will play, once the game starts
    ws.act(update["view"]["legal_actions"][0])
    error = ws.error()
    assert error["code"] == "waiting"
    assert error["message"] == catalog("fr").text("common.error.waiting")
    assert server.summary(created["table_id"])["plies"] == 0


def fill(server: ThreadServer, table_id: str, token: str, seat: int, **more: Any) -> Any:
    body = {"token": token, "seat": seat} | more
    return server.http.post(f"/api/tables/{table_id}/fill", json=body)


def test_the_host_fills_the_seat_with_a_bot_and_the_game_starts(server: ThreadServer) -> None:
    created, host, guest = two_humans_and_the_bot_to_move(server)
    table_id = created["table_id"]
    ada = server.ws(table_id, token_of(created, host))
    ada.update()
    answer = fill(server, table_id, token_of(created, host), guest, agent="heuristic")
    assert answer.status_code == 200, answer.text
    seat = answer.json()["seats"][guest]
    assert (seat["kind"], seat["agent"], seat["claimed"]) == ("bot", "heuristic", True)
    assert answer.json()["waiting"] is False
    ada.update(ply=1)  # the game started: the first bot played
    # The filled seat can no longer be joined, nor taken with its old link.
    assert (
        server.http.post(f"/api/tables/{table_id}/join", json={}).json()["error"]["code"] == "full"
    )
    late = server.ws(table_id, token_of(created, guest))
    assert late.close_code() == 4403
    # Nor filled again.
    again = fill(server, table_id, token_of(created, host), guest)
    assert again.status_code == 409 and again.json()["error"]["code"] == "claimed"


def test_only_the_host_fills_a_seat(server: ThreadServer) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    created = create(server, seats)
    table_id = created["table_id"]
    guest = token_of(created, 1)
    server.ws(table_id, guest).update()  # seat 1 taken; seat 2 still open
    for token in (guest, "not-a-token"):
        refused = fill(server, table_id, token, 2)
        assert refused.status_code == 403
        assert refused.json()["error"]["code"] == "not_host"
    de = server.http.post(
        f"/api/tables/{table_id}/fill",
        json={"token": guest, "seat": 2},
        headers={"Accept-Language": "de"},
    )
    assert de.json()["error"]["message"] == catalog("de").text("common.error.not_host")
    over_budget = fill(server, table_id, token_of(created, 0), 2, agent="ismcts:seconds=999")
    assert over_budget.status_code == 422 and over_budget.json()["error"]["code"] == "bad_agent"
    summary = server.summary(table_id)
    assert summary["seats"][2]["kind"] == "human" and summary["waiting"] is True
    # The host may: the table is complete.
    assert fill(server, table_id, token_of(created, 0), 2).status_code == 200
    assert server.summary(table_id)["waiting"] is False


def test_a_timer_move_is_told_in_the_log(server: ThreadServer) -> None:
    mover = first_mover()
    seats = seats_with({mover: {"kind": "human", "name": "Ada"}})
    created = create(server, seats, turn_timer=1.0)
    ws = server.ws(created["table_id"], token_of(created, mover), lang="fr")
    assert ws.update()["deadline"] is not None
    update = ws.update(ply=1, timeout=15)
    played = update["events"][0]
    assert played["seat"] == mover
    told = update["told"]
    assert told[0]["kind"] == "timeout" and told[0]["seat"] == mover
    assert told[0]["n"] < told[1]["n"]  # before the move's own events
    names = [s.get("name") or "" for s in seats]
    label = describe_action("eternity", played["action"], "fr", names)
    assert told[0]["text"] == catalog("fr").text("common.told.timeout", label=label, name="Ada")
    assert told[0]["text"].startswith("Temps écoulé")
    # A bot's own move is not a timeout.
    later = ws.update(ply=2)
    assert all(item["kind"] != "timeout" for item in later["told"])


def test_a_timer_move_is_told_again_to_a_later_connection(server: ThreadServer) -> None:
    """The announcement is kept with the live table: a page that reconnects (or a second tab)
    gets it in its backlog, at the same place and in its own language; the record has no
    trace of it."""
    mover = first_mover()
    seats = seats_with({mover: {"kind": "human", "name": "Ada"}})
    created = create(server, seats, turn_timer=1.0)
    table_id, token = created["table_id"], token_of(created, mover)
    ws = server.ws(table_id, token, lang="fr")
    live = ws.update(ply=1, timeout=15)
    announced = live["told"][0]
    assert announced["kind"] == "timeout"
    ws.close()
    again = server.ws(table_id, token, lang="de").update()
    told = again["told"]
    kept = [item for item in told if item["kind"] == "timeout" and item["n"] == announced["n"]]
    assert len(kept) == 1
    at = told.index(kept[0])
    assert told[at + 1]["n"] == announced["n"] + 0.5  # just before the move's first event
    assert all(item["n"] < announced["n"] for item in told[:at])
    names = [s.get("name") or "" for s in seats]
    label = describe_action("eternity", live["events"][0]["action"], "de", names)
    assert kept[0]["text"] == catalog("de").text("common.told.timeout", label=label, name="Ada")
    assert kept[0]["seat"] == mover
    # The game's own story is untouched: the same moves tell the same events, numbered alike.
    state = eterna.load_game("eternity").new_game(players=3, seed=SEED)
    state.events_since(0, None)
    for event in again["events"]:
        state.apply(next(a for a in state.legal_actions() if str(a) == event["action"]))
    engine = [item for item in told if item["kind"] != "timeout"]
    assert [item["n"] for item in engine] == list(range(state.event_count()))
    assert [item["kind"] for item in engine] == [e["kind"] for e in state.events_since(0, mover)]
