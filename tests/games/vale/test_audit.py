"""Rules-fidelity audit of The Vale of Eternity against the digest (rules.md), the card list
(cards.json) and the French rules text (seed 004).

Two kinds of tests:
- discrepancies found by the audit, each written failing first, then fixed in the engine;
- strengthened scenarios where the per-card test in test_cards.py left part of a card's text
  (its edge rules, the end of a permanent, a maximum, a count that excludes the card itself)
  unchecked.

Positions start in seat 0's action turn (`acting`) or resolution turn (`resolving`), round 3
unless said otherwise, scores 0.
"""

from __future__ import annotations

import pytest
from vale_helpers import acting, legal, play, resolving, vale


# ============================================================================ discrepancies
def test_sylph_does_not_fire_for_the_summon_that_brought_it_in():
    """cards.json Sylph: "Each time you summon a card while Sylph is in your area"; rules §5.3.4.
    Young Forest Spirit was summoned before Sylph entered the area (through its instant), and
    Sylph never fires for its own summon: no point at all. The engine gave 1 point (it fired
    the triggers of every card in the area after the instant, newcomers included)."""
    st = acting(round=4, hands=[["young-forest-spirit", "sylph", "kappa"], []], deck=["imp"])
    play(st, "summon young-forest-spirit", "discard kappa", "summon sylph free")
    assert st.area(0) == ["young-forest-spirit", "sylph"] and st.hand(0) == ["imp"]
    assert st.scores[0] == 0


def test_a_kappa_brought_in_during_scorchs_instant_does_not_fire_for_scorch():
    """cards.json Kappa: "Each time you summon a card and the payment includes at least one
    blue stone" — only while Kappa is in the area. Scorch (paid with a blue) copies Young
    Forest Spirit, which brings Kappa in for free: Scorch's summon happened before Kappa
    arrived, so no 2 points (the engine gave them)."""
    st = acting(
        round=5,
        hands=[["scorch", "kappa", "imp"], []],
        areas=[["young-forest-spirit"], []],
        stones=[["purple", "blue"], []],
    )
    play(st, "summon scorch pay purple+blue", "copy young-forest-spirit", "discard imp")
    play(st, "summon kappa free")
    assert st.area(0) == ["young-forest-spirit", "scorch", "kappa"]
    assert st.scores[0] == 0


def test_a_trigger_in_the_area_before_the_summon_still_fires_after_the_instant():
    """Rules §5.3.4 (the engine's documented order): triggers fire after the instant, for the
    cards that were in the area when the card was summoned and still are."""
    st = acting(round=4, hands=[["young-forest-spirit", "imp", "kappa"], []], areas=[["sylph"], []])
    play(st, "summon young-forest-spirit", "discard kappa", "summon imp free")
    assert st.scores[0] == 2  # Q4: sylph for both summons


# ============================================================================ permanents end
@pytest.mark.parametrize(
    ("card", "key", "before", "after"),
    [
        ("agni", "stone_values", {"red": 2, "blue": 3, "purple": 6}, None),
        ("hae-tae", "stone_values", {"red": 1, "blue": 6, "purple": 3}, None),
        ("water-giant", "stone_values", {"red": 1, "blue": 4, "purple": 7}, None),
        ("hestia", "stone_limits", 6, 4),
        ("pegasus", "cost_reductions", 1, 0),
        ("hippogriff", "cost_reductions", 2, 0),
    ],
)
def test_a_permanent_applies_in_the_area_and_ends_when_the_card_is_removed(
    card, key, before, after
):
    """rules §5.4, §11 and cards.json (every permanent: "Ends as soon as ... leaves")."""
    st = acting(round=2, areas=[[card], []], stones=[["purple"], []])
    value = st.view(0)[key][0]
    if key == "cost_reductions":
        value = value["wind"]
    assert value == before
    play(st, f"remove {card} pay purple")
    value = st.view(0)[key][0]
    if key == "cost_reductions":
        value = value["wind"]
    assert value == (after if after is not None else {"red": 1, "blue": 3, "purple": 6})


