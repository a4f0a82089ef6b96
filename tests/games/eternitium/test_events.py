"""Eternitium's events (docs/events.md, Eternitium): one scenario per kind, from exact setups,
named after the rule that acts (rulebook sections; R<k> the digest's readings). Each checks
the event's fields as a seat and a spectator are told them: what only its holder sees (the
cards drawn, discarded at step 3, kept, taken blind) is named to that seat alone."""

from __future__ import annotations

from typing import Any

from eternitium_helpers import do, legal, make

from eterna.games.eternitium import GAME
from eterna.i18n.words import describe_event

FILLER = ["portal-diamond"] * 3 + ["portal-triangle"] * 3


def told(state: Any, kind: str, seat: int | None = None, since: int = 0) -> list[dict[str, Any]]:
    """The events of `kind` from the `since`-th on, as `seat` is told them (kind left out)."""
    return [
        {k: v for k, v in e.items() if k != "kind"}
        for e in state.events_since(since, seat)
        if e["kind"] == kind
    ]


def solo(**setup: Any) -> Any:
    setup.setdefault("decks", [FILLER])
    setup.setdefault("ai_deck", [])
    return make(1, **setup)


# ---------------------------------------------------------------- Setup
def test_setup_1_the_game_starts_with_its_first_player() -> None:
    state = make(3, first_player=2, hands=[[], [], []])
    assert state.events_since(0, None)[0] == {
        "kind": "game_started", "players": 3, "first": 2, "mission": 0, "turns": 0,
    }  # fmt: skip


def test_setup_2_starting_cards_are_shuffled_into_each_deck() -> None:
    state = GAME.new_game(2, seed=1)
    assert told(state, "deck_dealt") == [{"seat": 0, "count": 5}, {"seat": 1, "count": 5}]


def test_a_setups_hand_is_named_to_its_holder_only() -> None:
    state = make(2, hands=[["droid"], []])
    assert told(state, "hand_dealt", 0) == [{"seat": 0, "count": 1, "cards": ["droid"]}]
    assert told(state, "hand_dealt", 1) == [{"seat": 0, "count": 1}]


def test_setup_5_market_rows_are_revealed() -> None:
    state = GAME.new_game(2, seed=1)
    rows = told(state, "market_refilled")
    view = state.view(None)
    assert [r["cards"] for r in rows[:2]] == [view["basic_row"], view["advanced_row"]]


def test_setup_6_era_piles_show_their_face_up_cards_only() -> None:
    state = make(2, hands=[[], []], era=[["circle", "square"], ["diamond"]])
    assert told(state, "era_dealt") == [
        {"seat": 0, "count": 2, "shapes": ["circle"]},
        {"seat": 1, "count": 1, "shapes": ["diamond"]},
    ]


def test_setup_7_two_era_cards_are_placed_beside_the_era_deck() -> None:
    state = make(2, hands=[[], []], era_display=["square", "circle"], era_deck=["diamond"])
    state2 = GAME.new_game(2, seed=3)
    assert len(told(state2, "era_placed")) == 2
    assert told(state, "era_placed") == []  # a setup's display is placed, not drawn
    assert [{"shape": s} for s in state2.view(None)["era_display"]] == told(state2, "era_placed")


def test_mission_4_portal_cards_are_revealed_from_their_deck() -> None:
    state = GAME.new_game(1, seed=2, options={"mission": 4})
    assert told(state, "portal_revealed") == [{"cards": state.view(0)["portal_row"]}]


# ---------------------------------------------------------------- Game Preparation
def test_game_preparation_pick_a_face_up_or_a_blind_card() -> None:
    state = GAME.new_game(2, seed=1)
    seat = state.current_player
    card = next(a for a in legal(state) if a != "pick blind-basic").split()[1]
    state.apply(f"pick {card}")
    assert told(state, "technology_picked") == [{"seat": seat, "card": card}]
    state.apply("pick blind-basic")
    assert told(state, "technology_picked", 1)[1] == {
        "seat": 1 - seat,
        "blind": True,
        "deck": "basic",
    }


