"""Imported by the fork server of the decision workers (workers.py) before it forks any: every
game, the agents and the hints, so a new worker starts warm in milliseconds."""

from eterna.arena import hints as _hints
from eterna.core.registry import game_ids

game_ids()

__all__ = ["_hints"]