@pytest.mark.parametrize(
    ("trigger", "pay", "points"),
    [("sylph", "blue", 1), ("kappa", "blue", 2), ("gargoyle", "purple", 3), ("phoenix", "red", 1)],
)
def test_summon_triggers_fire_only_while_their_card_is_in_the_area(trigger, pay, points):
    """cards.json Sylph, Kappa, Gargoyle, Phoenix: "each time you summon ... while X is in your
    area"; rules §5.4: a removed card's permanent stops at once."""
    hand = [["kappa" if trigger != "kappa" else "nessie", "imp"], []]
    cheap = hand[0][0]  # costs 1 (kappa) or 2 (nessie)
    cost_pay = {"red": "red" if cheap == "kappa" else "red+red"}.get(pay, pay)
    stones = {"red": ["red", "red", "purple"], "blue": ["blue", "blue"], "purple": ["purple"] * 2}
    st = acting(round=3, hands=hand, areas=[[trigger], []], stones=[stones[pay], []])
    play(st, f"summon {cheap} pay {cost_pay}")
    expected = points * (cost_pay.count("red") if trigger == "phoenix" else 1)
    assert st.scores[0] == expected
    play(st, f"remove {trigger} pay {'purple' if pay == 'red' else pay}")
    play(st, "summon imp")
    assert st.scores[0] == expected  # gone: imp's summon gives nothing


def test_triton_fires_on_taming_only_not_on_a_drawn_water_card_nor_once_removed():
    """cards.json Triton edge rule: cards drawn by effects are not tamed; §5.4: ends when it
    leaves."""
    st = acting(
        areas=[["triton"], []],
        hands=[["pegasus"], []],
        stones=[["blue", "purple"], []],
        deck=["kappa"],
        claimed=[["nessie", "undine"], []],
    )
    play(st, "summon pegasus pay blue")
    assert st.hand(0) == ["kappa"] and st.stones(0)["blue"] == 0  # drawn, not tamed
    play(st, "tame nessie")
    assert st.stones(0)["blue"] == 2
    play(st, "remove triton pay purple", "tame undine")
    assert st.stones(0) == {"red": 0, "blue": 2, "purple": 0}


def test_cerberus_discarding_hestia_brings_the_limit_back_to_four():
    """cards.json Cerberus: discarded cards' permanents end; Q8: discard down to 4 at once,
    once Cerberus's instant is over (rules §5.3.5)."""
    st = acting(
        hands=[["cerberus"], []],
        areas=[["hestia", "imp"], []],
        stones=[["purple"] + ["red"] * 5, []],
    )
    play(st, "summon cerberus pay purple", "discard hestia")
    assert st.view(0)["stone_limits"][0] == 4
    assert legal(st) == ["done", "discard imp"]
    play(st, "done")
    assert legal(st) == ["discard-stone red"]  # five reds, limit four: before anything else
    play(st, "discard-stone red")
    assert st.stones(0)["red"] == 4 and legal(st)[-1] == "end-turn"


def test_an_attack_on_an_opponents_hestia_makes_them_discard_at_once():
    """Q8 and rules §7: whoever is over the limit discards, their choice, before anything."""
    st = acting(
        hands=[["marina"], []],
        areas=[[], ["hestia"]],
        stones=[["purple", "blue"], ["red", "red", "blue", "blue", "purple", "purple"]],
    )
    play(st, "summon marina pay purple+blue", "target seat-1", "discard hestia")
    assert st.current_player == 1
    assert legal(st) == ["discard-stone red", "discard-stone blue", "discard-stone purple"]
    play(st, "discard-stone red", "discard-stone red")
    assert st.stones(1) == {"red": 0, "blue": 2, "purple": 2} and st.current_player == 0
    assert st.scores[0] == 7


# ============================================================================ stone values
def test_hae_tae_pays_a_six_with_one_blue_and_rock_golem_counts_purple_as_three():
    """cards.json Hae-tae: blue worth 6, purple worth 3, colours unchanged (Sea Spirit, Troll
    still see the colour); rules §7: the values count for effects that total value."""
    st = acting(
        hands=[["rock-golem"], []],
        areas=[["hae-tae"], []],
        stones=[["blue", "purple", "purple"], []],
    )
    assert "summon rock-golem pay blue" in legal(st)  # one blue covers a 6
    play(st, "summon rock-golem pay blue")
    assert st.scores[0] == 2 * 3 and st.stones(0) == {"red": 0, "blue": 0, "purple": 2}