def test_game_preparation_first_hand_drawn_cards_named_to_the_drawer() -> None:
    state = GAME.new_game(2, seed=1)
    do(state, "pick blind-basic", "pick blind-basic")
    mine = told(state, "cards_drawn", 0)
    assert mine[0]["seat"] == 0 and sorted(mine[0]["cards"]) == sorted(state.hand(0))
    assert mine[1] == {"seat": 1, "count": 5, "source": None}
    assert told(state, "cards_drawn", None)[0] == {"seat": 0, "count": 5, "source": None}


# ---------------------------------------------------------------- the turn
def test_a_turn_starts_for_the_next_player() -> None:
    state = make(2, hands=[["droid"], []], era=[["circle"], ["square"]], empty_markets=True)
    mark = state.event_count()
    state.apply("end")
    assert told(state, "turn_started", since=mark) == [{"seat": 1, "turn": 2, "round": 1}]


def test_step_1_a_portal_card_is_taken() -> None:
    state = make(2, portals={"circle": 1}, hands=[["droid"], []], era=[["circle"], ["square"]])
    state.apply("take portal-circle")
    assert told(state, "portal_taken") == [{"seat": 0, "card": "portal-circle"}]


def test_step_2_a_portal_played_discards_a_matching_era_card() -> None:
    state = make(2, hands=[["portal-circle"], []], era=[["circle", "square"], ["square"]])
    state.apply("play portal-circle")
    assert told(state, "card_played") == [{"seat": 0, "card": "portal-circle"}]
    assert told(state, "era_discarded") == [
        {"seat": 0, "shape": "circle", "source": "portal-circle"}
    ]
    assert told(state, "card_resolved") == [{"seat": 0, "card": "portal-circle"}]


def test_step_2_try_your_luck_a_miss_is_seen_by_all() -> None:
    state = make(
        2, hands=[["portal-circle"], []], era=[["square", "circle"], ["square"]],
        era_visible=[0, 1], empty_markets=True,
    )  # fmt: skip
    state.apply("play portal-circle")
    assert told(state, "luck_tried", None) == [
        {"seat": 0, "card": "portal-circle", "shape": "square", "matched": False}
    ]
    assert told(state, "card_resolved") == [{"seat": 0, "card": "portal-circle"}]


def test_step_2_try_your_luck_a_match_discards_the_card() -> None:
    state = make(
        2, hands=[["portal-circle"], []], era=[["circle", "square"], ["square"]],
        era_visible=[0, 1],
    )  # fmt: skip
    state.apply("play portal-circle")
    assert told(state, "luck_tried")[0]["matched"] is True
    assert told(state, "era_discarded")[0]["shape"] == "circle"


def test_end_of_the_game_the_last_era_card_discarded_finds_the_gem() -> None:
    state = make(2, hands=[["portal-circle"], []], era=[["circle"], ["square"]])
    state.apply("play portal-circle")
    assert told(state, "gem_found") == [{"seat": 0}]


def test_step_2_skipped_destroy_then_keep_one_card() -> None:
    state = make(
        2, hands=[["droid", "droid", "transporter"], []], decks=[FILLER, []],
        era=[["circle"], ["square"]],
    )  # fmt: skip
    do(state, "skip", "destroy droid", "keep transporter")
    assert told(state, "turn_skipped") == [{"seat": 0}]
    assert told(state, "card_destroyed") == [{"seat": 0, "card": "droid", "source": None}]
    assert told(state, "card_kept", 0) == [{"seat": 0, "card": "transporter"}]
    assert told(state, "card_kept", 1) == [{"seat": 0}]


def test_step_3_the_cards_left_in_hand_are_discarded_unseen_by_others() -> None:
    state = make(
        2, hands=[["droid", "transporter"], []], era=[["circle"], ["square"]],
        empty_markets=True,
    )  # fmt: skip
    state.apply("end")
    assert told(state, "play_ended") == [{"seat": 0}]
    assert told(state, "hand_discarded", 0) == [
        {"seat": 0, "count": 2, "cards": ["droid", "transporter"]}
    ]
    assert told(state, "hand_discarded", None) == [{"seat": 0, "count": 2}]


