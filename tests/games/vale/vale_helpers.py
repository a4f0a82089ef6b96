"""Helpers for The Vale of Eternity's tests: exact positions and short scripts.

Imported by the test modules as `vale_helpers` (conftest.py puts this folder on sys.path)."""

from __future__ import annotations

from typing import Any

from eterna.games.vale import GAME, ValeState


def vale(
    players: int = 2, seed: int = 1, options: dict[str, Any] | None = None, **setup: Any
) -> ValeState:
    """A game from an exact setup; seat 0 is first player unless said otherwise."""
    setup.setdefault("first_player", 0)
    return GAME.new_game(players, seed=seed, options=options, setup=setup)


def acting(players: int = 2, **setup: Any) -> ValeState:
    """Seat 0's action turn with nothing claimed (scores 0 unless given)."""
    setup.setdefault("claimed", [[] for _ in range(players)])
    setup.setdefault("scores", [0] * players)
    setup.setdefault("round", 3)
    options = setup.pop("options", None)
    return vale(players, options=options, **setup)


def resolving(players: int = 2, **setup: Any) -> ValeState:
    """Seat 0's resolution turn: every seat ends an empty action turn first."""
    st = acting(players, **setup)
    for _ in range(players):
        st.apply("end-turn")
    return st


def play(st: ValeState, *actions: str) -> ValeState:
    for a in actions:
        st.apply(a)
    return st


def legal(st: ValeState) -> list[str]:
    return [str(a) for a in st.legal_actions()]
