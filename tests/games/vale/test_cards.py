"""One scenario per card (at least), from an exact setup: each effect's outcome and edge rules.

Positions start in seat 0's action turn (`acting`) or resolution turn (`resolving`), round 3
unless said otherwise, scores 0.
"""

from __future__ import annotations

import pytest
from vale_helpers import acting, legal, play, resolving

from eterna import IllegalAction


# ============================================================================ Fire
def test_agni_red_stones_count_two_while_in_the_area():
    st = acting(hands=[["ifrit"], []], areas=[["agni"], []], stones=[["red", "red"], []])
    assert "summon ifrit pay red" in legal(st)
    assert "summon ifrit pay red+red" not in legal(st)  # a superfluous red (Q15)
    assert st.view(0)["stone_values"][0] == {"red": 2, "blue": 3, "purple": 6}


def test_agni_bonus_ends_when_agni_leaves_and_applies_to_its_own_removal():
    st = acting(round=2, hands=[["ifrit"], []], areas=[["agni"], []], stones=[["red", "red"], []])
    assert "remove agni pay red" in legal(st)  # Q17: its own bonus pays its removal
    play(st, "remove agni pay red")
    assert st.view(0)["stone_values"][0]["red"] == 1
    assert "summon ifrit pay red" not in legal(st)


def test_asmodeus_returns_an_instant_card_of_written_cost_two_or_less():
    st = resolving(areas=[["asmodeus", "imp", "lava-giant"], []])
    play(st, "resolve asmodeus")
    assert legal(st) == ["recover imp"]  # lava-giant costs 3; asmodeus has no instant
    play(st, "recover imp")
    assert st.hand(0) == ["imp"] and st.area(0) == ["asmodeus", "lava-giant"]


def test_asmodeus_uses_the_written_cost_not_the_reduced_one():
    st = resolving(areas=[["asmodeus", "pegasus", "lava-giant"], []])
    # pegasus costs 3 even though it makes summons cheaper: nothing qualifies, skipped
    assert "resolve asmodeus" not in legal(st)


def test_balog_returns_a_fire_card_with_an_instant():
    st = resolving(areas=[["balog", "ifrit", "hestia", "undine"], []], round=4)
    play(st, "resolve balog")
    assert legal(st) == ["recover ifrit"]  # hestia: no instant; undine: water
    play(st, "recover ifrit")
    assert "ifrit" in st.hand(0)


def test_burning_skull_spends_a_red_stone_for_three_points():
    st = resolving(areas=[["burning-skull"], []], stones=[["red", "blue"], []])
    play(st, "resolve burning-skull")
    assert st.scores[0] == 3 and st.stones(0) == {"red": 0, "blue": 1, "purple": 0}


def test_burning_skull_is_skipped_without_a_red_stone():
    st = resolving(areas=[["burning-skull"], []], stones=[["blue"], []])
    assert st.round == 4 and st.scores[0] == 0  # nothing to resolve: the round ended


def test_firefox_scores_one_per_card_left_in_hand():
    st = acting(hands=[["firefox", "imp", "kappa"], []], stones=[["red"], []])
    play(st, "summon firefox pay red")
    assert st.scores[0] == 2


def test_hestia_raises_the_stone_limit_to_six():
    st = acting(hands=[["hestia"], []], claimed=[["gargoyle"], []], stones=[["red"] * 3, []])
    play(st, "summon hestia", "sell gargoyle")  # 3 + 4 red = 7 > 6
    assert st.current_player == 0
    assert legal(st) == ["discard-stone red"]
    play(st, "discard-stone red")
    assert st.stones(0)["red"] == 6 and "end-turn" in legal(st)


def test_hestia_leaving_forces_a_discard_down_to_four():
    st = acting(areas=[["hestia"], []], stones=[["red"] * 3 + ["blue"] * 2, []])
    play(st, "remove hestia pay blue")  # round 3: one blue pays; 4 stones left: fine
    assert legal(st)[-1] == "end-turn"
    st = acting(areas=[["hestia"], []], stones=[["red"] * 4 + ["blue"] * 2, []])
    play(st, "remove hestia pay blue")  # 5 stones, limit back to 4 (Q8)
    assert legal(st) == ["discard-stone red", "discard-stone blue"]


def test_horned_salamander_gives_four_red_then_the_limit_applies():
    st = resolving(areas=[["horned-salamander"], []], stones=[["purple"], []])
    play(st, "resolve horned-salamander")
    assert legal(st) == ["discard-stone red", "discard-stone purple"]
    play(st, "discard-stone purple")
    assert st.stones(0) == {"red": 4, "blue": 0, "purple": 0}


