"""What the Vale's heuristic counts the Artifacts' 28 creatures worth (their texts in
data/artifacts.json), as worth.py does for the base cards: instants on the sketch, actives per
resolution, permanents per round. `CardWorth` (worth.py) asks here for the cards it does not
know; every figure is a rough estimate in points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from eterna.games.vale.cards import (
    CARD_BY_NAME,
    CARD_COST,
    CARD_FAMILY,
    CARD_NAME,
    DRAGON,
    EARTH,
    FIRE,
    HAS_PERMANENT,
    WATER,
)

if TYPE_CHECKING:
    from eterna.games.vale.worth import CardWorth, Sketch

_C = CARD_BY_NAME

# Permanents, per round left (their instants and actives are counted apart).
ART_PERMANENT: Final[dict[str, float]] = {
    "ash": 0.3,  # removed, it comes back with points: counted in `removal_bonus`
    "belphegor": 0.6,
    "duduri-king": 0.8,
    "totem-pole": 0.7,
    "loki": 0.3,
    # the "returns to hand" cards: the return gives the instant again, later
    "fireblast": 0.2,
    "thalassa": 0.3,
    "wendigo": 0.3,
    "banshee": 0.2,
}
# An instant's worth while the card waits in hand (the position it will meet is unknown).
ART_GUESS: Final[dict[str, float]] = {
    "fire-rat": 3.0,
    "fireblast": 1.5,
    "thalassa": 2.5,
    "wendigo": 6.0,
    "banshee": 3.0,
    "kraken": 6.0,
    "anzu": 9.0,
    "mandrake": 3.0,
    "melusine": 5.0,
    "taweret": 1.5,
    "anubis": 4.0,
    "akhlut": 7.0,
    "horus": 6.0,
    "duduri": 0.5,
    "nurikabe": 1.5,
    "deepdive": 7.0,
    "pyro": 7.0,
    "whisper": 8.0,
    "rockscale": 8.0,
    "belphegor": 1.0,
}
# Swap Dragons: their fixed points (the swap itself trades a card for a card).
SWAP_DRAGONS: Final[dict[str, int]] = {"deepdive": 7, "pyro": 7, "whisper": 8, "rockscale": 8}


def family_counts(area: list[int]) -> list[int]:
    counts = [0] * 5
    for c in area:
        counts[CARD_FAMILY[c]] += 1
    return counts


def art_instant(w: CardWorth, card: int, sk: Sketch) -> float | None:
    """The instant of an Artifacts creature on the sketch (card in the area), or None."""
    name = CARD_NAME[card]
    area, hand = sk.area, sk.hand
    fams = family_counts(area)
    if name == "fire-rat":
        return float(sum(1 for c in area if CARD_COST[c] <= 3))
    if name == "fireblast":
        return float(fams[FIRE] // 2)
    if name == "thalassa":
        return float(fams[WATER])
    if name == "wendigo":
        return 2.0 * fams[EARTH]
    if name == "banshee":
        return float(sum(1 for f in fams if f))
    if name == "kraken":
        return 2.0 * max(fams)
    if name == "anzu":
        return 3.0 * len({CARD_FAMILY[c] for c in hand})
    if name in SWAP_DRAGONS:
        return float(SWAP_DRAGONS[name])
    if name == "mandrake":
        return 3.0
    if name == "nurikabe":
        return 1.5
    return _instant_with_choice(w, name, sk)


def _instant_with_choice(w: CardWorth, name: str, sk: Sketch) -> float | None:
    """The instants that discard, summon or upgrade: their best use on the sketch."""
    area, hand = sk.area, sk.hand
    if name == "melusine":  # up to 3 hand cards, 4 points each
        gains = sorted((4.0 - w.in_hand(c, sk) for c in hand), reverse=True)[:3]
        return sum(g for g in gains if g > 0)
    if name == "taweret":  # a blue stone per hand card discarded (room under the limit)
        room = max(0, sk.limit - sum(sk.stones))
        gains = sorted((3 * w.rate - w.in_hand(c, sk) for c in hand), reverse=True)[:room]
        return sum(g for g in gains if g > 0)
    if name == "anubis":  # another card of the area for its written cost
        others = [c for c in area if CARD_NAME[c] != "anubis"]
        return max((CARD_COST[c] - w.future(c, area) for c in others), default=0.0)
    if name == "akhlut":  # a Dragon of the discard pile, free
        pile = [_C[n] for n in w.view["discard"]]
        return max(
            (w.instant_guess(c, area) for c in pile if CARD_FAMILY[c] == DRAGON), default=0.0
        )
    if name == "horus":  # a hand card free, plus its written cost
        if sk.room <= 0:
            return 0.0
        return max(
            (w.instant_guess(c, area) + CARD_COST[c] - w.in_hand(c, sk) for c in hand),
            default=0.0,
        )
    if name == "duduri":  # lose a point, upgrade a stone; back to hand at resolution
        r, b, _p = sk.stones
        v = sk.values
        up = max(v[1] - v[0] if r else 0, v[2] - v[1] if b else 0)
        return -1.0 + w.rate * up
    return None


def art_active(w: CardWorth, card: int, area: list[int], stones: list[int]) -> float | None:
    """One resolution of an Artifacts creature's active effect, or None."""
    name = CARD_NAME[card]
    rate = w.rate
    if name == "bul-gae":
        return 2.0 if sum(stones) >= 4 else 3 * rate * w.values[0] + 0.3
    if name == "hephaestus":  # the best two of: a blue, three reds, 2 points
        parts = sorted((3 * rate, 3 * rate * w.values[0], 2.0), reverse=True)
        return parts[0] + parts[1]
    if name == "siren":
        return 2.0 + 3 * rate - 0.8
    if name == "mandrake":
        return 6 * rate - 1.0
    if name == "loki":
        return float(sum(1 for c in area if HAS_PERMANENT[c]))
    if name == "rukh":
        return float(max(family_counts(area)))
    if name == "nurikabe":
        return 0.8
    return None


def art_permanent(card: int) -> float | None:
    return ART_PERMANENT.get(CARD_NAME[card])