def _acquiring() -> Any:
    return make(
        2, hands=[["droid"], []], era=[["circle"], ["square"]],
        era_display=["circle", "square"], era_deck=["diamond", "triangle"],
        basic_row=["transporter", "digital-wallet", "data-analyser"], basic_deck=["droid"],
        advanced_row=[], advanced_deck=[], exact=["basic_deck", "advanced_deck"],
    )  # fmt: skip


def test_step_4_acquire_a_technology_and_take_its_era_card() -> None:
    state = _acquiring()
    do(state, "end", "acquire transporter", "era circle")
    assert told(state, "technology_acquired") == [{"seat": 0, "card": "transporter"}]
    assert told(state, "era_taken") == [{"seat": 0, "shape": "circle", "face_down": False}]
    assert told(state, "era_placed", since=0)[-1] == {"shape": "diamond"}


def test_step_4_a_blind_technology_is_named_to_nobody() -> None:
    state = _acquiring()
    do(state, "end", "acquire blind-basic")
    for seat in (0, 1, None):  # which deck is public: the deck sizes show it
        told_as = told(state, "technology_acquired", seat)
        assert told_as == [{"seat": 0, "blind": True, "deck": "basic"}]


def test_step_4_pass() -> None:
    state = _acquiring()
    do(state, "end", "pass")
    assert told(state, "acquire_passed") == [{"seat": 0}]


def test_deck_exhausted_the_discard_pile_is_shuffled_into_a_deck() -> None:
    state = make(
        2, hands=[["futuristic-smartphone"], []], discards=[["droid", "droid"], []],
        era=[["circle"], ["square"]],
    )  # fmt: skip
    state.apply("play futuristic-smartphone")
    assert told(state, "deck_reshuffled") == [{"seat": 0, "count": 2}]
    assert told(state, "cards_drawn", 0)[-1] == {
        "seat": 0, "count": 2, "source": "futuristic-smartphone", "cards": ["droid", "droid"],
    }  # fmt: skip
    assert "cards" not in told(state, "cards_drawn", 1)[-1]


def test_a_complete_round_ends_with_the_scores() -> None:
    state = make(2, hands=[["droid"], ["droid"]], era=[["circle"], ["square"]], empty_markets=True)
    do(state, "end", "end")
    assert told(state, "round_ended") == [{"round": 1, "scores": state.scores}]


def test_end_of_the_game_the_gem_finder_wins_after_the_round() -> None:
    state = make(
        2, hands=[["portal-circle"], ["droid"]], era=[["circle"], ["square"]],
        empty_markets=True,
    )  # fmt: skip
    do(state, "play portal-circle", "end")
    assert told(state, "game_over") == [{"winners": [0], "scores": state.scores, "finders": [0]}]
    ended = state.events_since(0, None)[-1]
    assert describe_event("eternitium", ended, "en", ["Ada", "Bob"]).startswith(
        "Ada found the Eternitium gem and wins"
    )
    assert describe_event("eternitium", ended, "fr", ["Ada", "Bob"]).startswith(
        "Ada a trouvé la gemme d'Eternitium et gagne"
    )


def test_end_of_the_game_two_finders_the_most_technology_points_wins() -> None:
    # both find the gem in the same round: technology points decide (End of the Game)
    state = make(
        2, hands=[["portal-circle"], ["portal-square"]], era=[["circle"], ["square"]],
        empty_markets=True,
    )  # fmt: skip
    do(state, "play portal-circle", "play portal-square")  # a find ends the turn
    (ended,) = told(state, "game_over")
    assert ended["finders"] == [0, 1]
    assert ended["winners"] == state.winners
    text = describe_event("eternitium", {"kind": "game_over", **ended}, "en", ["Ada", "Bob"])
    assert text.startswith("Ada and Bob found the gem in the same round: ")


# ---------------------------------------------------------------- technologies
def test_droid_reveals_the_next_hidden_era_card() -> None:
    state = make(2, hands=[["droid"], []], era=[["circle", "square", "triangle"], ["square"]])
    state.apply("play droid")
    assert told(state, "era_revealed") == [{"seat": 0, "shapes": ["square"], "source": "droid"}]


def test_temporal_blaster_swaps_top_era_cards() -> None:
    state = make(2, hands=[["temporal-blaster"], []], era=[["circle", "square"], ["diamond"]])
    state.apply("play temporal-blaster seat-1")
    assert told(state, "card_played") == [{"seat": 0, "card": "temporal-blaster", "target": 1}]
    assert told(state, "era_swapped") == [{"seat": 0, "target": 1, "source": "temporal-blaster"}]


