"""Every technology: its effect, its limits, its interaction with visibility (rulebook: Basic
Technology Cards, Advanced Technology Cards; digest section 13 readings R1-R16)."""

from __future__ import annotations

import pytest
from eternitium_helpers import do, legal, make

from eterna.core.errors import IllegalAction

FILLER = ["portal-diamond"] * 3 + ["portal-triangle"] * 3


# ---------------------------------------------------------------- Double Portal
def test_double_portal_discards_an_era_card_with_either_portal():
    """Double Portal: 'Discard an Era card with one of the two portals.'"""
    state = make(
        2,
        options={"composition": {"double-portal-circle-square": 2}},
        hands=[["double-portal-circle-square", "double-portal-circle-square"], []],
        era=[["square", "circle", "triangle"], ["square"]],
        era_visible=[2, 1],
    )
    state.apply("play double-portal-circle-square")
    assert state.era_pile(0) == ["CIRCLE", "triangle"]
    state.apply("play double-portal-circle-square")
    assert state.era_pile(0) == ["triangle"]


def test_double_portal_refused_on_a_third_shape():
    """Double Portal + R15: it must match the visible top card."""
    state = make(2, hands=[["double-portal-circle-square"], []], era=[["diamond"], ["square"]])
    with pytest.raises(IllegalAction, match="does not match"):
        state.apply("play double-portal-circle-square")


# ---------------------------------------------------------------- Droid
def test_droid_reveals_the_next_hidden_era_card():
    """Droid: 'Make your next hidden Era card visible.'"""
    state = make(
        2, hands=[["droid", "droid"], []], era=[["circle", "square", "triangle"], ["square"]]
    )
    state.apply("play droid")
    assert state.era_pile(0) == ["CIRCLE", "SQUARE", "triangle"]
    state.apply("play droid")
    assert state.era_pile(0) == ["CIRCLE", "SQUARE", "TRIANGLE"]


def test_droid_does_nothing_when_the_top_three_are_visible():
    """Droid: 'If your top 3 Era cards are already visible, nothing happens.'"""
    state = make(
        2,
        hands=[["droid"], []],
        era=[["circle", "square", "triangle", "diamond"], ["square"]],
        era_visible=[3, 1],
    )
    state.apply("play droid")
    assert state.era_pile(0) == ["CIRCLE", "SQUARE", "TRIANGLE", "diamond"]
    assert state.discard_pile(0) == ["droid"]


# ---------------------------------------------------------------- Temporal Blaster
def test_temporal_blaster_swaps_top_cards_each_keeping_its_face():
    """Temporal Blaster: swap top Era cards 'whether they are visible or not' (R5: faces kept)."""
    state = make(
        3,
        hands=[["temporal-blaster"], [], []],
        era=[["circle", "square"], ["diamond", "triangle"], ["square"]],
        era_visible=[1, 0, 1],
    )
    assert {"play temporal-blaster seat-1", "play temporal-blaster seat-2"} <= set(legal(state))
    state.apply("play temporal-blaster seat-1")
    assert state.era_pile(0) == ["diamond", "square"]
    assert state.era_pile(1) == ["CIRCLE", "triangle"]


def test_temporal_blaster_cannot_target_a_gem_finder():
    """R5: a player who found the gem cannot be targeted (no Era card can be added)."""
    state = make(
        3,
        hands=[["temporal-blaster"], [], []],
        era=[["circle"], [], ["square"]],  # seat 1 found the gem
    )
    assert "play temporal-blaster seat-1" not in legal(state)
    with pytest.raises(IllegalAction, match="R5"):
        state.apply("play temporal-blaster seat-1")
    with pytest.raises(IllegalAction, match="R5"):
        state.apply("play temporal-blaster seat-0")


# ---------------------------------------------------------------- Futuristic Smartphone
def test_futuristic_smartphone_draws_two_at_most_three_per_turn():
    """Futuristic Smartphone: draw 2; R3: a fourth one cannot be played that turn."""
    state = make(
        2,
        options={"composition": {"futuristic-smartphone": 4}},
        hands=[["futuristic-smartphone"] * 3, []],
        decks=[["futuristic-smartphone", *FILLER], []],
        era=[["circle"], ["square"]],
    )
    state.apply("play futuristic-smartphone")
    assert len(state.hand(0)) == 4 and state.hand(0).count("futuristic-smartphone") == 3
    do(state, "play futuristic-smartphone", "play futuristic-smartphone")
    assert state.view(0)["turn_state"]["smartphones"] == 3
    assert "play futuristic-smartphone" not in legal(state)
    with pytest.raises(IllegalAction, match="R3"):
        state.apply("play futuristic-smartphone")