def test_water_giant_values_apply_to_its_own_removal_and_to_rock_golem():
    """cards.json Water Giant (blue 4, purple 7); Q17 (its own values pay its removal)."""
    st = acting(
        round=4,
        hands=[["rock-golem"], []],
        areas=[["water-giant"], []],
        stones=[["blue", "purple", "purple"], []],
    )
    assert "remove water-giant pay blue" in legal(st)  # 4 pays round 4 with water giant
    play(st, "summon rock-golem pay purple")
    assert st.scores[0] == 7


def test_kappa_and_gargoyle_give_once_per_summon_not_per_stone():
    """cards.json Kappa "(once per summon, not per blue stone)", Gargoyle "(once per summon)"."""
    st = acting(
        round=4,
        hands=[["mud-slime", "rock-golem"], []],
        areas=[["kappa", "gargoyle"], []],
        stones=[["blue", "blue", "purple"], []],
    )
    play(st, "summon mud-slime pay blue+blue")
    assert st.scores[0] == 6 + 2
    st = acting(
        round=4,
        hands=[["eternity"], []],
        areas=[["kappa", "gargoyle"], []],
        stones=[["purple", "purple"], []],
    )
    play(st, "summon eternity pay purple+purple")
    assert st.scores[0] == 4 * 3 + 3  # three families; gargoyle once


def test_gargoyle_does_not_fire_for_its_own_summon_nor_without_purple():
    """cards.json Gargoyle edge rule (MJ)."""
    st = acting(hands=[["gargoyle", "ifrit"], []], stones=[["purple", "blue"], []])
    play(st, "summon gargoyle pay blue")
    assert st.scores[0] == 0
    play(st, "summon ifrit pay purple")
    assert st.scores[0] == 2 + 3


def test_phoenix_counts_red_stones_not_their_value():
    """rules §7: Phoenix looks at colour/count; with Agni a red is worth 2 but is one stone."""
    st = acting(
        hands=[["lava-giant"], []],
        areas=[["phoenix", "agni"], []],
        stones=[["red", "red"], []],
        round=3,
    )
    play(st, "summon lava-giant pay red+red")  # worth 4 >= 3
    assert st.scores[0] == 2 * 3 + 2


def test_hippogriff_only_makes_wind_cards_cheaper_and_stacks_with_pegasus():
    """cards.json Hippogriff: Wind cards cost 2 less; stacks with Pegasus; never below 0."""
    st = acting(
        round=4,
        hands=[["ifrit", "sylph", "boreas"], []],
        areas=[["hippogriff"], []],
        stones=[["red", "red"], []],
    )
    summons = [a for a in legal(st) if a.startswith("summon")]
    assert "summon ifrit pay red+red" in summons and "summon ifrit pay red" not in summons
    assert "summon sylph pay red+red" in summons and "summon sylph pay red" not in summons
    st = acting(
        round=4,
        hands=[["sylph", "dandelion-spirit"], []],
        areas=[["hippogriff", "pegasus"], []],
        stones=[["red"], []],
    )
    assert "summon sylph pay red" in legal(st) and "summon dandelion-spirit" in legal(st)


# ============================================================================ counts
def test_firefox_and_rudra_do_not_count_themselves():
    """cards.json Firefox, Rudra: the card has already left the hand."""
    st = acting(hands=[["firefox"], []], stones=[["red"], []])
    play(st, "summon firefox pay red")
    assert st.scores[0] == 0
    st = acting(hands=[["rudra"], []], stones=[["purple", "blue"], []])
    play(st, "summon rudra pay purple+blue")
    assert st.scores[0] == 0


def test_surtr_behemoth_eternity_top_out_at_five_families():
    """cards.json Surtr (max 10), Behemoth (max 15), Eternity (max 20)."""
    area = ["ifrit", "nessie", "goblin", "boreas", "tidal"]
    for card, pay, points in (
        ("surtr", "blue+red", 10),
        ("behemoth", "purple+blue", 15),
        ("eternity", "purple+purple", 20),
    ):
        stones = [s for s in pay.split("+")]
        st = acting(round=6, hands=[[card], []], areas=[area, []], stones=[stones, []])
        play(st, f"summon {card} pay {pay}")
        assert st.scores[0] == points, card


def test_valkyrie_and_freyja_count_themselves():
    """cards.json Valkyrie supplies Wind; Freyja counts itself."""
    st = resolving(areas=[["valkyrie"], ["freyja"]])
    play(st, "resolve valkyrie", "resolve freyja")
    assert st.scores == [1, 1]


