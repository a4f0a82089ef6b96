"""The Artifacts expansion's round: options, the glade, the picks, each tile from an exact setup,
shelters and bought areas, and every open-question decision with its option's alternative
(docs/vale.md "Artifacts (expansion)"; digest expansions.md §4-9)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from vale_helpers import play, vale

from eterna.core.errors import BadSetup, IllegalAction
from eterna.games.vale import GAME
from eterna.games.vale.cards import TILE_NAME

ART = {"expansions": ["artifacts"]}
ALL_TILES = list(TILE_NAME)


def options(**more: Any) -> dict[str, Any]:
    return {**ART, **more}


def holding(tile: str, players: int = 2, more: dict[str, Any] | None = None, **setup: Any):
    """Seat 0's action turn holding `tile` (every tile in the glade), nothing claimed."""
    setup.setdefault("claimed", [[] for _ in range(players)])
    setup.setdefault("scores", [0] * players)
    setup.setdefault("round", 3)
    setup.setdefault("glade", ALL_TILES)
    setup.setdefault("artifacts", [tile] + [None] * (players - 1))
    return vale(players, options=options(**(more or {})), **setup)


def picking(players: int = 2, more: dict[str, Any] | None = None, **setup: Any):
    """The hunting phase of round 3 before the tile picks, seat 0 first player."""
    setup.setdefault("scores", [0] * players)
    setup.setdefault("round", 3)
    setup.setdefault("revealed", ["kappa", "imp", "ifrit", "agni"][: 2 * players])
    return vale(players, options=options(**(more or {})), **setup)


def legal(st) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def arts(st, seat: int | None = 0) -> dict[str, Any]:
    return st.view(seat)["artifacts"]


# ---------------------------------------------------------------------------- options, glade
def test_base_games_have_no_artifacts_and_end_at_60():
    st = GAME.new_game(2, seed=3)
    assert "artifacts" not in st.view(0) and st.start.end_score == 60
    assert not any(a.startswith("pick ") for a in legal(st))


def test_end_threshold_follows_the_expansions_unless_given():
    assert GAME.new_game(2, seed=1, options=ART).start.end_score == 80
    assert GAME.new_game(2, seed=1, options=options(end_threshold=70)).start.end_score == 70
    assert GAME.new_game(2, seed=1, options={"end_threshold": 80}).start.end_score == 80


def test_an_unknown_expansion_is_refused():
    with pytest.raises(BadSetup, match="curse"):
        GAME.new_game(2, seed=1, options={"expansions": ["curse"]})


@pytest.mark.parametrize(
    ("players", "tiles"),
    [
        (2, {"incense-burner", "monkey-kings-staff", "pied-pipers-pipe"}),
        (3, {"incense-burner", "monkey-kings-staff", "pied-pipers-pipe", "seven-league-boots"}),
        (
            4,
            {
                "incense-burner",
                "monkey-kings-staff",
                "pied-pipers-pipe",
                "seven-league-boots",
                "golden-fleece",
            },
        ),
    ],
)
def test_q_a1_basic_glade_has_players_plus_one_tiles(players, tiles):
    st = GAME.new_game(players, seed=4, options=ART)
    assert set(arts(st)["glade"]) == tiles and len(tiles) == players + 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_q_a1_advanced_adds_three_of_the_random_six(players):
    basic = set(arts(GAME.new_game(players, seed=4, options=ART))["glade"])
    seen = set()
    for seed in range(8):
        st = GAME.new_game(players, seed=seed, options=options(artifact_set="advanced"))
        extra = set(arts(st)["glade"]) - basic
        assert len(extra) == 3 and len(arts(st)["glade"]) == players + 4
        seen |= extra
    assert len(seen) > 3  # the draw varies with the seed


