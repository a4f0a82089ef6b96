""" "The rest, shuffled" (issue 34; docs/positions.md and each game's Positions section): a whole
position may end a deck (or Eternity's future deals) with "...": the cards no other key places
go there, below the listed ones, in an order drawn by the position's own generator. The same
position text always gives the same state; the state writes the pile in full; a seat's
position may not say it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.positions import same_game

import eterna
from eterna.core.errors import BadPosition

VALE = eterna.load_game("vale")
ETERNITIUM = eterna.load_game("eternitium")
ETERNITY = eterna.load_game("eternity")


def loads_the_same_twice(game: Any, position: dict[str, Any]) -> Any:
    a, b = game.from_position(position), game.from_position(position)
    same_game(a, b, "the same text, the same deal")
    written = a.to_position()
    assert game.from_position(written).to_position() == written  # written in full, reads back
    return a


def test_vale_deck_a_card_on_top_then_the_rest() -> None:
    position = VALE.new_game(2, seed=1).to_position()
    card = position["deck"][10]  # brought to the top by hand, the rest left to the generator
    rest = {**position, "deck": [card, "..."]}
    st = loads_the_same_twice(VALE, rest)
    deck = st.to_position()["deck"]
    assert deck[0] == card and sorted(deck) == sorted(position["deck"])
    assert deck != position["deck"]  # the rest was shuffled again, by the position's rng
    assert st.to_position()["rng"] != position["rng"]  # which moved on, as a deal does


def test_vale_rest_only_in_a_whole_position_and_only_last() -> None:
    st = VALE.new_game(2, seed=1)
    position = st.to_position()
    with pytest.raises(BadPosition, match=r"deck\[0\]: '...' \(the rest, shuffled\) ends a pile"):
        VALE.from_position({**position, "deck": ["...", *position["deck"]]})
    mine = st.to_position(0)
    with pytest.raises(BadPosition, match="is for a whole position"):
        VALE.from_position({**mine, "deck": [*mine["deck"][:-1], "..."]})


def test_eternitium_market_and_era_decks_with_the_rest() -> None:
    position = ETERNITIUM.new_game(2, seed=3).to_position()
    rest = {**position, "basic_deck": [*position["basic_deck"][:2], "..."]}
    rest |= {"advanced_deck": ["..."], "era_deck": ["..."]}
    st = loads_the_same_twice(ETERNITIUM, rest)
    written = st.to_position()
    assert written["basic_deck"][:2] == position["basic_deck"][:2]
    for key in ("basic_deck", "advanced_deck", "era_deck"):
        assert sorted(written[key]) == sorted(position[key])


def test_eternity_future_deals_with_the_rest() -> None:
    position = ETERNITY.new_game(4, seed=3).to_position()
    st = loads_the_same_twice(ETERNITY, {**position, "future": ["..."]})
    future = st.to_position()["future"]
    assert len(future) == len(position["future"]) == 2
    assert all(len(hand) == 10 for deal in future for hand in deal["hands"])


def doc_example(page: str) -> dict[str, Any]:
    """The JSON example under a page's "The rest, shuffled." paragraph."""
    text = (Path(__file__).resolve().parents[2] / "docs" / page).read_text("utf-8")
    start = text.index("```json", text.index("**The rest, shuffled.**")) + len("```json")
    example: dict[str, Any] = json.loads(text[start : text.index("```", start)])
    return example


def test_the_docs_examples_load() -> None:
    st = loads_the_same_twice(VALE, doc_example("vale.md"))
    assert st.to_position()["deck"][0] == "kappa" and len(st.to_position()["deck"]) == 66
    keys = doc_example("eternitium.md")
    position = ETERNITIUM.new_game(2, seed=5).to_position()
    # the keys replace the decks whole: the listed cards, then the rest of their kind
    st = loads_the_same_twice(ETERNITIUM, {**position, **keys})
    assert st.to_position()["advanced_deck"][0] == "laboratory"
    assert st.to_position()["era_deck"][0] == "circle"
    st = loads_the_same_twice(
        ETERNITY, {**ETERNITY.new_game(3, seed=2).to_position(), **doc_example("eternity.md")}
    )
    assert len(st.to_position()["future"]) == 2
