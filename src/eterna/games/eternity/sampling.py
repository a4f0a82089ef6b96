"""Hands for a determinization (state.py's `_determinize`): the cards a seat cannot see dealt
into the other hands, at their sizes, so no seat gets a family it has shown it is void in."""

from __future__ import annotations

import random
from typing import Final

from eterna.core.errors import EternaError
from eterna.core.rng import shuffle
from eterna.games.eternity.cards import CARD_FAMILY, FAMILIES, mask_of

_NF: Final = len(FAMILIES)


def sample_hands(
    pool: list[int], sizes: dict[int, int], voids: dict[int, int], rng: random.Random
) -> dict[int, int]:
    """Deal `pool` into hands of the given sizes so no seat gets a family it is void in.

    Voids are per family, so only cards of a family that some seat is void in are constrained.
    Those are placed first, most constrained first, each to an allowed seat drawn with weight
    equal to its free room (a dead end restarts; after many, an exact search finishes). The
    unconstrained cards, shuffled, then fill the room left, which is uniform given the rest.
    A valid deal always exists: the true one.
    """
    seats = list(sizes)
    cards = pool[:]
    shuffle(rng, cards)
    allowed = [tuple(s for s in seats if not voids[s] >> f & 1) for f in range(_NF)]
    tied = [c for c in cards if len(allowed[CARD_FAMILY[c]]) < len(seats)]
    free = [c for c in cards if len(allowed[CARD_FAMILY[c]]) == len(seats)]
    for _ in range(200):
        tied.sort(key=lambda c: len(allowed[CARD_FAMILY[c]]))  # stable: keeps the shuffle
        room = dict(sizes)
        hands = dict.fromkeys(seats, 0)
        for card in tied:
            options = [s for s in allowed[CARD_FAMILY[card]] if room[s]]
            if not options:
                break
            s = (
                rng.choices(options, [room[s] for s in options])[0]
                if len(options) > 1
                else options[0]
            )
            room[s] -= 1
            hands[s] |= 1 << card
        else:
            start = 0
            for s in seats:
                stop = start + room[s]
                hands[s] |= mask_of(free[start:stop])
                start = stop
            return hands
        shuffle(rng, tied)
    return _exact_hands(pool, sizes, {c: list(allowed[CARD_FAMILY[c]]) for c in pool}, rng)


def _exact_hands(
    pool: list[int],
    sizes: dict[int, int],
    allowed: dict[int, list[int]],
    rng: random.Random,
) -> dict[int, int]:
    """Backtracking deal by family counts (few families, so the search is tiny)."""
    seats = list(sizes)
    by_family: dict[int, list[int]] = {}
    for card in pool:
        by_family.setdefault(CARD_FAMILY[card], []).append(card)
    families = sorted(by_family)

    def split(i: int, room: dict[int, int]) -> list[dict[int, int]] | None:
        if i == len(families):
            return [] if not any(room.values()) else None
        fam = families[i]
        total = len(by_family[fam])
        takers = [s for s in seats if s in allowed[by_family[fam][0]]]
        for counts in _compositions(total, [room[s] for s in takers]):
            rest = dict(room)
            for s, k in zip(takers, counts, strict=True):
                rest[s] -= k
            tail = split(i + 1, rest)
            if tail is not None:
                return [dict(zip(takers, counts, strict=True)), *tail]
        return None

    plan = split(0, dict(sizes))
    if plan is None:
        raise EternaError("no deal is consistent with what this seat has seen")
    hands = dict.fromkeys(seats, 0)
    for fam, counts in zip(families, plan, strict=True):
        cards = by_family[fam][:]
        shuffle(rng, cards)
        for s, k in counts.items():
            for card in cards[:k]:
                hands[s] |= 1 << card
            cards = cards[k:]
    return hands


def _compositions(total: int, caps: list[int]) -> list[tuple[int, ...]]:
    """Every way to write `total` as an ordered sum with part i at most caps[i]."""
    if not caps:
        return [()] if total == 0 else []
    out = []
    for first in range(min(total, caps[0]), -1, -1):
        for rest in _compositions(total - first, caps[1:]):
            out.append((first, *rest))
    return out