def test_the_glade_is_drawn_after_the_deal_so_the_tiles_never_change_the_deck():
    base = GAME.new_game(3, seed=9, options=ART)  # the basic glade draws nothing
    expanded = GAME.new_game(3, seed=9, options=options(artifact_set="advanced"))
    assert expanded.revealed() == base.revealed() and expanded.deck() == base.deck()


# ---------------------------------------------------------------------------- the picks
def test_q_a2_every_player_picks_a_tile_before_the_first_claim_from_the_first_player():
    revealed = ["kappa", "imp", "ifrit", "agni", "boreas", "tengu"]
    st = picking(3, first_player=1, revealed=revealed, blocked=["pied-pipers-pipe", None, None])
    assert st.current_player == 1 and all(a.startswith("pick ") for a in legal(st))
    with pytest.raises(IllegalAction) as refused:
        st.apply("claim kappa")
    assert refused.value.key == "vale.refusal.must_pick_artifact"
    play(st, "pick incense-burner")
    assert st.current_player == 2 and "pick incense-burner" not in legal(st)
    play(st, "pick monkey-kings-staff")
    assert st.current_player == 0 and legal(st) == ["pick seven-league-boots"]
    play(st, "pick seven-league-boots", "shelter kappa")
    assert st.current_player == 1 and legal(st)[0].startswith("claim ")
    assert arts(st)["held"] == ["seven-league-boots", "incense-burner", "monkey-kings-staff"]


def test_q_a4_the_tile_picked_last_round_is_blocked_even_when_used():
    st = picking(glade=["incense-burner", "monkey-kings-staff", "book-of-thoth"])
    st.apply("pick book-of-thoth")
    st.apply("pick incense-burner")
    play(st, "claim agni", "claim kappa", "claim imp", "claim ifrit")
    play(st, "sell agni", "tame ifrit", "use book-of-thoth", "upgrade red", "done", "end-turn")
    play(st, "sell kappa", "sell imp", "end-turn")
    assert arts(st)["blocked"] == ["book-of-thoth", "incense-burner"]
    assert arts(st)["held"] == [None, None]
    assert st.phase == "hunting" and st.round == 4 and st.current_player == 1
    assert "pick incense-burner" not in legal(st)


def test_q_a4_option_held_blocks_only_a_tile_still_held():
    st = picking(
        glade=["incense-burner", "monkey-kings-staff", "book-of-thoth"],
        more={"artifact_block": "held"},
    )
    play(st, "pick book-of-thoth", "pick incense-burner")
    play(st, "claim agni", "claim kappa", "claim imp", "claim ifrit")
    play(st, "sell agni", "tame ifrit", "use book-of-thoth", "upgrade red", "done", "end-turn")
    play(st, "sell kappa", "sell imp", "end-turn")
    assert arts(st)["blocked"] == [None, "incense-burner"]


def test_an_unused_action_tile_goes_back_when_the_action_phase_ends():
    st = holding("incense-burner")
    events_from = st.event_count()
    play(st, "end-turn", "end-turn")
    assert arts(st)["held"] == [None, None] and arts(st)["blocked"] == ["incense-burner", None]
    kinds = [e["kind"] for e in st.events_since(events_from, None)]
    assert kinds.index("artifact_returned") < kinds.index("phase_started")


# ---------------------------------------------------------------------------- the eleven tiles
def test_incense_burner_buys_an_area_for_stones_worth_3():
    st = holding("incense-burner", stones=[["blue", "red"], []], hands=[["imp", "kappa"], []])
    play(st, "use incense-burner")
    assert legal(st) == ["buy-area pay blue", "choose shelter-top"]
    play(st, "buy-area pay blue")
    assert st.stones(0) == {"red": 1, "blue": 0, "purple": 0}
    assert arts(st)["bought_areas"] == [1, 0] and arts(st)["area_limits"][0] == 4
    assert arts(st)["held"][0] is None and "use incense-burner" not in legal(st)


