"""The five-step game turn, deck exhaustion and the end of the game (rulebook: Game Turn,
Deck Exhausted, End of the Game)."""

from __future__ import annotations

import pytest
from eternitium_helpers import do, legal, make

from eterna.core.errors import IllegalAction
from eterna.games.eternitium import GAME

BASICS = [
    "droid",
    "transporter",
    "data-analyser",
    "digital-wallet",
    "futuristic-smartphone",
    "temporal-blaster",
]
FILLER = ["portal-diamond"] * 3 + ["portal-triangle"] * 3  # a deck to draw from


def test_step1_take_a_portal_card():
    """Step 1: the active player must take a Portal card and add it to the hand."""
    state = make(2, portals={"square": 4}, hands=[["droid"], []], era=[["circle"], ["square"]])
    assert state.phase == "portal"
    assert legal(state) == ["take portal-square"]
    state.apply("take portal-square")
    assert state.hand(0) == ["portal-square", "droid"]
    assert state.view(0)["portal_reserve"]["square"] == 3
    assert state.phase == "play"


def test_step1_skipped_when_no_portal_is_left():
    """Step 1: 'If there are no more Portal cards available, the player goes to step 2'."""
    state = make(2, hands=[["droid"], []], era=[["circle"], ["square"]])
    assert state.phase == "play"


def test_portal_discards_a_matching_visible_era_card():
    """Step 2: a Portal discards an Era card of its shape; the next card stays hidden."""
    state = make(2, hands=[["portal-circle", "droid"], []], era=[["circle", "square"], ["square"]])
    state.apply("play portal-circle")
    assert state.era_pile(0) == ["square"]
    assert state.view(None)["era_discard"]["circle"] == 1
    assert state.discard_pile(0) == ["portal-circle"]
    assert state.phase == "play"


def test_portal_refused_on_a_visible_era_card_of_another_shape():
    """R15: a Portal that matches no visible top card cannot be played."""
    state = make(2, hands=[["portal-square", "droid"], []], era=[["circle"], ["square"]])
    assert "play portal-square" not in legal(state)
    with pytest.raises(IllegalAction, match="R15"):
        state.apply("play portal-square")


def test_try_your_luck_success_discards_and_continues():
    """Step 2, try your luck: the hidden top card matches: discarded, the turn goes on."""
    state = make(
        2,
        hands=[["portal-square", "droid"], []],
        era=[["square", "circle"], ["square"]],
        era_visible=[0, 1],
    )
    state.apply("play portal-square")
    assert state.era_pile(0) == ["circle"]
    assert state.phase == "play"


def test_try_your_luck_failure_shuffles_back_and_draws_four():
    """Step 2, try your luck fails: the card goes back face down, the Era cards are
    shuffled, the player moves on to the next step and draws only 4 cards in step 5."""
    state = make(
        2,
        hands=[["portal-circle", "portal-square", "droid"], []],
        decks=[FILLER, []],
        era=[["square", "circle", "triangle", "diamond"], ["square"]],
        era_visible=[0, 1],
        basic_row=["transporter"],
    )
    state.apply("play portal-circle")
    assert state.phase == "acquire"  # steps 3 and 4 follow at once
    pile = state.era_pile(0)
    assert sorted(pile) == ["circle", "diamond", "square", "triangle"]  # all hidden
    assert sorted(state.discard_pile(0)) == ["droid", "portal-circle", "portal-square"]
    state.apply("pass")
    assert len(state.hand(0)) == 4
    assert state.current_player == 1


def test_try_your_luck_on_the_last_era_card_takes_one_from_the_common_deck():
    """Step 2: a failed try on the last Era card adds the common deck's top card, unseen,
    shuffled with it (R12: the face-down top card)."""
    state = make(
        2,
        hands=[["portal-circle"], []],
        era=[["square"], ["square"]],
        era_visible=[0, 1],
        era_deck=["diamond"],
        era_display=["circle", "circle"],
    )
    before = state.view(None)["era_deck_size"]
    state.apply("play portal-circle")
    assert sorted(state.era_pile(0)) == ["diamond", "square"]
    assert state.view(None)["era_deck_size"] == before - 1


def test_only_a_portal_card_may_try_its_luck():
    """R6: a Double Portal (a technology) may not try its luck; option double_portal_luck."""
    setup = {
        "hands": [["double-portal-circle-square"], []],
        "era": [["square"], ["square"]],
        "era_visible": [0, 1],
    }
    state = make(2, **setup)
    with pytest.raises(IllegalAction, match="R6"):
        state.apply("play double-portal-circle-square")
    state = make(2, options={"double_portal_luck": True}, **setup)
    state.apply("play double-portal-circle-square")
    assert state.era_pile(0) == []


