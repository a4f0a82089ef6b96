"""The shipped `learned` bots: the weights load, play legal moves only across whole games, beat
random, decide within 5 ms and never read hidden state."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

import eterna
from eterna.adapters.encodings import encoding_class
from eterna.agents import agent_names, make_agent
from eterna.agents.learned import LearnedAgent, NumpyPolicy, shipped_policy
from eterna.arena.simulate import check_agent
from eterna.core.errors import EternaError

TABLES = [("eternity", 4), ("vale", 2), ("eternitium", 2)]


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_the_shipped_weights_load_and_fit_the_encoding(game_id, players):
    policy = shipped_policy(game_id)
    meta = policy.meta
    cls = encoding_class(game_id, None, meta["encoding_version"])
    assert meta["game"] == game_id and meta["action_digest"] == cls.action_digest()
    assert meta["layout_digest"] == cls.layout_digest() and policy.obs_size == cls(None).size
    assert meta["steps"] + meta.get("imitation_samples", 0) > 0
    # trained: by PPO (train_seconds) or, for a clone alone, by imitation (imitation_seconds)
    assert meta["train_seconds"] + meta.get("imitation_seconds", 0.0) > 0
    assert all(w.dtype == np.float32 for w, _b in policy.layers)
    assert "learned" in agent_names()
    check_agent(eterna.load_game(game_id), "learned")  # what the CLI and the lobby call


def _play(game_id, players, agents, seed):
    state = eterna.load_game(game_id).new_game(players, seed=seed)
    while not state.is_terminal:
        seat = state.current_player
        action = agents[seat].choose(state, seat)
        assert action in state.legal_actions()
        state.apply(action)
    return state


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_plays_legal_moves_through_whole_games(game_id, players):
    for g in range(2):
        agents = [make_agent("learned", seed=s) for s in range(players)]
        agents[g % players] = make_agent("learned:greedy=false", seed=9)
        assert _play(game_id, players, agents, seed=70 + g).is_terminal


@pytest.mark.parametrize("game_id", [g for g, _p in TABLES])
def test_plays_every_player_count_of_its_game(game_id):
    # trained at one count (The Vale and Eternitium 2, Eternity 4), the weights read the
    # encoding, which has a slot for every seat the game allows: no count is refused
    game = eterna.load_game(game_id)
    assert encoding_class(game_id, None, None).max_players >= game.max_players
    for players in range(game.min_players, game.max_players + 1):
        seat = players - 1
        agents = [make_agent("random", seed=500 + s) for s in range(players)]
        agents[seat] = make_agent("learned", seed=3)
        state = _play(game_id, players, agents, seed=90 + players)
        assert state.is_terminal and state.players == players


# (game, players, games, minimum wins): the learned seat against random players in every
# other seat, the learner in every seat of each deal; parity is 1 / players
STRENGTH = [("eternity", 4, 24, 10), ("vale", 2, 20, 14), ("eternitium", 2, 20, 14)]


@pytest.mark.parametrize(("game_id", "players", "games", "minimum"), STRENGTH)
def test_beats_random(game_id, players, games, minimum):
    wins = 0.0
    for g in range(games):
        deal, me = divmod(g, players)
        agents = [make_agent("random", seed=1000 + 10 * g + s) for s in range(players)]
        agents[me] = make_agent("learned", seed=g)
        state = _play(game_id, players, agents, seed=4000 + deal)
        if me in state.winners:
            wins += 1 / len(state.winners)
    assert wins >= minimum, f"{wins} of {games}"


def _midgame(game_id, players, seed, moves):
    state = eterna.load_game(game_id).new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("game_id", "players", "moves"), [*[(g, p, 11) for g, p in TABLES]])
def test_choice_does_not_depend_on_the_hidden_cards(game_id, players, moves):
    for seed in range(4):
        state = _midgame(game_id, players, seed=seed, moves=moves)
        seat = state.current_player
        other_world = state.determinize(seat, random.Random(99))
        assert other_world.view(seat) == state.view(seat)
        agent = LearnedAgent(seed=1)
        assert agent.choose(state, seat) == agent.choose(other_world, seat)


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_a_decision_takes_at_most_5_ms(game_id, players):
    agent = make_agent("learned", seed=0)
    states = [_midgame(game_id, players, seed=s, moves=5 + 3 * s) for s in range(10)]
    agent.choose(states[0], states[0].current_player)  # loads the weights once
    start = time.process_time()
    for state in states * 3:
        agent.choose(state, state.current_player)
    assert (time.process_time() - start) / 30 <= 0.005


def test_refuses_what_it_was_not_trained_for():
    vale = shipped_policy("vale")
    with pytest.raises(EternaError, match="not eternity"):
        LearnedAgent(policy=vale).check_game(eterna.load_game("eternity"))
    state = eterna.load_game("vale").new_game(2, seed=1, options={"expansions": ["artifacts"]})
    with pytest.raises(EternaError, match="base game"):
        make_agent("learned").choose(state, state.current_player)
    with pytest.raises(EternaError, match="greedy"):
        make_agent("learned:greedy=3")


def test_weights_round_trip(tmp_path):
    policy = shipped_policy("eternitium")
    policy.save(tmp_path / "p.npz")
    again = NumpyPolicy.load(tmp_path / "p.npz")
    obs = np.linspace(0, 1, policy.obs_size, dtype=np.float32)
    assert np.array_equal(policy.logits(obs), again.logits(obs))
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(EternaError, match="cannot read"):
        NumpyPolicy.load(tmp_path / "bad.npz")
