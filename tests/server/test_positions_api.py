"""Positions on the web (docs/web-protocol.md, "Positions"): a live table gives a seated player
their own seat's position and nothing more; a finished table its whole position at any ply;
posted positions are inspected, hinted (in the search workers, within a quota) and played on
against bots. Every hostile input is refused with a code, a translated message and, for a bad
position, the field at fault."""

from __future__ import annotations

import json
import pickle
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import ThreadServer, start_server

import eterna
from eterna.core.game import Game, GameState
from eterna.core.position import share_code
from eterna.i18n import catalog, describe_action
from eterna.server.app import error_response
from eterna.server.live import start_state, table_record
from eterna.server.position_work import inspect_task
from eterna.server.protocol import MAX_POSITION
from eterna.server.settings import RequestError
from eterna.server.storage import TableData

GAME = eterna.load_game("eternity")


def played(moves: int, seed: int = 5) -> GameState:
    state = GAME.new_game(players=3, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def post(server: ThreadServer, path: str, text: str, **extra: Any) -> Any:
    # generous: the first position and the first hint each start a worker process
    return server.http.post(path, json={"position": text, **extra}, timeout=60)


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == code
    return error


# ---------------------------------------------------------------------------- live tables


def my_turn_table(server: ThreadServer) -> tuple[str, str]:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot"}, {"kind": "bot"}]
    created = server.create(game="eternity", players=3, seed=4, seats=seats)
    return created["table_id"], created["seats"][0]["token"]


def test_a_seated_player_gets_their_seats_position_and_no_more(server: ThreadServer) -> None:
    table_id, token = my_turn_table(server)
    ws = server.ws(table_id, token)
    update = ws.until(lambda f: f["type"] == "update" and "legal_actions" in f["view"])
    got = server.http.get(f"/api/tables/{table_id}/position", params={"token": token}).json()
    assert got["seat"] == 0 and got["ply"] == update["ply"]
    assert got["position"]["seat"] == 0 and got["position"]["rng"] is None
    assert got["code"] == share_code(got["position"])
    loaded = GAME.from_position(got["position"])
    assert loaded.view(0) == update["view"]
    spectator = server.http.get(f"/api/tables/{table_id}/position")
    assert refused(spectator, 403, "bad_token")["message"] == catalog("en").text(
        "common.error.bad_token"
    )
    forged = server.http.get(f"/api/tables/{table_id}/position", params={"token": "x" * 40})
    refused(forged, 403, "bad_token")
    earlier = server.http.get(f"/api/tables/{table_id}/position", params={"token": token, "at": 0})
    refused(earlier, 409, "not_over")
    refused(server.http.get("/api/tables/nosuch/position"), 404, "not_found")


def finished_table(server: ThreadServer, public: bool = True) -> str:
    seats = [{"kind": "bot", "agent": "random"} for _ in range(3)]
    created = server.create(game="eternity", players=3, seed=8, seats=seats, public=public)
    deadline = time.monotonic() + 30
    while server.summary(created["table_id"])["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return str(created["table_id"])


def test_a_finished_table_gives_its_whole_position_at_any_ply(server: ThreadServer) -> None:
    table_id = finished_table(server)
    record = server.http.get(f"/api/tables/{table_id}/record").json()
    plies = len(record["actions"])
    for at in (0, 5, None):
        params = {} if at is None else {"at": at}
        got = server.http.get(f"/api/tables/{table_id}/position", params=params).json()
        upto = plies if at is None else at
        expected = GAME.from_record(record | {"actions": record["actions"][:upto]})
        assert got["ply"] == upto and got["seat"] is None
        assert GAME.from_position(got["position"]).view(None) == expected.view(None)
        assert got["position"] == expected.to_position()
    past = server.http.get(f"/api/tables/{table_id}/position", params={"at": plies + 1})
    refused(past, 404, "not_found")
    private = finished_table(server, public=False)
    refused(server.http.get(f"/api/tables/{private}/position"), 403, "private")


# ---------------------------------------------------------------------------- inspect


def test_inspect_describes_a_whole_position_as_a_spectator_sees_it(server: ThreadServer) -> None:
    state = played(6)
    got = post(server, "/api/positions/inspect", json.dumps(state.to_position())).json()
    assert got["game"] == "eternity" and got["players"] == 3
    assert got["seat"] is None and got["guess"] is False
    assert got["to_move"] == state.current_player and got["over"] is False
    assert got["view"] == state.view(None)
    assert got["views"] == [state.view(seat) for seat in range(3)]  # every card is known
    assert [m["notation"] for m in got["moves"]] == [str(a) for a in state.legal_actions()]
    assert got["code"] == share_code(state.to_position())
    assert got["names"] == ["Seat 1", "Seat 2", "Seat 3"]


def test_inspect_a_seat_off_its_turn_lists_no_move(server: ThreadServer) -> None:
    state = played(6)
    other = ((state.current_player or 0) + 1) % 3
    got = post(server, "/api/positions/inspect", json.dumps(state.to_position(other))).json()
    assert got["seat"] == other and got["moves"] is None and got["to_move"] != other


def test_inspect_a_seat_to_move_lists_its_moves_in_words(server: ThreadServer) -> None:
    state = played(6)
    seat = state.current_player
    assert seat is not None
    code = share_code(state.to_position(seat))
    got = post(server, "/api/positions/inspect?lang=de", code).json()
    assert got["seat"] == seat and got["guess"] is True
    assert got["view"] == state.view(seat) and got["views"] is None
    names = [catalog("de").text("common.seat", n=n) for n in (1, 2, 3)]
    assert got["moves"] == [
        {"notation": str(a), "label": describe_action("eternity", str(a), "de", names)}
        for a in state.legal_actions()
    ]


# ---------------------------------------------------------------------------- hostile input


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        ("{not json", "", "not valid JSON"),
        ("ep1.@@@@", "", "not a share code"),
        ("[]", "game", "a JSON object with a 'game' id"),
        ('{"game": "chess"}', "game", "unknown game"),
        ('{"format": "eterna-position", "game": "eternity"}', "version", "is missing"),
    ],
)
def test_a_malformed_position_is_400_naming_the_field(
    server: ThreadServer, text: str, field: str, words: str
) -> None:
    for path in ("/api/positions/inspect", "/api/positions/hint", "/api/positions/play"):
        error = refused(post(server, path, text), 400, "bad_position")
        assert error["field"] == field
        assert words in error["detail"]
        assert error["message"] == catalog("en").text("common.error.bad_position")


