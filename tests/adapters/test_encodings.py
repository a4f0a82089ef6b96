"""Encodings: pinned action tables and layouts, id round trips, masks, view-only observations."""

from __future__ import annotations

import random

import numpy as np
import pytest

import eterna
from eterna.adapters.encodings import ENCODINGS, make_encoding

# Changing an action table or a layout must bump the game's ENCODING_VERSION (and these pins).
PINS = {
    # game: (version, actions, observation size, action digest prefix, layout digest prefix)
    "eternitium": (1, 505, 407, "e3b2a4cb9946ddb4", "45ca509963310539"),
    "eternity": (1, 84, 825, "90328b012cfc8578", "ca64d533f231124a"),
    "vale": (1, 12336, 1372, "b54e20728e788d4c", "64818b175897f9e0"),
}
TABLES = [("eternity", 3), ("eternity", 5), ("vale", 2), ("vale", 4), ("eternitium", 1)]
TABLES += [("eternitium", 2), ("eternitium", 3)]


def random_states(game_id: str, players: int, games: int, seed: int = 0):
    """Every state of a few random games (round_limit keeps Eternitium's short)."""
    game = eterna.load_game(game_id)
    options = {"round_limit": 6} if game_id == "eternitium" else {}
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_game(players=players, seed=seed * 1000 + g, options=options)
        while not state.is_terminal:
            yield state
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        yield state


def test_every_game_has_an_encoding():
    assert sorted(ENCODINGS) == eterna.game_ids()


@pytest.mark.parametrize("game_id", sorted(PINS))
def test_action_table_and_layout_are_pinned_to_the_version(game_id):
    cls = ENCODINGS[game_id]
    version, actions, size, action_digest, layout_digest = PINS[game_id]
    enc = cls()
    cls.check_table()
    assert (cls.version, enc.num_actions, enc.size) == (version, actions, size)
    assert cls.action_digest().startswith(action_digest)
    assert cls.layout_digest().startswith(layout_digest)


@pytest.mark.parametrize("game_id", sorted(PINS))
def test_every_id_round_trips_through_notation(game_id):
    enc = make_encoding(game_id)
    game = eterna.load_game(game_id)
    for i in range(enc.num_actions):
        text = enc.notation(i)
        assert enc.action_id(text) == i
        assert game.parse_action(text) is enc.action(i)
        assert enc.action_id(enc.action(i)) == i


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_mask_is_the_legal_actions_and_ids_round_trip(game_id, players):
    enc = make_encoding(game_id, players)
    seen = 0
    for state in random_states(game_id, players, games=3):
        mask = enc.mask(state)
        legal = state.legal_actions()
        assert mask.dtype == np.int8
        assert int(mask.sum()) == len(legal)
        for action in legal:
            i = enc.action_id(action)
            assert mask[i] == 1
            assert enc.action(i) is action
            assert enc.action_id(str(action)) == i
            seen += 1
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(enc.legal_ids(state))
    assert seen > 0


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_observation_shape_range_and_view_only(game_id, players):
    enc = make_encoding(game_id, players)
    other = make_encoding(game_id, players)
    for k, state in enumerate(random_states(game_id, players, games=2, seed=1)):
        seat = k % players
        obs = enc.observe(state, seat)
        assert obs.shape == (enc.size,) and obs.dtype == np.float32
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        # the observation is a function of the view alone
        assert np.array_equal(obs, other.encode(state.view(seat)))


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_observation_never_depends_on_hidden_information(game_id, players):
    """Two states with the same view for a seat (a determinization) encode identically."""
    enc = make_encoding(game_id, players)
    rng = random.Random(5)
    checked = changed = 0
    for k, state in enumerate(random_states(game_id, players, games=2, seed=2)):
        if state.is_terminal or k % 3:
            continue
        seat = state.current_player
        guess = state.determinize(seat, rng)
        if guess.view(seat) != state.view(seat):
            continue  # the engine's business (tests/games); the encoding reads views only
        a = enc.observe(state, seat).copy()
        b = enc.observe(guess, seat)
        assert np.array_equal(a, b)
        checked += 1
        if players > 1 and guess.view((seat + 1) % players) != state.view((seat + 1) % players):
            changed += 1  # the hidden part really differed
    assert checked > 0
    if game_id == "eternity":  # hands are hidden there; elsewhere mostly deck orders, unseen
        assert changed > 0


def test_out_buffer_is_used():
    enc = make_encoding("eternity", 3)
    state = eterna.load_game("eternity").new_game(players=3, seed=1)
    out = np.full(enc.size, 0.5, np.float32)
    result = enc.observe(state, 0, out)
    assert result is out
    assert np.array_equal(out, enc.observe(state, 0))
    fields = enc.split(out)
    assert fields["hand"].sum() == 10  # ten cards dealt at three players
    assert fields["seats"].shape == (5, 8)