def test_futuristic_smartphone_limit_is_per_turn():
    """Futuristic Smartphone: the limit counts one game turn only."""
    state = make(
        2,
        options={"composition": {"futuristic-smartphone": 4}},
        hands=[["futuristic-smartphone"] * 3, ["portal-square"]],
        decks=[["futuristic-smartphone", *FILLER], FILLER],
        era=[["circle"] * 3, ["diamond"] * 3],
        empty_markets=True,
    )
    do(state, "play futuristic-smartphone", "play futuristic-smartphone")
    do(state, "play futuristic-smartphone", "end", "end")
    assert state.current_player == 0
    assert state.view(0)["turn_state"]["smartphones"] == 0


# ---------------------------------------------------------------- Digital Wallet
def _wallet(hand):
    return make(
        2,
        hands=[hand, []],
        decks=[FILLER, []],
        era=[["circle"] * 5, ["square"]],
        era_display=["circle", "square"],
        basic_row=["transporter", "droid", "data-analyser"],
        advanced_row=["ultimate-portal", "laboratory", "time-bomb"],
    )


def test_digital_wallet_basic_technology_takes_no_era_card():
    """Digital Wallet: no Era card for a Basic Technology card."""
    state = _wallet(["digital-wallet"])
    do(state, "play digital-wallet", "acquire transporter")
    assert len(state.era_pile(0)) == 5
    assert state.current_player == 1


def test_digital_wallet_advanced_technology_takes_one_era_card():
    """Digital Wallet: only one Era card for an Advanced Technology card."""
    state = _wallet(["digital-wallet"])
    do(state, "play digital-wallet", "acquire ultimate-portal")
    assert legal(state) == ["era circle", "era square"]
    state.apply("era square")
    assert state.era_pile(0)[0] == "SQUARE" and len(state.era_pile(0)) == 6


def test_two_digital_wallets_do_not_add_up():
    """R16: two Digital Wallets in one turn: one Era card fewer, at most."""
    state = _wallet(["digital-wallet", "digital-wallet"])
    do(state, "play digital-wallet", "play digital-wallet", "acquire ultimate-portal")
    state.apply("era circle")
    assert len(state.era_pile(0)) == 6


# ---------------------------------------------------------------- Transporter
def test_transporter_discards_two_cards_to_discard_the_next_era_card():
    """Transporter: 'Discard 2 cards from your hand to discard your next Era card' (hidden too)."""
    state = make(
        2,
        hands=[["transporter", "portal-triangle", "portal-diamond", "droid"], []],
        era=[["circle", "square"], ["square"]],
        era_visible=[0, 1],
    )
    state.apply("play transporter discard portal-diamond portal-triangle")  # any order
    assert state.era_pile(0) == ["square"]
    assert state.hand(0) == ["droid"]
    assert state.discard_pile(0) == ["portal-triangle", "portal-diamond", "transporter"]


def test_transporter_needs_two_other_cards():
    """Transporter: the two discarded cards come from the hand, not the Transporter itself."""
    state = make(2, hands=[["transporter", "droid"], []], era=[["circle"], ["square"]])
    assert not any(a.startswith("play transporter") for a in legal(state))
    with pytest.raises(IllegalAction, match="2 other cards"):
        state.apply("play transporter discard droid transporter")


# ---------------------------------------------------------------- Data Analyser
def test_data_analyser_discards_then_draws_as_many():
    """Data Analyser: discard as many cards as you wish, then draw as many."""
    state = make(
        2,
        hands=[["data-analyser", "portal-circle", "portal-square", "droid"], []],
        decks=[["transporter", "ultimate-portal", *FILLER], []],
        era=[["diamond"] * 3, ["square"]],
    )
    state.apply("play data-analyser")
    assert state.phase == "data-analyser"
    do(state, "discard portal-circle", "discard portal-square")
    assert not any(a.startswith("destroy") for a in legal(state))  # one mode only
    state.apply("done")
    assert sorted(state.hand(0)) == ["droid", "transporter", "ultimate-portal"]
    assert state.discard_pile(0) == ["portal-circle", "portal-square", "data-analyser"]