def test_skip_playing_destroy_keep_one_draw_to_six():
    """Step 2 skipped: destroy any cards, keep at most one, draw until 6 in hand."""
    state = make(
        2,
        hands=[["portal-circle", "portal-square", "droid", "transporter"], []],
        decks=[FILLER * 2, []],
        era=[["diamond"] * 3, ["square"]],
    )
    state.apply("skip")
    assert state.phase == "skipped"
    state.apply("destroy droid")
    assert state.census()["droid"] == 8  # into the box, still counted there
    state.apply("keep transporter")
    assert state.discard_pile(0) == ["portal-circle", "portal-square"]
    if state.phase == "acquire":
        state.apply("pass")
    assert len(state.hand(0)) == 6
    assert "transporter" in state.hand(0)


def test_skip_only_before_playing_any_card():
    """Step 2: the player may skip the step, not stop half-way and skip."""
    state = make(
        2, hands=[["portal-circle", "droid", "droid"], []], era=[["circle"] * 3, ["square"]]
    )
    assert "skip" in legal(state)
    state.apply("play portal-circle")
    assert "skip" not in legal(state)
    with pytest.raises(IllegalAction, match="only before any card is played"):
        state.apply("skip")


def test_never_less_than_six_action_cards():
    """Step 2: 'a player can never have less than 6 Action cards (hand, deck, discard)'."""
    state = make(
        2,
        hands=[["portal-circle", "portal-square", "droid"], []],
        decks=[["droid", "droid", "droid", "droid"], []],
        era=[["diamond"] * 3, ["square"]],
    )
    state.apply("skip")
    state.apply("destroy droid")  # 7 -> 6
    assert not any(a.startswith("destroy") for a in legal(state))
    with pytest.raises(IllegalAction, match="never have less than 6"):
        state.apply("destroy portal-circle")


def test_step3_discards_the_rest_of_the_hand():
    """Step 3: the remaining cards go face up to the discard pile."""
    state = make(
        2,
        hands=[["portal-circle", "droid"], []],
        decks=[FILLER, []],
        era=[["diamond"] * 3, ["square"]],
        empty_markets=True,
    )
    state.apply("end")
    assert state.discard_pile(0) == ["portal-circle", "droid"]
    assert state.current_player == 1


def _acquire_state(**extra):
    setup = {
        "hands": [["droid"], []],
        "decks": [FILLER, []],
        "era": [["diamond"] * 5, ["square"]],
        "era_display": ["circle", "square"],
        "basic_row": ["transporter", "droid", "digital-wallet"],
        "advanced_row": ["ultimate-portal", "laboratory", "time-bomb"],
    }
    setup.update(extra)
    state = make(2, **setup)
    return state


def test_step4_basic_technology_costs_one_visible_era_card_face_up():
    """Step 4: a Basic card goes on top of the deck; one visible Era card, face up, on top."""
    state = _acquire_state()
    state.apply("end")
    state.apply("acquire transporter")
    assert legal(state) == ["era circle", "era square"]
    state.apply("era square")
    assert state.era_pile(0)[0] == "SQUARE"
    assert len(state.era_pile(0)) == 6
    assert "transporter" in state.hand(0)  # drawn in step 5 from the top of the deck
    assert len(state.view(None)["era_display"]) == 2  # R11: refilled at once


def test_step4_advanced_technology_takes_both_era_cards_in_chosen_order():
    """Step 4: an Advanced card takes both visible Era cards, in any order."""
    state = _acquire_state()
    state.apply("end")
    state.apply("acquire ultimate-portal")
    state.apply("era circle")  # placed first; the square goes on top of it
    assert state.era_pile(0)[:2] == ["SQUARE", "CIRCLE"]
    assert "ultimate-portal" in state.hand(0)


def test_step4_blind_acquisition_takes_the_top_card_of_a_deck():
    """Step 4: the first face-down card of a technology deck may be taken instead."""
    state = _acquire_state(advanced_deck=["giga-droid"])
    state.apply("end")
    state.apply("acquire blind-advanced")
    state.apply("era square")
    assert "giga-droid" in state.hand(0)


def test_step4_is_optional():
    """Step 4: 'This step is optional'."""
    state = _acquire_state()
    state.apply("end")
    assert "pass" in legal(state)
    state.apply("pass")
    assert len(state.era_pile(0)) == 5
    assert state.current_player == 1


def test_step4_needs_enough_visible_era_cards():
    """Step 4 reading: a technology can be acquired only if its Era cards can be taken."""
    state = _acquire_state(era_display=["circle"], era_deck=[], exact=["era_deck"])
    state.apply("end")
    actions = legal(state)
    assert "acquire transporter" in actions
    assert "acquire ultimate-portal" not in actions
    with pytest.raises(IllegalAction, match="costs 2 visible Era card"):
        state.apply("acquire ultimate-portal")


def test_step5_draws_five():
    """Step 5: draw 5 cards (the acquired card among them)."""
    state = _acquire_state()
    state.apply("end")
    state.apply("acquire transporter")
    state.apply("era circle")
    assert len(state.hand(0)) == 5


