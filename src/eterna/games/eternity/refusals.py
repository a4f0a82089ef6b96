"""Why an Eternity action is refused now, naming the rule (built only when one is refused)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eterna.core.errors import IllegalAction
from eterna.games.eternity.cards import CARD_NAME, FAMILIES, FAMILY_MASK, EternityAction, names_of

if TYPE_CHECKING:
    from eterna.games.eternity.state import EternityState


def refusal(st: EternityState, action: EternityAction) -> IllegalAction:
    """Explain, naming the rule, why `action` is refused now (never on the hot path)."""
    p = st._current
    if p < 0:
        return IllegalAction(
            f"{action}: the game is over (rules §8: three rounds)",
            key="eternity.refusal.game_over",
            rule="§8",
        )
    hand = st._hand_mask(p)
    name = CARD_NAME[action.card]
    if not hand & action.bit:
        return IllegalAction(
            f"{action}: seat {p} does not hold {name} (rules §5: you play from your hand)",
            key="eternity.refusal.not_in_hand",
            params={"card": name},
            rule="§5",
        )
    if action.pledge:
        if st._led < 0:
            return IllegalAction(
                f"{action}: the leader must play a card to the trick and may not pledge "
                "(rules §5.2: the leader)",
                key="eternity.refusal.leader_must_play",
                rule="§5.2",
            )
        cap = st._max_pledges
        return IllegalAction(
            f"{action}: only {cap} pledge{'s' if cap > 1 else ''} per trick at {st._n} "
            f"players and it is taken; you must participate (rules §5.4: pledge limits)",
            key="eternity.refusal.pledge_limit",
            params={"count": cap, "players": st._n},
            rule="§5.4",
        )
    led = st._led
    held_led = names_of(hand & FAMILY_MASK[led])
    if held_led:
        return IllegalAction(
            f"{action}: must follow {FAMILIES[led]}: you hold {', '.join(held_led)} "
            "(rules §5.3: participate)",
            key="eternity.refusal.must_follow",
            params={"family": FAMILIES[led], "cards": held_led},
            rule="§5.3",
        )
    trump = st._trump
    held_trump = names_of(hand & FAMILY_MASK[trump])
    return IllegalAction(
        f"{action}: no {FAMILIES[led]} in hand, so you must play trump "
        f"{FAMILIES[trump]}: you hold {', '.join(held_trump)} (rules §5.3: participate)",
        key="eternity.refusal.must_trump",
        params={"family": FAMILIES[led], "trump": FAMILIES[trump], "cards": held_trump},
        rule="§5.3",
    )
