"""Eternity's refusals name the rule that refused (issue 32): over random games, every refused
action carries its catalog key and parameters, and each refusal path names its own rule, the
same one the English message cites."""

from __future__ import annotations

import random

import pytest

import eterna
from eterna.core.errors import IllegalAction
from eterna.games.eternity.cards import CARD_NAME
from eterna.i18n import LANGS, describe_refusal

GAME = eterna.load_game("eternity")
NAMES = ["Alice", "Bob", "Chloé", "Dieter", "Eve"]
# each refusal path and the rule it names (rules §5: play from your hand; §5.2 the leader; §5.3
# participate; §5.4 pledge limits; §8 three rounds)
RULES = {
    "eternity.refusal.not_in_hand": "§5",
    "eternity.refusal.leader_must_play": "§5.2",
    "eternity.refusal.must_follow": "§5.3",
    "eternity.refusal.must_trump": "§5.3",
    "eternity.refusal.pledge_limit": "§5.4",
    "eternity.refusal.game_over": "§8",
}


def _refuse(st: eterna.GameState, action: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        st.apply(action)
    return caught.value


def _refusals_seen(players: int, seed: int) -> set[str]:
    st = GAME.new_game(players, seed=seed)
    rng = random.Random(seed)
    every = [f"{verb} {card}" for verb in ("play", "pledge") for card in CARD_NAME]
    seen: set[str] = set()
    while not st.is_terminal:
        legal = {str(a) for a in st.legal_actions()}
        for action in rng.sample(every, 12):
            if action in legal:
                continue
            err = _refuse(st, action)
            assert err.key in RULES, str(err)
            assert err.rule == RULES[err.key], (err.key, err.rule, str(err))
            assert f"rules {err.rule}" in str(err), str(err)
            for lang in LANGS:
                text = describe_refusal(err.key, err.params, lang, NAMES)
                assert text[:1].isupper() and "{" not in text, (lang, text)
            seen.add(err.key)
        st.apply(rng.choice(list(st.legal_actions())))
    err = _refuse(st, "play sea-3")
    assert (err.key, err.rule) == ("eternity.refusal.game_over", "§8")
    seen.add(err.key)
    return seen


def test_every_refusal_names_its_paths_rule() -> None:
    seen = _refusals_seen(3, 1) | _refusals_seen(4, 2) | _refusals_seen(5, 3)
    assert seen == set(RULES), seen
