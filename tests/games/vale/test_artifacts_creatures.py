"""The 28 creatures of The Vale of Eternity: Artifacts (option `expansions`): the deck they join,
then one test per creature, named after it, from an exact setup (digest expansions.md §7)."""

from __future__ import annotations

import random

import pytest
from vale_helpers import acting, legal, play, resolving, vale

from eterna import BadSetup
from eterna.games.vale import GAME
from eterna.games.vale.cards import BASE_DECK_SIZE, CARD_NAME, SET_CARDS

ART = {"expansions": ["artifacts"]}


def all_cards(st) -> list[str]:  # type: ignore[no-untyped-def]
    cards = st.deck() + st.discard_pile() + st.revealed()
    for s in range(st.players):
        cards += st.hand(s) + st.area(s) + st.claimed(s)
    if st.arts is not None:  # the artifact tiles' shelters
        cards += [CARD_NAME[c] for shelter in st.arts.shelters for c in shelter]
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


def act(**setup):  # type: ignore[no-untyped-def]
    """Seat 0's action turn (round 3) in a game with the Artifacts creatures."""
    return acting(options=ART, **setup)


def resolve(**setup):  # type: ignore[no-untyped-def]
    """Seat 0's resolution turn (round 3) in a game with the Artifacts creatures."""
    return resolving(options=ART, **setup)


# ============================================================================ Fire
def test_ash_discarded_from_the_area_goes_to_hand_and_scores_the_round():
    st = act(areas=[["ash", "totem-pole"], []], stones=[["blue"], []])
    play(st, "remove ash pay blue")
    assert st.hand(0) == ["ash"] and st.area(0) == ["totem-pole"]
    assert st.scores[0] == 3  # round 3
    assert st.stones(0)["purple"] == 0 and st.discard_pile() == []  # not discarded (Q-C1)


def test_belphegor_gives_a_red_and_fixes_fire_costs_at_one():
    st = act(hands=[["belphegor", "imp", "lava-giant"], []], stones=[["red"] * 3, []])
    assert not any(a.startswith("summon belphegor") for a in legal(st))  # its own cost: 4
    st = act(hands=[["belphegor", "imp", "lava-giant"], []], stones=[["blue", "red"], []])
    play(st, "summon belphegor pay blue+red")
    assert st.stones(0) == {"red": 1, "blue": 0, "purple": 0}
    moves = legal(st)
    assert "summon lava-giant pay red" in moves  # written 3, costs exactly 1
    assert "summon imp pay red" in moves and "summon imp" not in moves  # 0 becomes 1 (Q-C2)


def test_bul_gae_gives_two_points_with_four_stones_else_three_reds():
    st = resolve(areas=[["bul-gae"], []], stones=[["red"] * 4, []])
    play(st, "resolve bul-gae")
    assert st.scores[0] == 2 and st.stones(0)["red"] == 4
    st = resolve(areas=[["bul-gae"], []], stones=[["blue"], []])
    play(st, "resolve bul-gae")
    assert st.scores[0] == 0 and st.stones(0) == {"red": 3, "blue": 1, "purple": 0}


def test_fire_rat_scores_one_per_card_of_written_cost_three_or_less():
    st = act(hands=[["fire-rat"], []], areas=[["lava-giant", "agni"], []], stones=[["red"], []])
    play(st, "summon fire-rat pay red")
    assert st.scores[0] == 2  # fire-rat (1) and lava-giant (3); agni costs 4


def test_fireblast_scores_per_pair_of_fire_and_returns_at_four_stones():
    st = act(
        hands=[["fireblast"], []],
        areas=[["imp", "lava-giant"], []],
        claimed=[["agni"], []],
        stones=[["red", "red", "blue"], []],
    )
    play(st, "summon fireblast pay red+red")
    assert st.scores[0] == 1 and "fireblast" in st.area(0)  # 3 fire cards: one pair
    play(st, "sell agni")  # blue + 3 red: 4 stones
    assert st.hand(0) == ["fireblast"] and st.area(0) == ["imp", "lava-giant"]


