"""The one registry of games. Games register themselves; core never names one."""

from __future__ import annotations

import importlib

from eterna.core.errors import EternaError
from eterna.core.game import Game

_GAMES: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    if game.id in _GAMES and _GAMES[game.id] is not game:
        raise EternaError(f"game id {game.id!r} registered twice")
    _GAMES[game.id] = game
    return game


def _load_all() -> None:
    # The games package lists its games explicitly; importing it registers them.
    global _loaded
    if not _loaded:
        importlib.import_module("eterna.games")
        _loaded = True


def game_ids() -> list[str]:
    _load_all()
    return sorted(_GAMES)


def load_game(game_id: str) -> Game:
    _load_all()
    if not isinstance(game_id, str):
        raise EternaError(f"a game id is a string (see game_ids()), not {game_id!r}")
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES))
        raise EternaError(f"unknown game {game_id!r}; known games: {known}") from None
