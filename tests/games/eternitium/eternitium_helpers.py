"""Shared helpers for Eternitium's tests: exact positions through the documented `setup` format."""

from __future__ import annotations

from typing import Any

from eterna.games.eternitium import GAME, EternitiumState

NO_PORTALS = {"circle": 0, "square": 0, "triangle": 0, "diamond": 0}


def make(
    players: int = 2,
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    portals: dict[str, int] | None = None,
    empty_markets: bool = False,
    **setup: Any,
) -> EternitiumState:
    """A game from an exact position: seat 0 starts, the reserve empty unless given, every
    seat's hand empty unless given (which skips the setup pick). `empty_markets` leaves both
    technology markets empty (setup `exact`: the unplaced cards go to the box)."""
    setup.setdefault("first_player", 0)
    if "hands" in setup or "decks" in setup:
        setup.setdefault("hands", [[] for _ in range(players)])
    if "portal_deck" not in setup:
        setup["portals"] = NO_PORTALS if portals is None else {**NO_PORTALS, **portals}
    if empty_markets:
        for key in ("basic_row", "basic_deck", "advanced_row", "advanced_deck"):
            setup[key] = []
        setup["exact"] = [*setup.get("exact", []), "basic_deck", "advanced_deck"]
    return GAME.new_game(players, seed=seed, options=options or {}, setup=setup)


def do(state: EternitiumState, *actions: str) -> None:
    for action in actions:
        state.apply(action)


def legal(state: EternitiumState) -> list[str]:
    return [str(a) for a in state.legal_actions()]