# ============================================================================ movers
def test_boreas_frees_its_slot_at_once():
    """cards.json Boreas: it never stays in the area, so it frees its slot again."""
    st = acting(round=1, hands=[["boreas", "imp"], []], stones=[["blue", "red"], []])
    play(st, "summon boreas pay blue+red")
    assert st.scores[0] == 1 and st.area(0) == [] and sorted(st.hand(0)) == ["boreas", "imp"]
    assert "summon imp" in legal(st)


def test_tengu_on_top_of_the_deck_is_revealed_at_the_next_hunt():
    """cards.json Tengu: whoever next draws or reveals the top card gets it."""
    st = acting(hands=[["tengu"], []], stones=[["blue"], []])
    play(st, "summon tengu pay blue", "end-turn", "end-turn")
    assert st.phase == "hunting" and "tengu" in st.revealed()


def test_scorch_copying_leviathan_scores_seven_and_forces_another_dragon_discard():
    """cards.json Scorch edge rule: a copied instant acts for you (Leviathan: 7 points and a
    Dragon discard again); Scorch itself is a Dragon that may be named."""
    st = acting(
        round=4,
        hands=[["scorch"], []],
        areas=[["leviathan"], ["tidal"]],
        stones=[["purple", "blue"], []],
    )
    play(st, "summon scorch pay purple+blue")
    assert legal(st) == ["copy leviathan"]
    play(st, "copy leviathan")
    assert st.scores[0] == 7
    assert legal(st) == ["target seat-0", "target seat-1"]
    play(st, "target seat-1", "discard tidal")
    assert st.area(1) == [] and st.area(0) == ["leviathan", "scorch"]


def test_dragon_egg_with_sylph_counts_two_summons():
    """cards.json Dragon Egg; Q4: the free Dragon is a summon too (Sylph +1 each)."""
    st = acting(
        round=2, hands=[["dragon-egg", "tidal"], []], areas=[["sylph"], []], stones=[["blue"], []]
    )
    play(st, "summon dragon-egg pay blue", "summon tidal free")
    assert st.area(0) == ["sylph", "tidal"] and st.discard_pile() == ["dragon-egg"]
    assert st.scores[0] == 5 + 1 + 1


def test_genie_activations_are_mandatory_even_when_they_hurt():
    """cards.json Genie: "every other card ... that can currently be resolved"; rules §6:
    active effects are mandatory (Goblin Soldier costs the leader 4)."""
    st = acting(
        hands=[["genie"], []],
        areas=[["goblin-soldier"], []],
        stones=[["purple"], []],
        scores=[9, 0],
    )
    play(st, "summon genie pay purple")
    assert legal(st) == ["resolve goblin-soldier"]
    play(st, "resolve goblin-soldier")
    assert st.scores[0] == 5


def test_willow_resolves_in_full_before_the_stone_limit():
    """cards.json Willow edge rule: apply the stone limit after gaining the three stones; rules
    §5.3 steps 3-5: the instant resolves, the summon triggers fire, then the stone limit. The
    engine stopped for the limit between the stones and the points, before the draw, so the
    player chose what to keep without the card the effect draws."""
    st = acting(
        hands=[["willow"], []],
        areas=[["sylph"], []],
        stones=[["purple", "purple", "red", "red"], []],
        deck=["kappa"],
    )
    play(st, "summon willow pay purple+purple")
    assert st.scores[0] == 3 + 1 and st.hand(0) == ["kappa"]  # points, draw, sylph: all done
    assert legal(st) == ["discard-stone red", "discard-stone blue", "discard-stone purple"]
    play(st, "discard-stone red")
    assert st.stones(0) == {"red": 2, "blue": 1, "purple": 1}


def test_hydra_takes_both_rewards_before_the_stone_limit():
    """cards.json Hydra edge rule: the stone limit applies after gaining stones (both rewards
    are part of one instant, rules §5.3.5)."""
    st = acting(hands=[["hydra"], []], stones=[["purple", "red", "red", "red"], []])
    play(st, "summon hydra pay purple", "choose purple")
    assert legal(st) == ["choose blue", "choose draw", "choose points"]  # no discard yet
    play(st, "choose blue")
    assert st.stones(0) == {"red": 3, "blue": 2, "purple": 1}
    assert legal(st) == ["discard-stone red", "discard-stone blue", "discard-stone purple"]
    play(st, "discard-stone red", "discard-stone red")
    assert st.stones(0) == {"red": 1, "blue": 2, "purple": 1} and legal(st)[-1] == "end-turn"