def test_data_analyser_destroys_down_to_the_floor_of_six():
    """Data Analyser: destroyed cards go to the box; never below 6 Action cards."""
    state = make(
        2,
        hands=[["data-analyser", "portal-circle", "portal-square", "droid"], []],
        decks=[["transporter", "portal-diamond", "portal-triangle"], []],
        era=[["diamond"] * 3, ["square"]],
    )
    state.apply("play data-analyser")
    state.apply("destroy portal-circle")
    # 6 Action cards are left: nothing more may be destroyed; the draw happens by itself
    assert state.phase == "play"
    assert len(state.hand(0)) == 3
    with pytest.raises(IllegalAction):
        state.apply("destroy droid")


def test_data_analyser_with_nothing_chosen_draws_nothing():
    """Data Analyser: 'as many as you wish' includes none."""
    state = make(
        2,
        hands=[["data-analyser", "droid"], []],
        decks=[FILLER, []],
        era=[["diamond"] * 3, ["square"]],
    )
    do(state, "play data-analyser", "done")
    assert state.hand(0) == ["droid"]


# ---------------------------------------------------------------- Ultimate Portal
def test_ultimate_portal_discards_the_next_era_card_visible_or_not():
    """Ultimate Portal: 'Discard your next Era card, whether it is visible or not.'"""
    state = make(
        2,
        hands=[["ultimate-portal", "ultimate-portal", "droid"], []],
        era=[["circle", "square", "diamond"], ["square"]],
    )
    state.apply("play ultimate-portal")
    assert state.era_pile(0) == ["square", "diamond"]
    state.apply("play ultimate-portal")  # hidden
    assert state.era_pile(0) == ["diamond"]
    assert state.view(None)["era_discard"]["square"] == 1


# ---------------------------------------------------------------- Giga Droid
def test_giga_droid_reveals_your_top_three_and_the_others_next_hidden():
    """Giga Droid: your top 3 visible; all other players make their next hidden card visible."""
    state = make(
        3,
        hands=[["giga-droid"], [], []],
        era=[["circle", "square", "triangle", "diamond"], ["square"] * 4, ["diamond"] * 4],
        era_visible=[1, 1, 0],
    )
    state.apply("play giga-droid")
    assert state.era_pile(0) == ["CIRCLE", "SQUARE", "TRIANGLE", "diamond"]
    assert state.era_pile(1) == ["SQUARE", "SQUARE", "square", "square"]
    assert state.era_pile(2) == ["DIAMOND", "diamond", "diamond", "diamond"]


def test_giga_droid_does_nothing_at_all_when_your_top_three_are_visible():
    """Giga Droid + R4: top 3 already visible: nothing happens, the others' reveal included."""
    state = make(
        2,
        hands=[["giga-droid"], []],
        era=[["circle"] * 4, ["square"] * 3],
        era_visible=[3, 1],
    )
    state.apply("play giga-droid")
    assert state.era_pile(1) == ["SQUARE", "square", "square"]


def test_giga_droid_reveal_for_others_stays_within_the_top_three():
    """R4: the other players' reveal is like a Droid: deeper cards are not touched."""
    state = make(
        2,
        hands=[["giga-droid"], []],
        era=[["circle"] * 2, ["square"] * 5],
        era_visible=[0, 3],
    )
    state.apply("play giga-droid")
    assert state.era_pile(1) == ["SQUARE"] * 3 + ["square"] * 2


# ---------------------------------------------------------------- Thieving Robot
def _thief():
    return make(
        3,
        hands=[["thieving-robot", "droid"], [], []],
        discards=[[], ["ultimate-portal", "portal-circle"], []],
        era=[["circle"] * 3, ["square"], ["diamond"]],
    )


def test_thieving_robot_takes_a_card_into_hand_and_stays_with_the_victim():
    """Thieving Robot + R1: the card goes to the thief's hand (playable this turn); the
    Robot goes to that opponent's discard pile."""
    state = _thief()
    assert "play thieving-robot seat-2" not in legal(state)  # an empty discard pile
    state.apply("play thieving-robot seat-1")
    assert state.phase == "steal" and state.current_player == 0
    assert legal(state) == ["steal portal-circle", "steal ultimate-portal"]
    state.apply("steal ultimate-portal")
    assert "ultimate-portal" in state.hand(0)
    assert state.discard_pile(1) == ["portal-circle", "thieving-robot"]
    assert state.discard_pile(0) == []
    state.apply("play ultimate-portal")
    assert len(state.era_pile(0)) == 2


