"""Encodings: pinned action tables and layouts, id round trips, masks, view-only observations."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

import eterna
from eterna.adapters.encodings import ENCODINGS, encoding_class, make_encoding
from eterna.core.errors import EternaError
from eterna.games.vale import cards as vale_cards

# Changing an action table or a layout must bump the game's ENCODING_VERSION (and these pins).
PINS = {
    # game: (version, actions, observation size, action digest prefix, layout digest prefix)
    "eternitium": (1, 505, 407, "e3b2a4cb9946ddb4", "45ca509963310539"),
    "eternity": (1, 84, 825, "90328b012cfc8578", "ca64d533f231124a"),
    "vale": (1, 12336, 1372, "b54e20728e788d4c", "64818b175897f9e0"),
}
# The Vale's version 2 (every game, base or with the Artifacts), pinned like the above
V2_PIN = (2, 17775, 2546, "ebe901fbcba94f6f", "b80ef99b0fcd55d0")
ART = {"expansions": ["artifacts"]}
NONE: dict = {}
TABLES = [("eternity", 3, NONE), ("eternity", 5, NONE), ("vale", 2, NONE), ("vale", 4, NONE)]
TABLES += [("eternitium", 1, NONE), ("eternitium", 2, NONE), ("eternitium", 3, NONE)]
# the Vale with the Artifacts: encoded by version 2, chosen from the options
TABLES += [("vale", 2, ART), ("vale", 3, ART), ("vale", 4, ART)]


def random_states(game_id: str, players: int, games: int, seed: int = 0, options=NONE):
    """Every state of a few random games (round_limit keeps Eternitium's short)."""
    game = eterna.load_game(game_id)
    options = {"round_limit": 6} if game_id == "eternitium" else options
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


def test_the_vale_version_2_is_pinned_and_keeps_version_1_ids():
    cls = encoding_class("vale", version=2)
    version, actions, size, action_digest, layout_digest = V2_PIN
    enc = cls()
    cls.check_table()
    assert (cls.version, enc.num_actions, enc.size) == (version, actions, size)
    assert cls.action_digest().startswith(action_digest)
    assert cls.layout_digest().startswith(layout_digest)
    # version 1's ids are version 2's first ids, naming the same moves
    v1 = ENCODINGS["vale"].actions
    assert cls.actions[: len(v1)] == v1 and len(v1) == 12336
    assert len(cls.actions) == len(vale_cards.ACTIONS)
    for i in range(len(v1), enc.num_actions):  # the Artifacts' ids round-trip too
        assert enc.action_id(enc.notation(i)) == i and enc.action(i).index == i


def test_the_vale_version_is_chosen_from_the_options():
    game = eterna.load_game("vale")
    base = game.resolve_options({})
    art = game.resolve_options(ART)
    assert make_encoding("vale", 2).version == 1  # no options: version 1, as before
    assert make_encoding("vale", 2, base).version == 1  # base games keep version 1
    assert make_encoding("vale", 2, art).version == 2  # a game with the Artifacts
    assert make_encoding("vale", 2, base, version=2).version == 2  # asked for
    with pytest.raises(EternaError, match="version 1 encodes base games only"):
        make_encoding("vale", 2, art, version=1)  # refused up front, not at the first observation
    with pytest.raises(EternaError, match="version 1 encodes base games only"):
        make_encoding("vale", 2, version=1).observe(game.new_game(2, seed=1, options=art), 0)
    with pytest.raises(EternaError, match="versions 1 and 2"):
        make_encoding("vale", 2, version=3)
    with pytest.raises(EternaError, match="version 1 only"):
        make_encoding("eternity", 3, version=2)


def test_version_2_encodes_a_base_game_with_the_artifact_fields_zero():
    game = eterna.load_game("vale")
    v1 = make_encoding("vale", 3)
    v2 = make_encoding("vale", 3, version=2)
    for k, state in enumerate(random_states("vale", 3, games=1, seed=4)):
        seat = k % 3
        one = v1.split(v1.observe(state, seat))
        two = v2.split(v2.observe(state, seat))
        for name in ("hand", "revealed", "areas", "discard", "pending_card"):
            width = one[name].shape[-1]
            assert np.array_equal(one[name], two[name][..., :width])  # base cards: same slots
            assert not two[name][..., width:].any()  # no Artifacts creature
        assert np.array_equal(one["phase"], two["phase"])
        for name in ("artifacts", "glade", "held", "shelter", "known_shelters", "shelter_sizes"):
            assert not two[name].any()
    art = make_encoding("vale", 2, ART)
    obs = art.observe(game.new_game(2, seed=1, options=ART), 0)
    assert art.split(obs)["artifacts"][0] == 1.0


def test_version_2_has_a_pending_slot_for_every_documented_question():
    from pathlib import Path

    from eterna.games.vale.encoding_v2 import PENDING_KINDS_V2

    doc = Path(__file__).resolve().parents[2] / "docs" / "vale.md"
    section = doc.read_text("utf-8").split("### Pending choices", 1)[1].split("\n#", 1)[0]
    documented = set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))
    assert len(documented) == 27
    assert set(PENDING_KINDS_V2) == documented | {"other"} and PENDING_KINDS_V2[-1] == "other"
    assert len(set(PENDING_KINDS_V2)) == len(PENDING_KINDS_V2)