def test_hephaestus_gives_two_of_its_three_rewards():
    st = resolve(areas=[["hephaestus"], []])
    play(st, "resolve hephaestus")
    assert legal(st) == ["choose blue", "choose points", "choose three-red"]
    play(st, "choose points")
    assert legal(st) == ["choose blue", "choose three-red"]
    play(st, "choose blue")
    assert st.scores[0] == 2 and st.stones(0) == {"red": 0, "blue": 1, "purple": 0}


# ============================================================================ Water
def test_akhlut_summons_a_dragon_of_the_discard_pile_free():
    st = act(hands=[["akhlut"], []], discard=["boulder", "ifrit", "tidal"], stones=[["purple"], []])
    play(st, "summon akhlut pay purple")
    assert legal(st) == ["summon tidal free"]  # boulder's attack has no Wind card to hit
    play(st, "summon tidal free")
    assert st.area(0) == ["akhlut", "tidal"] and st.scores[0] == 5
    assert st.discard_pile() == ["boulder", "ifrit"]
    st = act(hands=[["akhlut"], []], discard=["ifrit"], stones=[["purple"], []])
    assert "summon akhlut pay purple" not in legal(st)  # no Dragon to summon (Q14)


def test_kraken_scores_two_per_card_of_the_named_family():
    st = act(hands=[["kraken"], []], areas=[["undine", "imp"], []], stones=[["purple"], []])
    play(st, "summon kraken pay purple")
    assert legal(st) == [f"choose {f}" for f in ("fire", "water", "earth", "wind", "dragon")]
    play(st, "choose water")
    assert st.scores[0] == 4  # undine and kraken


def test_melusine_discards_up_to_three_cards_for_four_points_each():
    hand = ["melusine", "imp", "agni", "ifrit", "kappa"]
    st = act(hands=[hand, []], stones=[["blue"], []])
    play(st, "summon melusine pay blue", "discard imp", "discard agni")
    assert "done" in legal(st)
    play(st, "discard ifrit")
    assert st.hand(0) == ["kappa"] and st.scores[0] == 12
    assert not any(a.startswith("discard ") for a in legal(st))  # three at most
    st = act(hands=[hand, []], stones=[["blue"], []])
    play(st, "summon melusine pay blue", "done")
    assert st.scores[0] == 0 and len(st.hand(0)) == 4


def test_siren_discards_a_hand_card_for_a_blue_and_two_points():
    st = resolve(areas=[["siren"], []], hands=[["imp"], []])
    play(st, "resolve siren")
    assert legal(st) == ["discard imp"]
    play(st, "discard imp")
    assert st.scores[0] == 2 and st.stones(0)["blue"] == 1 and st.hand(0) == []
    st = resolve(areas=[["siren"], []])
    assert st.round == 4 and st.scores[0] == 0  # an empty hand: nothing to resolve


def test_taweret_gives_a_blue_per_card_discarded_from_hand():
    st = act(hands=[["taweret", "imp", "agni"], []])
    play(st, "summon taweret", "discard imp", "done")
    assert st.stones(0)["blue"] == 1 and st.hand(0) == ["agni"]
    st = act(hands=[["taweret"], []])
    play(st, "summon taweret")  # an empty hand: summoned, nothing gained (Q-C11)
    assert st.area(0) == ["taweret"] and st.stones(0)["blue"] == 0


def test_thalassa_scores_per_water_card_and_returns_when_a_blue_is_gained():
    st = act(
        hands=[["thalassa", "snail-maiden"], []],
        areas=[["undine"], []],
        claimed=[["kappa"], []],
        stones=[["blue", "red"], []],
    )
    play(st, "summon thalassa pay blue+red")
    assert st.scores[0] == 2  # undine and thalassa
    play(st, "sell kappa")  # a water sale gives a blue
    assert "thalassa" in st.hand(0) and st.area(0) == ["undine"]


