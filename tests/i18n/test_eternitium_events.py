"""Eternitium's events, told in words (docs/events.md, docs/i18n.md): every documented kind has a
sentence in every language, and whole games (2-5 players, the solo game and its ten missions)
narrate for every seat and a spectator with no missing word and no raw card id."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import eterna
from eterna.games.eternitium.cards import CARD_NAME
from eterna.i18n import LANGS, catalog
from eterna.i18n.words import describe_event, event_lines

NAMES = ["Alice", "Bob", "Chloé", "Dieter", "Eve"]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "events.md"
RAW_ID = re.compile(r"\b(" + "|".join(re.escape(c) for c in CARD_NAME) + r")\b")


def _documented_kinds() -> set[str]:
    section = DOCS.read_text(encoding="utf-8").split("## Eternitium", 1)[1]
    kinds: set[str] = set()
    for cell in re.findall(r"^\| ((?:`\w+`(?:, )?)+) \|", section, flags=re.M):
        kinds.update(re.findall(r"`(\w+)`", cell))
    return kinds


def test_every_documented_kind_has_a_sentence() -> None:
    kinds = _documented_kinds()
    assert {"era_discarded", "ai_strike", "gem_found", "mission_result", "game_over"} <= kinds
    for lang in LANGS:
        cat = catalog(lang)
        for kind in kinds:
            assert cat.has(f"eternitium.event.{kind}"), (lang, kind)


def _played(players: int, seed: int, mission: int = 0) -> eterna.GameState:
    options = {"mission": mission} if mission else {}
    st = eterna.load_game("eternitium").new_game(players, seed=seed, options=options)
    rng = random.Random(seed)
    while not st.is_terminal:
        st.apply(rng.choice(list(st.legal_actions())))
    return st


GAMES = [(n, 20 + n, 0) for n in range(2, 6)] + [(1, 40 + m, m) for m in range(11)]


@pytest.mark.parametrize(("players", "seed", "mission"), GAMES)
def test_whole_games_narrate_in_every_language_for_every_seat(
    players: int, seed: int, mission: int
) -> None:
    st = _played(players, seed, mission)
    kinds: set[str] = set()
    for viewer in [*range(players), None]:
        events = st.events_since(0, viewer)
        kinds.update(e["kind"] for e in events)
        for lang in LANGS:
            lines = [line for e in events for line in event_lines("eternitium", e, lang, NAMES)]
            assert len(lines) == len(events)
            text = "\n".join(lines)
            assert "{" not in text and "}" not in text, text[:300]
            assert not RAW_ID.search(text), RAW_ID.search(text)
            assert "Event:" not in text and "Événement" not in text and "Ereignis" not in text
            assert NAMES[players - 1] in text and "Seat" not in text
    assert {"game_started", "turn_started", "cards_drawn", "game_over"} <= kinds
    assert ("mission_result" in kinds) == (players == 1)


def test_drawn_cards_are_named_to_the_drawer_only() -> None:
    st = _played(3, 7)
    for viewer in (0, 1, 2, None):
        for e in st.events_since(0, viewer):
            if e["kind"] == "cards_drawn" and e["count"]:
                line = describe_event("eternitium", e, "en", NAMES)
                assert ("cards" in e) == (viewer == e["seat"])
                assert (":" in line.split("draws", 1)[1]) == ("cards" in e), line


EXAMPLES: list[tuple[dict[str, Any], str]] = [
    ({"kind": "card_played", "seat": 0, "card": "temporal-blaster", "target": 1},
     "Alice joue Blaster temporel contre Bob"),
    ({"kind": "luck_tried", "seat": 1, "card": "portal-circle", "shape": "circle",
      "matched": True},
     "Bob tente sa chance avec Portail cercle : la carte Ère cachée est un cercle, réussi"),
    ({"kind": "era_discarded", "seat": 0, "shape": "diamond", "source": "temporal-blaster"},
     "Blaster temporel : Alice défausse une carte Ère losange"),
    ({"kind": "cards_drawn", "seat": 1, "count": 2, "source": "futuristic-smartphone"},
     "Smartphone futuriste : Bob pioche 2 cartes"),
    ({"kind": "card_resolved", "seat": 0, "card": "thieving-robot", "target": 1},
     "Alice place Robot voleur dans la défausse de Bob"),
    ({"kind": "era_reshuffled", "count": 7},
     "La défausse Ère est mélangée en une nouvelle pioche Ère (7 cartes)"),
    ({"kind": "technology_acquired", "seat": 0, "blind": True, "deck": "advanced"},
     "Alice acquiert la première carte d'une pioche Technologie, sans la voir"),
    ({"kind": "era_taken", "seat": 0, "shape": "square", "face_down": True},
     "Alice prend la carte Ère carré, face cachée sur sa pile Ère"),
    ({"kind": "ai_strike", "seat": 0, "card": "time-bomb", "void": False},
     "L'IA révèle Bombe temporelle"),
    ({"kind": "era_revealed", "seat": 0, "shapes": [], "source": "droid"},
     "Droïde : Alice n'a aucune carte Ère cachée à retourner"),
    ({"kind": "mission_result", "seat": 0, "mission": 3, "won": True, "turns": 4, "era": 0},
     "Mission 3 réussie en 4 tours : la gemme d'Eternitium est trouvée !"),
    ({"kind": "game_over", "winners": [], "scores": [6]},
     "La partie est finie sans vainqueur (points de technologie : Alice 6)"),
]  # fmt: skip


@pytest.mark.parametrize(("event", "french"), EXAMPLES)
def test_sentences_pick_their_variant(event: dict[str, Any], french: str) -> None:
    assert describe_event("eternitium", event, "fr", NAMES) == french
