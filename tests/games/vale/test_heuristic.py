"""The Vale's heuristic agent: reachable by spec, decides from the view, beats random play."""

from __future__ import annotations

import random

from eterna.agents import make_agent
from eterna.agents.random_agent import RandomAgent
from eterna.core.agent import ViewAgent
from eterna.games.vale import GAME
from eterna.games.vale.heuristic import ValeHeuristic


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
    assert wins / games >= 0.8


def test_the_heuristic_plays_every_seat_count_to_the_end():
    for players in (3, 4):
        agents = [GAME.make_heuristic(seed=s) for s in range(players)]
        st = GAME.new_game(players, seed=players)
        rng = random.Random(0)
        while not st.is_terminal:
            p = st.current_player
            action = agents[p].choose(st, p)
            assert action in st.legal_actions()
            st.apply(action)
        assert st.winners and rng