def test_a_bad_field_is_named_in_the_pages_language(server: ThreadServer) -> None:
    position = played(3).to_position()
    del position["rng"]
    response = server.http.post(
        "/api/positions/inspect",
        json={"position": json.dumps(position)},
        headers={"Accept-Language": "fr"},
    )
    error = refused(response, 400, "bad_position")
    assert error["field"] == "rng"
    assert error["message"] == catalog("fr").text("common.error.bad_position")


def test_a_card_in_two_places_is_refused(server: ThreadServer) -> None:
    position = played(3).to_position()
    position["hands"][1][0] = position["hands"][0][0]  # one card in two hands
    error = refused(
        post(server, "/api/positions/inspect", json.dumps(position)), 400, "bad_position"
    )
    assert error["field"] == "hands[1][0]"
    assert "is also in hands[0][0]" in error["detail"]


def test_huge_text_is_refused_before_it_is_read(server: ThreadServer) -> None:
    big = post(server, "/api/positions/inspect", "{" + " " * MAX_POSITION + "}")
    assert "position" in refused(big, 422, "bad_request")["detail"]
    huge = post(server, "/api/positions/inspect", "x" * 40_000)
    refused(huge, 413, "too_large")
    wrong_type = server.http.post("/api/positions/inspect", json={"position": {"game": 1}})
    refused(wrong_type, 422, "bad_request")
    extra = server.http.post("/api/positions/inspect", json={"position": "{}", "more": 1})
    refused(extra, 422, "bad_request")


def test_a_game_without_a_format_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    # Positions load in a worker process, which a monkeypatch here cannot reach: the task the
    # worker runs is called directly, and its refusal must survive the trip back (pickling).
    game = eterna.load_game("vale")
    monkeypatch.setattr(type(game), "from_position", Game.from_position)  # the core's refusal
    text = json.dumps({"format": "eterna-position", "version": 1, "game": "vale", "players": 2})
    with pytest.raises(RequestError) as raised:
        inspect_task(text, "en")
    error = pickle.loads(pickle.dumps(raised.value))
    assert (error.status, error.code) == (422, "no_position")
    assert error.message == "The Vale of Eternity has no position format"
    body = json.loads(error_response(422, error.code, error.message, "en").body)["error"]
    assert body["message"] == catalog("en").text("common.error.no_position")


# ---------------------------------------------------------------------------- hints