# ============================================================================ Earth
def test_anubis_discards_another_card_for_its_written_cost():
    st = act(hands=[["anubis"], []], areas=[["lava-giant", "imp"], []], stones=[["purple"], []])
    play(st, "summon anubis pay purple")
    assert legal(st) == ["discard imp", "discard lava-giant"]
    play(st, "discard lava-giant")
    assert st.scores[0] == 3 and st.area(0) == ["imp", "anubis"]
    st = act(hands=[["anubis"], []], stones=[["purple"], []])
    assert "summon anubis pay purple" not in legal(st)  # no other card (Q1)


def test_duduri_loses_a_point_upgrades_a_stone_and_recovers():
    st = act(hands=[["duduri"], []], stones=[["red", "blue"], []], scores=[5, 0])
    play(st, "summon duduri")
    assert legal(st) == ["choose red", "choose blue"]
    play(st, "choose red")
    assert st.scores[0] == 4 and st.stones(0) == {"red": 0, "blue": 2, "purple": 0}
    play(st, "end-turn", "end-turn", "resolve duduri")
    assert st.hand(0) == ["duduri"]
    st = act(hands=[["duduri"], []], stones=[["purple"], []])
    assert "summon duduri" not in legal(st)  # no stone to upgrade (Q-C3)


def test_duduri_king_upgrades_a_stone_of_each_sale():
    st = act(areas=[["duduri-king"], []], claimed=[["agni", "pegasus"], []])
    play(st, "sell agni")
    assert st.stones(0) == {"red": 2, "blue": 1, "purple": 0}
    play(st, "sell pegasus")  # red + blue: which one is upgraded is chosen
    assert legal(st) == ["choose red", "choose blue"]
    play(st, "choose blue")
    assert st.stones(0) == {"red": 3, "blue": 1, "purple": 1}


def test_mandrake_scores_three_then_costs_itself_or_two_points_for_a_purple():
    st = act(hands=[["mandrake"], []], stones=[["purple"], []])
    play(st, "summon mandrake pay purple")
    assert st.scores[0] == 3
    play(st, "end-turn", "end-turn", "resolve mandrake")
    assert legal(st) == ["choose discard", "choose lose-points"]
    play(st, "choose lose-points")
    assert st.scores[0] == 1 and st.stones(0)["purple"] == 1 and st.area(0) == ["mandrake"]
    st = resolve(areas=[["mandrake"], []])
    play(st, "resolve mandrake", "choose discard")
    assert st.area(0) == [] and st.discard_pile() == ["mandrake"] and st.stones(0)["purple"] == 1


def test_totem_pole_gives_a_purple_when_another_card_is_discarded():
    st = act(areas=[["totem-pole", "imp"], []], stones=[["blue"], []])
    play(st, "remove imp pay blue")
    assert st.stones(0) == {"red": 0, "blue": 0, "purple": 1}
    st = act(areas=[["totem-pole", "imp"], []], stones=[["blue"], []])
    play(st, "remove totem-pole pay blue")  # not another card
    assert st.stones(0)["purple"] == 0


def test_wendigo_scores_per_earth_card_and_returns_when_points_are_lost():
    st = act(
        hands=[["duduri", "wendigo"], []],
        areas=[["mud-slime"], []],
        stones=[["purple", "red", "blue"], []],
    )
    play(st, "summon wendigo pay purple+red")
    assert st.scores[0] == 4  # mud-slime and wendigo
    play(st, "summon duduri")  # loses a point: Wendigo returns
    assert st.scores[0] == 3 and st.hand(0) == ["wendigo"]


