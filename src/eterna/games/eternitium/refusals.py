"""Why an action is refused now, naming the rule (built only when an action is refused)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eterna.games.eternitium.cards import (
    BLIND_ADVANCED,
    BLIND_BASIC,
    CARD_NAME,
    MATCHES,
    MIN_ACTION_CARDS,
    NEEDS_ERA,
    PARAM,
    PARAM_OWN_DISCARD,
    PARAM_PAIR,
    PARAM_SEAT_STEAL,
    PARAM_SEAT_SWAP,
    PARAM_TECH,
    PER_TURN,
    SHAPES,
    TIER,
    TIER_ADVANCED,
    V_ACQUIRE,
    V_DESTROY,
    V_DISCARD,
    V_DONE,
    V_END,
    V_ERA,
    V_GIFT,
    V_KEEP,
    V_PASS,
    V_PICK,
    V_PLAY,
    V_SKIP,
    V_STEAL,
    V_TAKE,
    VISIBLE,
    EternitiumAction,
    card_name,
    era_shape,
)

if TYPE_CHECKING:
    from eterna.games.eternitium.state import EternitiumState

_STEP2 = "rules: Game Turn, step 2"
_PHASE_VERBS = {
    0: ({V_PICK}, "pick a Basic Technology card (rules: Game Preparation)"),
    1: ({V_DESTROY}, "destroy a card from hand first (mission 6)"),
    2: ({V_TAKE}, "take a Portal card first (rules: Game Turn, step 1)"),
    3: ({V_PLAY, V_END, V_SKIP}, f"play a card, end or skip ({_STEP2})"),
    4: ({V_DISCARD, V_DESTROY, V_DONE}, "discard, destroy or done (Data Analyser)"),
    5: ({V_STEAL}, "choose the card to take (Thieving Robot; R1)"),
    6: ({V_GIFT}, "take a Basic Technology card (Laboratory)"),
    7: ({V_DESTROY, V_KEEP}, f"destroy cards, then keep at most one ({_STEP2}, skipping)"),
    8: ({V_ACQUIRE, V_PASS}, "acquire a technology or pass (rules: Game Turn, step 4)"),
    9: ({V_ERA}, "take a visible Era card for the technology (rules: Game Turn, step 4)"),
}


def _market(st: EternitiumState, k: int, verb: str) -> str:
    if k == BLIND_BASIC and not st._basic_deck:
        return f"the Basic Technology deck is empty (rules: {verb})"
    if k == BLIND_ADVANCED and not st._adv_deck:
        return f"the Advanced Technology deck is empty (rules: {verb})"
    if k < BLIND_BASIC and k not in st._basic_row and k not in st._adv_row:
        return f"{card_name(k)} is not among the visible technology cards (rules: {verb})"
    return ""


def explain(st: EternitiumState, act: EternitiumAction) -> str:
    if st.is_terminal:
        return "the game is over (rules: End of the Game)"
    p = st._current
    verbs, doc = _PHASE_VERBS[st._phase]
    if act.verb not in verbs:
        return f"it is seat {p}'s decision: {doc}"
    hand = st._hands[p]
    v = act.verb
    k = act.card
    if v in (V_PICK, V_GIFT):
        where = "Game Preparation" if v == V_PICK else "Laboratory"
        return _market(st, k, where) or f"not possible now ({where})"
    if v == V_TAKE:
        if st._rules.portal_deck:
            return f"{CARD_NAME[k]} is not among the revealed Portal cards (mission 4)"
        return f"no {CARD_NAME[k]} is left in the reserve (rules: Setup 3, the number is limited)"
    if v in (V_DESTROY, V_DISCARD, V_KEEP, V_PLAY) and k >= 0 and not hand[k]:
        return f"seat {p} holds no {CARD_NAME[k]} ({_STEP2})"
    if v == V_DESTROY:
        if st._owned[p] <= MIN_ACTION_CARDS:
            return (
                f"a player can never have less than {MIN_ACTION_CARDS} Action cards ({_STEP2}; R9)"
            )
        return "the Data Analyser discards or destroys, not both (Data Analyser)"
    if v == V_DISCARD:
        return "the Data Analyser discards or destroys, not both (Data Analyser)"
    if v == V_END:
        return "you must play as many cards as possible (mission 9)"
    if v == V_SKIP:
        if st._rules.must_play:
            return "you must play as many cards as possible, never skip (mission 9)"
        return f"step 2 may be skipped only before any card is played ({_STEP2})"
    if v == V_STEAL:
        return f"seat {st._target}'s discard pile holds no {CARD_NAME[k]} (Thieving Robot)"
    if v == V_ERA:
        return f"no visible {SHAPES[act.shape]} Era card (rules: Game Turn, step 4)"
    if v == V_ACQUIRE:
        if not st._eras[p]:
            return "players who found the gem can no longer acquire technology (End of the Game)"
        why = _market(st, k, "Game Turn, step 4")
        if why:
            return why
        tier = TIER_ADVANCED if k == BLIND_ADVANCED else (1 if k == BLIND_BASIC else TIER[k])
        return (
            f"it costs {tier - (1 if st._wallet else 0)} visible Era card(s) and only "
            f"{len(st._era_display)} are left (rules: Game Turn, step 4)"
        )
    return _explain_play(st, act, p)


def _explain_play(st: EternitiumState, act: EternitiumAction, p: int) -> str:
    """Why `play <card> ...` is refused (the card is held)."""
    k = act.card
    era = st._eras[p]
    if (MATCHES[k] or NEEDS_ERA[k]) and not era:
        return "you have found the gem: no Era card is left (End of the Game)"
    if MATCHES[k]:
        top = era[-1]
        if top & VISIBLE:
            return (
                f"{CARD_NAME[k]} does not match your visible {SHAPES[era_shape(top)]} Era card "
                f"({_STEP2}; R15)"
            )
        return (
            "only a Portal card may try its luck on a hidden Era card (R6; option "
            "double_portal_luck)"
        )
    if PER_TURN[k] and st._limited >= PER_TURN[k]:
        return f"no more than {PER_TURN[k]} {CARD_NAME[k]} cards per game turn (R3)"
    return _explain_choice(st, act, p) or f"not playable now ({_STEP2})"


def _explain_choice(st: EternitiumState, act: EternitiumAction, p: int) -> str:
    """Why the choice a play names (cards.PARAM) is refused; "" if it names none."""
    param = PARAM[act.card]
    if param == PARAM_SEAT_SWAP:
        if act.seat < 0:
            return "name the opponent, e.g. 'play temporal-blaster seat-1' (Temporal Blaster)"
        return (
            f"seat {act.seat} is not an opponent with Era cards left (Temporal Blaster; R5: a "
            "player who found the gem cannot be targeted)"
        )
    if param == PARAM_SEAT_STEAL:
        if act.seat < 0:
            return "name the opponent, e.g. 'play thieving-robot seat-1' (Thieving Robot)"
        return f"seat {act.seat} is not an opponent with a discard pile to take from (R2)"
    if param == PARAM_PAIR:
        if act.card2 < 0:
            return "name the 2 cards it discards, e.g. 'play transporter discard a b' (Transporter)"
        return "you must discard 2 other cards you hold (Transporter)"
    if param == PARAM_OWN_DISCARD:
        if st._discards[p]:
            c = act.card2
            if c < 0:
                return "name a card of your discard pile (Recycler Robot)"
            return (
                f"your discard pile holds no {CARD_NAME[c]} (Recycler Robot; R16: it cannot "
                "return itself)"
            )
        return "your discard pile is empty: play it bare, 'play recycler-robot' (Recycler Robot)"
    if param == PARAM_TECH:
        if not st._eras[p]:
            return "players who found the gem take no more technology: play it bare (R8)"
        if act.card2 < 0:
            return "name the technology it adds, e.g. 'play laboratory blind-basic' (Laboratory)"
        return _market(st, act.card2, "Laboratory") or "not possible now (Laboratory)"
    return ""