def test_ifrit_scores_one_per_card_in_the_area_itself_included():
    st = acting(hands=[["ifrit"], []], areas=[["imp", "nessie"], []], stones=[["blue"], []])
    play(st, "summon ifrit pay blue")
    assert st.scores[0] == 3


def test_imp_gives_two_red_and_returns_to_hand_at_resolution():
    st = acting(hands=[["imp"], []])
    play(st, "summon imp")
    assert st.stones(0)["red"] == 2
    play(st, "end-turn", "end-turn")
    assert legal(st) == ["resolve imp"]  # mandatory
    play(st, "resolve imp")
    assert st.hand(0) == ["imp"] and st.area(0) == []


def test_incubus_scores_two_per_card_of_written_cost_two_or_less():
    st = acting(
        hands=[["incubus"], []], areas=[["imp", "lava-giant"], []], stones=[["red", "red"], []]
    )
    play(st, "summon incubus pay red+red")
    assert st.scores[0] == 4  # imp (0) and incubus (2); lava-giant costs 3


def test_lava_giant_scores_two_per_fire_card():
    st = acting(hands=[["lava-giant"], []], areas=[["ifrit", "nessie"], []], stones=[["blue"], []])
    play(st, "summon lava-giant pay blue")
    assert st.scores[0] == 4


def test_phoenix_scores_one_per_red_stone_spent_on_later_summons():
    st = acting(hands=[["phoenix", "ifrit"], []], stones=[["red"] * 3 + ["purple"], []], round=2)
    play(st, "summon phoenix pay red+red+red")
    assert st.scores[0] == 0  # not its own summon
    st = acting(hands=[["ifrit"], []], areas=[["phoenix"], []], stones=[["red", "red"], []])
    play(st, "summon ifrit pay red+red")
    assert st.scores[0] == 2 + 2  # ifrit: 2 cards; phoenix: 2 reds


def test_salamander_gives_a_red_stone_and_a_point():
    st = resolving(areas=[["salamander"], []])
    play(st, "resolve salamander")
    assert st.scores[0] == 1 and st.stones(0)["red"] == 1


def test_succubus_scores_ten_with_written_costs_one_to_four():
    area = ["salamander", "ifrit", "lava-giant", "agni"]
    st = acting(round=5, hands=[["succubus"], []], areas=[area, []])
    play(st, "summon succubus")
    assert st.scores[0] == 10


def test_succubus_without_the_full_set_scores_nothing_but_may_be_summoned():
    st = acting(round=5, hands=[["succubus"], []], areas=[["salamander", "ifrit", "agni"], []])
    play(st, "summon succubus")  # Q14: a condition that fails is still applied in full
    assert st.scores[0] == 0 and "succubus" in st.area(0)


def test_surtr_scores_two_per_family():
    st = acting(
        round=4,
        hands=[["surtr"], []],
        areas=[["ifrit", "kappa", "goblin"], []],
        stones=[["purple"], []],
    )
    play(st, "summon surtr pay purple")
    assert st.scores[0] == 2 * 3  # fire, water, earth


# ============================================================================ Water
def test_charybdis_spends_a_blue_stone_for_five_points():
    st = resolving(areas=[["charybdis"], []], stones=[["blue", "blue"], []])
    play(st, "resolve charybdis")
    assert st.scores[0] == 5 and st.stones(0)["blue"] == 1


def test_charybdis_is_skipped_without_blue():
    st = resolving(areas=[["charybdis", "salamander"], []], stones=[["purple"], []])
    assert legal(st) == ["resolve salamander"]


def test_hae_tae_swaps_blue_and_purple_values():
    st = acting(hands=[["mud-slime"], []], areas=[["hae-tae"], []], stones=[["blue"], []])
    assert "summon mud-slime pay blue" in legal(st)  # blue worth 6
    assert st.view(0)["stone_values"][0] == {"red": 1, "blue": 6, "purple": 3}


def test_hae_tae_with_water_giant_swaps_first_then_adds():
    st = acting(areas=[["hae-tae", "water-giant"], []])
    assert st.view(0)["stone_values"][0] == {"red": 1, "blue": 7, "purple": 4}  # Q9


