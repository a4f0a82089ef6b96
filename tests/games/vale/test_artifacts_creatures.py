"""The 28 creatures of The Vale of Eternity: Artifacts (option `expansions`): the deck they join,
then one test per creature, named after it, from an exact setup (digest expansions.md §7)."""

from __future__ import annotations

import random

import pytest
from vale_helpers import vale

from eterna import BadSetup
from eterna.games.vale import GAME
from eterna.games.vale.cards import BASE_DECK_SIZE, CARD_NAME, SET_CARDS

ART = {"expansions": ["artifacts"]}


def all_cards(st) -> list[str]:  # type: ignore[no-untyped-def]
    cards = st.deck() + st.discard_pile() + st.revealed()
    for s in range(st.players):
        cards += st.hand(s) + st.area(s) + st.claimed(s)
    return cards


# ============================================================================ the deck
def test_the_expansion_shuffles_its_28_creatures_into_the_deck():
    assert len(SET_CARDS["artifacts"]) == 28 and SET_CARDS["artifacts"][0] == BASE_DECK_SIZE
    base = GAME.new_game(2, seed=3)
    more = GAME.new_game(2, seed=3, options=ART)
    assert len(all_cards(base)) == 70 and len(all_cards(more)) == 98
    assert set(all_cards(more)) == set(CARD_NAME)
    assert not set(all_cards(base)) & {CARD_NAME[c] for c in SET_CARDS["artifacts"]}


def test_the_option_reads_a_list_or_the_command_lines_text():
    assert GAME.resolve_options({"expansions": "artifacts"})["expansions"] == ["artifacts"]
    assert GAME.resolve_options(None)["expansions"] == []
    with pytest.raises(BadSetup, match="curse"):
        GAME.resolve_options({"expansions": ["curse"]})
    with pytest.raises(BadSetup, match="twice"):
        GAME.resolve_options({"expansions": ["artifacts", "artifacts"]})


def test_a_setup_may_name_an_expansion_card_only_with_the_expansion():
    with pytest.raises(BadSetup, match="artifacts expansion"):
        vale(hands=[["ash"], []])
    assert vale(hands=[["ash"], []], options=ART).hand(0) == ["ash"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_the_creatures_end_and_replay(players):
    st = GAME.new_game(players, seed=players, options=ART)
    rng = random.Random(players)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    assert sorted(all_cards(st)) == sorted(CARD_NAME)
    assert GAME.from_record(st.to_record()).scores == st.scores
