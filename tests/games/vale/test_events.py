"""The Vale tells what happens (docs/events.md): one scenario per event kind, named after the
rule that makes it happen (section numbers of the rules, as in docs/vale.md)."""

from __future__ import annotations

from typing import Any

from vale_helpers import acting, play, resolving, vale

from eterna.games.vale import GAME, ValeState
from eterna.games.vale.cards import BASE_DECK_SIZE, CARD_NAME


def told(st: ValeState, seat: int | None = 0, since: int = 0) -> list[dict[str, Any]]:
    return st.events_since(since, seat)


def after(st: ValeState, *actions: str, seat: int | None = 0) -> list[dict[str, Any]]:
    """The events the actions make, as `seat` is told them."""
    start = st.event_count()
    play(st, *actions)
    return told(st, seat, start)


def test_s4_a_round_starts_with_its_revealed_cards_and_claims_are_told():
    st = GAME.new_game(2, seed=5)
    first = told(st)[0]
    assert first["kind"] == "round_started" and first["round"] == 1
    assert sorted(first["revealed"]) == sorted(st.revealed())
    card = st.revealed()[0]
    seat = st.current_player
    assert after(st, f"claim {card}") == [{"kind": "card_claimed", "seat": seat, "card": card}]


def test_s5_the_action_phase_starts_once_every_card_is_claimed():
    st = vale(2, revealed=["imp", "kappa", "ifrit", "boulder"])
    events = after(st, "claim imp", "claim kappa", "claim ifrit", "claim boulder")
    assert events[-1] == {"kind": "phase_started", "phase": "action", "round": 1}


def test_s5_1_selling_tells_the_card_and_the_stones():
    st = acting(claimed=[["ifrit"], []])
    assert after(st, "sell ifrit") == [
        {"kind": "card_sold", "seat": 0, "card": "ifrit"},
        {"kind": "stones_gained", "seat": 0, "red": 3, "blue": 0, "purple": 0, "source": None},
    ]


def test_s5_2_taming_tells_the_card_and_what_permanents_pay():
    st = acting(claimed=[["kappa"], []], areas=[["undine"], []])
    events = after(st, "tame kappa")
    assert events[0] == {"kind": "card_tamed", "seat": 0, "card": "kappa"}


def test_s5_3_a_summon_tells_its_payment_then_its_instant_effect():
    st = acting(
        hands=[["boulder"], []], stones=[["purple", "red", "red"], []], areas=[[], ["sylph"]]
    )
    events = after(st, "summon boulder pay red+red+purple")
    assert events[0] == {
        "kind": "summoned",
        "seat": 0,
        "card": "boulder",
        "free": False,
        "source": None,
        "paid": {"red": 2, "blue": 0, "purple": 1},
    }
    assert events[1] == {
        "kind": "points_gained",
        "seat": 0,
        "points": 8,
        "source": "boulder",
        "score": 8,
    }
    assert events[2]["kind"] == "effect_choice"
    assert events[2]["question"] == "name_a_player" and events[2]["card"] == "boulder"


def test_s5_4_a_removal_tells_the_card_and_its_payment():
    st = acting(round=2, areas=[["imp"], []], stones=[["red", "red"], []])
    events = after(st, "remove imp pay red+red")
    assert events == [
        {
            "kind": "card_removed",
            "seat": 0,
            "card": "imp",
            "paid": {"red": 2, "blue": 0, "purple": 0},
        }
    ]


def test_s6_the_resolution_phase_and_each_resolved_effect_are_told():
    st = acting(areas=[["burning-skull"], []], stones=[["red", "blue"], []])
    events = after(st, "end-turn", "end-turn")
    assert {"kind": "turn_ended", "seat": 0} in events
    assert events[-1] == {"kind": "phase_started", "phase": "resolution", "round": 3}
    events = after(st, "resolve burning-skull")
    assert [e["kind"] for e in events[:3]] == [
        "effect_resolved",
        "stones_returned",
        "points_gained",
    ]
    assert events[1] == {
        "kind": "stones_returned",
        "seat": 0,
        "red": 1,
        "blue": 0,
        "purple": 0,
        "source": "burning-skull",
    }


def test_s7_over_the_stone_limit_each_discarded_stone_is_told():
    st = acting(claimed=[["ifrit"], []], stones=[["red", "red"], []])
    events = after(st, "sell ifrit")
    assert events[-1] == {"kind": "stone_limit_exceeded", "seat": 0, "stones": 5, "limit": 4}
    events = after(st, "discard-stone red")
    assert events[0] == {
        "kind": "stone_discarded",
        "seat": 0,
        "red": 1,
        "blue": 0,
        "purple": 0,
        "source": None,
    }


def test_s8_points_lost_stop_at_zero_and_say_how_many_went():
    st = resolving(areas=[["goblin-soldier"], []], scores=[3, 1])
    events = after(st, "resolve goblin-soldier")
    lost = [e for e in events if e["kind"] == "points_lost"]
    assert lost == [
        {"kind": "points_lost", "seat": 0, "points": 3, "source": "goblin-soldier", "score": 0}
    ]


