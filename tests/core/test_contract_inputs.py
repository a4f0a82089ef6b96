"""A value of the wrong type at the contract's entry points gets the contract's error, naming
it, on both builds.

The contract is typed for its callers (core/game.py), and mypy checks them; untyped code (a
script, a JSON message) may still hand any value over. The implementations take `object` where
they check the value themselves, so that a compiled build neither turns `True` into seat 1 nor
raises `TypeError` before the check: `make test` runs this file on the compiled engines and
`make pure` on the pure ones.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import eterna
from eterna.core.errors import BadNotation, BadRecord, BadSetup, EternaError, IllegalAction

GAME_IDS = eterna.game_ids()


def started(game_id: str) -> Any:
    game = eterna.load_game(game_id)
    return game.new_game(players=game.min_players if game.min_players > 1 else 2, seed=5)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seat", [True, "0", 1.0, [0], -1, 9])
def test_a_bad_seat_is_refused_by_every_seat_method(game_id: str, seat: Any) -> None:
    state = started(game_id)
    before = state.to_record()
    for ask in (
        lambda: state.view(seat),
        lambda: state.determinize(seat, random.Random(1)),
        lambda: state.events_since(0, seat),
        lambda: state.to_position(seat),
    ):
        with pytest.raises(EternaError, match=r"no seat .* at a \d-player table"):
            ask()
    assert state.to_record() == before


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("index", [True, "0", 0.0, -1])
def test_a_bad_event_index_is_refused(game_id: str, index: Any) -> None:
    with pytest.raises(EternaError, match="an event index is a count from 0"):
        started(game_id).events_since(index, None)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("action", [7, None, 1.5, ["end"]])
def test_what_is_no_action_is_refused_and_changes_nothing(game_id: str, action: Any) -> None:
    state = started(game_id)
    before = state.to_record()
    with pytest.raises(IllegalAction, match=r"is not an? .* action"):
        state.apply(action)
    with pytest.raises(BadNotation, match="action is a string like"):
        state.game.parse_action(action)
    assert state.to_record() == before


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("players", "2", "players must be an integer"),
        ("players", True, "players must be an integer"),
        ("seed", "7", "seed must be an integer"),
        ("seed", True, "seed must be an integer"),
        ("options", [1], "options must be an object"),
        ("version", True, "record version must be the integer"),
    ],
)
def test_a_record_field_of_the_wrong_type_is_named(
    game_id: str, field: str, value: Any, message: str
) -> None:
    record = started(game_id).to_record()
    game = eterna.load_game(game_id)
    with pytest.raises(BadRecord, match=message):
        game.from_record({**record, field: value})
    if field != "version":  # new_game's own keyword takes the same values
        with pytest.raises(BadSetup, match=message):
            game.new_game(**{"players": record["players"], "seed": 1, field: value})
