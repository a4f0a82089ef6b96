"""What every game's position tests check (docs/positions.md), shared by tests/games/*.

`assert_round_trip(state, future)`: the whole position, through JSON text, loads back as a state
with the same legal moves, every seat's view, scores, and the same game under `future` actions,
and writes the same position again.

`assert_seat_position_hides(state, seat)`: a seat's position holds nothing that seat cannot know.
Adversarially: states that differ only in what `seat` cannot see (`determinize` draws them)
must write exactly the same seat position.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from eterna.core.game import GameState
from eterna.core.position import UNKNOWN


def _through_json(position: dict[str, Any]) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(json.dumps(position))
    return loaded


def same_game(a: GameState, b: GameState, where: str) -> None:
    assert a.current_player == b.current_player, where
    assert a.is_terminal == b.is_terminal, where
    assert a.scores == b.scores, where
    assert a.winners == b.winners, where
    assert [str(x) for x in a.legal_actions()] == [str(x) for x in b.legal_actions()], where
    for seat in [None, *range(a.players)]:
        assert a.view(seat) == b.view(seat), f"{where}: view({seat})"


def assert_round_trip(state: GameState, future: Sequence[str] = ()) -> GameState:
    """Load `state`'s position and check it is the same game, now and under `future`."""
    game = state.game
    position = _through_json(state.to_position())
    assert position["seat"] is None and position["rng"] is not None
    loaded = game.from_position(position)
    same_game(state, loaded, "loaded")
    assert _through_json(loaded.to_position()) == position, "the position is written again"
    original = state.clone()
    for i, text in enumerate(future):
        original.apply(text)
        loaded.apply(text)
        same_game(original, loaded, f"after {i + 1} future action(s) ({text})")
    return loaded


def assert_seat_position_hides(state: GameState, seat: int, draws: int = 3) -> None:
    """The seat's position is a function of what the seat knows, and marks the rest unknown."""
    mine = _through_json(state.to_position(seat))
    assert mine["seat"] == seat and mine["rng"] is None
    rng = random.Random(seat)
    for _ in range(draws):
        guess = state.determinize(seat, rng)
        assert _through_json(guess.to_position(seat)) == mine, "a hidden difference leaked"
    loaded = state.game.from_position(mine)
    assert loaded.view(seat) == state.view(seat), "the seat's view survives its position"
    if state.current_player == seat:
        assert [str(a) for a in loaded.legal_actions()] == [str(a) for a in state.legal_actions()]
    again = loaded.determinize(seat, rng)
    assert _through_json(again.to_position(seat)) == mine


def unknowns(position: Any) -> int:
    """How many values a position marks unknown."""
    if position == UNKNOWN:
        return 1
    if isinstance(position, dict):
        return sum(unknowns(v) for v in position.values())
    if isinstance(position, list):
        return sum(unknowns(v) for v in position)
    return 0
