"""A stand-in position format for the front ends' tests, used only while a game has none.

The front ends (`eterna position`, the server's position endpoints, the /position page) work
through the contract alone: `GameState.to_position(seat)` and `Game.from_position(position)`.
Until a game's own format lands, `install(monkeypatch, game_id)` gives it a throwaway one
whose body is the game's record (so it is not a real seat position: it hides nothing); once the
game has its own format, `install` leaves it alone and the tests run on the real thing.
"""

from __future__ import annotations

from typing import Any

import pytest

from eterna.core.errors import EternaError
from eterna.core.game import Game, GameState
from eterna.core.position import Envelope, envelope, rng_text
from eterna.core.registry import load_game


def has_positions(game: Game) -> bool:
    state = game.new_game(players=game.min_players, seed=1)
    try:
        state.to_position()
    except EternaError:
        return False
    return True


class _ForGood:
    """A `monkeypatch` that never undoes: for a server process started for a test."""

    def setattr(self, target: Any, name: str, value: Any) -> None:
        setattr(target, name, value)


FOR_GOOD = _ForGood()


def install(monkeypatch: pytest.MonkeyPatch | _ForGood, game_id: str = "eternity") -> bool:
    """Give `game_id` the stand-in format if it has none; True when the stand-in is used."""
    game = load_game(game_id)
    if has_positions(game):
        return False
    state_class = type(game.new_game(players=game.min_players, seed=1))

    def to_position(self: GameState, seat: int | None = None) -> dict[str, Any]:
        record = self.to_record()
        position = envelope(self.game, self.players, record.get("options") or {}, seat)
        if seat is None:
            position["rng"] = rng_text(int(record["seed"]))
        position["record"] = record
        return position

    def from_position(self: Game, position: Any, *, narrate: bool = False) -> GameState:
        env = Envelope(self, position)
        body = env.reader["record"]
        body.object(("game", "version", "players", "seed", "options", "setup", "actions"))
        try:
            return self.from_record(body.value)
        except EternaError as exc:
            body.fail(str(exc))

    monkeypatch.setattr(state_class, "to_position", to_position)
    monkeypatch.setattr(type(game), "from_position", from_position)
    return True
