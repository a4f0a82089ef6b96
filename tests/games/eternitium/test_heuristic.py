"""Eternitium's heuristic agent: decides from the view and beats random play."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eterna.agents.random_agent import RandomAgent
from eterna.core.agent import ViewAgent
from eterna.games.eternitium import GAME
from eterna.games.eternitium.views import POLICY_KEYS, policy_view


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


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([1, 2, 3, 4, 5]),
    seed=st.integers(0, 2**40),
    play_seed=st.integers(0, 2**40),
)
def test_rollout_path_decides_as_the_view_does(players, seed, play_seed):
    """`act_state` (the search's rollout path) reads `policy_view`, which must equal the full
    view on every key the heuristic reads, and so choose the same move with the same seed, at
    every decision of heuristic-played games, determinized copies included."""
    state = GAME.new_game(players, seed=seed)
    rng = random.Random(play_seed)
    mover = GAME.make_heuristic(seed=play_seed)
    while not state.is_terminal:
        seat = state.current_player
        legal = state.legal_actions()
        for probe in (state, state.determinize(seat, rng)):
            full = probe.view(seat)
            part = policy_view(probe, seat)
            assert set(part) == set(POLICY_KEYS)
            assert part == {k: full[k] for k in POLICY_KEYS}
            k = rng.getrandbits(32)
            slow = GAME.make_heuristic(seed=k).act(full, list(probe.legal_actions()))
            fast = GAME.make_heuristic(seed=k).act_state(probe, seat, list(probe.legal_actions()))
            assert fast == slow
        state.apply(mover.act(state.view(seat), legal) if rng.random() < 0.8 else rng.choice(legal))


def test_policy_keys_are_the_keys_the_heuristic_reads():
    """A key the heuristic reads but `policy_view` lacks would fail in rollouts: the source's
    every `view[...]` subscript is one of POLICY_KEYS (read from the .py file: the compiled
    build's module has no source to inspect)."""
    import re
    from pathlib import Path

    import eterna

    source = Path(eterna.__file__).parent / "games" / "eternitium" / "heuristic.py"
    read = set(re.findall(r'view\["([a-z_]+)"\]', source.read_text(encoding="utf-8")))
    assert read and read <= set(POLICY_KEYS)