def test_the_stone_limit_still_applies_between_two_resolution_effects():
    """rules §6 and §7: each active effect is one effect; the limit applies as soon as it ends,
    before the next one (Horned Salamander's reds must be cut before Burning Skull)."""
    st = resolving(areas=[["horned-salamander", "burning-skull"], []], stones=[["blue"] * 2, []])
    play(st, "resolve horned-salamander")
    assert legal(st) == ["discard-stone red", "discard-stone blue"]


# ============================================================================ phases
def test_two_player_rounds_rotate_the_first_player_for_draft_action_and_resolution():
    """rules §4.2 (snake draft), §5, §6 (from the first player), §9.2 (first player passes
    left); French text: 'le joueur de gauche devient premier joueur'."""
    st = vale(
        round=1,
        scores=[0, 0],
        deck=["imp", "ifrit", "kappa", "nessie", "goblin", "troll", "tidal", "willow"],
    )
    order = []
    while st.phase == "hunting":
        order.append(st.current_player)
        st.apply(st.legal_actions()[0])
    assert order == [0, 1, 1, 0]
    for _ in range(2):
        p = st.current_player
        for card in st.claimed(p):
            st.apply(f"sell {card}")
        while st.current_player == p and st.phase == "action":
            st.apply("end-turn")
    assert st.round == 2 and st.view(None)["first_player"] == 1
    order = []
    while st.phase == "hunting":
        order.append(st.current_player)
        st.apply(st.legal_actions()[0])
    assert order == [1, 0, 0, 1] and st.current_player == 1  # seat 1 acts first


def test_resolution_starts_with_the_first_player():
    """rules §6: in turn order, starting with the first player."""
    st = acting(first_player=1, areas=[["salamander"], ["undine-queen"]])
    play(st, "end-turn", "end-turn")
    assert st.phase == "resolution" and st.current_player == 1


def test_removing_costs_at_least_the_round_number_without_change():
    """rules §5.4: pay stones worth at least the round number; no change."""
    st = acting(round=7, areas=[["imp"], []], stones=[["purple", "blue", "blue", "red"], []])
    removals = [a for a in legal(st) if a.startswith("remove")]
    assert removals == [
        "remove imp pay purple+red",
        "remove imp pay purple+blue",
        "remove imp pay blue+blue+red",
    ]
    play(st, "remove imp pay purple+blue")
    assert st.stones(0) == {"red": 1, "blue": 1, "purple": 0}  # 9 paid for 7: nothing back


def test_scores_never_go_below_zero_for_every_loss():
    """rules §8: Basilisk, Goblin Soldier, Goblin stop at 0."""
    st = resolving(
        players=3, areas=[["basilisk", "goblin-soldier"], ["goblin"], []], scores=[1, 0, 0]
    )
    play(st, "resolve basilisk", "choose purple")  # 1 - 2 -> 0
    assert st.scores[0] == 0
    play(st, "resolve goblin-soldier")  # tied for the lead at 0: loses 4 -> 0
    assert st.scores[0] == 0
    play(st, "resolve goblin", "target seat-0")  # goblin against a seat at 0 takes nothing
    assert st.scores == [0, 0, 0]


def test_genie_is_one_instant_the_limit_applies_once_it_is_over():
    """Rules §5.3 steps 3-5 (the decision recorded in docs/vale.md): Genie's activations are
    part of its instant, so the stone limit applies after all of them."""
    st = acting(
        hands=[["genie"], []],
        areas=[["horned-salamander", "burning-skull"], []],
        stones=[["purple", "blue", "blue", "red"], []],
    )
    play(st, "summon genie pay purple", "resolve horned-salamander")
    assert legal(st) == ["resolve burning-skull"]  # 7 stones, no discard yet
    play(st, "resolve burning-skull")
    assert st.scores[0] == 3 and st.stones(0) == {"red": 4, "blue": 2, "purple": 0}
    assert legal(st) == ["discard-stone red", "discard-stone blue"]
