"""Cloning is declared (core/state.py): every slot of a game's state says how a clone gets it,
and the written-out clone does what the declaration says."""

from __future__ import annotations

import random

import pytest

import eterna
from eterna.core.state import COPY, COPY2, SHARE, BaseState, all_slots, clone_plan


def _state_class(game_id: str) -> type:
    game = eterna.load_game(game_id)
    return type(game.new_game(players=game.min_players, seed=1))


BASE_GAMES = [g for g in eterna.game_ids() if issubclass(_state_class(g), BaseState)]


@pytest.mark.parametrize("game_id", BASE_GAMES)
def test_the_declaration_covers_every_slot(game_id: str) -> None:
    cls = _state_class(game_id)
    assert clone_plan(cls).keys() == all_slots(cls)


@pytest.mark.parametrize("game_id", BASE_GAMES)
def test_a_clone_copies_what_is_declared_copied(game_id: str) -> None:
    """COPY and COPY2 slots are new containers (COPY2: each inner list too), equal to the
    original's; SHARE slots are the same object."""
    game = eterna.load_game(game_id)
    rng = random.Random(3)
    state = game.new_game(players=game.min_players, seed=3)
    plan = clone_plan(type(state))
    for step in range(400):
        if state.is_terminal:
            break
        if step % 25 == 0:
            twin = state.clone()
            for name, kind in plan.items():
                mine, theirs = getattr(state, name), getattr(twin, name)
                assert mine == theirs, name
                if kind == SHARE and not isinstance(mine, int | float):
                    assert theirs is mine, name  # (the compiled build keeps numbers unboxed)
                elif kind in (COPY, COPY2):
                    assert theirs is not mine, name
                if kind == COPY2:
                    assert all(a is not b for a, b in zip(mine, theirs, strict=True)), name
        state.apply(rng.choice(state.legal_actions()))
