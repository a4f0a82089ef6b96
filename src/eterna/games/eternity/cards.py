"""Eternity's cards and actions, built once from the package's card data.

A card is an int 0..41: `family * 14 + value - 1`, families in the data file's order
(earth, sea, sky). Hands are 42-bit masks; each family occupies 14 consecutive bits, so
"cards of family f in hand" is one AND with FAMILY_MASK[f].
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

from eterna.core.errors import BadNotation
from eterna.core.game import Action


def _load() -> dict[str, Any]:
    text = resources.files("eterna.games.eternity").joinpath("data/cards.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


DATA: Final = _load()

FAMILIES: Final[tuple[str, ...]] = tuple(f["id"] for f in DATA["families"])
FAMILY_INDEX: Final = {name: i for i, name in enumerate(FAMILIES)}
LOW: Final[int] = DATA["values"]["low"]
HIGH: Final[int] = DATA["values"]["high"]
PER_FAMILY: Final[int] = HIGH - LOW + 1
DECK_SIZE: Final[int] = PER_FAMILY * len(FAMILIES)
CHUNK: Final[int] = (1 << PER_FAMILY) - 1
FAMILY_MASK: Final[tuple[int, ...]] = tuple(CHUNK << (PER_FAMILY * f) for f in range(len(FAMILIES)))
FULL_DECK: Final[int] = (1 << DECK_SIZE) - 1

HAND_SIZE: Final[dict[int, int]] = {int(k): v["hand"] for k, v in DATA["deal"].items()}
DISPLAY_SIZE: Final[dict[int, int]] = {int(k): v["display"] for k, v in DATA["deal"].items()}
BOARD_START: Final[dict[int, int]] = {int(k): v["board"] for k, v in DATA["deal"].items()}
PLEDGES_PER_TRICK: Final[dict[int, int]] = {int(k): v for k, v in DATA["pledges_per_trick"].items()}
HARMONY_BONUS: Final[tuple[int, ...]] = tuple(DATA["harmony_bonus"])
ROUNDS: Final[int] = len(HARMONY_BONUS)
TREE_TOKENS_IN_BOX: Final[int] = DATA["tree_tokens_in_box"]


def _trees_for(value: int) -> int:
    for band in DATA["trees_by_value"]:
        if band["from"] <= value <= band["to"]:
            return int(band["trees"])
    raise ValueError(f"card data gives no tree count for value {value}")


CARD_FAMILY: Final[tuple[int, ...]] = tuple(c // PER_FAMILY for c in range(DECK_SIZE))
CARD_VALUE: Final[tuple[int, ...]] = tuple(c % PER_FAMILY + LOW for c in range(DECK_SIZE))
CARD_TREES: Final[tuple[int, ...]] = tuple(_trees_for(v) for v in CARD_VALUE)
CARD_BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(DECK_SIZE))
CARD_NAME: Final[tuple[str, ...]] = tuple(
    f"{FAMILIES[CARD_FAMILY[c]]}-{CARD_VALUE[c]}" for c in range(DECK_SIZE)
)
CARD_BY_NAME: Final[dict[str, int]] = {name: c for c, name in enumerate(CARD_NAME)}


def card_id(name: str) -> int:
    """The card written `name` (e.g. 'sky-11'), or BadNotation."""
    try:
        return CARD_BY_NAME[name.strip().lower()]
    except (KeyError, AttributeError):
        raise BadNotation(
            f"{name!r} is not an Eternity card: write <family>-<value> with family "
            f"{'/'.join(FAMILIES)} and value {LOW}..{HIGH}, e.g. 'sea-3'"
        ) from None


def cards_of(mask: int) -> list[int]:
    """The cards in a mask, in card order (earth-1 ... sky-14)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def names_of(mask: int) -> list[str]:
    return [CARD_NAME[c] for c in cards_of(mask)]


