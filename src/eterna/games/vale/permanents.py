"""What a card does while it is in its owner's area (§11), as plain data the engine reads
whenever an area changes (stone values, limit, cost cuts) or a card is summoned or tamed.

The Artifacts creatures add "whenever" permanents the engine watches for (`watch`, bits of
`WATCH_*`): board.py keeps, per seat, the union of the bits of the area's cards in one int
(`ValeBoard.perks`), zero in every base game, so the base game's hot path only tests it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from eterna.core.frozen import Frozen
from eterna.games.vale.cards import FAMILY_INDEX

# What a seat's permanents watch for (bits of ValeBoard.perks, per seat)
WATCH_STONES_4: Final = 1  # Fireblast: holding 4 or more stones returns it to hand
WATCH_BLUE_GAINED: Final = 2  # Thalassa: gaining a blue stone returns it to hand
WATCH_POINTS_LOST: Final = 4  # Wendigo: losing points returns it to hand
WATCH_DREW: Final = 8  # Banshee: drawing a card returns it to hand
WATCH_DISCARDED: Final = 16  # Totem Pole: another card of the area discarded gives a purple stone
WATCH_SOLD: Final = 32  # Duduri King: a sale's stone is upgraded
WATCH_KEPT: Final = 64  # Ash: kept from the discard pile (to hand, round-number points)
WATCH_ANY_FAMILY: Final = 128  # Loki: any family during its owner's turn
WATCH_FIXED_COST: Final = 256  # Belphegor: the family's cards cost exactly `fixed_cost`


@dataclass(frozen=True)
class Permanent(Frozen):
    """What a card does while it is in its owner's area (all zero: nothing)."""

    cheaper: int = 0  # every card you summon costs this much less (never below 0)
    cheaper_family: int = -1  # ...only cards of this family (-1: every card)
    stone_bonus: tuple[int, int, int] = (0, 0, 0)  # value added to red, blue, purple
    swap_blue_purple: bool = False  # blue stones worth a purple's value and back
    stone_limit: int = 0  # added to the stone limit
    # "whenever you summon a card" (not this card's own summon)
    on_summon_points: int = 0
    on_summon_per_red: int = 0
    on_summon_if_paid_with: int = -1  # points only when the payment holds this colour
    # "whenever you tame a card of family ..."
    on_tame_family: int = -1
    on_tame_stones: tuple[int, int, int] = field(default=(0, 0, 0))
    # the Artifacts creatures
    watch: int = 0  # WATCH_* bits
    fixed_cost: int = -1  # Belphegor: the summoning cost of every card of fixed_family
    fixed_family: int = -1
    on_discarded_stones: tuple[int, int, int] = (0, 0, 0)  # Totem Pole


def returns_to_hand_whenever(event: int) -> Permanent:
    """Fireblast, Thalassa, Wendigo, Banshee: the card goes back to hand when `event` happens."""
    return Permanent(watch=event)


def cost_exactly(n: int, family: str) -> Permanent:
    """Belphegor: every card of `family` you summon costs exactly n (whatever the reductions)."""
    return Permanent(watch=WATCH_FIXED_COST, fixed_cost=n, fixed_family=FAMILY_INDEX[family])


def whenever_another_card_is_discarded(red: int = 0, blue: int = 0, purple: int = 0) -> Permanent:
    """Totem Pole: another card of your area discarded gives you these stones."""
    return Permanent(watch=WATCH_DISCARDED, on_discarded_stones=(red, blue, purple))


def whenever_you_sell_upgrade_a_stone_it_gives() -> Permanent:
    """Duduri King."""
    return Permanent(watch=WATCH_SOLD)


def kept_from_the_discard_pile() -> Permanent:
    """Ash: discarded from your area, it goes to your hand and you gain the round's points."""
    return Permanent(watch=WATCH_KEPT)


def counts_as_any_family_on_your_turn() -> Permanent:
    """Loki: the family its owner names at the start of each of their turns (Wind otherwise)."""
    return Permanent(watch=WATCH_ANY_FAMILY)


def cheaper(n: int, family: str | None = None) -> Permanent:
    return Permanent(cheaper=n, cheaper_family=-1 if family is None else FAMILY_INDEX[family])


def stone_values(red: int = 0, blue: int = 0, purple: int = 0) -> Permanent:
    return Permanent(stone_bonus=(red, blue, purple))


def blue_and_purple_values_swapped() -> Permanent:
    return Permanent(swap_blue_purple=True)


def stone_limit_raised_by(n: int) -> Permanent:
    return Permanent(stone_limit=n)


def whenever_you_summon(
    points: int = 0, points_per_red_spent: int = 0, if_paid_with: int = -1
) -> Permanent:
    return Permanent(
        on_summon_points=points,
        on_summon_per_red=points_per_red_spent,
        on_summon_if_paid_with=if_paid_with,
    )


def whenever_you_tame(family: str, red: int = 0, blue: int = 0, purple: int = 0) -> Permanent:
    return Permanent(on_tame_family=FAMILY_INDEX[family], on_tame_stones=(red, blue, purple))
