"""The registered Gymnasium ids: the env checker, the episode cap, the opponent pool drawn per
reset (deterministic per seed), the compact action layout and vector environments."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

from eterna.adapters.encodings import make_encoding
from eterna.adapters.gymnasium import ENV_IDS, make
from eterna.adapters.layouts import ActionLayout
from eterna.agents.random_agent import RandomAgent
from eterna.core.errors import EternaError


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_registered_ids_pass_the_env_checker(env_id):
    env = gymnasium.make(env_id, opponents="random")
    check_env(env.unwrapped, skip_render_check=True)


def test_registered_ids_take_make_keywords():
    env = gymnasium.make("eterna/Eternity-v0", players=3, opponents=["random", "heuristic"])
    assert env.unwrapped.players == 3 and env.unwrapped.opponent_specs == ["random", "heuristic"]
    assert gymnasium.make("eterna/Vale-v0").action_space.n == 786  # compact
    assert gymnasium.make("eterna/Vale-v0", action_layout="flat").action_space.n == 12336


def _play(env, seed, rng):
    env.reset(seed=seed)
    while True:
        mask = env.unwrapped.action_masks()
        _obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if done or truncated:
            return reward, done, truncated, info


def test_an_episode_is_truncated_at_the_cap():
    env = make("eternitium", opponents="random", max_moves=25)
    reward, done, truncated, info = _play(env, 3, np.random.default_rng(0))
    assert truncated and not done and reward == 0.0
    assert info["moves"] == 25 and not env.action_masks().any()
    with pytest.raises(EternaError, match="reset"):
        env.step(0)
    assert env.state is not None and not env.state.is_terminal
    with pytest.raises(EternaError, match="max_moves"):
        make("eternitium", max_moves=0)


def test_a_full_game_is_not_truncated_under_the_default_cap():
    env = gymnasium.make("eterna/Eternitium-v0", opponents="random")
    _reward, done, truncated, info = _play(env, 5, np.random.default_rng(1))
    assert done and not truncated and info["moves"] < env.unwrapped.max_moves


def test_the_pool_is_drawn_per_reset_and_deterministic_per_seed():
    made = []

    def factory(seed):
        made.append(seed)
        return RandomAgent(seed=seed)

    pool = ["random", "heuristic", factory]

    def draws(seed):
        env = make("eternity", players=4, pool=pool)
        env.reset(seed=seed)
        out = [tuple(e if isinstance(e, str) else "factory" for e in env.opponents_drawn)]
        for _ in range(7):
            env.reset()
            out.append(tuple(e if isinstance(e, str) else "factory" for e in env.opponents_drawn))
        return out

    first, again, other = draws(11), draws(11), draws(12)
    assert first == again and first != other
    assert {e for row in first + other for e in row} == {"random", "heuristic", "factory"}
    assert made  # the factory built opponents with seeds drawn from the reset's stream
    env = make("eternity", players=3, pool=["random", "heuristic"], pool_weights=[0, 1])
    env.reset(seed=1)
    assert env.opponents_drawn == ["heuristic", "heuristic"]
    for bad in ([], ["nobody"], [3]):
        with pytest.raises(EternaError):
            make("eternity", players=3, pool=bad)


def test_seeded_episodes_replay_exactly():
    def run(seed):
        env = make("vale", opponents="heuristic", action_layout="compact")
        rng = np.random.default_rng(4)
        env.reset(seed=seed)
        return [_play(env, None, rng)[0] for _ in range(2)], env.state.view(None)["scores"]

    assert run(21) == run(21)


def test_compact_layout_folds_payments_and_plays_the_cheapest():
    enc = make_encoding("vale", 2)
    layout = ActionLayout(enc, "compact")
    assert layout.size == 786 and len(set(layout.heads)) == layout.size
    summon = [a.index for a in enc.actions if a.text.startswith("summon imp pay ")]
    cid = int(layout.to_layout[summon[0]])
    assert layout.heads[cid] == "summon imp"
    picks = {enc.actions[i].text: i for i in summon}
    legal = [picks["summon imp pay blue"], picks["summon imp pay red+red+red"]]
    legal.append(picks["summon imp pay purple"])
    assert enc.actions[layout.resolve(cid, legal)].text == "summon imp pay red+red+red"
    assert layout.mask(legal).sum() == 1 and layout.mask(legal)[cid]
    with pytest.raises(EternaError, match="not legal"):
        layout.resolve(cid, [])
    flat = ActionLayout(make_encoding("eternity", 4), "compact")
    assert flat.size == make_encoding("eternity", 4).num_actions
    with pytest.raises(EternaError, match="layout"):
        ActionLayout(enc, "tiny")


def test_vector_environments():
    envs = gymnasium.make_vec("eterna/Eternitium-v0", num_envs=2, opponents="random")
    obs, _info = envs.reset(seed=3)
    assert obs.shape == (2, 407)
    envs.close()