def test_hydra_takes_two_different_rewards():
    st = acting(hands=[["hydra"], []], stones=[["red", "blue"], []], deck=["kappa"])
    play(st, "summon hydra pay blue+red")
    assert legal(st) == ["choose blue", "choose purple", "choose draw", "choose points"]
    play(st, "choose points")
    assert "choose points" not in legal(st)
    play(st, "choose purple")
    assert st.scores[0] == 4 and st.stones(0)["purple"] == 1 and st.hand(0) == []


def test_hydra_draw_reward_takes_the_top_card():
    st = acting(hands=[["hydra"], []], stones=[["purple"], []], deck=["kappa"])
    play(st, "summon hydra pay purple", "choose draw", "choose blue")
    assert st.hand(0) == ["kappa"] and st.stones(0)["blue"] == 2


def test_kappa_gives_two_points_when_a_payment_holds_blue():
    st = acting(
        hands=[["ifrit", "salamander"], []],
        areas=[["kappa"], []],
        stones=[["blue", "red", "red"], []],
    )
    play(st, "summon ifrit pay blue")
    assert st.scores[0] == 2 + 2
    play(st, "summon salamander pay red")
    assert st.scores[0] == 4  # no blue: nothing


def test_kappa_does_not_trigger_on_its_own_summon():
    st = acting(hands=[["kappa"], []], stones=[["blue"], []])
    play(st, "summon kappa pay blue")
    assert st.scores[0] == 0


def test_leviathan_scores_seven_and_the_named_player_discards_a_dragon():
    st = acting(
        hands=[["leviathan"], []],
        stones=[["blue", "red"], []],
        areas=[[], ["tidal", "willow", "kappa"]],
    )
    play(st, "summon leviathan pay blue+red")
    assert st.scores[0] == 7
    assert legal(st) == ["target seat-1"] and st.current_player == 0
    play(st, "target seat-1")
    assert st.current_player == 1  # the victim chooses
    assert legal(st) == ["discard tidal", "discard willow"]
    play(st, "discard willow")
    assert st.area(1) == ["tidal", "kappa"] and st.discard_pile() == ["willow"]
    assert st.current_player == 0


def test_leviathan_cannot_be_summoned_without_any_dragon_in_play():
    st = acting(hands=[["leviathan"], []], stones=[["blue", "red"], []], areas=[[], ["kappa"]])
    assert not any(a.startswith("summon leviathan") for a in legal(st))
    with pytest.raises(IllegalAction, match="Q1"):
        st.apply("summon leviathan pay blue+red")


def test_leviathan_may_name_yourself_unless_the_option_forbids_it():
    setup = {"hands": [["leviathan"], []], "stones": [["purple"], []], "areas": [["tidal"], []]}
    st = acting(**setup)
    play(st, "summon leviathan pay purple")
    assert legal(st) == ["target seat-0"]
    st = acting(options={"dragon_attack_targets": "opponents"}, **setup)
    assert "summon leviathan pay purple" not in legal(st)


def test_nessie_scores_two_without_a_dragon():
    st = resolving(areas=[["nessie"], []])
    play(st, "resolve nessie")
    assert st.scores[0] == 2


def test_nessie_is_skipped_with_a_dragon():
    st = resolving(areas=[["nessie", "tidal", "salamander"], []])
    assert legal(st) == ["resolve salamander"]


def test_poseidon_scores_three_per_water_card():
    st = acting(
        hands=[["poseidon"], []],
        areas=[["kappa", "ifrit"], []],
        stones=[["purple", "red"], []],
    )
    play(st, "summon poseidon pay purple+red")
    assert st.scores[0] == 6


def test_sea_spirit_scores_one_per_blue_stone_held():
    st = resolving(areas=[["sea-spirit"], []], stones=[["blue", "blue", "purple"], []])
    play(st, "resolve sea-spirit")
    assert st.scores[0] == 2 and st.stones(0)["blue"] == 2


def test_snail_maiden_swaps_blue_for_purple_or_purple_for_three_blue():
    st = resolving(areas=[["snail-maiden"], []], stones=[["blue", "purple"], []])
    play(st, "resolve snail-maiden")
    assert legal(st) == ["choose blue-to-purple", "choose purple-to-blue"]
    play(st, "choose blue-to-purple")
    assert st.stones(0) == {"red": 0, "blue": 0, "purple": 2}
    st = resolving(areas=[["snail-maiden"], []], stones=[["red", "red", "purple"], []])
    play(st, "resolve snail-maiden")
    assert legal(st) == ["choose purple-to-blue"]
    play(st, "choose purple-to-blue")  # 5 stones: the limit applies
    assert legal(st) == ["discard-stone red", "discard-stone blue"]


