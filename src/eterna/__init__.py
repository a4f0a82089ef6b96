"""Eterna: play and study Eternity, Eternitium and The Vale of Eternity."""

from eterna import engines

engines.choose()  # compiled or pure engines, before any of them loads (docs/compiled.md)

from eterna.core import (  # noqa: E402
    Action,
    BadNotation,
    BadPosition,
    BadRecord,
    BadSetup,
    EternaError,
    Game,
    GameState,
    IllegalAction,
    game_ids,
    load_game,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "Action",
    "BadNotation",
    "BadPosition",
    "BadRecord",
    "BadSetup",
    "EternaError",
    "Game",
    "GameState",
    "IllegalAction",
    "__version__",
    "game_ids",
    "load_game",
    "replay",
]