def test_thieving_robot_looks_only_once_played():
    """R2: no peeking before; once played, the thief sees that opponent's discard pile."""
    state = _thief()
    assert state.view(0)["discard"] == []
    assert "victim_discard" not in state.view(0)["pending"]
    assert state.view(0)["discard_sizes"][1] == 2
    state.apply("play thieving-robot seat-1")
    assert state.view(0)["pending"]["victim_discard"] == ["ultimate-portal", "portal-circle"]
    assert "victim_discard" not in state.view(2)["pending"]
    assert state.view(1)["discard"] == ["ultimate-portal", "portal-circle"]


# ---------------------------------------------------------------- Recycler Robot
def test_recycler_robot_returns_a_chosen_discarded_card():
    """Recycler Robot: 'choose any one card from your discard pile and return it to your hand'."""
    state = make(
        2,
        hands=[["recycler-robot"], []],
        discards=[["transporter", "portal-circle"], []],
        era=[["circle"] * 3, ["square"]],
    )
    assert legal(state)[:2] == [
        "play recycler-robot portal-circle",
        "play recycler-robot transporter",
    ]
    state.apply("play recycler-robot portal-circle")
    assert state.hand(0) == ["portal-circle"]
    assert state.discard_pile(0) == ["transporter", "recycler-robot"]


def test_recycler_robot_cannot_return_itself():
    """R16: the Recycler Robot is not yet in the discard pile."""
    state = make(2, hands=[["recycler-robot"], []], era=[["circle"], ["square"]])
    assert legal(state)[0] == "play recycler-robot"  # an empty pile: played for nothing
    with pytest.raises(IllegalAction, match=r"R16|empty"):
        state.apply("play recycler-robot recycler-robot")
    state.apply("play recycler-robot")
    assert state.discard_pile(0) == ["recycler-robot"]


# ---------------------------------------------------------------- Time Bomb
def test_time_bomb_turns_opponents_top_three_face_down_and_shuffles():
    """Time Bomb: all opponents turn their top 3 face down, then shuffle their Era cards."""
    state = make(
        3,
        hands=[["time-bomb"], [], []],
        era=[["circle"] * 3, ["square", "circle", "triangle", "diamond"], ["diamond"] * 2],
        era_visible=[3, 2, 1],
    )
    state.apply("play time-bomb")
    assert sorted(state.era_pile(1)) == ["circle", "diamond", "square", "triangle"]
    assert state.era_pile(2) == ["diamond", "diamond"]
    assert state.era_pile(0) == ["CIRCLE"] * 3  # not the player's own


def test_time_bomb_keeps_deeper_visible_cards_face_up_in_the_shuffle():
    """Time Bomb: 'some visible Era cards may be shuffled in among the hidden ones'."""
    state = make(
        2,
        hands=[["time-bomb"], []],
        era=[["circle"], ["square"] * 3 + ["diamond"]],
        era_visible=[1, 4],
    )
    state.apply("play time-bomb")
    assert sorted(state.era_pile(1)) == ["DIAMOND", "square", "square", "square"]


def test_time_bomb_does_nothing_when_the_top_three_are_face_down():
    """Time Bomb: 'If their top 3 Era cards are already face down, they do nothing.'"""
    state = make(
        2,
        hands=[["time-bomb"], []],
        era=[["circle"], ["square", "circle", "triangle", "DIAMOND"]],  # upper case: face up
        era_visible=[1, 0],
    )  # the bottom card is face up: it stays where it is
    state.apply("play time-bomb")
    assert state.era_pile(1) == ["square", "circle", "triangle", "DIAMOND"]


# ---------------------------------------------------------------- Quantum Clock
def test_quantum_clock_adds_the_common_top_card_face_down_to_every_opponent():
    """Quantum Clock + R12: all opponents add the common deck's face-down top card."""
    state = make(
        3,
        hands=[["quantum-clock"], [], []],
        era=[["circle"], ["square"], ["diamond"]],
        era_deck=["triangle", "circle"],
        era_display=["square", "square"],
    )
    state.apply("play quantum-clock")
    assert state.era_pile(1) == ["triangle", "SQUARE"]  # seat 1 is on the left: first
    assert state.era_pile(2) == ["circle", "DIAMOND"]
    assert state.view(None)["era_display"] == ["square", "square"]


