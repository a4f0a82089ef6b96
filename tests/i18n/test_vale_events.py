"""The Vale's events, told in words (docs/events.md, docs/i18n.md): every documented kind and
question has a sentence in every language, and whole games narrate with no missing word."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import eterna
from eterna.games.vale.cards import CARD_NAME, TILE_NAME
from eterna.i18n import LANGS, catalog
from eterna.i18n.words import describe_event, event_lines, stones_words

NAMES = ["Alice", "Bob", "Chloé", "Dieter"]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "events.md"


def _vale_section() -> str:
    text = DOCS.read_text(encoding="utf-8").split("## The Vale of Eternity", 1)[1]
    return text.split("\n## ", 1)[0]


def test_every_documented_kind_and_question_has_a_sentence() -> None:
    section = _vale_section()
    kinds: set[str] = set()
    for cell in re.findall(r"^\| ((?:`\w+`(?:, )?)+) \|", section, flags=re.M):
        kinds.update(re.findall(r"`(\w+)`", cell))
    assert {"round_started", "card_drawn", "points_stolen", "game_over"} <= kinds
    assert len(kinds) == 38  # 27 of the base game, 2 of the Artifacts creatures, 9 of its tiles
    questions = set(re.findall(r"`(\w+)`", section.split("stable name:", 1)[1]))
    assert len(questions) == 26  # 12 of the base game, 5 of the creatures, 9 of the tiles
    for lang in LANGS:
        cat = catalog(lang)
        for kind in kinds:
            assert cat.has(f"vale.event.{kind}"), (lang, kind)
        assert cat.has("vale.event.card_drawn.hidden")
        for question in questions:
            assert cat.has(f"vale.question.{question}"), (lang, question)


def _played(players: int, seed: int, options: dict[str, Any] | None = None) -> eterna.GameState:
    st = eterna.load_game("vale").new_game(players, seed=seed, options=options)
    rng = random.Random(seed)
    while not st.is_terminal:
        st.apply(rng.choice(list(st.legal_actions())))
    return st


IDS = [c for c in (*CARD_NAME, *TILE_NAME) if "-" in c]
RAW_ID = re.compile(r"\b(" + "|".join(re.escape(c) for c in IDS) + r")\b")
ADVANCED = {"expansions": ["artifacts"], "artifact_set": "advanced"}
ARTIFACTS = {"expansions": ["artifacts"]}


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(2, 11, None), (3, 12, None), (4, 13, None), (2, 14, ADVANCED), (3, 16, ARTIFACTS),
     (4, 15, ADVANCED)],
)  # fmt: skip
def test_whole_games_narrate_in_every_language_for_every_seat(
    players: int, seed: int, options: dict[str, Any] | None
) -> None:
    st = _played(players, seed, options)
    kinds: set[str] = set()
    for viewer in [*range(players), None]:
        events = st.events_since(0, viewer)
        kinds.update(e["kind"] for e in events)
        for lang in LANGS:
            lines = [line for e in events for line in event_lines("vale", e, lang, NAMES)]
            assert len(lines) == len(events)
            text = "\n".join(lines)
            assert "{" not in text and "}" not in text, text[:300]
            assert not RAW_ID.search(text), RAW_ID.search(text)
            assert "Event:" not in text and "Événement" not in text and "Ereignis" not in text
            assert NAMES[players - 1] in text and "Seat" not in text
    assert {"round_started", "card_claimed", "summoned", "game_over"} <= kinds


def test_drawn_cards_are_named_to_the_drawer_only() -> None:
    st = _played(2, 11)
    for viewer in (0, 1, None):
        for e in st.events_since(0, viewer):
            if e["kind"] == "card_drawn":
                line = describe_event("vale", e, "en", NAMES)
                if "card" in e:
                    assert catalog("en").card_name("vale", e["card"]) in line
                else:
                    assert "draws a card" in line


EXAMPLES = [
    ({"kind": "card_sold", "seat": 0, "card": "ifrit"}, "Alice vend Ifrit"),
    (
        {"kind": "stones_gained", "seat": 1, "red": 2, "blue": 1, "purple": 0, "source": "imp"},
        "Imp : Bob reçoit 2 pierres rouges et 1 pierre bleue",
    ),
    (
        {"kind": "summoned", "seat": 0, "card": "boulder", "free": False, "source": None,
         "paid": {"red": 2, "blue": 0, "purple": 1}},
        "Alice invoque Boulder en payant 2 pierres rouges et 1 pierre violette",
    ),
    (
        {"kind": "summoned", "seat": 0, "card": "kappa", "free": True, "source": "dragon-egg"},
        "Dragon Egg : Alice invoque Kappa gratuitement",
    ),
    ({"kind": "card_drawn", "seat": 1, "source": None}, "Bob pioche une carte"),
    (
        {"kind": "effect_choice", "chooser": 1, "seat": 0, "card": "medusa",
         "question": "discard_from_hand"},
        "Medusa (Alice) : Bob choisit une carte de sa main à défausser",
    ),
    (
        {"kind": "points_lost", "seat": 0, "points": 0, "source": None, "score": 0},
        "Alice n'a aucun point à perdre (score : 0)",
    ),
    ({"kind": "game_over", "winners": [0, 1], "scores": [60, 60]},
     "Alice et Bob se partagent la victoire (Alice 60, Bob 60)"),
    ({"kind": "card_discarded", "seat": 1, "card": "imp", "zone": "area", "source": None},
     "Bob défausse Imp de sa zone"),
]  # fmt: skip


@pytest.mark.parametrize(("event", "french"), EXAMPLES)
def test_sentences_pick_their_variant(event: dict[str, object], french: str) -> None:
    assert describe_event("vale", event, "fr", NAMES) == french


def test_stones_in_words() -> None:
    assert stones_words({"red": 2, "blue": 1, "purple": 0}, "en") == "2 red stones and 1 blue stone"
    assert stones_words({"red": 1, "blue": 1, "purple": 1}, "fr") == (
        "1 pierre rouge, 1 pierre bleue et 1 pierre violette"
    )
    assert stones_words({"purple": 2}, "de") == "2 violette Steine"
    assert stones_words({"red": 0, "blue": 0, "purple": 0}, "de") == "keine Steine"


def test_an_event_without_a_sentence_is_told_by_its_kind() -> None:
    event = {"kind": "portal_opened", "seat": 0, "card": "portal-circle"}
    assert describe_event("eternitium", event, "en", NAMES) == "Event: portal_opened"
    assert describe_event("vale", {"kind": "new_thing"}, "de", NAMES) == "Ereignis: new_thing"


def test_seats_without_a_name_are_numbered() -> None:
    assert describe_event("vale", {"kind": "turn_ended", "seat": 2}, "en") == (
        "Seat 3 ends their turn"
    )
