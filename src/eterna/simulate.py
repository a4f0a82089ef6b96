"""Moved to `eterna.arena.simulate`; this alias stays while `eterna.server.tables` still imports
`check_agent` from here, and goes once it imports `eterna.arena.simulate` instead."""

from eterna.arena.simulate import *  # noqa: F403
from eterna.arena.simulate import __all__ as __all__
