"""Why a well-formed action is refused now, naming the rule (never on the hot path: only once
`apply` has found the action outside the legal set)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eterna.games.vale.board import HUNT, PHASES, RESOLUTION
from eterna.games.vale.cards import (
    CARD_COST,
    CARD_FAMILY,
    CARD_NAME,
    CHOOSE,
    CLAIM,
    COPY,
    DISCARD,
    DISCARD_STONE,
    DONE,
    END_TURN,
    HAS_ACTIVE,
    PAYMENTS,
    RECOVER,
    REMOVE,
    RESOLVE,
    SELL_,
    SUMMON,
    SUMMON_FREE,
    TAKE,
    TAME,
    TARGET,
    ValeAction,
)
from eterna.games.vale.payments import payment_problem

if TYPE_CHECKING:
    from eterna.games.vale.state import ValeState

ANSWERS = (RECOVER, DISCARD, TAKE, COPY, SUMMON_FREE, TARGET, CHOOSE, DONE, DISCARD_STONE)


def why_not(st: ValeState, act: ValeAction, p: int) -> str:
    """Why the current player `p` may not play `act` now."""
    if st.is_terminal:
        return "the game is over (rules §9-10)"
    choice = st.choice
    kind = act.kind
    c = act.card
    name = CARD_NAME[c] if c >= 0 else ""
    if choice is not None:
        chooser, _step, _seat, src, _arg, options = choice
        what = "the stone limit (rules §7)" if src < 0 else f"the effect of {CARD_NAME[src]}"
        return (
            f"seat {chooser} must first answer {what}: one of "
            f"{', '.join(str(o) for o in options)} (rules §11: choices inside an effect)"
        )
    if kind in ANSWERS:
        return "no effect is waiting for this answer now (rules §11)"
    stage = st.stage
    if kind == CLAIM:
        if stage != HUNT:
            return (
                "cards are claimed only in the hunting phase; this is the "
                f"{PHASES[stage]} phase (rules §4)"
            )
        return f"{name} is not an unclaimed revealed card (rules §4.2: one marker per card)"
    if stage == HUNT:
        return "this is the hunting phase: claim one revealed card (rules §4.2)"
    if kind == RESOLVE:
        if stage != RESOLUTION:
            return "active effects resolve in the resolution phase (rules §6)"
        if c not in st.areas[p]:
            return f"{name} is not in your area (rules §6)"
        if not HAS_ACTIVE[c]:
            return f"{name} has no active (hourglass) effect (rules §6)"
        if st.activated >> c & 1:
            return f"{name} already resolved this round (rules §6: once per round)"
        return f"{name}'s effect cannot be applied now, so it is skipped (rules §6)"
    if stage == RESOLUTION:
        return "this is the resolution phase: resolve your active effects (rules §6)"
    return _action_phase(st, act, p, name)


def _action_phase(st: ValeState, act: ValeAction, p: int, name: str) -> str:
    """Why not, for the moves of the action phase (§5)."""
    kind = act.kind
    c = act.card
    claimed = st.claims[p]
    if kind in (SELL_, TAME):
        return f"you did not claim {name} this round (rules §5.1-5.2: only claimed cards)"
    if kind == END_TURN:
        left = ", ".join(CARD_NAME[x] for x in claimed)
        return f"sell or tame your claimed cards first: {left} (rules §5.2)"
    b = p * 3
    counts, value = st.stone_counts, st.stone_values
    held = (counts[b], counts[b + 1], counts[b + 2])
    values = (value[b], value[b + 1], value[b + 2])
    pay = PAYMENTS[act.pay]
    superfluous = bool(st.start.options["allow_superfluous_payment"])
    if kind == SUMMON:
        if c not in st.hands[p]:
            return f"{name} is not in your hand (rules §5.3: summon from your hand)"
        if not st.has_room(p):
            return (
                f"your area is full: {len(st.areas[p])} cards in round {st.round} "
                "(rules §5.3.1: area size = round number; remove a card first)"
            )
        cost = max(0, CARD_COST[c] - st.cost_cuts[p * 5 + CARD_FAMILY[c]])
        why = payment_problem(pay, held, values, cost, f"{name} costs {cost}", superfluous)
        if why:
            return why
        return (
            f"{name}'s instant effect cannot be applied in full now, so it cannot be "
            "summoned (rules Q1, Q14)"
        )
    if kind == REMOVE:
        if c not in st.areas[p]:
            return f"{name} is not in your area (rules §5.4)"
        what = f"removing costs {st.round} in this round"
        why = payment_problem(pay, held, values, st.round, what, superfluous)
        return why or "refused (rules §5.4)"
    return "not allowed now"