def test_snail_maiden_is_skipped_without_blue_or_purple():
    st = resolving(areas=[["snail-maiden"], []], stones=[["red"], []])
    assert st.round == 4


def test_triton_gives_two_blue_when_you_tame_a_water_card():
    st = acting(areas=[["triton"], []], claimed=[["kappa", "ifrit"], []])
    play(st, "tame kappa")
    assert st.stones(0)["blue"] == 2
    play(st, "tame ifrit")
    assert st.stones(0)["blue"] == 2


def test_undine_gives_a_blue_stone_and_recovers_at_resolution():
    st = acting(hands=[["undine"], []], stones=[["red"], []])
    play(st, "summon undine pay red")
    assert st.stones(0) == {"red": 0, "blue": 1, "purple": 0}
    play(st, "end-turn", "end-turn", "resolve undine")
    assert st.hand(0) == ["undine"]


def test_undine_queen_gives_a_blue_stone():
    st = resolving(areas=[["undine-queen"], []])
    play(st, "resolve undine-queen")
    assert st.stones(0)["blue"] == 1


def test_water_giant_gives_two_blue_and_raises_blue_and_purple_values():
    st = acting(hands=[["water-giant", "mud-slime"], []], stones=[["blue", "red"], []])
    play(st, "summon water-giant pay blue+red")
    assert st.stones(0)["blue"] == 2
    assert st.view(0)["stone_values"][0] == {"red": 1, "blue": 4, "purple": 7}
    assert "summon mud-slime pay blue+blue" in legal(st)


def test_yuki_onna_returns_every_stone_for_its_value_in_points():
    st = acting(
        hands=[["yuki-onna"], []], areas=[["agni"], []], stones=[["red", "blue", "purple"], []]
    )
    play(st, "summon yuki-onna")
    assert st.scores[0] == 2 + 3 + 6  # agni: red worth 2
    assert st.stones(0) == {"red": 0, "blue": 0, "purple": 0}


def test_yuki_onna_exalted_scores_the_value_of_blue_stones_kept():
    st = acting(
        hands=[["yuki-onna-exalted"], []],
        areas=[["water-giant"], []],
        stones=[["blue", "blue", "purple"], []],
    )
    play(st, "summon yuki-onna-exalted pay purple")
    assert st.scores[0] == 8 and st.stones(0)["blue"] == 2  # blue worth 4


# ============================================================================ Earth
def test_basilisk_offers_three_trades_of_points_for_stones():
    st = resolving(areas=[["basilisk"], []], scores=[1, 0])
    play(st, "resolve basilisk")
    assert legal(st) == ["choose red", "choose blue", "choose purple"]
    play(st, "choose purple")  # Q10: allowed below 2 points; the score stops at 0
    assert st.scores[0] == 0 and st.stones(0)["purple"] == 1


def test_basilisk_blue_costs_one_point():
    st = resolving(areas=[["basilisk"], []], scores=[5, 0])
    play(st, "resolve basilisk", "choose blue")
    assert st.scores[0] == 4 and st.stones(0)["blue"] == 1


def test_behemoth_scores_three_per_family():
    st = acting(
        round=5,
        hands=[["behemoth"], []],
        areas=[["ifrit", "nessie", "boreas", "tidal"], []],
        stones=[["purple", "blue"], []],
    )
    play(st, "summon behemoth pay purple+blue")
    assert st.scores[0] == 15


def test_cerberus_discards_up_to_three_other_cards_of_your_area():
    st = acting(
        round=5,
        hands=[["cerberus"], []],
        areas=[["imp", "kappa", "ifrit", "hestia"], []],
        stones=[["blue", "blue"], []],
    )
    play(st, "summon cerberus pay blue+blue")
    assert legal(st) == ["done", "discard hestia", "discard ifrit", "discard imp", "discard kappa"]
    play(st, "discard imp", "discard kappa", "discard ifrit")
    assert st.area(0) == ["hestia", "cerberus"]  # three at most: the effect ends
    assert st.discard_pile() == ["imp", "kappa", "ifrit"]


def test_cerberus_may_discard_nothing():
    st = acting(hands=[["cerberus"], []], areas=[["imp"], []], stones=[["purple"], []])
    play(st, "summon cerberus pay purple", "done")
    assert st.area(0) == ["imp", "cerberus"]


