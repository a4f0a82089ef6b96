"""What Eternitium's position reader refuses beyond each key's own read (docs/eternitium.md,
"What a position reader refuses"; issue 34): public knowledge that disagrees with the cards,
and a market row that breaks the market rule (rules: Setup 4-5; R14). Each refusal is a
BadPosition naming the field."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from eternitium_helpers import make

from eterna.core.errors import BadPosition
from eterna.games.eternitium import GAME


def position() -> dict[str, Any]:
    st = make(
        2,
        hands=[["droid"], ["portal-circle"]],
        discards=[["transporter"], []],
        era=[["circle"], ["square"]],
        basic_row=["transporter", "droid", "data-analyser"],
    )
    pos = st.to_position()
    GAME.from_position(pos)  # the unchanged position loads
    return pos


def refused(pos: dict[str, Any], field: str) -> None:
    with pytest.raises(BadPosition, match=field.replace("[", r"\[").replace("]", r"\]")):
        GAME.from_position(pos)


def test_known_counts_at_most_the_copies_a_seat_owns() -> None:
    pos = position()
    pos["knowledge"]["known"][0]["droid"] = 2  # seat 0 owns one Droid
    refused(pos, "knowledge.known[0].droid: is 2, but seat 0 owns 1")


def test_located_counts_at_most_the_copies_in_the_discard_pile() -> None:
    pos = position()
    pos["knowledge"]["located"][0]["droid"] = 1  # the Droid is in hand, not the discard pile
    refused(pos, "knowledge.located[0].droid: is 1, but seat 0's discard pile holds 0")
    pos = position()
    pos["knowledge"]["located"][0]["transporter"] = 1  # in the pile, and known: fine
    GAME.from_position(pos)


def test_era_deck_known_at_most_the_shapes_of_the_common_deck() -> None:
    pos = position()
    deck = pos["era_deck"]
    shape = "circle"
    pos["knowledge"]["era_deck_known"] = {shape: deck.count(shape) + 1}
    refused(pos, "knowledge.era_deck_known.circle")


def test_a_market_row_shows_a_technology_twice_only_when_no_other_is_left_r14() -> None:
    pos = position()
    deck = pos["basic_deck"]
    i = deck.index("droid")  # a second Droid from the deck to the row, the row's Transporter back
    bad = copy.deepcopy(pos)
    bad["basic_row"] = ["droid", "droid", "data-analyser"]
    bad["basic_deck"] = [*deck[:i], "transporter", *deck[i + 1 :]]
    refused(bad, "basic_row: shows the same technology twice while its deck still holds")


def test_a_setup_row_obeys_the_market_rule_too() -> None:
    """A setup's row is taken as given, but a duplicate while the deck holds another card
    would write a position its reader refuses: refused at once."""
    from eterna.core.errors import BadSetup

    with pytest.raises(BadSetup, match="basic_row shows the same technology twice"):
        make(2, hands=[[], []], era=[["circle"], ["square"]], basic_row=["droid", "droid"])
    make(  # no other card left in the deck: the duplicate stands (R14)
        2, hands=[[], []], era=[["circle"], ["square"]], basic_row=["droid", "droid"],
        basic_deck=["droid"], exact=["basic_deck"],
    )  # fmt: skip
