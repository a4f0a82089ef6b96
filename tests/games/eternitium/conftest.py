"""Eternitium's tests: the game is registered here until eterna.games lists it; the helpers
module beside this file is made importable (pytest runs with --import-mode=importlib)."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from eterna.core.errors import EternaError
from eterna.core.registry import register
from eterna.games.eternitium import GAME

sys.path.insert(0, str(Path(__file__).parent))

with contextlib.suppress(EternaError):  # already registered by eterna.games
    register(GAME)
