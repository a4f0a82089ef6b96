"""Solo mode, the AI cards and the ten Special Missions (rulebook: Solo Mode, AI card
abilities, Solo Mode Special Missions)."""

from __future__ import annotations

import pytest
from eternitium_helpers import do, legal, make

from eterna.core.errors import IllegalAction
from eterna.games.eternitium import GAME

FILLER = ["portal-diamond"] * 3 + ["portal-triangle"] * 3
AI_KINDS = ("temporal-blaster", "time-bomb", "thieving-robot", "quantum-clock")


def solo(**setup):
    setup.setdefault("decks", [FILLER])
    setup.setdefault("ai_deck", [])
    return make(1, **setup)


def _picks(state):
    while state.phase == "pick":
        state.apply(state.legal_actions()[0])


# ---------------------------------------------------------------- Solo Mode
def test_solo_ai_deck_holds_the_nine_opponent_cards_out_of_the_markets():
    """Solo Mode: the 3 Temporal Blasters, 2 Time Bombs, 2 Thieving Robots and 2 Quantum
    Clocks form the AI card deck."""
    state = GAME.new_game(1, seed=3)
    view = state.view(0)
    assert view["ai_deck_size"] == 9
    names = sorted(state.ai_deck())
    assert names == sorted(
        ["temporal-blaster"] * 3 + ["time-bomb", "thieving-robot"] * 2 + ["quantum-clock"] * 2
    )
    for seed in range(4, 34):
        assert not set(view["basic_row"] + view["advanced_row"]) & set(AI_KINDS)
        state = GAME.new_game(1, seed=seed)
        view = state.view(0)


def test_solo_step6_reveals_an_ai_card_each_turn():
    """Solo Mode: step 6 'Draw an AI card'; the card is then returned to the box."""
    state = solo(hands=[["droid"]], era=[["circle"] * 4], ai_deck=["time-bomb", "quantum-clock"])
    state.apply("end")
    if state.phase == "acquire":
        state.apply("pass")
    assert state.view(0)["ai_cards"] == ["time-bomb"]
    assert state.view(0)["ai_deck_size"] == 1
    assert state.census()["time-bomb"] == 2


def test_solo_empty_ai_deck_does_nothing():
    """Solo Mode: an empty AI deck is never rebuilt; drawing from it does nothing."""
    state = solo(hands=[["droid"]], era=[["circle"] * 4], empty_markets=True)
    state.apply("end")
    assert state.view(0)["ai_cards"] == [] and state.era_pile(0) == ["CIRCLE"] + ["circle"] * 3


def test_ai_temporal_blaster_replaces_your_next_era_card_unseen():
    """AI Temporal Blaster: discard your next Era card and replace it with the common deck's
    top card without revealing it."""
    state = solo(
        hands=[["droid"]],
        era=[["circle", "square"]],
        era_deck=["diamond"],
        era_display=["square", "square"],
        ai_deck=["temporal-blaster"],
        empty_markets=True,
    )
    state.apply("end")
    assert state.era_pile(0) == ["diamond", "square"]
    assert state.view(0)["era_discard"]["circle"] == 1


def test_ai_thieving_robot_destroys_the_lowest_technology_in_your_discard_pile():
    """AI Thieving Robot: destroy the Technology card closest to the bottom of the pile."""
    state = solo(
        hands=[["portal-circle"]],
        decks=[[*FILLER, "droid"]],
        discards=[["portal-square", "transporter", "ultimate-portal"]],
        era=[["diamond"] * 3],
        ai_deck=["thieving-robot"],
        empty_markets=True,
    )
    state.apply("end")
    owned = state.hand(0) + state.deck(0) + state.discard_pile(0)
    assert "transporter" not in owned
    assert "ultimate-portal" in owned and "droid" in owned


def test_ai_thieving_robot_with_no_technology_does_nothing():
    """AI Thieving Robot: 'If your discard pile ... does not contain any Technology card,
    nothing happens.'"""
    state = solo(
        hands=[["portal-circle"]],
        discards=[["portal-square"]],
        era=[["diamond"] * 3],
        ai_deck=["thieving-robot"],
        empty_markets=True,
    )
    before = len(state.hand(0)) + len(state.deck(0)) + len(state.discard_pile(0))
    state.apply("end")
    assert len(state.hand(0)) + len(state.deck(0)) + len(state.discard_pile(0)) == before


def test_ai_time_bomb_and_quantum_clock_act_on_you():
    """AI cards 'as if played by an opponent': Time Bomb hides your top 3 and shuffles;
    Quantum Clock adds the common deck's top card face down."""
    state = solo(
        hands=[["droid"]],
        era=[["circle", "circle"]],
        era_visible=[2],
        era_deck=["triangle"],
        ai_deck=["time-bomb", "quantum-clock"],
        empty_markets=True,
    )
    state.apply("end")
    assert state.era_pile(0) == ["circle", "circle"]
    state.apply("end")
    assert state.era_pile(0)[0] == "triangle" and len(state.era_pile(0)) == 3


