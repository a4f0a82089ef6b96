"""Agents see a game only through a SeatWindow: the seat's view, legal actions, determinize."""

import random

import pytest

import eterna
from eterna.agents import RandomAgent, SeatWindow, make_agent


def test_window_exposes_only_the_seat_view_legal_actions_and_determinize():
    state = eterna.load_game("eternity").new_game(4, seed=11)
    seat = state.current_player
    window = SeatWindow(state, seat)
    assert window.view() == state.view(seat)
    assert window.legal_actions() == state.legal_actions()
    guess = window.determinize(random.Random(1))
    assert guess.view(seat)["hand"] == state.view(seat)["hand"]
    assert not hasattr(window, "state") and not hasattr(window, "hand")


def test_agent_refuses_to_move_out_of_turn():
    state = eterna.load_game("eternity").new_game(4, seed=11)
    other = (state.current_player + 1) % 4
    with pytest.raises(eterna.EternaError, match="turn"):
        RandomAgent(seed=1).choose(state, other)


def test_random_agents_with_the_same_seed_play_the_same_game():
    def play(seed: int) -> list[str]:
        state = eterna.load_game("eternity").new_game(3, seed=2)
        agents = [make_agent("random", seed=seed * 10 + s) for s in range(3)]
        while not state.is_terminal:
            seat = state.current_player
            state.apply(agents[seat].choose(state, seat))
        return state.to_record()["actions"]

    assert play(1) == play(1)
    assert play(1) != play(2)
