"""Updates in words (docs/web-protocol.md, "Told events and move labels"): each connection
is told its seat's events in its language, the seat to move gets its moves' labels, and a
refusal says why in that language, with the rule, and so does every other error frame."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from server_helpers import WS, ThreadServer, human_seats, seated

import eterna
from eterna.i18n import LANGS, catalog, describe_action, describe_event
from eterna.i18n.messages import messages_of
from eterna.server.protocol import ERROR_CODES, HTTP_ERROR_CODES, MAX_FRAME, error_frame


def opened(server: ThreadServer, seed: int = 11) -> tuple[dict[str, Any], Any]:
    created = seated(
        server, server.create(game="eternity", players=3, seed=seed, seats=human_seats(3))
    )
    return created, eterna.load_game("eternity").new_game(players=3, seed=seed)


def first_update(ws: WS) -> dict[str, Any]:
    assert ws.recv()["type"] == "welcome"
    return ws.update()


def test_a_french_seat_is_told_in_french_and_gets_french_labels(server: ThreadServer) -> None:
    created, state = opened(server)
    table_id, seats = created["table_id"], created["seats"]
    names = ["P0", "P1", "P2"]
    fr = server.ws(table_id, seats[0]["token"], lang="fr")
    update = first_update(fr)
    told = update["told"]
    events = state.events_since(0, 0)
    assert [e["n"] for e in told] == list(range(len(events)))
    assert [e["text"] for e in told] == [describe_event("eternity", e, "fr", names) for e in events]
    assert [{k: v for k, v in e.items() if k not in ("n", "text")} for e in told] == events
    assert state.current_player == 0
    moves = update["moves"]
    assert [m["notation"] for m in moves] == update["view"]["legal_actions"]
    assert moves[0]["label"] == describe_action("eternity", moves[0]["notation"], "fr")
    assert moves[0]["label"].startswith("Jouer ")
    # The header speaks when the query does not; English by default.
    de = server.ws(table_id, seats[1]["token"], accept_language="de-CH, fr;q=0.5")
    de_update = first_update(de)
    assert de_update["told"][0]["text"] == describe_event("eternity", events[0], "de", names)
    assert de_update["moves"] is None  # not its turn
    spectator = first_update(server.ws(table_id))
    assert spectator["told"][0]["text"] == describe_event("eternity", events[0], "en", names)
    # A move: everyone is told what it made happen, from the next event on.
    choice = moves[0]["notation"]
    fr.act(choice, 0)
    count = state.event_count()
    state.apply(choice)
    after = fr.update(1)
    assert [e["n"] for e in after["told"]] == list(range(count, state.event_count()))
    assert after["told"][0]["text"] == describe_event(
        "eternity", state.events_since(count, 0)[0], "fr", names
    )
    assert after["moves"] is None
    assert de.update(1)["moves"] is not None  # seat 1 moves next, in German
    assert state.current_player == 1


def test_a_seat_is_never_told_another_seats_hand(server: ThreadServer) -> None:
    created, state = opened(server)
    table_id, seats = created["table_id"], created["seats"]
    clients = {seat: server.ws(table_id, seats[seat]["token"]) for seat in (0, 1, 2)}
    clients[None] = server.ws(table_id)
    for seat, ws in clients.items():
        dealt = [e for e in first_update(ws)["told"] if e["kind"] == "hand_dealt"]
        assert len(dealt) == 3
        for event in dealt:
            if event["seat"] == seat:
                assert event["cards"] == state.view(seat)["hand"]
            else:
                assert "cards" not in event, f"seat {seat} was told seat {event['seat']}'s hand"
                assert not any(card in event["text"] for card in ("Terre", "Earth"))


def test_a_refused_move_says_why_in_french_with_the_rule(server: ThreadServer) -> None:
    created, state = opened(server)
    table_id, seats = created["table_id"], created["seats"]
    first = server.ws(table_id, seats[0]["token"])
    second = server.ws(table_id, seats[1]["token"], lang="fr")
    first_update(first)
    first_update(second)
    first.act("play earth-3", 0)
    state.apply("play earth-3")
    second.update(1)
    second.act("play sea-2", 1)  # seat 1 holds earth cards: it must follow earth
    refused = second.error()
    assert refused["code"] == "illegal_action"
    assert refused["rule"] == "§5.3"
    assert "must follow earth" in refused["detail"] and "play sea-2" in refused["detail"]
    assert refused["message"] != refused["detail"]
    assert "Terre" in refused["message"], refused["message"]


def test_bots_sharing_a_name_are_told_apart(server: ThreadServer) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * 2
    created = server.create(game="eternity", players=3, seed=11, seats=seats)
    update = first_update(server.ws(created["table_id"], created["seats"][0]["token"]))
    (started,) = [e["text"] for e in update["told"] if e["kind"] == "round_started"]
    assert "Seat 1" in started  # seat 0 leads: no name, its seat as the page counts it
    dealt = [e["text"] for e in update["told"] if e["kind"] == "hand_dealt"]
    # by their catalog name, never the agent id, numbered by seat as the page counts (issue 32)
    assert dealt[1].startswith("Random bot 2 ") and dealt[2].startswith("Random bot 3 ")
    assert not any("random" in text for text in dealt)


def test_every_error_frame_speaks_the_connections_language(server: ThreadServer) -> None:
    created, state = opened(server)
    table_id, seats = created["table_id"], created["seats"]
    mover = server.ws(table_id, seats[0]["token"], lang="fr")
    other = server.ws(table_id, seats[1]["token"], lang="fr")
    spectator = server.ws(table_id, lang="fr")
    for ws in (mover, other, spectator):
        first_update(ws)
    fr = catalog("fr")
    said: dict[str, dict[str, Any]] = {}

    def refused(ws: WS, frame: dict[str, Any] | str | bytes) -> None:
        ws.send(frame)
        error = ws.error()
        said[error["code"]] = error

    legal = [str(a) for a in state.legal_actions()]
    refused(other, {"type": "act", "action": legal[0], "ply": 0})
    refused(spectator, {"type": "act", "action": legal[0]})
    refused(mover, {"type": "act", "action": legal[0], "ply": 7})
    refused(mover, {"type": "act", "action": "fly away", "ply": 0})
    refused(mover, "{not json")
    refused(mover, "x" * (MAX_FRAME + 1))
    assert set(said) == {"not_your_turn", "spectator", "stale", "bad_notation", "bad_frame",
                         "too_large"}  # fmt: skip
    for code, error in said.items():
        assert error["message"] == fr.text(f"common.error.{code}"), code
        assert error["message"] != catalog("en").text(f"common.error.{code}"), code
        assert error["detail"]  # the English specifics stay
    assert said["not_your_turn"]["message"] == "Ce n'est pas votre tour."
    for _ in range(40):  # a flood: past 20 frames a second, rate_limited
        spectator.send({"type": "ping"})
    flooded = spectator.until(lambda f: f["type"] == "error")
    assert flooded["code"] == "rate_limited"
    assert flooded["message"] == "Trop de messages à la fois : ralentissez."
    other.send({"type": "hint"})  # not this seat's turn
    hint = other.error()
    assert hint["code"] == "not_your_turn"
    assert hint["message"] == fr.text("common.error.not_your_turn.hint")


@pytest.mark.parametrize("lang", LANGS)
def test_every_error_code_has_words_in_every_language(lang: str) -> None:
    english = catalog("en")
    for code in (*ERROR_CODES, *HTTP_ERROR_CODES):
        key = f"common.error.{code}"
        assert key in messages_of(lang), (lang, code)  # its own words, not English's
        frame = error_frame(code, "the English specifics", lang)
        assert frame["message"] == catalog(lang).text(key)
        assert frame["detail"] == "the English specifics"
        if lang != "en":
            assert frame["message"] != english.text(key), (lang, code)


def test_the_documented_error_codes_are_the_protocols() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "web-protocol.md"
    listed = re.search(
        r'\{"type": "error", "code": (.*?), "message"', docs.read_text("utf-8"), re.S
    )
    assert listed is not None
    assert tuple(re.findall(r'"(\w+)"', listed.group(1))) == ERROR_CODES


def test_every_code_the_server_raises_is_declared() -> None:
    server = Path(__file__).resolve().parents[2] / "src" / "eterna" / "server"
    raised: set[str] = set()
    for path in server.glob("*.py"):
        text = path.read_text("utf-8")
        raised |= set(re.findall(r'(?:RequestError|error_response)\(\s*\d+,\s*"(\w+)"', text))
        raised |= set(re.findall(r'(?:Refusal|FrameError|error_frame)\(\s*"(\w+)"', text))
        raised |= set(re.findall(r'return "(\w+)", "', text))  # the hint's refusals
        raised |= set(re.findall(r'^\s+code = "(\w+)"', text, re.M))  # the quotas' (limits.py)
        for pair in re.findall(r'\b\d{3}: "(\w+)"|codes\.get\([^,]+, "(\w+)"\)', text):
            raised |= {code for code in pair if code}  # Starlette's statuses
    assert raised == {*ERROR_CODES, *HTTP_ERROR_CODES}


def test_http_errors_speak_the_pages_language(server: ThreadServer) -> None:
    created, _state = opened(server)
    table_id = created["table_id"]
    fr = {"Accept-Language": "fr"}
    http = server.http
    refusals = {
        "not_found": http.get("/api/tables/nope", headers=fr),
        "not_over": http.get(f"/api/tables/{table_id}/record", headers=fr),
        "bad_agent": http.post(
            "/api/tables",
            json={"game": "eternity", "players": 3, "seats": [{"kind": "bot", "agent": "zz"}] * 3},
            headers=fr,
        ),
        "duplicate_key": http.post(
            "/api/tables",
            content=b'{"game": "vale", "game": "vale"}',
            headers={**fr, "content-type": "application/json"},
        ),
        "method_not_allowed": http.delete("/api/tables", headers=fr),
    }
    for code, response in refusals.items():
        error = response.json()["error"]
        assert error["code"] == code, response.text
        assert error["message"] == catalog("fr").text(f"common.error.{code}"), code
        assert error["detail"] and error["detail"] != error["message"]
    german = http.get("/api/tables/nope?lang=de", headers=fr).json()["error"]  # the query wins
    assert german["message"] == "Nicht gefunden: Diesen Tisch gibt es nicht (mehr)."
    english = http.get("/api/tables/nope").json()["error"]
    assert english["message"] == catalog("en").text("common.error.not_found")
    assert english["detail"] == "no table 'nope'"