def test_a_card_drawn_is_named_to_its_drawer_only():
    st = acting(hands=[["dandelion-spirit"], []], stones=[["blue"], []], deck=["kappa"])
    action = "summon dandelion-spirit pay blue"
    start = st.event_count()
    play(st, action)
    mine = [e for e in told(st, 0, start) if e["kind"] == "card_drawn"]
    theirs = [e for e in told(st, 1, start) if e["kind"] == "card_drawn"]
    watching = [e for e in told(st, None, start) if e["kind"] == "card_drawn"]
    assert mine == [
        {"kind": "card_drawn", "seat": 0, "source": "dandelion-spirit", "card": "kappa"}
    ]
    assert theirs == watching == [{"kind": "card_drawn", "seat": 0, "source": "dandelion-spirit"}]


def test_tengu_puts_itself_on_the_deck_and_its_draw_is_public():
    st = acting(hands=[["tengu", "sylph"], []], stones=[["purple", "purple"], []])
    events = after(st, "summon tengu pay purple")
    assert {"kind": "card_put_on_deck", "seat": 0, "card": "tengu"} in events
    events = after(st, "summon sylph pay purple", seat=1)
    drawn = [e for e in events if e["kind"] == "card_drawn"]
    assert drawn == [{"kind": "card_drawn", "seat": 0, "card": "tengu", "source": "sylph"}]


def test_recover_and_discard_and_take_name_their_cards():
    st = resolving(areas=[["mimic", "imp"], []], discard=["kappa"])
    events = after(st, "resolve imp")
    assert {"kind": "card_returned", "seat": 0, "card": "imp", "source": "imp"} in events


def test_cerberus_discards_from_the_area_until_done_and_done_is_told():
    st = acting(hands=[["cerberus"], []], areas=[["imp", "kappa"], []], stones=[["purple"], []])
    events = after(st, "summon cerberus pay purple")
    assert [e["question"] for e in events if e["kind"] == "effect_choice"] == [
        "discard_from_own_area"
    ]
    assert after(st, "discard imp")[0] == {
        "kind": "card_discarded", "seat": 0, "card": "imp", "zone": "area", "source": "cerberus",
    }  # fmt: skip
    assert after(st, "done") == [{"kind": "discarding_ended", "seat": 0, "source": "cerberus"}]


def test_goblin_steals_a_point():
    st = resolving(areas=[["goblin"], []], scores=[0, 5])
    events = after(st, "resolve goblin")
    choice = [e for e in events if e["kind"] == "effect_choice"]
    assert choice == [
        {
            "kind": "effect_choice",
            "chooser": 0,
            "seat": 0,
            "card": "goblin",
            "question": "steal_points",
        }
    ]
    events = after(st, "target seat-1")
    assert events[0] == {
        "kind": "points_stolen",
        "seat": 0,
        "victim": 1,
        "points": 1,
        "source": "goblin",
    }


def test_stone_golem_converts_every_stone():
    st = acting(hands=[["stone-golem"], []], stones=[["red", "purple", "red"], []])
    events = after(st, "summon stone-golem pay purple")
    conv = [e for e in events if e["kind"] == "stones_converted"]
    assert conv == [
        {
            "kind": "stones_converted",
            "seat": 0,
            "colour": "purple",
            "count": 2,
            "source": "stone-golem",
        }
    ]


def test_s9_round_end_and_s10_game_over_are_told_with_the_scores():
    st = acting(round=10, scores=[61, 3])
    events = after(st, "end-turn", "end-turn")
    assert events[-2] == {"kind": "round_ended", "round": 10, "scores": [61, 3]}
    assert events[-1] == {"kind": "game_over", "winners": [0], "scores": [61, 3]}


def test_forest_spirit_discards_from_hand_for_its_cost():
    st = acting(hands=[["forest-spirit", "ifrit"], []], stones=[["red", "red"], []])
    after(st, "summon forest-spirit pay red+red")
    events = after(st, "discard ifrit")
    assert events[:2] == [
        {
            "kind": "card_discarded",
            "seat": 0,
            "card": "ifrit",
            "zone": "hand",
            "source": "forest-spirit",
        },
        {"kind": "points_gained", "seat": 0, "points": 2, "source": "forest-spirit", "score": 2},
    ]


def test_mimic_takes_a_card_from_the_discard_pile():
    st = resolving(areas=[["mimic"], []], discard=["goblin"])
    events = after(st, "resolve mimic")
    assert events[-1]["kind"] == "effect_choice" and events[-1]["question"] == "take_from_discard"
    events = after(st, "take goblin", seat=1)
    assert events[0] == {"kind": "card_taken", "seat": 0, "card": "goblin", "source": "mimic"}


def test_s4_1_an_empty_deck_is_reshuffled_from_the_discard_pile():
    others = sorted(set(CARD_NAME[:BASE_DECK_SIZE]) - {"dandelion-spirit"})
    st = acting(hands=[["dandelion-spirit"], []], stones=[["blue"], []], discard=others)
    assert st.deck() == []
    events = after(st, "summon dandelion-spirit pay blue", seat=1)
    assert events[1] == {"kind": "deck_reshuffled", "count": len(others)}
    assert events[2] == {"kind": "card_drawn", "seat": 0, "source": "dandelion-spirit"}