def test_time_bomb_turns_the_others_top_cards_down_and_shuffles() -> None:
    state = make(
        2, hands=[["time-bomb"], []], era=[["circle"], ["diamond", "square", "circle"]],
        era_visible=[1, 2],
    )  # fmt: skip
    state.apply("play time-bomb")
    assert told(state, "era_hidden") == [{"seat": 1, "count": 3, "source": "time-bomb"}]


def test_quantum_clock_adds_a_hidden_era_card_to_the_others() -> None:
    state = make(
        2, hands=[["quantum-clock"], []], era=[["circle"], ["square"]], era_deck=["diamond"]
    )
    state.apply("play quantum-clock")
    assert told(state, "era_added") == [{"seat": 1, "source": "quantum-clock"}]


def test_transporter_discards_two_cards_then_an_era_card() -> None:
    state = make(
        2, hands=[["transporter", "droid", "droid"], []], era=[["square", "circle"], ["square"]],
        era_visible=[0, 1],
    )  # fmt: skip
    state.apply("play transporter discard droid droid")
    assert told(state, "cards_discarded") == [
        {"seat": 0, "cards": ["droid", "droid"], "source": "transporter"}
    ]
    assert told(state, "era_discarded") == [{"seat": 0, "shape": "square", "source": "transporter"}]


def test_data_analyser_discards_then_draws_as_many() -> None:
    state = make(
        2, hands=[["data-analyser", "droid"], []], decks=[FILLER, []],
        era=[["circle"], ["square"]],
    )  # fmt: skip
    do(state, "play data-analyser", "discard droid")
    assert told(state, "card_discarded") == [
        {"seat": 0, "card": "droid", "source": "data-analyser"}
    ]
    drawn = told(state, "cards_drawn", 1)[-1]
    assert drawn == {"seat": 0, "count": 1, "source": "data-analyser"}


def test_data_analyser_done_at_once_still_goes_to_the_discard_pile() -> None:
    """A played card waits in play while its effect asks; `done` ends it: it is told."""
    state = make(
        2, hands=[["data-analyser", "droid"], []], decks=[FILLER, []],
        era=[["circle"], ["square"]],
    )  # fmt: skip
    state.apply("play data-analyser")
    assert told(state, "card_resolved") == []
    mark = state.event_count()
    state.apply("done")
    assert told(state, "card_resolved", since=mark) == [{"seat": 0, "card": "data-analyser"}]
    assert state.view(None)["discard_sizes"][0] == 1


def test_deck_exhausted_the_era_discard_pile_becomes_the_era_deck() -> None:
    state = make(
        2, hands=[["quantum-clock"], []], era=[["circle"], ["square"]], era_deck=[],
        era_display=["circle", "square"], era_discard=["diamond", "triangle"],
        exact=["era_deck"],
    )  # fmt: skip
    state.apply("play quantum-clock")
    assert told(state, "era_reshuffled") == [{"count": 2}]
    assert told(state, "era_added") == [{"seat": 1, "source": "quantum-clock"}]
    view = state.view(None)
    assert view["era_deck_size"] == 1 and sum(view["era_discard"].values()) == 0


def test_recycler_robot_takes_a_card_back_from_the_discard_pile() -> None:
    state = make(
        2, hands=[["recycler-robot"], []], discards=[["droid"], []], era=[["circle"], ["square"]]
    )
    state.apply("play recycler-robot droid")
    assert told(state, "card_played")[0]["chosen"] == "droid"
    assert told(state, "card_recycled") == [
        {"seat": 0, "card": "droid", "source": "recycler-robot"}
    ]


def test_digital_wallet_r16_one_era_card_less() -> None:
    state = make(2, hands=[["digital-wallet"], []], era=[["circle"], ["square"]])
    state.apply("play digital-wallet")
    assert told(state, "discount_gained") == [{"seat": 0, "source": "digital-wallet"}]