# ============================================================================ Wind
def test_anzu_shows_the_hand_and_scores_three_per_family():
    hand = ["anzu", "imp", "lava-giant", "kappa", "pegasus"]
    st = act(hands=[hand, []], stones=[["purple", "blue"], []], deck=["mud-slime"])
    play(st, "summon anzu pay purple+blue")
    assert st.scores[0] == 9  # fire, water, wind
    assert st.view(1)["known_hands"][0] == ["imp", "lava-giant", "kappa", "pegasus"]


def test_banshee_scores_per_family_and_returns_when_drawing():
    st = act(
        hands=[["banshee", "dandelion-spirit"], []],
        areas=[["imp"], []],
        stones=[["blue", "red", "blue"], []],
        deck=["kappa"],
    )
    play(st, "summon banshee pay blue+red")
    assert st.scores[0] == 2  # fire and wind
    play(st, "summon dandelion-spirit pay blue")  # draws: Banshee returns
    assert st.hand(0) == ["kappa", "banshee"] or set(st.hand(0)) == {"kappa", "banshee"}
    assert st.area(0) == ["imp", "dandelion-spirit"]


def test_horus_summons_a_hand_card_free_and_scores_its_written_cost():
    st = act(hands=[["horus", "lava-giant"], []], stones=[["purple", "red"], []])
    play(st, "summon horus pay purple+red")
    assert legal(st) == ["summon lava-giant free"]
    play(st, "summon lava-giant free")
    assert st.area(0) == ["horus", "lava-giant"] and st.scores[0] == 2 + 3
    st = act(hands=[["horus"], []], stones=[["purple", "red"], []])
    assert "summon horus pay purple+red" not in legal(st)  # no card to summon (Q-C8)


def test_loki_counts_as_the_family_named_at_the_start_of_each_turn():
    st = act(hands=[["lava-giant"], []], areas=[["loki", "imp"], []], stones=[["blue"], []])
    assert legal(st) == [f"choose {f}" for f in ("fire", "water", "earth", "wind", "dragon")]
    play(st, "choose fire", "summon lava-giant pay blue")
    assert st.scores[0] == 6  # imp, loki and lava-giant
    play(st, "end-turn", "end-turn", "choose water", "resolve loki")
    assert st.scores[0] == 7  # one card with a permanent effect: Loki


def test_nurikabe_draws_then_puts_a_card_back_on_the_deck():
    st = act(hands=[["nurikabe"], []], deck=["imp", "agni"], stones=[["blue", "red"], []])
    play(st, "summon nurikabe pay blue+red")
    assert st.hand(0) == ["imp"]
    play(st, "end-turn", "end-turn", "resolve nurikabe")
    assert legal(st) == ["put-on-deck agni", "put-on-deck imp"]
    play(st, "put-on-deck imp")
    assert st.hand(0) == ["agni"]
    assert st.round == 4 and "imp" in st.revealed()  # on top: the next hunt reveals it


def test_rukh_scores_one_per_card_of_the_named_family():
    st = resolve(areas=[["rukh", "imp", "lava-giant"], []])
    play(st, "resolve rukh", "choose fire")
    assert st.scores[0] == 2


# ============================================================================ Dragon
def _swap(dragon: str, pay: str, theirs: str, points: int) -> None:
    st = act(hands=[[dragon], []], areas=[[], [theirs, "tidal"]], stones=[pay.split("+"), []])
    play(st, f"summon {dragon} pay {pay}")
    assert legal(st) == ["target seat-1"]  # not yourself (Q-C9)
    play(st, "target seat-1")
    assert st.current_player == 1 and legal(st) == [f"swap {theirs}"]
    play(st, f"swap {theirs}")
    assert st.area(0) == [theirs] and st.area(1) == [dragon, "tidal"]
    assert st.scores[0] == points and st.discard_pile() == []
    st = act(hands=[[dragon], []], areas=[[], ["tidal"]], stones=[pay.split("+"), []])
    assert f"summon {dragon} pay {pay}" not in legal(st)  # nobody to swap with


