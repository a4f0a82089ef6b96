"""The Vale heuristic with the Artifacts: the tile it picks and uses, its choices inside the
tiles' effects, and the new creatures' effects, each from an exact position where one answer
is plainly better."""

from __future__ import annotations

from typing import Any

from vale_helpers import acting, legal, play, resolving, vale

from eterna.games.vale import GAME, ValeState
from eterna.games.vale.cards import TILE_NAME
from eterna.games.vale.heuristic import ValeHeuristic

ART = {"expansions": ["artifacts"]}
ALL_TILES = list(TILE_NAME)


def choice(st: ValeState, seat: int = 0) -> str:
    return str(ValeHeuristic(seed=1).choose(st, seat))


def holding(tile: str, **setup: Any) -> ValeState:
    """Seat 0's action turn of round 3 holding `tile`, nothing claimed."""
    setup.setdefault("glade", ALL_TILES)
    setup.setdefault("artifacts", [tile, None])
    return acting(options=ART, **setup)


def picking(**setup: Any) -> ValeState:
    """Round 3's hunting phase before the tile picks, seat 0 first."""
    setup.setdefault("scores", [0, 0])
    setup.setdefault("round", 3)
    setup.setdefault("revealed", ["kappa", "imp", "ifrit", "agni"])
    return vale(2, options=ART, **setup)


# ---------------------------------------------------------------------------- picks
def test_it_picks_the_pipe_to_bring_a_good_shelter_back_and_retrieves_it_all():
    st = picking(glade=ALL_TILES[:3], shelters=[["behemoth", "tidal"], []], deck=["sylph"])
    assert legal(st) == [
        "pick incense-burner",
        "pick monkey-kings-staff",
        "pick pied-pipers-pipe",
    ]
    assert choice(st) == "pick pied-pipers-pipe"  # the first offered was Incense Burner
    play(st, "pick pied-pipers-pipe")
    assert choice(st) == "choose retrieve-all"


def test_it_picks_the_staff_when_two_weak_hand_cards_buy_four_stones():
    st = picking(
        glade=["incense-burner", "monkey-kings-staff", "pied-pipers-pipe"],
        hands=[["cerberus", "stone-golem"], []],
    )
    assert choice(st) == "pick monkey-kings-staff"


def test_without_two_hand_cards_it_never_picks_the_staff():
    st = picking(glade=["monkey-kings-staff", "book-of-thoth"], stones=[["red", "blue"], []])
    assert choice(st) == "pick book-of-thoth"


# ---------------------------------------------------------------------------- action tiles
def test_it_uses_the_book_of_thoth_first_and_upgrades_both_stones():
    st = holding("book-of-thoth", stones=[["red", "blue"], []])
    assert choice(st) == "use book-of-thoth"
    play(st, "use book-of-thoth")
    assert choice(st) == "upgrade blue"  # blue to purple gains 3, red to blue 2
    play(st, "upgrade blue")
    assert choice(st) == "upgrade red"


def test_it_uses_the_staff_on_its_weakest_cards_but_not_on_strong_ones():
    st = holding("monkey-kings-staff", hands=[["hae-tae", "imp", "eternity"], []])
    assert choice(st) == "use monkey-kings-staff"
    play(st, "use monkey-kings-staff")
    first = choice(st)
    assert first in ("discard hae-tae", "discard imp")
    play(st, first)
    assert choice(st) != "discard eternity"
    strong = holding(
        "monkey-kings-staff",
        hands=[["eternity", "behemoth"], []],
        stones=[["purple", "purple", "blue", "blue"], []],
    )
    assert choice(strong) != "use monkey-kings-staff"


def test_incense_burner_buys_an_area_while_rounds_are_left():
    st = holding(
        "incense-burner",
        stones=[["blue", "red"], []],
        areas=[["imp", "kappa", "agni"], []],
        hands=[["sylph"], []],
    )
    assert choice(st) == "use incense-burner"
    play(st, "use incense-burner")
    assert choice(st) == "buy-area pay blue"


def test_cap_of_hades_shelters_the_weakest_card_and_buys_an_area_when_full():
    st = holding(
        "cap-of-hades", hands=[["eternity", "hae-tae"], []], areas=[["imp", "kappa", "agni"], []]
    )
    play(st, "use cap-of-hades")
    assert choice(st) == "shelter hae-tae"
    play(st, "shelter hae-tae")
    assert choice(st) == "buy-area"
    late = holding("cap-of-hades", round=10, hands=[["hae-tae"], []])
    play(late, "use cap-of-hades", "shelter hae-tae")
    assert choice(late) == "choose purple"  # no round left to fill an area


def test_ring_of_wishes_resolves_the_best_active_effect():
    st = holding(
        "ring-of-wishes", areas=[["salamander", "burning-skull"], []], stones=[["red"], []]
    )
    play(st, "use ring-of-wishes")
    assert set(legal(st)) == {"resolve burning-skull", "resolve salamander"}
    assert choice(st) == "resolve burning-skull"


def test_imperial_seal_is_not_used_to_throw_away_a_good_card():
    st = holding("imperial-seal", areas=[["agni", "kappa"], []], hands=[[], []])
    assert choice(st) != "use imperial-seal"


# ---------------------------------------------------------------------------- new creatures
def test_kraken_names_the_family_the_area_holds_most_of():
    st = acting(
        options=ART,
        hands=[["kraken"], []],
        areas=[["undine", "imp", "salamander"], []],
        stones=[["purple"], []],
        round=4,
    )
    play(st, "summon kraken pay purple")
    assert choice(st) in ("choose fire", "choose water")  # two each; never an empty family
    play(st, choice(st))
    assert st.scores[0] == 4


def test_hephaestus_keeps_the_points_and_a_stone():
    st = resolving(options=ART, areas=[["hephaestus"], []])
    play(st, "resolve hephaestus")
    assert choice(st) == "choose points"


def test_melusine_is_summoned_to_turn_weak_hand_cards_into_points():
    st = acting(
        options=ART,
        hands=[["melusine", "hae-tae", "imp", "kappa"], []],
        stones=[["blue"], []],
        round=9,
    )
    assert choice(st) == "summon melusine pay blue"
    play(st, "summon melusine pay blue")
    assert choice(st).startswith("discard ")


def test_the_heuristic_beats_random_play_with_the_artifacts():
    from eterna.agents.random_agent import RandomAgent

    wins = 0.0
    games = 12
    for g in range(games):
        me = g % 2
        agents = [
            GAME.make_heuristic(seed=g) if s == me else RandomAgent(seed=g + 100) for s in range(2)
        ]
        st = GAME.new_game(2, seed=700 + g, options=ART)
        while not st.is_terminal:
            p = st.current_player
            st.apply(agents[p].choose(st, p))
        if me in st.winners:
            wins += 1 / len(st.winners)
    assert wins / games >= 0.9
