"""The PettingZoo AEC environments pass PettingZoo's own API and seed tests."""

from __future__ import annotations

import functools
import logging

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from eterna.adapters.pettingzoo import OrderEnforcing, env, raw_env

# Dict observations (with "action_mask") are the classic convention; api_test only whitelists
# PettingZoo's own classic environments by name for them.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
]

TABLES = [
    ("eternity", 3, 100),
    ("eternity", 4, 40),
    ("eternity", 5, 30),
    ("vale", 2, 100),
    ("vale", 3, 40),
    ("vale", 4, 30),
    ("eternitium", 1, 60),
    ("eternitium", 2, 40),
    ("eternitium", 3, 20),
]
ARTIFACTS = {"expansions": ["artifacts"]}  # the Vale with the Artifacts: encoding version 2
ART_TABLES = [("vale", 2, 100), ("vale", 3, 40), ("vale", 4, 30)]


@pytest.mark.parametrize(("game_id", "players", "cycles"), TABLES)
def test_api_test(game_id, players, cycles):
    api_test(env(game_id, players=players), num_cycles=cycles)


@pytest.mark.parametrize(("game_id", "players", "cycles"), ART_TABLES)
def test_api_test_with_the_artifacts(game_id, players, cycles):
    e = env(game_id, players=players, **ARTIFACTS)
    assert e.unwrapped.encoding.version == 2
    api_test(e, num_cycles=cycles)


@pytest.mark.parametrize(("game_id", "players", "cycles"), TABLES)
def test_seed_test(game_id, players, cycles):
    seed_test(functools.partial(env, game_id, players=players), num_cycles=cycles)


def test_seed_test_with_the_artifacts():
    seed_test(functools.partial(env, "vale", players=3, **ARTIFACTS), num_cycles=40)


def test_the_encoding_version_is_the_options_default_or_the_one_asked():
    assert env("vale", players=2).unwrapped.encoding.version == 1  # base games: unchanged
    base_v2 = env("vale", players=2, encoding_version=2).unwrapped
    assert base_v2.encoding.version == 2
    assert base_v2.action_space("player_0").n == 17775
    assert env("vale", players=2, **ARTIFACTS).unwrapped.action_space("player_0").n == 17775


def play(e, pick):
    e.reset(seed=3)
    rewards = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        rewards[agent] = reward
        e.step(None if terminated or truncated else pick(e, agent, obs))
    return rewards


@pytest.mark.parametrize("game_id", ["eternity", "vale", "eternitium"])
def test_full_game_rewards_follow_the_winners(game_id):
    e = env(game_id, players=3, round_limit=5) if game_id == "eternitium" else env(game_id, 3)
    rng = np.random.default_rng(0)

    def pick(e, agent, obs):
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    rewards = play(e, pick)
    state = e.unwrapped.state_
    assert state.is_terminal
    assert rewards == {
        f"player_{s}": (1 if s in state.winners else -1) for s in range(state.players)
    }


def test_illegal_action_ends_the_game_with_a_loss_for_the_mover():
    e = env("eternity", players=3)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.unwrapped.action_mask(agent)
    illegal = int(np.flatnonzero(mask == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1
    assert sum(e.rewards.values()) == -1
    assert "illegal_action" in e.infos[agent]


def test_episode_bookkeeping_after_an_illegal_move_and_a_reset():
    """The compiled step core and PettingZoo's own helpers share the env's dicts: dead steps
    drain the agents in order, an observation is cached within a step and fresh after it,
    a reset starts clean, and `agent_iter(max_iter)` stops where asked."""
    e = env("eternity", players=3)
    e.reset(seed=4)
    raw = e.unwrapped
    first = e.last()[0]
    assert e.last()[0] is first  # cached within the step
    e.step(raw.legal_action_ids()[0])
    second = e.last()[0]
    assert second is not first and not np.shares_memory(second["observation"], first["observation"])
    e.step(-3)  # negative id: illegal, the mover loses
    mover = e.agent_selection
    assert e.rewards[mover] == -1 and "negative" in e.infos[mover]["illegal_action"]
    assert e._cumulative_rewards == {a: (-1 if a == mover else 0) for a in e.possible_agents}
    with pytest.raises(ValueError, match="only valid action is None"):
        e.step(0)  # a done agent may only pass None
    seen = []
    for agent in e.agent_iter():
        seen.append(agent)
        assert e.last(observe=False)[2]  # terminated
        e.step(None)
    assert sorted(seen) == sorted(e.possible_agents) and e.agents == []
    e.reset(seed=4)
    assert e.agents == e.possible_agents and not any(e.terminations.values())
    assert e.rewards == dict.fromkeys(e.possible_agents, 0) and e.infos[e.agent_selection] == {}
    assert np.array_equal(e.last()[0]["observation"], first["observation"])  # same seed
    with pytest.raises(AssertionError, match="need to call step"):
        list(e.agent_iter(max_iter=2))  # PettingZoo's rule: a step between two agents
    e.reset(seed=4)
    count = 0
    for _agent in e.agent_iter(max_iter=5):
        e.step(raw.legal_action_ids()[0])
        count += 1
    assert count == 5


def test_the_wrapper_keeps_pettingzoos_order_checks_on_its_fast_step(caplog):
    """After a reset the wrapper's `step` and `last` are the compiled core's (no interpreted
    frame a step), with PettingZoo's checks: before a reset step and last refuse, a step after
    the end logs PettingZoo's warning and changes nothing, and an env subclass that overrides
    `raw_env.step` keeps its own step."""
    e = env("eternity", players=3)
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    with pytest.raises(AttributeError, match="before reset"):
        e.last()
    e.reset(seed=9)
    raw = e.unwrapped
    steps = 0
    for _agent in e.agent_iter():
        _obs, _r, term, trunc, _i = e.last()
        e.step(None if term or trunc else raw.legal_action_ids()[0])
        steps += 1
    assert e.agents == [] and steps > 3 * 10
    with caplog.at_level(logging.WARNING):
        e.step(0)
    assert "terminated or truncated" in caplog.text
    assert e.agents == [] and raw.state_or_raise.is_terminal

    class Counting(raw_env):
        calls = 0

        def step(self, action):
            Counting.calls += 1
            super().step(action)

    counted = OrderEnforcing(Counting("eternity", players=3))
    counted.reset(seed=9)
    counted.step(counted.unwrapped.legal_action_ids()[0])
    assert Counting.calls == 1


def test_mask_matches_the_observation_and_legal_ids():
    e = env("vale", players=2)
    e.reset(seed=2)
    obs, *_ = e.last()
    fast = e.unwrapped.action_mask()
    assert np.array_equal(obs["action_mask"], fast)
    assert sorted(np.flatnonzero(fast).tolist()) == sorted(e.unwrapped.legal_action_ids())
    other = next(a for a in e.agents if a != e.agent_selection)
    assert e.observe(other)["action_mask"].sum() == 0


def test_render_ansi_shows_the_table():
    e = env("eternity", players=3, render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert isinstance(text, str) and "trump" in text.lower()
    assert raw_env("vale", players=2).render() is None
