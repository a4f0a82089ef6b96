"""The Vale's refusals carry their catalog key, parameters and rule (docs/i18n.md): over random
states, every refused action's key exists in every language and its parameters fill the text."""

from __future__ import annotations

import random

import pytest

import eterna
from eterna.core.errors import IllegalAction
from eterna.games.vale.cards import A_REMOVE, A_SUMMON, ACTIONS
from eterna.i18n import LANGS, catalog, describe_refusal
from eterna.i18n.messages import message_params, messages_of

NAMES = ["Alice", "Bob", "Chloé", "Dieter"]
GAME = eterna.load_game("vale")


def _needs(lang: str, key: str) -> set[str]:
    return message_params(messages_of(lang)[key])


def _refused(st: eterna.GameState, rng: random.Random) -> list[eterna.Action]:
    """Refused actions worth trying: summons and removals of the player's own cards with
    every payment, and a sample of everything else."""
    legal = {a.text for a in st.legal_actions()}
    p = st.current_player
    tries = list(rng.sample(ACTIONS, 30))
    if p is not None:
        for c in st.hands[p]:
            tries.extend(rng.sample(A_SUMMON[c], 8))
        for c in st.areas[p]:
            tries.extend(rng.sample(A_REMOVE[c], 8))
    return [a for a in tries if a.text not in legal]


@pytest.mark.parametrize(("players", "seed"), [(2, 31), (3, 32), (4, 33)])
def test_every_refusal_has_its_key_params_and_rule(players: int, seed: int) -> None:
    st = GAME.new_game(players, seed=seed)
    rng = random.Random(seed)
    keys: set[str] = set()
    while not st.is_terminal:
        for act in _refused(st, rng):
            with pytest.raises(IllegalAction) as caught:
                st.apply(act)
            err = caught.value
            assert str(err).startswith(f"{act}: ")
            assert err.key is not None and err.key.startswith("vale.refusal."), str(err)
            keys.add(err.key)
            for lang in LANGS:
                assert _needs(lang, err.key) == set(err.params), (lang, err.key, err.params)
                text = describe_refusal(err.key, err.params, lang, NAMES)
                assert text and "{" not in text, (lang, err.key, text)
            if err.key != "vale.refusal.not_allowed":
                assert err.rule, err.key
        st.apply(rng.choice(list(st.legal_actions())))
    assert {
        "vale.refusal.must_claim",
        "vale.refusal.summon_not_in_hand",
        "vale.refusal.stones_not_held",
        "vale.refusal.answer_stone_limit",
    } <= keys, keys


def test_refusals_read_naturally() -> None:
    st = GAME.new_game(2, seed=4)
    with pytest.raises(IllegalAction) as caught:
        st.apply("end-turn")
    err = caught.value
    assert err.key == "vale.refusal.must_claim" and err.rule == "§4.2"
    assert describe_refusal(err.key, err.params, "de", NAMES) == catalog("de").text(err.key)
