"""The arena: seeded runs of many games (`simulate`, behind `eterna simulate`), fair matches
between agents (paired seating), tournaments over many games in parallel (process pool or Ray),
ratings (openskill), move hints and balance statistics.

Everything here works on every registered game through the game contract alone.
"""

from eterna.arena.pairing import Match, rotation_sets, schedule
from eterna.arena.runner import ArenaSpec, play_match, prepare, run_arena
from eterna.arena.stats import aggregate, final_ranks, wilson

__all__ = [
    "ArenaSpec",
    "Match",
    "aggregate",
    "final_ranks",
    "play_match",
    "prepare",
    "rotation_sets",
    "run_arena",
    "schedule",
    "wilson",
]
