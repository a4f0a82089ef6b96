"""Why a well-formed action is refused now, naming the rule (never on the hot path: only once
`apply` has found the action outside the legal set).

`refusal` builds the IllegalAction: the English message, and for translation its catalog key
(`vale.refusal.<rule>`), its parameters (card ids, seats, stone mappings {red, blue, purple},
colours, phase names, notations) and the rulebook reference (docs/i18n.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eterna.core.errors import IllegalAction
from eterna.games.vale.artifacts import area_limit, pick_moves, picker
from eterna.games.vale.board import ACTION, HUNT, PHASES, RESOLUTION, Choice, src_name
from eterna.games.vale.cards import (
    A_PICK,
    BUY_AREA,
    CARD_NAME,
    CHOOSE,
    CLAIM,
    COLOURS,
    COPY,
    DISCARD,
    DISCARD_STONE,
    DONE,
    END_TURN,
    FAMILIES,
    HAS_ACTIVE,
    PAYMENTS,
    PICK,
    PUT_ON_DECK,
    RECOVER,
    REMOVE,
    RESOLVE,
    RETRIEVE,
    SELL_,
    SHELTER,
    SUMMON,
    SUMMON_FREE,
    SWAP,
    TAKE,
    TAME,
    TARGET,
    TILE_NAME,
    TILE_TIMING,
    UPGRADE,
    USE,
    ValeAction,
)
from eterna.games.vale.choices import NamedPlayerDiscards
from eterna.games.vale.payments import payment_problem
from eterna.games.vale.summons import SwapWithNamedPlayer

if TYPE_CHECKING:
    from eterna.games.vale.state import ValeState

# the answers to a pending choice (then the Artifacts creatures' two, and its tiles' four)
ANSWERS: tuple[int, ...] = (
    RECOVER,
    DISCARD,
    TAKE,
    COPY,
    SUMMON_FREE,
    TARGET,
    CHOOSE,
    DONE,
    DISCARD_STONE,
    SWAP,
    PUT_ON_DECK,
    SHELTER,
    RETRIEVE,
    UPGRADE,
    BUY_AREA,
)


def _no(
    message: str, *, key: str, params: dict[str, object] | None = None, rule: str | None = None
) -> IllegalAction:
    return IllegalAction(message, key=key, params=params, rule=rule)


def _stones(pay: tuple[int, int, int]) -> dict[str, int]:
    return dict(zip(COLOURS, pay, strict=True))


def refusal(st: ValeState, act: ValeAction, p: int) -> IllegalAction:
    """The IllegalAction refusing `act` to the current player `p` now: "<action>: <why>"."""
    why = _why(st, act, p)
    return IllegalAction(f"{act}: {why}", key=why.key, params=why.params, rule=why.rule)


def _why(st: ValeState, act: ValeAction, p: int) -> IllegalAction:
    """Why the current player `p` may not play `act` now."""
    if st.is_terminal:
        return _no("the game is over (rules §9-10)", key="vale.refusal.game_over", rule="§9-10")
    choice = st.choice
    kind = act.kind
    c = act.card
    name = CARD_NAME[c] if c >= 0 else ""
    if choice is not None:
        return _unanswered(choice)
    if kind in ANSWERS:
        return _no(
            "no effect is waiting for this answer now (rules §11)",
            key="vale.refusal.no_pending_choice",
            rule="§11",
        )
    stage = st.stage
    picking = stage == HUNT and st.arts is not None and st.arts.pick_i < st.players
    if kind in (PICK, USE) or picking:
        return _artifact_refusal(st, act, p)
    if kind == CLAIM:
        if stage != HUNT:
            return _no(
                "cards are claimed only in the hunting phase; this is the "
                f"{PHASES[stage]} phase (rules §4)",
                key="vale.refusal.claim_wrong_phase",
                params={"phase": PHASES[stage]},
                rule="§4",
            )
        return _no(
            f"{name} is not an unclaimed revealed card (rules §4.2: one marker per card)",
            key="vale.refusal.claim_unavailable",
            params={"card": name},
            rule="§4.2",
        )
    if stage == HUNT:
        return _no(
            "this is the hunting phase: claim one revealed card (rules §4.2)",
            key="vale.refusal.must_claim",
            rule="§4.2",
        )
    if kind == RESOLVE:
        return _resolve_refusal(st, c, p, name)
    if stage == RESOLUTION:
        return _no(
            "this is the resolution phase: resolve your active effects (rules §6)",
            key="vale.refusal.must_resolve",
            rule="§6",
        )
    return _action_phase(st, act, p, name)


def _action_phase(st: ValeState, act: ValeAction, p: int, name: str) -> IllegalAction:
    """Why not, for the moves of the action phase (§5)."""
    kind = act.kind
    c = act.card
    claimed = st.claims[p]
    if kind in (SELL_, TAME):
        return _no(
            f"you did not claim {name} this round (rules §5.1-5.2: only claimed cards)",
            key="vale.refusal.not_claimed",
            params={"card": name},
            rule="§5.1-5.2",
        )
    if kind == END_TURN:
        left = ", ".join(CARD_NAME[x] for x in claimed)
        return _no(
            f"sell or tame your claimed cards first: {left} (rules §5.2)",
            key="vale.refusal.claimed_first",
            params={"cards": [CARD_NAME[x] for x in claimed]},
            rule="§5.2",
        )
    b = p * 3
    counts, value = st.stone_counts, st.stone_values
    held = (counts[b], counts[b + 1], counts[b + 2])
    values = (value[b], value[b + 1], value[b + 2])
    pay = PAYMENTS[act.pay]
    superfluous = bool(st.start.options["allow_superfluous_payment"])
    if kind == SUMMON:
        return _summon_refusal(st, c, p, name, pay, held, values)
    if kind == REMOVE:
        if c not in st.areas[p]:
            return _no(
                f"{name} is not in your area (rules §5.4)",
                key="vale.refusal.remove_not_in_area",
                params={"card": name},
                rule="§5.4",
            )
        what = f"removing costs {st.round} in this round"
        why = payment_problem(pay, held, values, st.round, what, superfluous)
        if why:
            return _payment_refusal(why, pay, held, values, st.round, None)
        return _no("refused (rules §5.4)", key="vale.refusal.remove_refused", rule="§5.4")
    return _no("not allowed now", key="vale.refusal.not_allowed")


def _unanswered(choice: Choice) -> IllegalAction:
    """A question waits (an effect's, or the stone limit's): only its answers are moves."""
    chooser, src, options = choice.chooser, choice.src, choice.options
    what = "the stone limit (rules §7)" if src == -1 else f"the effect of {src_name(src)}"
    message = (
        f"seat {chooser} must first answer {what}: one of "
        f"{', '.join(str(o) for o in options)} (rules §11: choices inside an effect)"
    )
    notations = [str(o) for o in options]
    if src == -1:
        return _no(
            message,
            key="vale.refusal.answer_stone_limit",
            params={"player": chooser, "options": notations},
            rule="§7",
        )
    return _no(
        message,
        key="vale.refusal.answer_effect",
        params={"player": chooser, "card": src_name(src), "options": notations},
        rule="§11",
    )


def _resolve_refusal(st: ValeState, c: int, p: int, name: str) -> IllegalAction:
    """Why not resolve card `c` now (§6)."""
    if st.stage != RESOLUTION:
        return _no(
            "active effects resolve in the resolution phase (rules §6)",
            key="vale.refusal.resolve_wrong_phase",
            rule="§6",
        )
    if c not in st.areas[p]:
        return _no(
            f"{name} is not in your area (rules §6)",
            key="vale.refusal.resolve_not_in_area",
            params={"card": name},
            rule="§6",
        )
    if not HAS_ACTIVE[c]:
        return _no(
            f"{name} has no active (hourglass) effect (rules §6)",
            key="vale.refusal.resolve_no_active",
            params={"card": name},
            rule="§6",
        )
    if st.activated >> c & 1:
        return _no(
            f"{name} already resolved this round (rules §6: once per round)",
            key="vale.refusal.resolve_already",
            params={"card": name},
            rule="§6",
        )
    return _no(
        f"{name}'s effect cannot be applied now, so it is skipped (rules §6)",
        key="vale.refusal.resolve_skipped",
        params={"card": name},
        rule="§6",
    )


def _summon_refusal(
    st: ValeState,
    c: int,
    p: int,
    name: str,
    pay: tuple[int, int, int],
    held: tuple[int, int, int],
    values: tuple[int, int, int],
) -> IllegalAction:
    """Why not summon card `c` with `pay` now (§5.3)."""
    if c not in st.hands[p]:
        return _no(
            f"{name} is not in your hand (rules §5.3: summon from your hand)",
            key="vale.refusal.summon_not_in_hand",
            params={"card": name},
            rule="§5.3",
        )
    if not st.has_room(p):
        return _no(
            f"your area is full: {len(st.areas[p])} cards, the limit is {area_limit(st, p)} "
            f"in round {st.round} (rules §5.3.1: area size = round number, plus the areas "
            "bought; remove a card first)",
            key="vale.refusal.area_full",
            params={"count": len(st.areas[p]), "round": st.round},
            rule="§5.3.1",
        )
    if not st.instant_feasible(p, c):  # no payment could help: say so before the payment
        return _instant_refusal(st, c, p, name)
    cost = st.summon_cost(p, c)
    superfluous = bool(st.start.options["allow_superfluous_payment"])
    why = payment_problem(pay, held, values, cost, f"{name} costs {cost}", superfluous)
    if why:
        return _payment_refusal(why, pay, held, values, cost, name)
    return _no(
        f"{name} cannot be summoned now (rules §5.3)",
        key="vale.refusal.summon_refused",
        params={"card": name},
        rule="§5.3",
    )


def _instant_refusal(st: ValeState, c: int, p: int, name: str) -> IllegalAction:
    """Why `c`'s instant cannot be applied in full now (rules Q1, Q14): a player to name with a
    card of the attacked family (Ember, Boulder...), or the effect's first step that cannot be
    carried out."""
    blocked = st.instant_blocker(p, c)
    if isinstance(blocked, (NamedPlayerDiscards, SwapWithNamedPlayer)):
        family = FAMILIES[blocked.family]
        return _no(
            f"nobody you may name has a {family}-family card in their area, so {name} "
            "cannot be summoned (rules Q1, Q14: an instant effect must be applied in full)",
            key="vale.refusal.summon_nobody_to_name",
            params={"card": name, "family": family},
            rule="Q1, Q14",
        )
    return _no(
        f"{name}'s instant effect cannot be applied in full now, so it cannot be "
        "summoned (rules Q1, Q14)",
        key="vale.refusal.summon_instant_blocked",
        params={"card": name},
        rule="Q1, Q14",
    )


def _payment_refusal(
    message: str,
    pay: tuple[int, int, int],
    held: tuple[int, int, int],
    values: tuple[int, int, int],
    cost: int,
    card: str | None,
) -> IllegalAction:
    """The key and params of `payment_problem`'s `message` (a summon of `card`, or a removal
    when `card` is None), checked in the order payment_problem checks."""
    if any(pay[i] > held[i] for i in range(3)):
        return _no(
            message,
            key="vale.refusal.stones_not_held",
            params={"payment": _stones(pay), "held": _stones(held)},
            rule="§5.3.2",
        )
    value = sum(pay[i] * values[i] for i in range(3))
    if value < cost:
        if card is None:
            return _no(
                message,
                key="vale.refusal.remove_underpaid",
                params={"payment": _stones(pay), "value": value, "cost": cost},
                rule="§5.3.2",
            )
        return _no(
            message,
            key="vale.refusal.summon_underpaid",
            params={"payment": _stones(pay), "value": value, "card": card, "cost": cost},
            rule="§5.3.2",
        )
    stone = next(COLOURS[i] for i in range(3) if pay[i] and value - values[i] >= cost)
    if card is None:
        return _no(
            message,
            key="vale.refusal.remove_superfluous",
            params={"stone": stone, "cost": cost},
            rule="Q15",
        )
    return _no(
        message,
        key="vale.refusal.summon_superfluous",
        params={"stone": stone, "card": card, "cost": cost},
        rule="Q15",
    )


def _artifact_refusal(st: ValeState, act: ValeAction, p: int) -> IllegalAction:
    """Why not, for the Artifacts' moves and while the tiles are being picked (docs/vale.md
    "Artifacts (expansion)")."""
    arts = st.arts
    if arts is None:
        return _no(
            "this game is played without the Artifacts (option expansions)",
            key="vale.refusal.no_artifacts",
            rule="Artifacts",
        )
    picking = st.stage == HUNT and arts.pick_i < st.players
    tile = TILE_NAME[act.arg] if act.kind in (PICK, USE) else ""
    if picking and act.kind != PICK:
        return _no(
            "every player picks an artifact tile before the first claim (Artifacts)",
            key="vale.refusal.must_pick_artifact",
            rule="Artifacts",
        )
    if act.kind == PICK:
        return _pick_refusal(st, act, p, picking, tile)
    if st.stage != ACTION:
        return _no(
            "an action tile is used in your action turn (Artifacts)",
            key="vale.refusal.use_wrong_phase",
            rule="Artifacts",
        )
    if arts.held[p] != act.arg:
        return _no(
            f"you do not hold {tile} (Artifacts: an action tile is used once, then given back)",
            key="vale.refusal.use_not_held",
            params={"card": tile},
            rule="Artifacts",
        )
    if TILE_TIMING[act.arg] != "action":
        return _no(
            f"{tile} is not an action tile: it works by itself (Artifacts)",
            key="vale.refusal.use_not_action",
            params={"card": tile},
            rule="Artifacts",
        )
    return _no(
        f"{tile} cannot do anything now: its cost cannot be paid or it has nothing to act on "
        "(Artifacts Q-A10)",
        key="vale.refusal.use_unusable",
        params={"card": tile},
        rule="Q-A10",
    )


def _pick_refusal(
    st: ValeState, act: ValeAction, p: int, picking: bool, tile: str
) -> IllegalAction:
    """Why not pick this tile now."""
    assert st.arts is not None
    if not picking or picker(st) != p:
        return _no(
            "artifact tiles are picked at the start of the hunting phase, one each (Artifacts)",
            key="vale.refusal.pick_wrong_phase",
            rule="Artifacts",
        )
    if act.arg == st.arts.blocked[p]:
        return _no(
            f"you picked {tile} last round: take another tile (Artifacts)",
            key="vale.refusal.pick_blocked",
            params={"card": tile},
            rule="Artifacts",
        )
    assert A_PICK[act.arg] not in pick_moves(st, p)
    return _no(
        f"{tile} is not in the glade or another player has it (Artifacts)",
        key="vale.refusal.pick_unavailable",
        params={"card": tile},
        rule="Artifacts",
    )
