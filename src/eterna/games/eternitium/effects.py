"""The primitives a card's effect is made of, one small frozen type each, compiled once from the
card data (`effect` and `ai_effect` lists of data/cards.json). The engine resolves them in order
(`EternitiumState._run`, a `match` on these types).

`who` is SELF (the player of the card) or OTHERS (every other player, clockwise from the left).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from eterna.core.frozen import Frozen
from eterna.games.eternitium.typeddicts import EternitiumPrimitive

SELF: Final = 0
OTHERS: Final = 1
TIER_BASIC: Final = 1  # the tier bits of GainTech.tiers, and the points of a Basic card
TIER_ADVANCED: Final = 2


@dataclass(frozen=True, slots=True)
class DiscardEra(Frozen):
    """Discard your top Era card; a Portal-like card must match it (`shapes`: a mask of shape
    bits), unless `any_shape` (the AI's Temporal Blaster)."""

    shapes: int
    any_shape: bool = False


@dataclass(frozen=True, slots=True)
class Reveal(Frozen):
    """Turn up to `count` hidden Era cards face up among the top `depth` of each target's pile;
    `compensation`: in the solo game an AI card is revealed too (R13)."""

    who: int
    count: int
    depth: int
    compensation: bool = False


@dataclass(frozen=True, slots=True)
class SwapTopEra(Frozen):
    """Swap your top Era card with the chosen opponent's, each keeping its face (R5)."""


@dataclass(frozen=True, slots=True)
class Draw(Frozen):
    """Draw `count` Action cards."""

    count: int


@dataclass(frozen=True, slots=True)
class Discount(Frozen):
    """Technology costs `era` Era card fewer in step 4 this turn (never more than one: R16)."""

    era: int


@dataclass(frozen=True, slots=True)
class DiscardFromHand(Frozen):
    """Discard `count` chosen cards from hand (the Transporter's pair)."""

    count: int


@dataclass(frozen=True, slots=True)
class CycleHand(Frozen):
    """Discard or destroy any cards from hand, then draw as many (Data Analyser)."""


@dataclass(frozen=True, slots=True)
class Steal(Frozen):
    """Take a card from the chosen opponent's discard pile; this card goes there (R1, R2)."""


@dataclass(frozen=True, slots=True)
class Recycle(Frozen):
    """A chosen card of your discard pile back to hand."""


@dataclass(frozen=True, slots=True)
class HideAndShuffle(Frozen):
    """Turn the top `depth` Era cards of each target face down and shuffle the pile."""

    who: int
    depth: int


@dataclass(frozen=True, slots=True)
class AddHiddenEra(Frozen):
    """The common Era deck's top card goes face down on each target's Era pile."""

    who: int


@dataclass(frozen=True, slots=True)
class GainTech(Frozen):
    """SELF: take the chosen technology (`tiers`: mask of TIER_BASIC, TIER_ADVANCED); OTHERS:
    each other player takes a Basic one (Laboratory); `compensation` as for Reveal."""

    who: int
    tiers: int
    compensation: bool = False


@dataclass(frozen=True, slots=True)
class DestroyOldestTech(Frozen):
    """Solo AI: destroy the technology nearest the bottom of your discard pile."""


Primitive = (
    DiscardEra
    | Reveal
    | SwapTopEra
    | Draw
    | Discount
    | DiscardFromHand
    | CycleHand
    | Steal
    | Recycle
    | HideAndShuffle
    | AddHiddenEra
    | GainTech
    | DestroyOldestTech
)
Effect = tuple[Primitive, ...]


def compile_primitive(spec: EternitiumPrimitive, shape_index: dict[str, int]) -> Primitive:
    """One primitive from its data (`op` names it; the other keys are its fields)."""
    op = spec["op"]
    who = OTHERS if spec.get("who") == "others" else SELF
    comp = bool(spec.get("compensation"))
    if op == "discard_era":
        portals = spec["portals"]
        if portals == "any":
            return DiscardEra((1 << len(shape_index)) - 1, any_shape=True)
        mask = 0
        for s in portals:
            mask |= 1 << shape_index[s]
        return DiscardEra(mask)
    if op == "reveal":
        return Reveal(who, int(spec["count"]), int(spec["depth"]), comp)
    if op == "draw":
        return Draw(int(spec["count"]))
    if op == "discard_from_hand":
        return DiscardFromHand(int(spec["count"]))
    if op == "discount":
        return Discount(int(spec["era"]))
    if op == "hide_and_shuffle":
        return HideAndShuffle(who, int(spec["depth"]))
    if op == "add_hidden_era":
        return AddHiddenEra(who)
    if op == "gain_tech":
        tiers = 0
        for t in spec["tiers"]:
            tiers |= TIER_BASIC if t == "basic" else TIER_ADVANCED
        return GainTech(who, tiers, comp)
    bare: dict[str, Primitive] = {
        "swap_top_era": SwapTopEra(),
        "cycle_hand": CycleHand(),
        "steal": Steal(),
        "recycle": Recycle(),
        "destroy_oldest_tech": DestroyOldestTech(),
    }
    return bare[op]
