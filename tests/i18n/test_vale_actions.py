"""The Vale's moves labelled in words: `Game.action_words` gives a `vale.action.<verb>` key and
its parameters for every legal action, and each label reads whole in every language."""

from __future__ import annotations

import random

import pytest

import eterna
from eterna.games.vale.cards import ACTIONS, CARD_NAME
from eterna.i18n import LANGS, catalog, describe_action, fill
from eterna.i18n.messages import messages_of, placeholders

NAMES = ["Alice", "Bob", "Chloé", "Dieter"]
GAME = eterna.load_game("vale")


def _needs(lang: str, key: str) -> set[str]:
    message = messages_of(lang)[key]
    texts = [message] if isinstance(message, str) else [t for f, t in message.items() if f != "by"]
    return {name for t in texts for name in placeholders(t)}


def test_every_action_of_the_game_has_its_own_label() -> None:
    verbs = set()
    for action in ACTIONS:
        key, params = GAME.action_words(action)
        assert key.startswith("vale.action."), action
        verbs.add(key)
        for lang in LANGS:
            assert _needs(lang, key) == set(params), (lang, key, params)
    assert len(verbs) == 26  # the base game's 17, 2 of the Artifacts creatures, 7 of its tiles


@pytest.mark.parametrize(
    ("players", "seed", "expansions"),
    [(2, 21, []), (3, 22, []), (4, 23, []), (2, 24, ["artifacts"]), (3, 25, ["artifacts"]),
     (4, 26, ["artifacts"])],
)  # fmt: skip
def test_every_legal_action_of_random_games_reads_in_every_language(
    players: int, seed: int, expansions: list[str]
) -> None:
    st = GAME.new_game(players, seed=seed, options={"expansions": expansions})
    rng = random.Random(seed)
    seen: set[str] = set()
    while not st.is_terminal:
        legal = list(st.legal_actions())
        for action in legal:
            if action.text in seen:
                continue
            seen.add(action.text)
            key, params = GAME.action_words(action)
            for lang in LANGS:
                label = catalog(lang).text(key, **fill("vale", params, lang, NAMES))
                assert label.strip() and "{" not in label, (lang, action, label)
                assert not any(f" {c}" in f" {label}" for c in CARD_NAME if "-" in c), label
        st.apply(rng.choice(legal))
    assert len(seen) > 30


def test_labels_read_naturally() -> None:
    assert describe_action("vale", "summon boulder pay red+red+purple", "fr", NAMES) == (
        "Invoquer Boulder en payant 2 pierres rouges et 1 pierre violette"
    )
    assert describe_action("vale", "remove imp pay red+red", "de", NAMES) == (
        "Imp entfernen (Zahlung: 2 rote Steine)"
    )
    assert describe_action("vale", "target seat-2", "en", NAMES) == "Name Chloé"
    assert describe_action("vale", "choose draw", "de", NAMES) == "Wählen: eine Karte ziehen"
    assert describe_action("vale", "discard-stone red", "en", NAMES) == "Discard a red stone"
    assert describe_action("vale", "summon dragon-egg", "en", NAMES) == "Summon Dragon Egg"
    assert describe_action("vale", "end-turn", "fr", NAMES) == "Finir votre tour"