def test_solo_giga_droid_compensation_reveals_an_extra_ai_card():
    """Solo Mode: cards with compensation (Giga Droid) reveal a new AI card at once (R13:
    after the card's own effect); step 6 still follows."""
    state = solo(
        hands=[["giga-droid", "droid"]],
        era=[["circle"] * 4],
        ai_deck=["time-bomb", "quantum-clock"],
        era_deck=["square"],
    )
    state.apply("play giga-droid")
    assert state.view(0)["ai_cards"] == ["time-bomb"]
    assert all(c == "circle" for c in state.era_pile(0))  # revealed, then bombed


def test_solo_giga_droid_without_effect_gives_no_compensation():
    """R4: a Giga Droid that does nothing reveals no AI card either."""
    state = solo(
        hands=[["giga-droid", "droid"]],
        era=[["circle"] * 4],
        era_visible=[3],
        ai_deck=["time-bomb"],
    )
    state.apply("play giga-droid")
    assert state.view(0)["ai_cards"] == []


def test_solo_laboratory_compensation_reveals_an_extra_ai_card():
    """Solo Mode: the Laboratory's compensation is an AI card, not gifts."""
    state = solo(
        hands=[["laboratory", "droid"]],
        era=[["circle"] * 4],
        ai_deck=["quantum-clock"],
        basic_row=["transporter"],
    )
    state.apply("play laboratory transporter")
    assert "transporter" in state.hand(0)
    assert state.view(0)["ai_cards"] == ["quantum-clock"]
    assert len(state.era_pile(0)) == 5
    assert state.phase == "play"


def test_solo_game_is_lost_after_eight_turns():
    """Solo Mode: the game ends after 8 turns; without the gem it is lost (winners [])."""
    state = solo(hands=[[]], era=[["circle"] * 10], empty_markets=True)
    for _ in range(8):
        assert not state.is_terminal
        state.apply("end")
    assert state.is_terminal and state.winners == []


def test_solo_finding_the_gem_wins():
    """Solo Mode: 'If you find the Eternitium gem before the end of the last turn, you win'."""
    state = solo(hands=[["portal-circle", "droid"]], era=[["circle"]])
    state.apply("play portal-circle")
    assert state.is_terminal and state.winners == [0]


def test_solo_last_portal_starts_the_last_turn():
    """Solo Mode: 'When you take the last Portal card, the last turn begins.'"""
    state = solo(hands=[["droid"]], era=[["circle"] * 10], portals={"circle": 1})
    state.apply("take portal-circle")
    assert state.view(0)["last_turn"]
    state.apply("end")
    if state.phase == "acquire":
        state.apply("pass")
    assert state.is_terminal and state.winners == []


# ---------------------------------------------------------------- missions
def mission(m, seed=1, **setup):
    return GAME.new_game(1, seed=seed, options={"mission": m}, setup=setup or None)


def test_mission_1_basic_technology_only_and_three_blasters():
    """Mission 1: only Basic Technology and Portal cards; the AI deck holds 3 Temporal
    Blasters."""
    state = mission(1)
    view = state.view(0)
    assert view["advanced_row"] == [] and view["advanced_deck_size"] == 0
    assert view["ai_deck_size"] == 3
    assert set(state.ai_deck()) == {"temporal-blaster"}


def test_mission_2_no_droid_hand_of_four_one_portal_per_shape():
    """Mission 2: the Droid goes back to the box; starting hand of 4; reserve 1 per shape."""
    state = mission(2)
    assert sorted(state.deck(0)) == sorted(
        ["portal-circle", "portal-square", "portal-triangle", "portal-diamond"]
    )
    assert state.view(0)["portal_reserve"] == dict.fromkeys(
        ("circle", "square", "triangle", "diamond"), 1
    )
    _picks(state)
    assert len(state.hand(0)) == 4 and len(state.deck(0)) == 1
    # R9: the smaller deck stands, and nothing may be destroyed below the floor
    state.apply(state.legal_actions()[0])
    state.apply("skip")
    assert not any(a.startswith("destroy") for a in legal(state))


def test_mission_3_five_era_cards_four_turns():
    """Mission 3: 5 Era cards; find the gem within 4 turns; 1 Portal per shape."""
    state = mission(3)
    assert state.view(0)["era_counts"] == [5]
    assert state.view(0)["turns_left"] == 4
    assert state.view(0)["portal_reserve"]["circle"] == 1
    _picks(state)
    turns = 0
    while not state.is_terminal:
        if state.phase == "portal":
            state.apply(state.legal_actions()[0])
        elif state.phase == "play":
            state.apply("end")
            turns += 1
        else:
            state.apply(state.legal_actions()[-1])
    assert turns == 4 and state.winners == []


