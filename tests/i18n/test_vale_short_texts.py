"""Every creature of the Vale (the base game's 70 and the Artifacts' 28) and every artifact
tile has a short effect text for its card face in English, French and German (issue 32): a few
words, each language's own, beside the whole text the zoom and the card texts box show. The web
serves it with the card data (`/cards/vale/<lang>.json`, key `short`);
tests/web/test_card_legibility.py checks that it fits the face."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import eterna
from eterna.server.page_routes import translated_cards

WEB = Path(eterna.__file__).parent / "web"
CATALOGS = Path(eterna.__file__).parent / "i18n" / "catalogs"
VALE = json.loads((WEB / "static" / "cards" / "vale.json").read_text("utf-8"))
CARDS = {**VALE["cards"], **VALE["tiles"]}  # the creatures and the Artifacts' tiles


def own(lang: str) -> dict[str, str]:
    messages: dict[str, str] = json.loads((CATALOGS / lang / "vale.json").read_text("utf-8"))[
        "messages"
    ]
    return messages


def test_the_vale_has_its_98_creatures_and_11_tiles() -> None:
    assert (len(VALE["cards"]), len(VALE["tiles"])) == (98, 11)


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_every_creature_has_a_short_text_of_its_own_in_each_language(lang: str) -> None:
    messages, english = own(lang), own("en")
    missing = [card for card in CARDS if not messages.get(f"vale.short.{card}", "").strip()]
    assert not missing, f"{lang}: no short text for {missing}"
    full = [c for c in CARDS if messages[f"vale.short.{c}"] == messages.get(f"vale.card.{c}.text")]
    assert not full, f"{lang}: the short text is the whole text for {full}"
    if lang != "en":  # translated, not the English words (a number-only text may agree)
        same = [
            c
            for c in CARDS
            if messages[f"vale.short.{c}"] == english[f"vale.short.{c}"]
            and any(ch.isalpha() for ch in english[f"vale.short.{c}"])
        ]
        assert len(same) <= 3, f"{lang}: short texts left in English: {same}"


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_card_data_serves_each_short_text(lang: str) -> None:
    data = json.loads(translated_cards(WEB, "vale", lang))
    served = {**data["cards"], **data["tiles"]}
    messages = own(lang)
    assert {c: served[c].get("short") for c in CARDS} == {
        c: messages[f"vale.short.{c}"] for c in CARDS
    }