def test_deck_exhausted_shuffles_the_discard_pile():
    """Deck Exhausted: an empty deck is made again from the shuffled discard pile."""
    state = make(
        2,
        hands=[["droid"], []],
        decks=[["portal-circle", "portal-square"], []],
        discards=[["transporter", "droid", "portal-diamond"], []],
        era=[["diamond"] * 3, ["square"]],
        empty_markets=True,
    )
    state.apply("end")  # the hand's droid joins the discard pile, which is the new deck
    hand = state.hand(0)
    assert len(hand) == 5 and {"portal-circle", "portal-square"} <= set(hand)
    rebuilt = sorted(hand + state.deck(0))
    assert rebuilt == sorted(
        ["portal-circle", "portal-square", "transporter", "droid", "droid", "portal-diamond"]
    )
    assert len(state.deck(0)) == 1 and state.discard_pile(0) == []


def test_common_era_deck_exhausted_shuffles_the_common_discard():
    """Deck Exhausted: an empty common deck is rebuilt from the common Era discard pile."""
    state = _acquire_state(
        era_display=["circle", "square"],
        era_deck=[],
        era_discard=["triangle", "diamond"],  # discarded earlier
        exact=["era_deck"],
    )
    state.apply("end")
    state.apply("acquire transporter")
    state.apply("era circle")
    assert len(state.view(None)["era_display"]) == 2
    assert state.view(None)["era_discard"] == {
        "circle": 0,
        "square": 0,
        "triangle": 0,
        "diamond": 0,
    }


def _race(players=3, first=0):
    return make(
        players,
        first_player=first,
        hands=[["portal-circle", "portal-circle"]] + [["portal-square"]] * (players - 1),
        decks=[FILLER] * players,
        era=[["circle"]] + [["square", "diamond"]] * (players - 1),
        empty_markets=True,
    )


def test_game_ends_after_the_round_is_finished():
    """End of the Game: the round is finished so every player has had as many turns."""
    state = _race(3)
    state.apply("play portal-circle")  # seat 0 finds the gem
    assert not state.is_terminal
    assert state.phase == "play"  # the turn goes on
    state.apply("end")
    assert state.current_player == 1 and not state.is_terminal
    state.apply("play portal-square")  # an empty hand ends step 2 by itself
    assert state.current_player == 2
    do(state, "end")
    assert state.is_terminal
    assert state.winners == [0]
    assert state.current_player is None


def test_gem_finder_acquires_nothing():
    """End of the Game: players who found the gem can no longer acquire Technology cards."""
    state = _acquire_state(era=[["circle"], ["square"]], hands=[["portal-circle"], []])
    state.apply("play portal-circle")
    assert state.current_player == 1  # no step 4 for the gem finder


def test_tie_between_gem_finders_broken_by_technology_points():
    """End of the Game: several gem finders: most technology points (Basic 1, Advanced 2)."""
    state = make(
        2,
        hands=[["portal-circle"], ["portal-square"]],
        decks=[BASICS, ["ultimate-portal", *BASICS[:5]]],
        era=[["circle"], ["square"]],
    )
    state.apply("play portal-circle")
    state.apply("play portal-square")
    assert state.is_terminal
    assert state.scores == [6, 7]  # 1 each for the Basic cards, 2 for the Advanced one
    assert state.winners == [1]


def test_then_most_advanced_cards_then_shared():
    """End of the Game: equal points: most Advanced cards; still equal: shared victory."""
    state = make(
        2,
        hands=[["portal-circle"], ["portal-square"]],
        decks=[["droid", "droid"], ["ultimate-portal"]],
        era=[["circle"], ["square"]],
    )
    do(state, "play portal-circle", "play portal-square")
    assert state.scores == [2, 2]
    assert state.winners == [1]  # the same points, one Advanced card against none
    state = make(
        2,
        hands=[["portal-circle"], ["portal-square"]],
        decks=[["droid"], ["transporter"]],
        era=[["circle"], ["square"]],
    )
    do(state, "play portal-circle", "play portal-square")
    assert state.winners == [0, 1]


def test_scores_count_every_technology_owned_including_the_starting_droid():
    """R7: the technology points count hand, deck and discard, the starting Droid included."""
    state = make(
        2,
        hands=[["droid", "portal-circle"], []],
        decks=[["laboratory"], []],
        discards=[["transporter"], []],
        era=[["diamond"], ["square"]],
    )
    assert state.scores[0] == 1 + 2 + 1


def test_round_limit_option_ends_a_game_nobody_finishes():
    """Not a rule: option round_limit ranks everyone by points after that many rounds."""
    state = make(
        2,
        options={"round_limit": 1},
        hands=[["droid"], ["ultimate-portal"]],
        era=[["circle"] * 2, ["square"] * 2],
        empty_markets=True,
    )
    do(state, "end", "end")
    assert state.is_terminal
    assert state.winners == [1]


def test_turn_order_is_clockwise_from_the_first_player():
    """Game Turn: starting with the first player and continuing clockwise."""
    state = GAME.new_game(3, seed=11, setup={"first_player": 2})
    while state.phase == "pick":
        state.apply(state.legal_actions()[0])
    assert state.current_player == 2
