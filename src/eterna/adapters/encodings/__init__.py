"""Fixed-size encodings of each game for learning code (see docs/encodings.md).

Each game owns its encoding (`eterna.games.<id>.encoding`, found through
`Game.encoding_class()`); the base they share is `eterna.core.encoding.Encoding`. This module
only looks them up: `make_encoding(game_id, players=None)` returns a fresh `Encoding` (it owns
preallocated buffers: use one per environment); `ENCODINGS` maps game ids to their classes (the
default version of each; `make_encoding(game_id, players, options, version)` picks the version
for a game's options, e.g. The Vale's version 2 for a game with the Artifacts).
"""

from __future__ import annotations

from collections.abc import Mapping

from eterna.core.encoding import Encoding
from eterna.core.errors import EternaError
from eterna.core.options import OptionValue
from eterna.core.registry import game_ids, load_game


def _encodings() -> dict[str, type[Encoding]]:
    found = {}
    for game_id in game_ids():
        try:
            found[game_id] = load_game(game_id).encoding_class()
        except EternaError:
            continue  # a game without an encoding
    return found


ENCODINGS: dict[str, type[Encoding]] = _encodings()


def make_encoding(
    game_id: str,
    players: int | None = None,
    options: Mapping[str, OptionValue] | None = None,
    version: int | None = None,
) -> Encoding:
    """A fresh encoding of `game_id` for a game played with `options` (its version: `version`,
    or None for the game's default for those options; docs/encodings.md)."""
    return encoding_class(game_id, options, version)(players)


def encoding_class(
    game_id: str, options: Mapping[str, OptionValue] | None = None, version: int | None = None
) -> type[Encoding]:
    """The encoding class `make_encoding` builds."""
    try:
        cls = ENCODINGS[game_id]
    except KeyError:
        raise EternaError(
            f"no encoding for game {game_id!r}; encoded games: {', '.join(sorted(ENCODINGS))}"
        ) from None
    return cls.select(options, version)


__all__ = ["ENCODINGS", "Encoding", "encoding_class", "make_encoding"]