def test_forest_spirit_discards_a_hand_card_for_its_written_cost():
    st = acting(hands=[["forest-spirit", "behemoth", "imp"], []], stones=[["red", "red"], []])
    play(st, "summon forest-spirit pay red+red")
    assert legal(st) == ["discard imp", "discard behemoth"]
    play(st, "discard behemoth")
    assert st.scores[0] == 9 and st.discard_pile() == ["behemoth"]


def test_forest_spirit_is_refused_with_an_empty_hand():
    st = acting(hands=[["forest-spirit"], []], stones=[["red", "red"], []])
    assert legal(st) == ["end-turn"]


def test_gargoyle_gives_three_points_when_a_payment_holds_purple():
    st = acting(hands=[["ifrit"], []], areas=[["gargoyle"], []], stones=[["purple"], []])
    play(st, "summon ifrit pay purple")
    assert st.scores[0] == 2 + 3


def test_goblin_steals_a_point_from_an_opponent():
    st = resolving(players=3, areas=[["goblin"], [], []], scores=[0, 5, 0])
    play(st, "resolve goblin")
    assert legal(st) == ["target seat-1", "target seat-2"]
    play(st, "target seat-1")
    assert st.scores[:2] == [1, 4]


def test_goblin_gains_nothing_from_an_opponent_at_zero():
    st = resolving(areas=[["goblin"], []], scores=[3, 0])
    play(st, "resolve goblin", "target seat-1")  # Q12
    assert st.scores == [3, 0]


def test_goblin_soldier_gains_four_when_behind_and_loses_four_when_leading():
    st = resolving(areas=[["goblin-soldier"], []], scores=[3, 10])
    play(st, "resolve goblin-soldier")
    assert st.scores[0] == 7
    st = resolving(areas=[["goblin-soldier"], []], scores=[10, 10])  # tied counts as leading
    play(st, "resolve goblin-soldier")
    assert st.scores[0] == 6
    st = resolving(areas=[["goblin-soldier"], []], scores=[2, 0])
    play(st, "resolve goblin-soldier")
    assert st.scores[0] == 0  # never below 0


def test_medusa_discards_a_hand_card_for_a_purple_stone():
    st = resolving(areas=[["medusa"], []], hands=[["kappa"], []])
    play(st, "resolve medusa", "discard kappa")
    assert st.stones(0)["purple"] == 1 and st.hand(0) == []


def test_medusa_is_skipped_with_an_empty_hand():
    st = resolving(areas=[["medusa", "salamander"], []])
    assert legal(st) == ["resolve salamander"]


def test_mimic_takes_an_earth_card_from_the_discard_pile():
    st = resolving(areas=[["mimic"], []], discard=["kappa", "troll", "goblin"])
    play(st, "resolve mimic")
    assert legal(st) == ["take goblin", "take troll"]
    play(st, "take troll")
    assert st.hand(0) == ["troll"] and st.discard_pile() == ["kappa", "goblin"]
    assert st.view(1)["known_hands"][0] == ["troll"]  # taken face up


def test_mimic_is_skipped_without_an_earth_card_discarded():
    st = resolving(areas=[["mimic"], []], discard=["kappa"])
    assert st.round == 4


def test_mud_slime_scores_six_and_recovers_at_resolution():
    st = acting(hands=[["mud-slime"], []], stones=[["purple"], []])
    play(st, "summon mud-slime pay purple")
    assert st.scores[0] == 6
    play(st, "end-turn", "end-turn", "resolve mud-slime")
    assert st.hand(0) == ["mud-slime"]


def test_rock_golem_scores_the_value_of_purple_stones_kept():
    st = acting(hands=[["rock-golem"], []], stones=[["purple", "purple", "purple"], []])
    play(st, "summon rock-golem pay purple")
    assert st.scores[0] == 12 and st.stones(0)["purple"] == 2


def test_sand_giant_scores_four_per_earth_card():
    st = acting(
        hands=[["sand-giant"], []],
        areas=[["goblin", "nessie"], []],
        stones=[["purple", "blue", "red"], []],
    )
    play(st, "summon sand-giant pay purple+blue+red")
    assert st.scores[0] == 8


def test_stone_golem_turns_every_stone_purple():
    st = acting(hands=[["stone-golem"], []], stones=[["purple", "red", "red", "blue"], []])
    play(st, "summon stone-golem pay purple")
    assert st.stones(0) == {"red": 0, "blue": 0, "purple": 3}


def test_troll_scores_three_while_holding_purple():
    st = resolving(areas=[["troll"], []], stones=[["purple"], []])
    play(st, "resolve troll")
    assert st.scores[0] == 3 and st.stones(0)["purple"] == 1


