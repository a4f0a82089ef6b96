"""The generators of record version 1, kept together so old records replay to the same games.

Version 1 (every record without a "version" key) drew:

- Eternity: every round's deal at the start from one `random.Random(seed)`: the trump columns
  with `shuffle`, the first leader with `randrange`, each deck by sorting on one `random()`
  float per card (`order_by_draws` in core/rng.py, which determinizations use too), the
  columns of later rounds with `shuffle`.
- The Vale: the first player (`randrange`) and the opening deck (`shuffle`) from
  `random.Random(seed)`; reshuffle k >= 1 of the discard pile from `random.Random(seed +
  (k << 62))`. The Vale keeps that as one int too, `seed + (k << 62)` (`vale_reshuffle`).
- Eternitium: the same splitmix64 stream as `eterna.core.rng.Rng`: nothing to keep.

A game asks `game_generator(seed, version)` and draws from what it gets through `below` and
`shuffle`, whichever version it is; a deck is dealt by `Rng.deal` in version 2, by the version's
own deck shuffle in version 1 (`order_by_draws` for Eternity, `random.Random.shuffle` for the
Vale).
"""

from __future__ import annotations

import random

from eterna.core.rng import Rng


class RandomV1(random.Random):
    """`random.Random(seed)` (the same stream) with the Rng's `below`."""

    def below(self, n: int) -> int:
        return self.randrange(n)


Generator = Rng | RandomV1


def game_generator(seed: int, version: int) -> Generator:
    """The generator a game of record version `version` draws its deals from."""
    if version == 1:
        return RandomV1(seed)
    return Rng(seed)


def vale_reshuffle(state: int, deck: list[int]) -> int:
    """Version 1's Vale reshuffle: `state` is `seed + (k << 62)` after k reshuffles."""
    state += 1 << 62
    random.Random(state).shuffle(deck)
    return state


def vale_reseed(state: int, seed: int) -> int:
    """Version 1's Vale stream with the seed replaced (a determinized copy), k kept."""
    return (state >> 62 << 62) | seed
