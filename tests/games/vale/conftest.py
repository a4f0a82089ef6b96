"""The Vale of Eternity's tests: register the game and make `vale_helpers` importable."""

import sys
from pathlib import Path

from eterna.core.registry import register
from eterna.games.vale import GAME

register(GAME)
sys.path.insert(0, str(Path(__file__).parent))
