"""Eternitium's heuristic agent: decides from the view and beats random play."""

from __future__ import annotations

from eterna.agents.random_agent import RandomAgent
from eterna.core.agent import ViewAgent
from eterna.games.eternitium import GAME


def test_heuristic_is_a_view_agent_made_by_the_game():
    agent = GAME.make_heuristic(seed=1)
    assert isinstance(agent, ViewAgent)


def test_heuristic_clearly_beats_random_in_two_player_games():
    wins = 0.0
    games = 30
    for g in range(games):
        heuristic = GAME.make_heuristic(seed=g)
        rand = RandomAgent(seed=g)
        seat = g % 2
        state = GAME.new_game(2, seed=500 + g)
        while not state.is_terminal:
            p = state.current_player
            state.apply((heuristic if p == seat else rand).choose(state, p))
        if seat in state.winners:
            wins += 1 / len(state.winners)
    assert wins / games >= 0.8


def test_heuristic_plays_every_mission_to_the_end():
    for mission in range(0, 11):
        state = GAME.new_game(1, seed=mission, options={"mission": mission})
        agent = GAME.make_heuristic(seed=mission)
        while not state.is_terminal:
            state.apply(agent.choose(state, 0))
