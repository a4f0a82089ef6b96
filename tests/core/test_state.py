"""The shared state base (eterna.core.state): a class with an incomplete clone declaration is
refused when defined, the clone kinds do what they say, and no game's clone shares what play
changes. (tests/core/test_clone_declarations.py checks each game's declaration.)"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

import pytest

import eterna
from eterna.core.state import COPY, SHARE, BaseState, all_slots

GAME_IDS = eterna.game_ids()


def test_a_class_that_forgets_a_slot_is_refused_when_defined() -> None:
    with pytest.raises(TypeError, match=r"missing \['_forgotten'\]"):

        class Forgetful(BaseState[Any, Any]):
            __slots__ = ("_forgotten", "_kept")
            CLONE: ClassVar[dict[str, Any]] = {"_kept": SHARE}


def test_clone_kinds_copy_what_they_say() -> None:
    class Toy(BaseState[Any, Any]):
        __slots__ = ("_custom", "_flat", "_nested", "_same")
        CLONE: ClassVar[dict[str, Any]] = {
            "_flat": COPY,
            "_nested": "copy2",
            "_same": SHARE,
            "_custom": lambda value: value * 2,
        }

        @property
        def scores(self) -> list[int]:
            return []

    toy = Toy.__new__(Toy)
    for name in all_slots(BaseState):
        setattr(toy, name, [])
    toy._flat, toy._nested, toy._same, toy._custom = [1], [[2]], (3,), 4
    copy = toy.clone()
    assert copy._flat == [1] and copy._flat is not toy._flat
    assert copy._nested == [[2]] and copy._nested[0] is not toy._nested[0]
    assert copy._same is toy._same
    assert copy._custom == 8


def _seen(state: Any) -> str:
    views = [state.view(None), *(state.view(s) for s in range(state.players))]
    return json.dumps([views, state.legal_actions() and [str(a) for a in state.legal_actions()]])


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_clone_shares_nothing_that_play_changes(game_id: str) -> None:
    """Play on a clone at many points of a game: the original never moves."""
    game = eterna.load_game(game_id)
    state = game.new_game(game.max_players, seed=5)
    rng = random.Random(5)
    steps = 0
    while not state.is_terminal and steps < 400:
        if steps % 7 == 0:
            before = _seen(state)
            copy = state.clone()
            for _ in range(12):
                if copy.is_terminal:
                    break
                copy.apply(rng.choice(copy.legal_actions()))
            assert _seen(state) == before, f"{game_id}: a clone changed its original"
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
