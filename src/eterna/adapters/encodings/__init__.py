"""Fixed-size encodings of each game for learning code (see docs/encodings.md).

`make_encoding(game_id, players=None)` returns a fresh `Encoding` (it owns preallocated buffers:
use one per environment). `ENCODINGS` maps game ids to their classes.
"""

from __future__ import annotations

from eterna.adapters.encodings.base import Encoding
from eterna.adapters.encodings.eternitium import EternitiumEncoding
from eterna.adapters.encodings.eternity import EternityEncoding
from eterna.adapters.encodings.vale import ValeEncoding
from eterna.core.errors import EternaError

ENCODINGS: dict[str, type[Encoding]] = {
    "eternitium": EternitiumEncoding,
    "eternity": EternityEncoding,
    "vale": ValeEncoding,
}


def make_encoding(game_id: str, players: int | None = None) -> Encoding:
    try:
        cls = ENCODINGS[game_id]
    except KeyError:
        raise EternaError(
            f"no encoding for game {game_id!r}; encoded games: {', '.join(sorted(ENCODINGS))}"
        ) from None
    return cls(players)


__all__ = [
    "ENCODINGS",
    "Encoding",
    "EternitiumEncoding",
    "EternityEncoding",
    "ValeEncoding",
    "make_encoding",
]
