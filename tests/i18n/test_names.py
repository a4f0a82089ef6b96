"""Players' names and seat numbers as players read them, from one place (issue 32): bots by
their catalog name, never their agent id; seats counted from 1 as on the web page; a name two
seats share told apart by its seat number; the same on the server, in replays and in the
terminal."""

from __future__ import annotations

import pytest

from eterna.cli.words import seat_names
from eterna.i18n import LANGS, catalog
from eterna.i18n.names import Who, player_names, seat_number
from eterna.server.storage import SeatData, TableData
from eterna.server.told import seat_labels


def test_bots_are_named_by_the_catalog_and_numbered_by_seat() -> None:
    seats = [
        Who("Alice"),
        Who("heuristic", "heuristic"),
        Who(None, "heuristic"),
        Who(None, "random"),
    ]
    assert player_names("en", seats) == [
        "Alice",
        "Heuristic bot 2",
        "Heuristic bot 3",
        "Random bot",
    ]
    assert player_names("fr", seats)[1:3] == ["Robot heuristique 2", "Robot heuristique 3"]
    assert player_names("de", seats)[3] == "Zufallsbot"
    assert player_names("en", [Who(None, "ismcts:iterations=200"), Who()]) == [
        "Search bot",
        "Seat 2",
    ]
    # a name a player chose stays theirs, even a bot's; people sharing a name get "#n"
    assert player_names("en", [Who("Bo"), Who("Bo"), Who("Robby", "random")]) == [
        "Bo #1",
        "Bo #2",
        "Robby",
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_every_name_starts_a_sentence_capitalised(lang: str) -> None:
    for agent in ("heuristic", "random", "ismcts", "someone-new"):
        (name,) = player_names(lang, [Who(None, agent)])
        assert name[0].isupper() and name != agent, (lang, name)
    words = catalog(lang).text("common.event.player_joined", player=player_names(lang, [Who()])[0])
    assert words[0].isupper()


def test_the_server_and_the_terminal_name_seats_alike() -> None:
    data = TableData(
        id="t",
        game="eternity",
        players=3,
        seed=1,
        options={},
        setup=None,
        public=False,
        turn_timer=None,
        bot_delay=None,
        status="playing",
        created_at=0.0,
        seats=[
            SeatData(0, "human", None, None),
            SeatData(1, "bot", "heuristic", "heuristic"),
            SeatData(2, "bot", "heuristic", "heuristic"),
        ],
    )
    assert seat_labels(data, "en") == ["Seat 1", "Heuristic bot 2", "Heuristic bot 3"]
    terminal = seat_names("en", 3, 0, {1: "heuristic", 2: "heuristic"}, "eternity")
    assert terminal == ["Seat 1 (you)", "Heuristic bot 2", "Heuristic bot 3"]
    assert seat_number(0) == 1


def test_a_replay_names_the_seats_of_its_record() -> None:
    from eterna.cli.replay_cmd import _names

    web = {
        "seats": [
            {"seat": 0, "kind": "human", "name": "Ada"},
            {"seat": 1, "kind": "bot", "agent": "random", "name": "random"},
        ]
    }
    assert _names(web, 2, "de") == ["Ada", "Zufallsbot"]
    assert _names({"agents": ["heuristic", "heuristic"]}, 2, "en") == [
        "Heuristic bot 1",
        "Heuristic bot 2",
    ]
    assert _names({}, 2, "fr") == ["Place 1", "Place 2"]


def test_the_replay_pages_last_move_reads_as_a_sentence() -> None:
    """'Last move: Alice Play Square Portal' glued a name to a move's label; the label now
    follows the name it belongs to ('Last move by Alice: Play Square Portal')."""
    import json
    from pathlib import Path

    import eterna

    pages = Path(eterna.__file__).parent / "web" / "static" / "i18n"
    said = {
        lang: json.loads((pages / f"{lang}.json").read_text("utf-8"))["replay.lastAction"]
        for lang in LANGS
    }
    for lang, text in said.items():
        assert "{name} {action}" not in text and text.rstrip().endswith("{action}"), lang
        filled = text.replace("{name}", "Alice").replace("{action}", "Play Square Portal")
        assert filled.index("Alice") < filled.index(":") < filled.index("Play"), (lang, filled)
