"""The games. Each is listed here once, explicitly; importing this package registers them."""

from eterna.core.registry import register
from eterna.games.eternity import GAME as ETERNITY

register(ETERNITY)

__all__ = ["ETERNITY"]