def test_incense_burner_shelters_the_top_two_cards_of_the_deck():
    st = holding("incense-burner", deck=["kappa", "imp", "agni"])
    play(st, "use incense-burner", "choose shelter-top")
    assert arts(st)["shelter"] == ["imp", "kappa"] and st.deck()[0] == "agni"
    assert arts(st, 1)["shelter_sizes"] == [2, 0] and arts(st, 1)["known_shelters"][0] == []


def test_monkey_kings_staff_discards_two_cards_for_four_stones():
    st = holding("monkey-kings-staff", hands=[["imp", "kappa", "agni"], []])
    play(st, "use monkey-kings-staff", "discard imp", "discard agni")
    assert st.hand(0) == ["kappa"] and st.discard_pile()[-2:] == ["imp", "agni"]
    assert st.stones(0) == {"red": 2, "blue": 1, "purple": 1}


def test_monkey_kings_staff_q_a10_needs_two_cards_in_hand():
    st = holding("monkey-kings-staff", hands=[["imp"], []])
    assert "use monkey-kings-staff" not in legal(st)
    with pytest.raises(IllegalAction) as refused:
        st.apply("use monkey-kings-staff")
    assert refused.value.key == "vale.refusal.use_unusable"


def test_pied_pipers_pipe_draws_or_retrieves_the_whole_shelter():
    st = picking(glade=ALL_TILES, shelters=[["tengu", "boreas"], []], deck=["sylph"])
    play(st, "pick pied-pipers-pipe")
    assert legal(st) == ["choose draw", "choose retrieve-all"]
    play(st, "choose retrieve-all")
    assert st.hand(0) == ["boreas", "tengu"] and arts(st)["shelter"] == []
    other = picking(glade=ALL_TILES, shelters=[["tengu"], []], deck=["sylph"])
    play(other, "pick pied-pipers-pipe", "choose draw")
    assert other.hand(0) == ["sylph"] and arts(other)["shelter"] == ["tengu"]


def test_pied_pipers_pipe_with_an_empty_shelter_just_draws():
    st = picking(glade=ALL_TILES, deck=["sylph"])
    play(st, "pick pied-pipers-pipe")
    assert st.hand(0) == ["sylph"] and st.current_player == 1


def test_seven_league_boots_reveals_one_more_card_then_shelters_one_from_the_display():
    st = picking(glade=ALL_TILES, deck=["tengu"])
    play(st, "pick seven-league-boots")
    assert set(st.revealed()) == {"ifrit", "imp", "kappa", "agni", "tengu"}
    play(st, "shelter tengu")
    assert arts(st)["shelter"] == ["tengu"] and len(st.revealed()) == 4
    assert arts(st, 1)["known_shelters"][0] == ["tengu"]  # everyone saw it in the display


def test_seven_league_boots_q_a11_with_no_card_left_to_reveal_still_shelters():
    st = picking(glade=ALL_TILES)
    st.draw_pile.clear()
    play(st, "pick seven-league-boots")
    assert len(st.revealed()) == 4
    play(st, "shelter kappa")
    assert arts(st)["shelter"] == ["kappa"] and len(st.revealed()) == 3


def test_golden_fleece_gives_two_reds_then_shelters_or_retrieves():
    st = holding("golden-fleece", shelters=[["imp"], []], deck=["agni"])
    play(st, "use golden-fleece")
    assert st.stones(0)["red"] == 2
    assert legal(st) == ["choose shelter-top", "retrieve imp"]
    play(st, "retrieve imp")
    assert st.hand(0) == ["imp"]
    other = holding("golden-fleece", deck=["agni"])
    play(other, "use golden-fleece", "choose shelter-top")
    assert arts(other)["shelter"] == ["agni"]