def test_deepdive_scores_seven_and_swaps_for_a_water_card():
    _swap("deepdive", "purple+red", "undine", 7)


def test_pyro_scores_seven_and_swaps_for_a_fire_card():
    _swap("pyro", "purple+red", "imp", 7)


def test_whisper_scores_eight_and_swaps_for_a_wind_card():
    _swap("whisper", "purple+blue", "pegasus", 8)


def test_rockscale_scores_eight_and_swaps_for_an_earth_card():
    _swap("rockscale", "purple+blue", "mud-slime", 8)


def test_the_encodings_version_1_refuses_an_expansion_game():
    from eterna import EternaError
    from eterna.games.vale.encoding import ValeEncoding

    enc = ValeEncoding(2)
    assert enc.num_actions == 12336  # the base game's actions, unmoved
    enc.observe(GAME.new_game(2, seed=1), 0)
    with pytest.raises(EternaError, match="base games only"):
        enc.observe(GAME.new_game(2, seed=1, options=ART), 0)


# ============================================================================ the open questions
def test_q_c9_the_swap_may_name_yourself_when_the_option_says_any():
    opts = {**ART, "swap_dragon_targets": "any"}
    st = acting(
        options=opts, hands=[["pyro"], []], areas=[["imp"], []], stones=[["purple", "red"], []]
    )
    play(st, "summon pyro pay purple+red", "target seat-0", "swap imp")
    assert st.area(0) == ["pyro", "imp"] and st.scores[0] == 7  # they only trade places
    st = act(hands=[["pyro"], []], areas=[["imp"], []], stones=[["purple", "red"], []])
    assert "summon pyro pay purple+red" not in legal(st)  # default: opponents only


def test_q_c1_ash_discarded_by_anubis_scores_for_both():
    st = act(hands=[["anubis"], []], areas=[["ash", "totem-pole"], []], stones=[["purple"], []])
    play(st, "summon anubis pay purple", "discard ash")
    assert st.hand(0) == ["ash"] and st.scores[0] == 1 + 3  # its written cost, then the round
    assert st.stones(0)["purple"] == 0  # Totem Pole: nothing was discarded


def test_q_c4_fireblast_returns_at_once_when_it_enters_with_four_stones():
    st = act(hands=[["fireblast"], []], areas=[["hestia"], []], stones=[["red"] * 6, []])
    play(st, "summon fireblast pay red+red")  # 4 stones left (Hestia's limit is 6)
    assert st.hand(0) == ["fireblast"] and st.area(0) == ["hestia"]


def test_q_c5_thalassa_stays_for_an_exchange_that_gives_blue():
    st = resolve(areas=[["thalassa", "snail-maiden"], []], stones=[["purple"], []])
    play(st, "resolve snail-maiden", "choose purple-to-blue")
    assert st.stones(0)["blue"] == 3 and st.area(0) == ["thalassa", "snail-maiden"]


def test_q_c6_wendigo_stays_when_a_loss_finds_no_point():
    st = act(hands=[["duduri"], []], areas=[["wendigo"], []], stones=[["red"], []], scores=[0, 0])
    play(st, "summon duduri", "choose red")
    assert st.area(0) == ["wendigo", "duduri"] and st.stones(0)["blue"] == 1


def test_q_c7_banshee_stays_when_a_card_is_tamed():
    st = act(areas=[["banshee"], []], claimed=[["imp"], []])
    play(st, "tame imp")
    assert st.area(0) == ["banshee"] and st.hand(0) == ["imp"]


def test_q_c10_loki_is_wind_to_an_opponents_attack():
    st = act(hands=[["boulder"], []], areas=[[], ["loki"]], stones=[["purple", "red", "red"], []])
    play(st, "summon boulder pay purple+red+red", "target seat-1")
    assert legal(st) == ["discard loki"]  # Wind outside its owner's turn
