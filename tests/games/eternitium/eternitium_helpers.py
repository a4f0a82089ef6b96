"""Shared helpers for Eternitium's tests: exact positions through the documented `setup` format."""

from __future__ import annotations

import types
import typing
from typing import Any, NotRequired, get_args, get_origin, get_type_hints, is_typeddict

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


def check_value(value: object, hint: Any, where: str) -> None:
    """`value` is of the type `hint` (the few forms the view's TypedDicts use)."""
    origin = get_origin(hint)
    if origin is NotRequired:
        check_value(value, get_args(hint)[0], where)
    elif origin in (typing.Union, types.UnionType):
        errors = []
        for option in get_args(hint):
            try:
                check_value(value, option, where)
            except AssertionError as exc:
                errors.append(exc)
            else:
                return
        raise AssertionError(f"{where}: {value!r} is none of {hint}: {errors}")
    elif hint is type(None):
        assert value is None, (where, value)
    elif is_typeddict(hint):
        check_keys(value, hint, where)
    elif origin is list:
        assert isinstance(value, list), (where, value)
        for i, item in enumerate(value):
            check_value(item, get_args(hint)[0], f"{where}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict), (where, value)
        key_type, value_type = get_args(hint)
        for key, item in value.items():
            check_value(key, key_type, f"{where} key")
            check_value(item, value_type, f"{where}[{key!r}]")
    elif hint is int:
        assert isinstance(value, int) and not isinstance(value, bool), (where, value)
    else:
        assert hint in (str, bool), (where, hint)
        assert type(value) is hint, (where, value, hint)


def check_keys(value: object, typed: Any, where: str) -> None:
    assert isinstance(value, dict), (where, value)
    keys = set(value)
    assert typed.__required_keys__ <= keys, (where, typed.__required_keys__ - keys)
    assert keys <= typed.__required_keys__ | typed.__optional_keys__, (where, keys)
    hints = get_type_hints(typed)
    for key, item in value.items():
        check_value(item, hints[key], f"{where}.{key}")