def test_book_of_thoth_q_a7_upgrades_two_different_stones():
    st = holding("book-of-thoth", stones=[["red"], []])
    play(st, "use book-of-thoth", "upgrade red")
    assert st.stones(0) == {"red": 0, "blue": 1, "purple": 0}
    assert st.choice is None  # the new blue is the same stone: nothing else to upgrade
    st2 = holding("book-of-thoth", stones=[["red", "blue"], []])
    play(st2, "use book-of-thoth", "upgrade red")
    assert legal(st2) == ["upgrade blue", "done"]
    play(st2, "upgrade blue")
    assert st2.stones(0) == {"red": 0, "blue": 1, "purple": 1}


def test_book_of_thoth_option_same_stone_goes_red_to_purple():
    st = holding("book-of-thoth", stones=[["red"], []], more={"thoth_same_stone": True})
    play(st, "use book-of-thoth", "upgrade red", "upgrade blue")
    assert st.stones(0) == {"red": 0, "blue": 0, "purple": 1}


def test_cap_of_hades_shelters_a_hand_card_for_an_area_or_a_purple():
    st = holding("cap-of-hades", hands=[["imp", "kappa"], []])
    play(st, "use cap-of-hades", "shelter kappa")
    assert legal(st) == ["buy-area", "choose purple"]
    play(st, "buy-area")
    assert arts(st)["shelter"] == ["kappa"] and st.hand(0) == ["imp"]
    assert arts(st)["bought_areas"] == [1, 0] and st.stones(0)["purple"] == 0
    other = holding("cap-of-hades", hands=[["imp"], []])
    play(other, "use cap-of-hades", "shelter imp", "choose purple")
    assert other.stones(0)["purple"] == 1 and arts(other)["bought_areas"] == [0, 0]


def test_q_a5_at_most_two_areas_bought_unless_the_option_says_more():
    st = holding("cap-of-hades", hands=[["imp"], []], bought_areas=[2, 0])
    play(st, "use cap-of-hades", "shelter imp")
    assert st.stones(0)["purple"] == 1 and st.choice is None  # no area left to buy
    more = holding(
        "cap-of-hades", hands=[["imp"], []], bought_areas=[2, 0], more={"bought_area_limit": 3}
    )
    play(more, "use cap-of-hades", "shelter imp", "buy-area")
    assert arts(more)["bought_areas"] == [3, 0] and arts(more)["area_limits"] == [6, 3]


def test_a_bought_area_lets_a_full_area_take_one_more_card():
    st = holding(
        "cap-of-hades",
        round=1,
        areas=[["imp"], []],
        hands=[["kappa", "sylph"], []],
        stones=[["blue", "blue"], []],
    )
    assert not any(a.startswith("summon") for a in legal(st))
    play(st, "use cap-of-hades", "shelter kappa", "buy-area")
    summons = [a for a in legal(st) if a.startswith("summon sylph")]
    assert summons
    play(st, summons[0])
    assert st.area(0) == ["imp", "sylph"]


def test_gem_of_kukulkan_buys_back_a_sold_card_for_a_red_stone():
    st = holding("gem-of-kukulkan", claimed=[["salamander", "kappa"], []])
    play(st, "sell salamander")  # fire: 3 red
    assert legal(st) == ["choose keep-sold", "done"]
    play(st, "choose keep-sold")
    assert st.hand(0) == ["salamander"] and "salamander" not in st.discard_pile()
    assert st.stones(0)["red"] == 2
    play(st, "sell kappa")  # water: a blue, no red left? two reds remain: asked again
    play(st, "done")
    assert "kappa" in st.discard_pile()


def test_gem_of_kukulkan_asks_nothing_without_a_red_stone():
    st = holding("gem-of-kukulkan", claimed=[["kappa"], []])
    play(st, "sell kappa")
    assert st.choice is None and st.discard_pile() == ["kappa"]


