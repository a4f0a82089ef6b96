"""The Vale's heuristic agent: reachable by spec, decides from the view, beats random play, and
plays the positions the old greedy version got wrong the sensible way."""

from __future__ import annotations

import pytest
from vale_helpers import acting, play, resolving

from eterna.agents import make_agent
from eterna.agents.random_agent import RandomAgent
from eterna.core.agent import ViewAgent
from eterna.games.vale import GAME, ValeState
from eterna.games.vale.heuristic import ValeHeuristic


def choice(st: ValeState, seat: int = 0) -> str:
    return str(ValeHeuristic(seed=1).choose(st, seat))


def test_the_game_makes_its_heuristic_and_the_spec_finds_it():
    agent = GAME.make_heuristic(seed=3)
    assert isinstance(agent, ValeHeuristic) and isinstance(agent, ViewAgent)
    st = GAME.new_game(2, seed=1)
    generic = make_agent("heuristic", seed=1)
    assert generic.choose(st, st.current_player) in st.legal_actions()


def test_the_heuristic_beats_random_play():
    wins = 0.0
    games = 16
    for g in range(games):
        me = g % 2
        agents = [
            GAME.make_heuristic(seed=g) if s == me else RandomAgent(seed=g + 100) for s in range(2)
        ]
        st = GAME.new_game(2, seed=500 + g)
        while not st.is_terminal:
            p = st.current_player
            st.apply(agents[p].choose(st, p))
        if me in st.winners:
            wins += 1 / len(st.winners)
    assert wins / games >= 0.9


def test_the_heuristic_plays_every_seat_count_to_the_end():
    # Its speed is measured by bench/ (docs/performance.md, "Agents"), never by a timed test.
    for players in (2, 3, 4):
        agents = [GAME.make_heuristic(seed=s) for s in range(players)]
        st = GAME.new_game(players, seed=players)
        while not st.is_terminal:
            p = st.current_player
            action = agents[p].choose(st, p)
            assert action in st.legal_actions()
            st.apply(action)
        assert st.winners


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_heuristic_plays_an_artifacts_game_to_the_end(players):
    """Every seat count plays the tiles legally to the end (test_heuristic_artifacts.py
    tests its choices)."""
    agents = [GAME.make_heuristic(seed=s) for s in range(players)]
    options = {"expansions": ["artifacts"], "artifact_set": "advanced"}
    st = GAME.new_game(players, seed=players, options=options)
    while not st.is_terminal:
        p = st.current_player
        action = agents[p].choose(st, p)
        assert action in st.legal_actions()
        st.apply(action)
    assert st.winners


def test_it_spends_before_selling_into_the_stone_limit():
    # four reds held: selling the Earth card first would throw four reds away
    st = acting(hands=[["tengu"], []], stones=[["red"] * 4, []], claimed=[["cerberus"], []])
    assert choice(st) == "summon tengu pay red+red+red"
    play(st, "summon tengu pay red+red+red")
    assert choice(st) == "sell cerberus"


def test_it_keeps_a_card_rather_than_selling_it_for_stones_it_must_discard():
    st = acting(stones=[["purple"] * 4, []], claimed=[["kappa"], []])
    assert choice(st) == "tame kappa"


def test_it_does_not_tame_what_it_cannot_use_when_the_stones_pay_for_a_summon():
    # nothing held: selling the Dragon pays for the Tidal already in hand (5 points now)
    st = acting(hands=[["tidal"], []], claimed=[["ember"], []])
    assert choice(st) == "sell ember"
    play(st, "sell ember")
    assert choice(st) == "summon tidal pay purple"


def test_an_attack_that_would_only_hit_its_own_area_waits():
    # Marina with no Fire card at the opponent's: it would discard its own Agni
    st = acting(round=4, hands=[["marina"], []], areas=[["agni"], []], stones=[["purple"] * 2, []])
    assert choice(st) == "end-turn"


def test_attacks_name_an_opponent_when_one_qualifies():
    st = acting(
        round=4,
        hands=[["marina"], []],
        areas=[["agni"], ["salamander"]],
        stones=[["purple"] * 2, []],
    )
    assert choice(st) == "summon marina pay purple+purple"
    play(st, "summon marina pay purple+purple")
    assert choice(st) == "target seat-1"


def test_resolution_order_harpy_while_it_applies_and_goblin_soldier_while_behind():
    st = resolving(areas=[["imp", "harpy"], []], hands=[["kappa", "ifrit"], []])
    assert choice(st) == "resolve harpy"  # the imp's recovery would break hand == area
    st = resolving(areas=[["salamander", "goblin-soldier"], []], scores=[3, 4])
    assert choice(st) == "resolve goblin-soldier"  # behind by 1: +4 before the salamander's 1


def test_stone_gains_come_before_the_effects_that_spend_them():
    st = resolving(areas=[["burning-skull", "salamander"], []])
    assert choice(st) == "resolve salamander"


def test_it_discards_its_cheapest_stone_at_the_limit():
    st = acting(claimed=[["ifrit"], []], stones=[["purple", "blue", "blue"], []])
    play(st, "sell ifrit")
    assert choice(st) == "discard-stone red"