def test_a_hint_advises_the_seat_to_move_in_words(server: ThreadServer) -> None:
    state = played(7)
    got = post(server, "/api/positions/hint?lang=fr", json.dumps(state.to_position())).json()
    assert got["seat"] == state.current_player and got["iterations"] == 30
    legal = {str(a) for a in state.legal_actions()}
    assert {c["action"] for c in got["candidates"]} == legal
    names = [catalog("fr").text("common.seat", n=n) for n in (1, 2, 3)]
    for candidate in got["candidates"]:
        assert candidate["label"] == describe_action("eternity", candidate["action"], "fr", names)
    assert sum(c["visits"] for c in got["candidates"]) > 0


def test_a_hint_off_the_seats_turn_or_after_the_end_is_refused(server: ThreadServer) -> None:
    state = played(7)
    other = ((state.current_player or 0) + 1) % 3
    refused(
        post(server, "/api/positions/hint", share_code(state.to_position(other))),
        409,
        "not_your_turn",
    )
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    refused(post(server, "/api/positions/hint", share_code(state.to_position())), 409, "game_over")


@pytest.fixture
def quota_server(tmp_path: Path) -> Iterator[ThreadServer]:
    running = start_server(data_dir=tmp_path, position_hints=3)
    try:
        yield running
    finally:
        running.stop()


def test_a_hint_flood_is_cut_by_the_quota(quota_server: ThreadServer) -> None:
    code = share_code(played(7).to_position())
    answers = [post(quota_server, "/api/positions/hint", code) for _ in range(5)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
    error = answers[-1].json()["error"]
    assert error["code"] == "hint_quota"
    assert error["message"] == catalog("en").text("common.error.hint_quota")
    assert "at most 3 hints on positions per address" in error["detail"]


# ---------------------------------------------------------------------------- play on


def test_play_on_from_a_seat_position_against_bots(server: ThreadServer) -> None:
    state = played(6)
    seat = state.current_player
    assert seat is not None
    made = post(server, "/api/positions/play", share_code(state.to_position(seat)), name="Ada")
    assert made.status_code == 201, made.text
    table = made.json()
    assert table["seat"] == seat and table["guess"] is True
    assert table["url"] == f"/table/{table['table_id']}?token={table['token']}"
    ws = server.ws(table["table_id"], table["token"])
    welcome = ws.recv()
    assert welcome["seat"] == seat
    assert welcome["table"]["public"] is False
    kinds = [s["kind"] for s in welcome["table"]["seats"]]
    assert kinds == ["human" if s == seat else "bot" for s in range(3)]
    assert ws.update()["view"] == state.view(seat)


def test_play_from_a_whole_position_takes_the_seat_to_move(server: ThreadServer) -> None:
    state = played(5)
    made = post(server, "/api/positions/play", json.dumps(state.to_position()), agent="random")
    assert made.status_code == 201, made.text
    assert made.json()["seat"] == state.current_player and made.json()["guess"] is False
    bad_agent = post(server, "/api/positions/play", json.dumps(state.to_position()), agent="nobody")
    refused(bad_agent, 422, "bad_agent")


def test_a_table_started_from_a_position_replays_from_it() -> None:
    state = played(5)
    whole = state.to_position()
    data = TableData(
        "t1",
        "eternity",
        3,
        77,
        whole["options"],
        {"position": whole},
        False,
        None,
        None,
        "playing",
        0.0,
    )
    data.actions = [(state.current_player or 0, str(state.legal_actions()[0]))]
    assert start_state(data).view(None) == state.view(None)
    record = table_record(data)
    assert "setup" not in record and record["position"] == whole
    again = GAME.from_record(record)
    state.apply(data.actions[0][1])
    assert again.view(None) == state.view(None)


@pytest.mark.parametrize(("game_id", "players"), [("vale", 2), ("eternitium", 2)])
def test_every_game_with_a_format_is_inspected_and_played_on(
    server: ThreadServer, game_id: str, players: int
) -> None:
    game = eterna.load_game(game_id)
    state = game.new_game(players=players, seed=3)
    rng = random.Random(3)
    for _ in range(9):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    assert seat is not None
    code = share_code(state.to_position(seat))
    got = post(server, "/api/positions/inspect", code).json()
    assert got["view"] == state.view(seat)
    assert [m["notation"] for m in got["moves"]] == [str(a) for a in state.legal_actions()]
    hint = post(server, "/api/positions/hint", code).json()
    assert {c["action"] for c in hint["candidates"]} == {str(a) for a in state.legal_actions()}
    made = post(server, "/api/positions/play", code)
    assert made.status_code == 201, made.text
    ws = server.ws(made.json()["table_id"], made.json()["token"])
    assert ws.recv()["seat"] == seat
    assert ws.update()["view"] == state.view(seat)