def test_imperial_seal_discards_a_summoned_card_and_a_dragon_pays_a_blue():
    st = holding("imperial-seal", areas=[["imp", "ember"], []])
    play(st, "use imperial-seal")
    assert legal(st) == ["discard imp", "discard ember"]
    play(st, "discard ember")
    assert st.area(0) == ["imp"] and st.stones(0)["blue"] == 1
    other = holding("imperial-seal", areas=[["imp"], []])
    play(other, "use imperial-seal", "discard imp")
    assert other.area(0) == [] and other.stones(0)["blue"] == 0
    assert "use imperial-seal" not in legal(holding("imperial-seal"))


def test_philosophers_stone_retrieves_one_and_discards_one_for_a_purple():
    st = picking(glade=ALL_TILES, shelters=[["tengu", "boreas", "sylph"], []])
    play(st, "pick philosophers-stone", "retrieve boreas")
    assert "retrieve sylph" not in legal(st) and "discard sylph" in legal(st)
    play(st, "discard tengu")
    assert st.hand(0) == ["boreas"] and arts(st)["shelter"] == ["sylph"]
    assert st.stones(0)["purple"] == 1 and st.discard_pile() == ["tengu"]
    assert st.current_player == 1  # both done: the picks go on


def test_philosophers_stone_may_stop_after_one_part():
    st = picking(glade=ALL_TILES, shelters=[["tengu"], []])
    play(st, "pick philosophers-stone", "discard tengu")
    assert st.stones(0)["purple"] == 1 and st.current_player == 1
    other = picking(glade=ALL_TILES, shelters=[["tengu", "sylph"], []])
    play(other, "pick philosophers-stone", "done")
    assert set(arts(other)["shelter"]) == {"tengu", "sylph"}


def test_ring_of_wishes_uses_an_active_effect_now_and_q_a8_again_at_resolution():
    st = holding("ring-of-wishes", areas=[["salamander"], []])
    play(st, "use ring-of-wishes", "resolve salamander")
    assert st.stones(0)["red"] == 1 and st.scores[0] == 1
    play(st, "end-turn", "end-turn")
    assert "resolve salamander" in legal(st)
    play(st, "resolve salamander")
    assert st.stones(0)["red"] == 2 and st.scores[0] == 2


def test_ring_of_wishes_option_spent_counts_the_card_as_resolved():
    st = holding("ring-of-wishes", areas=[["salamander"], []], more={"ring_of_wishes": "spent"})
    play(st, "use ring-of-wishes", "resolve salamander", "end-turn", "end-turn")
    assert st.phase == "hunting" and st.scores[0] == 1  # nothing left to resolve


# ---------------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    ("action", "key"),
    [
        ("use golden-fleece", "vale.refusal.use_not_held"),
        ("pick golden-fleece", "vale.refusal.pick_wrong_phase"),
        ("shelter imp", "vale.refusal.no_pending_choice"),
    ],
)
def test_refusals_name_their_catalog_key(action, key):
    st = holding("incense-burner")
    with pytest.raises(IllegalAction) as refused:
        st.apply(action)
    assert refused.value.key == key


def test_a_blocked_tile_is_refused_with_its_reason():
    st = picking(glade=ALL_TILES, blocked=["incense-burner", None])
    with pytest.raises(IllegalAction) as refused:
        st.apply("pick incense-burner")
    assert refused.value.key == "vale.refusal.pick_blocked"


def test_artifact_moves_without_the_expansion_are_refused():
    st = vale(2, claimed=[[], []])
    with pytest.raises(IllegalAction) as refused:
        st.apply("use golden-fleece")
    assert refused.value.key == "vale.refusal.no_artifacts"


# ---------------------------------------------------------------------------- the end
def test_q_a9_the_game_ends_at_80_with_the_artifacts():
    st = holding("incense-burner", scores=[70, 0])
    play(st, "end-turn", "end-turn")
    assert not st.is_terminal and st.round == 4
    done = holding("incense-burner", scores=[80, 0])
    play(done, "end-turn", "end-turn")
    assert done.is_terminal and done.winners == [0]


