"""The OpenSpiel Python games: OpenSpiel's random simulation test, observers, resampling and
its IS-MCTS bot playing whole games."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import eterna.adapters.openspiel as eo  # noqa: E402
from eterna.adapters.encodings import make_encoding  # noqa: E402

# Eternitium's round_limit keeps random games (which can wander for 100 rounds) short.
TABLES = [
    ("eternity", 3, {}),
    ("eternity", 5, {}),
    ("vale", 2, {}),
    ("vale", 4, {}),
    ("eternitium", 1, {}),
    ("eternitium", 3, {"round_limit": 5}),
]
# the Vale with the Artifacts (a list option: options_json); its encoding is version 2
ARTIFACTS = {"options_json": '{"expansions": ["artifacts"]}'}
TABLES += [("vale", 2, ARTIFACTS), ("vale", 3, ARTIFACTS), ("vale", 4, ARTIFACTS)]


def test_games_are_registered_with_pyspiel():
    names = pyspiel.registered_names()
    for game_id in ("eternitium", "eternity", "vale"):
        assert f"python_eterna_{game_id}" in names
    game = pyspiel.load_game("python_eterna_eternity", {"players": 4, "tie_break": "shared"})
    assert game.num_players() == 4
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game.num_distinct_actions() == 84


@pytest.mark.parametrize(("game_id", "players", "params"), TABLES)
def test_random_sim_test(game_id, players, params):
    game = eo.load(game_id, players=players, rng_seed=1, **params)
    # serialize=False: OpenSpiel serialises a sampled-stochastic game's generator through
    # Game::GetRNGState, which a Python game cannot override; states serialise (next test).
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", ["eternity", "vale", "eternitium"])
def test_state_serialisation_and_rng_seed(game_id):
    game = eo.load(game_id, players=3, rng_seed=5)
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()
    # the same rng_seed deals the same games, in the same order
    one, two = (eo.load(game_id, players=3, rng_seed=9) for _ in range(2))
    for _ in range(2):
        assert str(one.new_initial_state()) == str(two.new_initial_state())


@pytest.mark.parametrize(
    ("game_id", "players", "params"),
    [("eternity", 3, {}), ("vale", 2, {}), ("eternitium", 2, {}), ("vale", 3, ARTIFACTS)],
)
def test_tensors_are_the_encoding_of_the_view(game_id, players, params):
    game = eo.load(game_id, players=players, rng_seed=2, **params)
    state = game.new_initial_state()
    enc = make_encoding(game_id, players, game.game_options)
    assert enc.version == (2 if params else 1)
    assert game.num_distinct_actions() == enc.num_actions
    for _ in range(30):
        for p in range(players):
            view = state.eterna.view(p)
            assert np.array_equal(state.observation_tensor(p), enc.encode(view))
            assert np.array_equal(state.information_state_tensor(p), enc.encode(view))
            assert state.information_state_string(p).startswith(state.observation_string(p))
        state.apply_action(state.legal_actions()[0])


@pytest.mark.parametrize(
    ("game_id", "players", "params"),
    [("eternity", 4, {}), ("vale", 3, {}), ("eternitium", 3, {}), ("vale", 3, ARTIFACTS)],
)
def test_resample_keeps_the_information_state(game_id, players, params):
    game = eo.load(game_id, players=players, rng_seed=3, **params)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(3):
        guess = state.resample_from_infostate(player, sampler)
        assert guess.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(
            guess.information_state_tensor(player), state.information_state_tensor(player)
        )
        assert guess.legal_actions() == state.legal_actions()


@pytest.mark.parametrize(
    ("game_id", "players", "params"),
    [("eternity", 3, {}), ("vale", 2, {}), ("eternitium", 2, {"round_limit": 3})],
)
def test_ismcts_bot_plays_a_full_game(game_id, players, params):
    from open_spiel.python.algorithms import ismcts, mcts

    game = eo.load(game_id, players=players, rng_seed=4, **params)
    rs = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    returns = state.returns()
    assert len(returns) == players and set(returns) <= {-1.0, 1.0}
    assert [p for p in range(players) if returns[p] == 1.0] == state.eterna.winners
