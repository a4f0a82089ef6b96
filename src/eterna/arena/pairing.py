"""Paired seating: every deal is replayed once for each rotation of the lineup.

The lineup is the agent specs cycled to one per seat (`eterna.arena.simulate.lineup`). A
*rotation set* is one deal played `players` times: in rotation `r`, seat `s` gets
`lineup[(s + r) % P]`, and all `P` games of the set are dealt from the same game seed
(`seed + deal`). Each lineup entry therefore plays every seat of every deal once, and the luck
of the deal cancels out of the comparison between agents. A requested number of games is
rounded up to whole rotation sets.

Game `index = deal * players + rotation`; the agent in seat `s` of game `index` is seeded with
`derive_seed(seed, index, s)`, as in `eterna simulate`. So every game is a pure function of
(game, players, options, lineup, seed, index), whichever process or machine plays it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eterna.arena.simulate import derive_seed, seat_specs
from eterna.core.errors import BadSetup, EternaError
from eterna.core.rng import SEED_LIMIT, check_seed


@dataclass(frozen=True)
class Match:
    """One game of an arena: who sits where, and every seed it needs."""

    index: int
    deal: int
    rotation: int
    seed: int  # the game's seed (the deal), shared by the whole rotation set
    agents: tuple[str, ...]  # agent spec per seat
    agent_seeds: tuple[int, ...]  # agent seed per seat


def rotation_sets(games: int, players: int) -> int:
    """How many deals `games` needs, rounded up to whole rotation sets."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise EternaError(f"the number of games must be 0 or more, not {games!r}")
    return -(-games // players)


def schedule(line: Sequence[str], games: int, seed: int) -> list[Match]:
    """Every game of an arena over `line` (one spec per seat), in index order."""
    players = len(line)
    if players < 1:
        raise EternaError("the lineup needs at least one seat")
    check_seed(seed)
    deals = rotation_sets(games, players)
    if deals and seed + deals - 1 >= SEED_LIMIT:
        raise BadSetup("seed + deals must stay below 2**62")
    matches = []
    for deal in range(deals):
        for rotation in range(players):
            index = deal * players + rotation
            matches.append(
                Match(
                    index=index,
                    deal=deal,
                    rotation=rotation,
                    seed=seed + deal,
                    agents=tuple(seat_specs(line, rotation)),
                    agent_seeds=tuple(derive_seed(seed, index, s) for s in range(players)),
                )
            )
    return matches
