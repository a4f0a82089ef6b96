"""What a card does while it is in its owner's area (§11), as plain data the engine reads
whenever an area changes (stone values, limit, cost cuts) or a card is summoned or tamed."""

from __future__ import annotations

from dataclasses import dataclass, field

from eterna.games.vale.cards import FAMILY_INDEX


@dataclass(frozen=True)
class Permanent:
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
