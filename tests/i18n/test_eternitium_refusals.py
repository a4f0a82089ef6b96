"""Eternitium's refusals carry their catalog key, parameters and rule (docs/i18n.md): over random
games (multiplayer and solo missions), every refused action's key exists in every language, its
parameters are exactly the message's placeholders, and the English text stays the engine's."""

from __future__ import annotations

import random
from typing import Any

import pytest

import eterna
from eterna.core.errors import IllegalAction
from eterna.games.eternitium.cards import ACTIONS
from eterna.i18n import LANGS, catalog, describe_refusal
from eterna.i18n.messages import message_params, messages_of

NAMES = ["Alice", "Bob", "Chloé", "Dieter", "Eve"]
GAME = eterna.load_game("eternitium")


def _needs(lang: str, key: str) -> set[str]:
    return message_params(messages_of(lang)[key])


def _keys_seen(players: int, seed: int, options: dict[str, Any]) -> set[str]:
    st = GAME.new_game(players, seed=seed, options=options)
    rng = random.Random(seed)
    keys: set[str] = set()
    while not st.is_terminal:
        legal = {a.text for a in st.legal_actions()}
        for act in rng.sample(ACTIONS, 40):
            if act.text in legal:
                continue
            with pytest.raises(IllegalAction) as caught:
                st.apply(act)
            err = caught.value
            assert str(err).startswith(f"{act}: ")
            assert err.key is not None and err.key.startswith("eternitium.refusal."), str(err)
            keys.add(err.key)
            for lang in LANGS:
                assert _needs(lang, err.key) == set(err.params), (lang, err.key, err.params)
                text = describe_refusal(err.key, err.params, lang, NAMES)
                assert text and "{" not in text, (lang, err.key, text)
            assert err.rule, str(err)  # every refusal names its rule (issue 32)
            assert err.rule.lower() in str(err).lower(), (err.rule, str(err))
        st.apply(rng.choice(list(st.legal_actions())))
    return keys


def test_every_refusal_has_its_key_and_params() -> None:
    keys: set[str] = set()
    for players, seed, options in [
        (3, 1, {}),
        (2, 2, {}),
        (1, 3, {"mission": 9}),
        (1, 5, {"mission": 4}),  # seed 5: a game that tries an unrevealed Portal card
    ]:
        keys |= _keys_seen(players, seed, options)
    assert {
        "eternitium.refusal.wait_play",
        "eternitium.refusal.not_in_hand",
        "eternitium.refusal.portal_reserve_empty",
        "eternitium.refusal.portal_not_revealed",
    } <= keys, keys
    assert len(keys) >= 25, sorted(keys)


def test_a_portal_on_another_shape_is_refused_in_words() -> None:
    setup = {
        "first_player": 0,
        "hands": [["portal-circle", "droid"], []],
        "era": [["square"], ["diamond"]],
        "portals": {"circle": 0, "square": 0, "triangle": 0, "diamond": 0},
    }
    st = GAME.new_game(2, seed=1, setup=setup)
    with pytest.raises(IllegalAction) as caught:
        st.apply("play portal-circle")
    err = caught.value
    assert err.key == "eternitium.refusal.portal_mismatch" and err.rule == "R15"
    assert err.params == {"card": "portal-circle", "shape": "square"}
    assert "does not match your visible square Era card" in str(err)
    said = describe_refusal(err.key, err.params, "fr", NAMES)
    assert said == catalog("fr").text(err.key, card="Portail cercle", shape="carré")
