"""The base solo game of Eternitium is told as the base solo game (issue 32): its log never
says "Mission 0", whether it is won or lost; a Special Mission keeps its number."""

from __future__ import annotations

import random

import pytest

import eterna
from eterna.i18n import LANGS, describe_event

GAME = eterna.load_game("eternitium")


def _told(mission: int, seed: int) -> list[dict[str, object]]:
    st = GAME.new_game(1, seed=seed, options={"mission": mission})
    rng = random.Random(seed)
    while not st.is_terminal:
        st.apply(rng.choice(list(st.legal_actions())))
    events: list[dict[str, object]] = st.events_since(0, 0)
    return [e for e in events if e["kind"] in ("game_started", "mission_result")]


@pytest.mark.parametrize("lang", LANGS)
def test_the_base_solo_game_is_never_mission_0(lang: str) -> None:
    started, result = _told(0, 3)
    lines = [describe_event("eternitium", e, lang, ["Ada"]) for e in (started, result)]
    assert not any("mission 0" in line.lower() for line in lines), lines
    won = dict(result, won=True, turns=7)
    assert "mission 0" not in describe_event("eternitium", won, lang, ["Ada"]).lower()


def test_the_base_solo_game_in_words() -> None:
    started, result = _told(0, 3)
    assert describe_event("eternitium", started, "en", ["Ada"]).startswith(
        "A solo game of Eternitium begins (the base solo game, at most"
    )
    said = describe_event("eternitium", dict(result, won=False, era=2, turns=8), "en", ["Ada"])
    assert said == "Solo game lost: 2 Era cards left after 8 turns"
    said = describe_event("eternitium", dict(result, won=True, turns=6), "fr", ["Ada"])
    assert said == "Partie solo réussie en 6 tours : la gemme d'Eternitium est trouvée !"
    _started, special = _told(3, 3)
    assert describe_event("eternitium", special, "en", ["Ada"]).startswith("Mission 3 ")