# ---------------------------------------------------------------------------- views, search
def test_the_shelter_is_its_owners_secret_and_its_size_public():
    st = holding("incense-burner", deck=["kappa", "imp"])
    play(st, "use incense-burner", "choose shelter-top")
    mine, theirs, spectator = arts(st, 0), arts(st, 1), arts(st, None)
    assert mine["shelter"] == ["imp", "kappa"] and theirs["shelter"] == []
    assert theirs["shelter_sizes"] == spectator["shelter_sizes"] == [2, 0]
    assert theirs["known_shelters"] == [[], []] and spectator["shelter"] is None
    assert theirs["held"] == [None, None] and theirs["blocked"] == [None, None]
    assert theirs["picked"] == ["incense-burner", None]


def test_a_sheltered_card_is_told_only_to_its_owner():
    st = holding("incense-burner", deck=["kappa", "imp"])
    start = st.event_count()
    play(st, "use incense-burner", "choose shelter-top")
    for seat in (1, None):
        told = [e for e in st.events_since(start, seat) if e["kind"] == "card_sheltered"]
        assert len(told) == 2 and all("card" not in e for e in told)
    mine = [e for e in st.events_since(start, 0) if e["kind"] == "card_sheltered"]
    assert [e["card"] for e in mine] == ["kappa", "imp"]


def test_determinize_redeals_the_unseen_shelter_and_keeps_its_size():
    st = holding("incense-burner", deck=["kappa", "imp"])
    play(st, "use incense-burner", "choose shelter-top")
    for k in range(6):
        guess = st.determinize(1, random.Random(k))
        assert len(guess.arts.shelters[0]) == 2
        assert guess.view(1) == st.view(1)
        mine = st.determinize(0, random.Random(k))
        assert mine.arts.shelters[0] == st.arts.shelters[0]
    guesses = {tuple(st.determinize(1, random.Random(k)).arts.shelters[0]) for k in range(20)}
    assert len(guesses) > 1


def test_determinize_asks_another_seats_tile_question_again():
    st = holding("cap-of-hades", hands=[["imp", "kappa"], []])
    st.apply("use cap-of-hades")
    guess = st.determinize(1, random.Random(3))
    assert guess.choice is not None and guess.view(1)["pending"] == st.view(1)["pending"]
    assert all(str(a).startswith("shelter ") for a in guess.legal_actions())
    assert {a.card for a in guess.legal_actions()} == set(guess.hands[0])


def test_records_replay_an_artifacts_game():
    st = GAME.new_game(3, seed=12, options=options(artifact_set="advanced"))
    rng = random.Random(12)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    again = GAME.from_record(st.to_record())
    assert again.scores == st.scores and again.view(0) == st.view(0)


def test_the_encoding_version_1_refuses_an_artifacts_game_clearly():
    from eterna.adapters.encodings import make_encoding
    from eterna.core.errors import EternaError

    enc = make_encoding("vale", 2)
    st = GAME.new_game(2, seed=1, options=ART)
    with pytest.raises(EternaError, match=r"base games? only"):
        enc.observe(st, 0)
    with pytest.raises(EternaError, match="base game only"):
        enc.encode(st.view(0))


def test_determinize_keeps_every_card_somewhere_along_artifacts_games():
    for players in (2, 3, 4):
        st = GAME.new_game(players, seed=players, options=options(artifact_set="advanced"))
        rng = random.Random(players)
        step = 0
        while not st.is_terminal:
            if step % 15 == 0:
                for seat in range(players):
                    guess = st.determinize(seat, random.Random(step))
                    assert sorted(_all_cards(guess)) == sorted(_all_cards(st))
                    assert guess.view(seat) == st.view(seat)
            st.apply(rng.choice(st.legal_actions()))
            step += 1


def _all_cards(st) -> list[int]:
    out = list(st.draw_pile) + list(st.discard) + list(st.unclaimed)
    for s in range(st.players):
        out += st.hands[s] + st.areas[s] + st.claims[s] + st.arts.shelters[s]
    return out