def test_troll_becomes_resolvable_once_a_purple_arrives():
    st = resolving(areas=[["troll", "basilisk"], []], scores=[5, 0])
    assert legal(st) == ["resolve basilisk"]
    play(st, "resolve basilisk", "choose purple")
    assert legal(st) == ["resolve troll"]  # mandatory now
    play(st, "resolve troll")
    assert st.scores[0] == 6


def test_young_forest_spirit_discards_one_card_and_summons_another_free():
    st = acting(hands=[["young-forest-spirit", "behemoth", "kappa"], []])
    play(st, "summon young-forest-spirit")
    assert legal(st) == ["discard kappa", "discard behemoth"]
    play(st, "discard kappa")
    assert legal(st) == ["summon behemoth free"]
    play(st, "summon behemoth free")
    assert st.area(0) == ["young-forest-spirit", "behemoth"]
    assert st.scores[0] == 3 * 1  # behemoth's instant: one family (earth)


def test_young_forest_spirit_needs_two_cards_in_hand_and_a_free_slot():
    st = acting(hands=[["young-forest-spirit", "kappa"], []])
    assert legal(st) == ["end-turn"]
    st = acting(round=1, hands=[["young-forest-spirit", "kappa", "ifrit"], []])
    assert legal(st) == ["end-turn"]  # Q3: the free card needs a slot too
    st = acting(
        round=1,
        hands=[["young-forest-spirit", "kappa", "ifrit"], []],
        options={"young_spirit_area_limit": "ignored"},
    )
    assert legal(st) == ["summon young-forest-spirit", "end-turn"]


# ============================================================================ Wind
def test_boreas_scores_per_wind_card_and_returns_to_hand():
    st = acting(hands=[["boreas"], []], areas=[["sylph"], []], stones=[["purple"], []])
    play(st, "summon boreas pay purple")
    assert st.scores[0] == 2 + 1  # two wind cards; sylph: +1 for the summon
    assert st.hand(0) == ["boreas"] and st.area(0) == ["sylph"]


def test_dandelion_spirit_draws_and_recovers_at_resolution():
    st = acting(hands=[["dandelion-spirit"], []], stones=[["blue"], []], deck=["kappa"])
    play(st, "summon dandelion-spirit pay blue")
    assert st.hand(0) == ["kappa"]
    assert st.view(1)["known_hands"][0] == []  # a drawn card is secret
    play(st, "end-turn", "end-turn", "resolve dandelion-spirit")
    assert st.hand(0) == ["kappa", "dandelion-spirit"]


def test_freyja_scores_one_per_card_with_an_active_effect():
    st = resolving(areas=[["freyja", "imp", "ifrit"], []])
    play(st, "resolve freyja")
    assert st.scores[0] == 2


def test_genie_uses_every_other_active_effect_in_the_chosen_order():
    st = acting(
        round=4,
        hands=[["genie"], []],
        areas=[["salamander", "imp", "ifrit"], []],
        stones=[["purple"], []],
    )
    play(st, "summon genie pay purple")
    assert legal(st) == ["resolve imp", "resolve salamander"]
    play(st, "resolve salamander")
    assert legal(st) == ["resolve imp"]
    play(st, "resolve imp")
    assert st.hand(0) == ["imp"] and st.scores[0] == 1 and st.stones(0)["red"] == 1
    play(st, "end-turn", "end-turn")
    assert legal(st) == ["resolve salamander"]  # the round's own activation still happens


def test_genie_with_nothing_to_activate_may_still_be_summoned():
    st = acting(hands=[["genie"], []], stones=[["purple"], []])
    play(st, "summon genie pay purple")
    assert st.area(0) == ["genie"]


def test_genie_exalted_carries_out_another_active_effect_again():
    st = resolving(areas=[["genie-exalted", "salamander"], []])
    play(st, "resolve salamander", "resolve genie-exalted")
    assert legal(st) == ["copy salamander"]  # already used this round: still copyable
    play(st, "copy salamander")
    assert st.scores[0] == 2 and st.stones(0)["red"] == 2


def test_genie_exalted_copying_a_recover_returns_the_copied_card_or_itself():
    st = resolving(areas=[["genie-exalted", "imp"], []])
    play(st, "resolve genie-exalted", "copy imp")
    assert st.hand(0) == ["imp"]  # Q11 default
    st = resolving(areas=[["genie-exalted", "imp"], []], options={"exalted_recover": "copier"})
    play(st, "resolve genie-exalted", "copy imp")
    assert st.hand(0) == ["genie-exalted"] and st.area(0) == ["imp"]


