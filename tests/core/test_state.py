"""The shared state base (eterna.core.state): no game's clone shares what play changes.
(tests/core/test_clone_declarations.py checks each game's clone against its declaration.)"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import eterna

GAME_IDS = eterna.game_ids()


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
