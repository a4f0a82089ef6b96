"""The single-agent Gymnasium environment passes Gymnasium's env checker and plays to the end."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

from eterna.adapters.gymnasium import make
from eterna.core.errors import EternaError

TABLES = [("eternity", 3), ("eternity", 4), ("vale", 2), ("vale", 3), ("eternitium", 1)]
TABLES += [("eternitium", 2)]
ARTIFACTS = {"expansions": ["artifacts"]}  # the Vale with the Artifacts: encoding version 2


@pytest.mark.filterwarnings("ignore:.*alternative render modes")
@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_check_env(game_id, players):
    check_env(make(game_id, players=players, opponents="random", render_mode="ansi"))


@pytest.mark.filterwarnings("ignore:.*alternative render modes")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_check_env_with_the_artifacts(players):
    env = make("vale", players=players, opponents="random", render_mode="ansi", **ARTIFACTS)
    assert env.encoding.version == 2 and env.action_space.n == 17775
    check_env(env)


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [("eternity", 3, {}), ("vale", 2, {}), ("vale", 3, ARTIFACTS)],
)
def test_masked_episode_against_heuristics_ends_with_the_winners_reward(game_id, players, options):
    env = make(game_id, seat=1, opponents="heuristic", players=players, **options)
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(0)
    done = False
    reward = 0.0
    while not done:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert obs in env.observation_space and not truncated
    state = env.state
    assert state is not None and state.is_terminal
    assert reward == (1.0 if 1 in state.winners else -1.0)


def test_illegal_action_ends_the_episode_with_a_loss():
    env = make("eternity", players=3, opponents="random")
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _obs, reward, done, _trunc, info = env.step(illegal)
    assert (reward, done) == (-1.0, True) and "illegal_action" in info


def test_opponent_specs_per_seat_and_bad_specs():
    env = make("vale", players=3, opponents=["random", "heuristic"])
    env.reset(seed=0)
    assert [a.spec for a in env._agents.values()] == ["random", "heuristic"]
    with pytest.raises(EternaError):
        make("vale", players=3, opponents=["random"])
    with pytest.raises(EternaError):
        make("eternity", players=3, opponents="nobody")
