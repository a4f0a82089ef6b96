"""The games. Each is listed here once, explicitly; importing this package registers them."""

from eterna.core.registry import register
from eterna.games.eternitium import GAME as ETERNITIUM
from eterna.games.eternity import GAME as ETERNITY
from eterna.games.vale import GAME as VALE

register(ETERNITY)
register(ETERNITIUM)
register(VALE)

__all__ = ["ETERNITIUM", "ETERNITY", "VALE"]