def test_the_docs_give_version_2_s_offsets():
    from pathlib import Path

    doc = Path(__file__).resolve().parents[2] / "docs" / "encodings.md"
    section = doc.read_text("utf-8").split("### The Vale of Eternity, version 2", 1)[1]
    section = section.split("\n### ", 1)[0]
    rows = re.findall(r"^\| `(\w+)`(?:, `\w+`)? \| [^|]+ \| (\d+) \|", section, flags=re.M)
    enc = encoding_class("vale", version=2)()
    assert len(rows) >= 20
    for name, offset in rows:
        assert enc.offsets[name] == int(offset), name


@pytest.mark.parametrize("game_id", sorted(PINS))
def test_every_id_round_trips_through_notation(game_id):
    enc = make_encoding(game_id)
    game = eterna.load_game(game_id)
    for i in range(enc.num_actions):
        text = enc.notation(i)
        assert enc.action_id(text) == i
        assert game.parse_action(text) is enc.action(i)
        assert enc.action_id(enc.action(i)) == i


@pytest.mark.parametrize(("game_id", "players", "options"), TABLES)
def test_mask_is_the_legal_actions_and_ids_round_trip(game_id, players, options):
    enc = make_encoding(game_id, players, options)
    seen = 0
    for state in random_states(game_id, players, games=3, options=options):
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


@pytest.mark.parametrize(("game_id", "players", "options"), TABLES)
def test_observation_shape_range_and_view_only(game_id, players, options):
    enc = make_encoding(game_id, players, options)
    other = make_encoding(game_id, players, options)
    for k, state in enumerate(random_states(game_id, players, games=2, seed=1, options=options)):
        seat = k % players
        obs = enc.observe(state, seat)
        assert obs.shape == (enc.size,) and obs.dtype == np.float32
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        # the observation is a function of the view alone
        assert np.array_equal(obs, other.encode(state.view(seat)))


@pytest.mark.parametrize(("game_id", "players", "options"), TABLES)
def test_observation_never_depends_on_hidden_information(game_id, players, options):
    """Two states with the same view for a seat (a determinization) encode identically."""
    enc = make_encoding(game_id, players, options)
    rng = random.Random(5)
    checked = changed = 0
    for k, state in enumerate(random_states(game_id, players, games=2, seed=2, options=options)):
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


def _secret_shelters(state, seat):
    """The other seats' sheltered cards `seat` has not seen go in."""
    return {
        (s, c)
        for s, shelter in enumerate(state.arts.shelters)
        if s != seat
        for c in shelter
        if state.secret >> c & 1
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_version_2_never_shows_another_seats_secret_shelter(players):
    """The shelters are their owner's secret (their sizes and the cards seen going in are
    public): a determinization that redeals another seat's sheltered cards encodes the same."""
    enc = make_encoding("vale", players, ART)
    rng = random.Random(players)
    secret = redealt = 0
    options = {**ART, "artifact_set": "advanced"}
    for game in range(6):
        for state in random_states("vale", players, games=1, seed=10 + game, options=options):
            for seat in range(players):
                hidden = _secret_shelters(state, seat)
                if not hidden or state.is_terminal:
                    continue
                obs = enc.observe(state, seat).copy()
                fields = enc.split(obs)
                for s, c in hidden:  # nowhere in the known shelters, nor as the own shelter
                    assert fields["known_shelters"][(s - seat) % players, c] == 0
                    assert fields["shelter"][c] == 0
                secret += 1
                guess = state.determinize(seat, rng)
                if guess.arts.shelters != state.arts.shelters:
                    assert guess.view(seat) == state.view(seat)
                    assert np.array_equal(obs, enc.observe(guess, seat))
                    redealt += 1
        if redealt >= 5:
            break
    assert secret > 0 and redealt > 0


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
