"""Loaded at start-up by the server test_position_ui.py runs (this folder is first on its
PYTHONPATH): a game without its own position format yet gets tests/fake_positions.py's
stand-in, so the position page can be tried before every game's format has landed. A game with
its own format is left alone."""

from __future__ import annotations

import os

if os.environ.get("ETERNA_TEST_FAKE_POSITIONS"):
    from tests import fake_positions

    fake_positions.install(fake_positions.FOR_GOOD, os.environ["ETERNA_TEST_FAKE_POSITIONS"])