def test_quantum_clock_adds_nothing_to_a_gem_finder():
    """End of the Game: no new Era card is added to a player who found the gem."""
    state = make(2, hands=[["quantum-clock"], []], era=[["circle"], []])
    state.apply("play quantum-clock")
    assert state.era_pile(1) == []


# ---------------------------------------------------------------- Laboratory
def _lab(**extra):
    setup = {
        "hands": [["laboratory"], [], []],
        "era": [["circle"] * 3, ["square"], ["diamond"]],
        "basic_row": ["transporter", "droid", "data-analyser"],
        "advanced_row": ["ultimate-portal", "giga-droid", "time-bomb"],
    }
    setup.update(extra)
    return make(3, **setup)


def test_laboratory_gives_you_a_technology_and_each_other_player_a_basic_one():
    """Laboratory: you add a Basic or Advanced card to your hand; all other players, from your
    left clockwise, add a Basic card to theirs; nobody takes Era cards."""
    state = _lab()
    assert "play laboratory ultimate-portal" in legal(state)
    assert "play laboratory blind-advanced" in legal(state)
    state.apply("play laboratory ultimate-portal")
    assert state.hand(0) == ["ultimate-portal"]
    assert state.phase == "gift" and state.current_player == 1
    assert "gift blind-basic" in legal(state)
    assert all(a.startswith("gift ") for a in legal(state))
    state.apply("gift transporter")
    assert state.current_player == 2
    state.apply("gift droid")
    assert state.hand(1) == ["transporter"] and state.hand(2) == ["droid"]
    assert state.current_player == 0 and state.phase == "play"
    assert [len(state.era_pile(s)) for s in range(3)] == [3, 1, 1]
    assert state.discard_pile(0) == ["laboratory"]


def test_laboratory_gives_nothing_to_a_gem_finder():
    """R8: a player who found the gem receives no Laboratory gift."""
    state = _lab(era=[["circle"] * 3, [], ["diamond"]])
    state.apply("play laboratory blind-basic")
    assert state.current_player == 2


def test_laboratory_of_a_gem_finder_takes_nothing_for_itself():
    """R8 (extended to the player's own card): a gem finder takes no technology."""
    state = _lab(
        hands=[["laboratory", "portal-circle"], [], []], era=[["circle"], ["square"], ["diamond"]]
    )
    state.apply("play portal-circle")  # the gem: seat 0 plays on
    assert [a for a in legal(state) if "laboratory" in a] == ["play laboratory"]
    state.apply("play laboratory")
    assert state.current_player == 1
    state.apply("gift droid")
    assert state.hand(0) == []


def test_laboratory_own_pick_blind():
    """Laboratory: the blind top card of a deck may be taken, as in step 4."""
    state = _lab(advanced_deck=["quantum-clock"])
    state.apply("play laboratory blind-advanced")
    assert state.hand(0) == ["quantum-clock"]


def test_laboratory_gift_of_an_advanced_card_is_refused_by_the_rule_not_as_notation():
    """Laboratory: 'all other players ... add a Basic card': `gift giga-droid` is well-formed,
    so it is an IllegalAction naming the rule (with its catalog key), not bad notation."""
    state = _lab()
    state.apply("play laboratory ultimate-portal")
    for text in ("gift giga-droid", "gift blind-advanced", "GIFT Giga-Droid"):
        with pytest.raises(IllegalAction, match="Laboratory") as caught:
            state.apply(text)
        assert caught.value.key == "eternitium.refusal.gift_basic_only"
        assert caught.value.params["card"] in ("giga-droid", "blind-advanced")
    assert state.phase == "gift" and state.current_player == 1
    state.apply("gift droid")
    assert state.hand(1) == ["droid"]


def test_game_preparation_pick_of_an_advanced_card_is_refused_by_the_rule():
    """Game Preparation: each player takes a Basic Technology card: `pick giga-droid` is an
    IllegalAction naming the rule; outside the pick it is the wait refusal."""
    state = make(2, first_player=0)
    with pytest.raises(IllegalAction, match="Game Preparation") as caught:
        state.apply("pick giga-droid")
    assert caught.value.key == "eternitium.refusal.pick_basic_only"
    played = make(2, hands=[["droid"], []])
    with pytest.raises(IllegalAction) as caught:
        played.apply("gift giga-droid")
    assert caught.value.key.startswith("eternitium.refusal.wait_")