def test_mission_4_portal_deck_with_three_revealed():
    """Mission 4: no reserve: the 8 Portal cards shuffled face down, 3 revealed; after
    taking one, a new one is revealed."""
    state = mission(
        4, portal_deck=["portal-circle", "portal-circle", "portal-square", "portal-diamond"]
    )
    view = state.view(0)
    assert view["portal_row"] == ["portal-circle", "portal-circle", "portal-square"]
    assert view["portal_deck_size"] == 1
    assert all(v == 0 for v in view["portal_reserve"].values())
    _picks(state)
    assert legal(state) == ["take portal-circle", "take portal-square"]
    state.apply("take portal-square")
    assert state.view(0)["portal_row"] == ["portal-circle", "portal-circle", "portal-diamond"]
    state = mission(4)
    assert len(state.view(0)["portal_row"]) == 3 and state.view(0)["portal_deck_size"] == 5


def test_mission_5_flips_the_era_pile_between_steps_5_and_6():
    """Mission 5 + R10: the entire Era pile flipped: order reversed, every face turned."""
    state = solo(
        options={"mission": 5},
        hands=[["droid"]],
        era=[["circle", "square", "triangle"]],
        era_visible=[1],
        empty_markets=True,
    )
    state.apply("end")
    assert state.era_pile(0) == ["TRIANGLE", "SQUARE", "circle"]


def test_mission_6_destroy_a_card_before_step_1():
    """Mission 6: at the beginning of each turn, destroy one card from your hand."""
    state = make(
        1,
        options={"mission": 6},
        hands=[["droid", "portal-circle"]],
        decks=[FILLER],
        era=[["circle"] * 3],
        ai_deck=[],
        portals={"circle": 2},
    )
    assert state.phase == "destroy"
    assert legal(state) == ["destroy portal-circle", "destroy droid"]
    state.apply("destroy droid")
    assert state.phase == "portal"
    assert state.census()["droid"] == 8


def test_mission_6_floor_wins_over_destruction():
    """R9: when destroying would leave fewer than 6 Action cards, nothing is destroyed."""
    state = make(
        1,
        options={"mission": 6},
        hands=[["droid", "portal-circle"]],
        decks=[["portal-diamond"] * 4],
        era=[["circle"] * 3],
        ai_deck=[],
    )
    assert state.phase == "play"


def test_mission_7_adds_a_hidden_era_card_after_step_6():
    """Mission 7: 5 Era cards; after step 6, a face-down Era card on top of the pile."""
    assert mission(7).view(0)["era_counts"] == [5]
    state = solo(
        options={"mission": 7}, hands=[["droid"]], era=[["circle"] * 5], empty_markets=True
    )
    state.apply("end")
    assert len(state.era_pile(0)) == 6 and state.era_pile(0)[0].islower()


def test_mission_8_paid_era_cards_go_face_down():
    """Mission 8: the Era cards taken in step 4 are turned face down."""
    state = make(
        1,
        options={"mission": 8},
        hands=[["droid"]],
        decks=[FILLER],
        era=[["circle"] * 3],
        era_display=["square", "square"],
        basic_row=["transporter"],
        ai_deck=[],
    )
    do(state, "end", "acquire transporter")
    assert state.era_pile(0)[0] == "square"


def test_mission_9_play_as_many_cards_as_possible():
    """Mission 9: you must play as many cards as possible: never skip, always try your luck."""
    state = make(
        1,
        options={"mission": 9},
        hands=[["portal-square", "digital-wallet"]],
        decks=[FILLER],
        era=[["circle", "triangle"]],
        era_visible=[0],
        ai_deck=[],
    )
    assert "end" not in legal(state) and "skip" not in legal(state)
    with pytest.raises(IllegalAction, match="mission 9"):
        state.apply("end")
    with pytest.raises(IllegalAction, match="mission 9"):
        state.apply("skip")
    state.apply("play digital-wallet")
    assert legal(state) == ["play portal-square"]  # the try is forced
    state.apply("play portal-square")  # and fails: the turn moves on
    assert state.view(0)["turn_state"]["failed_luck"]


def test_mission_9_end_allowed_when_nothing_can_be_played():
    """Mission 9: with no playable card left, the player stops."""
    state = make(
        1,
        options={"mission": 9},
        hands=[["portal-square"]],
        decks=[FILLER],
        era=[["circle"]],
        ai_deck=[],
    )
    assert legal(state) == ["end"]


def test_mission_10_two_portals_of_each_shape_no_data_analyser():
    """Mission 10: the starting deck holds 2 Portal cards of each shape and the Droid; the
    Data Analysers go back to the box."""
    for seed in range(10):
        state = mission(10, seed=seed)
        assert sorted(state.deck(0)) == sorted(
            [f"portal-{s}" for s in ("circle", "square", "triangle", "diamond")] * 2 + ["droid"]
        )
        view = state.view(0)
        assert "data-analyser" not in view["basic_row"]
        assert "data-analyser" not in state.market_deck("basic")


@pytest.mark.parametrize("m", range(1, 11))
def test_every_mission_starts_and_keeps_card_counts(m):
    """Solo Mode Special Missions: every mission sets up a complete, conserved game."""
    state = mission(m, seed=m)
    census = state.census()
    assert sum(v for k, v in census.items() if k.startswith("era-")) == 60
    assert sum(v for k, v in census.items() if not k.startswith("era-")) == 105