def test_thieving_robot_r1_steals_from_a_discard_pile() -> None:
    state = make(
        2, hands=[["thieving-robot"], []], discards=[[], ["droid"]], era=[["circle"], ["square"]]
    )
    do(state, "play thieving-robot seat-1", "steal droid")
    assert told(state, "card_stolen") == [
        {"seat": 0, "victim": 1, "card": "droid", "source": "thieving-robot"}
    ]  # R1: the robot goes to its victim's discard pile
    assert told(state, "card_resolved") == [{"seat": 0, "card": "thieving-robot", "target": 1}]


def test_laboratory_r8_a_technology_for_you_then_a_basic_one_for_the_others() -> None:
    state = make(
        2, hands=[["laboratory"], []], era=[["circle"], ["square"]],
        basic_row=["transporter", "digital-wallet", "data-analyser"],
        basic_deck=["droid", "droid"],
        advanced_row=[], advanced_deck=[], exact=["basic_deck", "advanced_deck"],
    )  # fmt: skip
    do(state, "play laboratory transporter", "gift blind-basic")
    assert told(state, "technology_gained") == [
        {"seat": 0, "card": "transporter", "source": "laboratory"}
    ]
    gift = {"seat": 1, "blind": True, "deck": "basic", "giver": 0, "source": "laboratory"}
    assert told(state, "technology_gifted", 0) == [gift]
    assert told(state, "technology_gifted", 1) == [{**gift, "card": "droid"}]


# ---------------------------------------------------------------- Solo Mode
def test_solo_step_6_the_ai_strikes() -> None:
    state = solo(
        hands=[["droid"]], era=[["circle", "square"]], era_deck=["diamond"],
        ai_deck=["quantum-clock"], empty_markets=True,
    )  # fmt: skip
    state.apply("end")
    assert told(state, "ai_strike") == [{"seat": 0, "card": "quantum-clock", "void": False}]
    assert told(state, "era_added") == [{"seat": 0, "source": "quantum-clock"}]


def test_ai_thieving_robot_destroys_a_technology_named_to_you_only() -> None:
    state = solo(
        hands=[["portal-circle"]], decks=[[*FILLER, "droid"]],
        discards=[["portal-square", "transporter"]], era=[["diamond"] * 3],
        ai_deck=["thieving-robot"], empty_markets=True,
    )  # fmt: skip
    state.apply("end")
    assert told(state, "technology_destroyed", 0) == [
        {"seat": 0, "points": 1, "source": "thieving-robot", "card": "transporter"}
    ]  # its points are public: the score shows them
    hidden = {"seat": 0, "points": 1, "source": "thieving-robot"}
    assert told(state, "technology_destroyed", None) == [hidden]


def test_mission_5_r10_the_era_pile_is_turned_over() -> None:
    state = GAME.new_game(
        1, seed=1, options={"mission": 5},
        setup={"first_player": 0, "hands": [["droid"]], "decks": [FILLER], "ai_deck": [],
               "era": [["circle", "square", "triangle"]], "era_visible": [1],
               "portals": {"circle": 0, "square": 0, "triangle": 0, "diamond": 0},
               "basic_row": [], "basic_deck": [], "advanced_row": [], "advanced_deck": [],
               "exact": ["basic_deck", "advanced_deck"]},
    )  # fmt: skip
    state.apply("end")
    assert told(state, "era_flipped") == [{"seat": 0, "count": 3, "shapes": ["triangle", "square"]}]


def test_solo_mode_the_mission_result() -> None:
    state = solo(hands=[["portal-circle"]], era=[["circle"]])
    state.apply("play portal-circle")
    assert told(state, "mission_result") == [
        {"seat": 0, "mission": 0, "won": True, "turns": 0, "era": 0}
    ]
    assert told(state, "game_over") == [{"winners": [0], "scores": state.scores}]


def test_every_documented_kind_has_a_scenario_here() -> None:
    """Coverage: each kind of docs/events.md's Eternitium table is checked by a test above."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    section = (root / "docs" / "events.md").read_text(encoding="utf-8").split("## Eternitium")[1]
    documented = set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))
    here = Path(__file__).read_text(encoding="utf-8")
    tested = set(re.findall(r'told\(state2?, "(\w+)"', here)) | {"game_started"}
    assert len(documented) == 43
    assert documented <= tested, documented - tested