def test_gi_rin_scores_two_per_card_in_the_area():
    st = acting(
        hands=[["gi-rin"], []],
        areas=[["imp", "nessie"], []],
        stones=[["purple", "blue", "red"], []],
    )
    play(st, "summon gi-rin pay purple+blue+red")
    assert st.scores[0] == 6


def test_griffon_draws_at_resolution():
    st = resolving(areas=[["griffon"], []], deck=["kappa"], round=9)
    play(st, "resolve griffon")
    assert "kappa" in st.hand(0)


def test_harpy_scores_three_when_hand_and_area_are_the_same_size():
    st = resolving(areas=[["harpy", "imp"], []], hands=[["kappa", "ifrit"], []])
    assert legal(st) == ["resolve imp", "resolve harpy"]
    play(st, "resolve imp")  # hand 3, area 1: harpy no longer applies
    assert st.round == 4 and st.scores[0] == 0
    st = resolving(areas=[["harpy", "imp"], []], hands=[["kappa", "ifrit"], []])
    play(st, "resolve harpy")
    assert st.scores[0] == 3


def test_hippogriff_draws_and_makes_wind_cards_two_cheaper():
    st = acting(
        hands=[["hippogriff", "boreas", "kappa"], []],
        stones=[["blue", "red", "red"], []],
        deck=["imp"],
    )
    play(st, "summon hippogriff pay blue+red")
    assert "imp" in st.hand(0)
    assert st.view(0)["cost_reductions"][0]["wind"] == 2
    assert "summon boreas pay red+red" not in legal(st)  # boreas costs 2: one red is short
    st = acting(hands=[["boreas"], []], areas=[["hippogriff"], []], stones=[["red", "red"], []])
    assert "summon boreas pay red+red" in legal(st)


def test_odin_scores_two_with_fewer_than_six_cards_in_hand_else_gives_purple():
    st = resolving(areas=[["odin"], []], hands=[["kappa"], []])
    play(st, "resolve odin")
    assert st.scores[0] == 2
    six = ["kappa", "imp", "ifrit", "goblin", "troll", "tidal"]
    st = resolving(areas=[["odin"], []], hands=[six, []])
    play(st, "resolve odin")
    assert st.scores[0] == 0 and st.stones(0)["purple"] == 1


def test_pegasus_draws_and_makes_every_summon_one_cheaper():
    st = acting(hands=[["pegasus", "ifrit"], []], stones=[["blue", "red"], []], deck=["kappa"])
    play(st, "summon pegasus pay blue")
    assert st.hand(0) == ["ifrit", "kappa"]
    assert "summon ifrit pay red" in legal(st)  # 2 - 1
    assert "summon kappa" in legal(st)  # 1 - 1 = 0: free


def test_rudra_scores_two_per_card_in_hand():
    st = acting(hands=[["rudra", "imp", "kappa"], []], stones=[["purple", "red", "red"], []])
    play(st, "summon rudra pay purple+red+red")
    assert st.scores[0] == 4


def test_sylph_draws_and_scores_one_per_later_summon():
    st = acting(hands=[["sylph", "imp"], []], stones=[["blue", "red"], []], deck=["kappa"])
    play(st, "summon sylph pay blue+red")
    assert st.scores[0] == 0 and "kappa" in st.hand(0)
    play(st, "summon imp")
    assert st.scores[0] == 1


def test_tengu_scores_six_and_goes_on_top_of_the_deck():
    st = acting(hands=[["tengu"], []], stones=[["blue"], []])
    play(st, "summon tengu pay blue")
    assert st.scores[0] == 6 and st.area(0) == [] and st.deck()[0] == "tengu"
    assert st.view(1)["deck_top"] == "tengu"


def test_a_drawn_tengu_is_known_to_all():
    st = acting(hands=[["tengu", "pegasus"], []], stones=[["blue", "blue"], []])
    play(st, "summon tengu pay blue", "summon pegasus pay blue")
    assert st.hand(0) == ["tengu"] and st.view(1)["known_hands"][0] == ["tengu"]


def test_valkyrie_scores_one_per_family():
    st = resolving(areas=[["valkyrie", "ifrit", "tidal"], []])
    play(st, "resolve valkyrie")
    assert st.scores[0] == 3