def mask_of(cards: list[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


class EternityAction(Action):
    """`play <card>` or `pledge <card>`; interned, one object per (kind, card)."""

    __slots__ = ("bit", "card", "family", "pledge", "trees", "value", "vbit")

    def __init__(self, card: int, pledge: bool) -> None:
        verb = "pledge" if pledge else "play"
        super().__init__(card + (DECK_SIZE if pledge else 0), f"{verb} {CARD_NAME[card]}")
        self.card = card
        self.pledge = pledge
        self.bit = 1 << card
        self.family = CARD_FAMILY[card]
        self.value = CARD_VALUE[card]
        self.vbit = 1 << (self.value - LOW)  # the card's bit within its family's chunk
        self.trees = CARD_TREES[card]

    @classmethod
    def from_notation(cls, text: str) -> EternityAction:
        return parse_action(text)


PLAY: Final[tuple[EternityAction, ...]] = tuple(
    EternityAction(c, pledge=False) for c in range(DECK_SIZE)
)
PLEDGE: Final[tuple[EternityAction, ...]] = tuple(
    EternityAction(c, pledge=True) for c in range(DECK_SIZE)
)
ACTIONS: Final[tuple[EternityAction, ...]] = PLAY + PLEDGE
_BY_TEXT: Final[dict[str, EternityAction]] = {a.text: a for a in ACTIONS}


def parse_action(text: object) -> EternityAction:
    """`play sea-3` / `pledge sky-11` (case and spacing are forgiven), or BadNotation."""
    if not isinstance(text, str):
        raise BadNotation(f"an Eternity action is a string like 'play sea-3', not {text!r}")
    found = _BY_TEXT.get(text)
    if found is not None:
        return found
    words = text.lower().split()
    if len(words) != 2 or words[0] not in ("play", "pledge"):
        raise BadNotation(
            f"{text!r} is not an Eternity action: write 'play <card>' or 'pledge <card>', "
            "e.g. 'play sea-3'"
        )
    card = card_id(words[1])
    return PLEDGE[card] if words[0] == "pledge" else PLAY[card]


# Legal-move lists are assembled from per-family tables of interned actions: ROWS[f][chunk]
# is the tuple of actions for the cards of family f whose value bits are set in the 14-bit
# `chunk` (bit v-1 for value v), in value order. Built once at import (about 0.1 s).
def _rows(actions: tuple[EternityAction, ...], family: int) -> list[tuple[EternityAction, ...]]:
    base = family * PER_FAMILY
    rows: list[tuple[EternityAction, ...]] = [()] * (CHUNK + 1)
    for chunk in range(1, CHUNK + 1):
        high = chunk.bit_length() - 1
        rows[chunk] = (*rows[chunk ^ (1 << high)], actions[base + high])
    return rows


PLAY_ROWS: Final = tuple(_rows(PLAY, f) for f in range(len(FAMILIES)))
PLEDGE_ROWS: Final = tuple(_rows(PLEDGE, f) for f in range(len(FAMILIES)))
# Each family's rows under a name of its own: the compiled build reads a Final as a static value
PLAYS_EARTH: Final = PLAY_ROWS[0]
PLAYS_SEA: Final = PLAY_ROWS[1]
PLAYS_SKY: Final = PLAY_ROWS[2]
PLEDGES_EARTH: Final = PLEDGE_ROWS[0]
PLEDGES_SEA: Final = PLEDGE_ROWS[1]
PLEDGES_SKY: Final = PLEDGE_ROWS[2]


def split_mask(mask: int) -> tuple[int, int, int]:
    """A 42-bit card mask as one 14-bit chunk per family (earth, sea, sky)."""
    return (mask & CHUNK, (mask >> PER_FAMILY) & CHUNK, mask >> (2 * PER_FAMILY))


def join_chunks(chunks: list[int] | tuple[int, ...]) -> int:
    """The inverse of split_mask."""
    mask = 0
    for f, chunk in enumerate(chunks):
        mask |= chunk << (PER_FAMILY * f)
    return mask