# ============================================================================ Dragon
def test_aeris_returns_another_card_for_points_equal_to_its_written_cost():
    st = acting(
        hands=[["aeris"], []], areas=[["behemoth", "imp"], []], stones=[["purple", "blue"], []]
    )
    play(st, "summon aeris pay purple+blue")
    assert legal(st) == ["recover imp", "recover behemoth"]
    play(st, "recover behemoth")
    assert st.scores[0] == 9 and st.hand(0) == ["behemoth"]


def test_aeris_is_refused_alone():
    st = acting(hands=[["aeris"], []], stones=[["purple", "blue"], []])
    assert legal(st) == ["end-turn"]


def test_boulder_scores_eight_and_a_wind_card_is_discarded():
    st = acting(
        hands=[["boulder"], []], areas=[[], ["sylph"]], stones=[["purple", "red", "red"], []]
    )
    play(st, "summon boulder pay purple+red+red", "target seat-1", "discard sylph")
    assert st.scores[0] == 8 and st.area(1) == []


def test_dragon_egg_summons_a_dragon_from_hand_free_in_its_slot():
    st = acting(round=1, hands=[["dragon-egg", "tidal"], []], stones=[["blue"], []])
    play(st, "summon dragon-egg pay blue")
    assert legal(st) == ["summon tidal free"]
    play(st, "summon tidal free")
    assert st.area(0) == ["tidal"] and st.discard_pile() == ["dragon-egg"]
    assert st.scores[0] == 5


def test_dragon_egg_is_refused_without_a_dragon_whose_instant_applies():
    st = acting(hands=[["dragon-egg", "kappa"], []], stones=[["blue"], []])
    assert "summon dragon-egg pay blue" not in legal(st)
    st = acting(hands=[["dragon-egg", "aeris"], []], stones=[["blue"], []])
    assert legal(st) == ["end-turn"]  # Q18: aeris would have nothing to return


def test_ember_scores_seven_and_a_water_card_is_discarded():
    st = acting(hands=[["ember"], []], areas=[[], ["kappa"]], stones=[["purple", "red"], []])
    play(st, "summon ember pay purple+red", "target seat-1", "discard kappa")
    assert st.scores[0] == 7 and st.area(1) == []


def test_eternity_scores_four_per_family():
    st = acting(
        hands=[["eternity"], []], areas=[["ifrit", "kappa"], []], stones=[["purple", "purple"], []]
    )
    play(st, "summon eternity pay purple+purple")
    assert st.scores[0] == 12


def test_gust_scores_eight_and_an_earth_card_is_discarded():
    st = acting(hands=[["gust"], []], areas=[[], ["troll"]], stones=[["purple", "blue"], []])
    play(st, "summon gust pay purple+blue", "target seat-1", "discard troll")
    assert st.scores[0] == 8 and st.discard_pile() == ["troll"]


def test_marina_scores_seven_and_a_fire_card_is_discarded():
    st = acting(hands=[["marina"], []], areas=[[], ["agni"]], stones=[["purple", "red"], []])
    play(st, "summon marina pay purple+red", "target seat-1", "discard agni")
    assert st.scores[0] == 7 and st.area(1) == []
    assert st.view(1)["stone_values"][1]["red"] == 1  # agni's permanent ended


def test_scorch_resolves_another_instant_again():
    st = acting(
        hands=[["scorch"], []], areas=[["ifrit", "hestia"], []], stones=[["purple", "blue"], []]
    )
    play(st, "summon scorch pay purple+blue")
    assert legal(st) == ["copy ifrit"]
    play(st, "copy ifrit")
    assert st.scores[0] == 3


def test_scorch_is_refused_without_an_instant_to_copy():
    st = acting(hands=[["scorch"], []], areas=[["hestia"], []], stones=[["purple", "blue"], []])
    assert "summon scorch pay purple+blue" not in legal(st)


def test_tidal_scores_five_per_dragon():
    st = acting(hands=[["tidal"], []], areas=[["willow"], []], stones=[["blue", "red", "red"], []])
    play(st, "summon tidal pay blue+red+red")
    assert st.scores[0] == 10


def test_willow_gives_three_stones_three_points_and_a_card():
    st = acting(
        hands=[["willow"], []], stones=[["purple", "blue", "red", "red"], []], deck=["kappa"]
    )
    play(st, "summon willow pay purple+blue+red")
    assert st.scores[0] == 3 and st.hand(0) == ["kappa"]
    assert st.stones(0) == {"red": 2, "blue": 1, "purple": 1}
