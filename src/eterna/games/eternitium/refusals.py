"""Why an action is refused now, naming the rule (built only when an action is refused)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final, NamedTuple

from eterna.games.eternitium.cards import (
    BLIND_ADVANCED,
    BLIND_BASIC,
    BLIND_NAME,
    CARD_INDEX,
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

_STEP2: Final = "rules: Game Turn, step 2"
_PHASE_VERBS: Final = {
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
# The refusal key (`eternitium.refusal.wait_<name>`) of waiting for each phase's decision.
_PHASE_WAIT: Final = (
    "pick",
    "destroy",
    "portal",
    "play",
    "analyser",
    "steal",
    "gift",
    "skipped",
    "acquire",
    "era",
)
_RULE: Final = re.compile(r"\bR\d+\b")
_REF: Final = re.compile(r"\(([^()]+)\)$")  # the reference closing a refusal's text


class Why(NamedTuple):
    """A refusal: its English text (naming the rule), and for translation the catalog key
    `eternitium.refusal.<key>`, its parameters and the rule (an R-number of the rulebook)."""

    text: str
    key: str
    params: dict[str, object]
    rule: str | None


def _why(text: str, key: str, **params: object) -> Why:
    """The refusal of `text`, its rule the last R-number it names, else the rulebook section
    or card its closing parentheses name ("rules: Game Turn, step 2" -> "Game Turn, step 2")."""
    rules = _RULE.findall(text)
    if rules:
        return Why(text, key, params, rules[-1])
    ref = _REF.search(text)
    rule = ref.group(1).removeprefix("rules: ") if ref else None
    return Why(text, key, params, rule[:1].upper() + rule[1:] if rule else None)


def _market(st: EternitiumState, k: int, verb: str) -> Why | None:
    if k == BLIND_BASIC and not st._basic_deck:
        return _why(f"the Basic Technology deck is empty (rules: {verb})", "basic_deck_empty")
    if k == BLIND_ADVANCED and not st._adv_deck:
        text = f"the Advanced Technology deck is empty (rules: {verb})"
        return _why(text, "advanced_deck_empty")
    if k < BLIND_BASIC and k not in st._basic_row and k not in st._adv_row:
        text = f"{card_name(k)} is not among the visible technology cards (rules: {verb})"
        return _why(text, "not_in_market", card=card_name(k))
    return None


def explain_advanced_gift(st: EternitiumState, text: object) -> Why | None:
    """`gift <advanced card>` and `pick <advanced card>` are well-formed but never legal: the
    Laboratory's other players and the Game Preparation pick take a Basic Technology card.
    The refusal for such a text (the wait refusal outside its step), None for any other text."""
    if not isinstance(text, str):
        return None
    words = text.lower().split()
    if len(words) != 2 or words[0] not in ("gift", "pick"):
        return None
    name = words[1]
    if name == BLIND_NAME[1]:
        k = BLIND_ADVANCED
    elif name in CARD_INDEX and TIER[CARD_INDEX[name]] == TIER_ADVANCED:
        k = CARD_INDEX[name]
    else:
        return None
    verb = V_GIFT if words[0] == "gift" else V_PICK
    if st.is_terminal:
        return _why("the game is over (rules: End of the Game)", "game_over")
    if verb not in _PHASE_VERBS[st._phase][0]:
        p = st._current
        doc = _PHASE_VERBS[st._phase][1]
        return _why(f"it is seat {p}'s decision: {doc}", f"wait_{_PHASE_WAIT[st._phase]}", player=p)
    if verb == V_GIFT:
        text = (
            f"{card_name(k)} is an Advanced Technology card: the other players take a Basic "
            "Technology card (Laboratory)"
        )
        return _why(text, "gift_basic_only", card=card_name(k))
    text = (
        f"{card_name(k)} is an Advanced Technology card: each player takes a Basic Technology "
        "card (rules: Game Preparation)"
    )
    return _why(text, "pick_basic_only", card=card_name(k))


def explain(st: EternitiumState, act: EternitiumAction) -> Why:
    if st.is_terminal:
        return _why("the game is over (rules: End of the Game)", "game_over")
    p = st._current
    verbs, doc = _PHASE_VERBS[st._phase]
    if act.verb not in verbs:
        return _why(f"it is seat {p}'s decision: {doc}", f"wait_{_PHASE_WAIT[st._phase]}", player=p)
    hand = st._hands[p]
    v = act.verb
    k = act.card
    if v in (V_PICK, V_GIFT):
        where = "Game Preparation" if v == V_PICK else "Laboratory"
        return _market(st, k, where) or _why(f"not possible now ({where})", "not_possible_now")
    if v == V_TAKE:
        card = CARD_NAME[k]
        if st._rules.portal_deck:
            text = f"{card} is not among the revealed Portal cards (mission 4)"
            return _why(text, "portal_not_revealed", card=card)
        text = f"no {card} is left in the reserve: their number is limited (rules: Setup 3)"
        return _why(text, "portal_reserve_empty", card=card)
    if v in (V_DESTROY, V_DISCARD, V_KEEP, V_PLAY) and k >= 0 and not hand[k]:
        card = CARD_NAME[k]
        return _why(f"seat {p} holds no {card} ({_STEP2})", "not_in_hand", player=p, card=card)
    return _explain_step(st, act, p)


def _explain_step(st: EternitiumState, act: EternitiumAction, p: int) -> Why:
    """Why a move of the current step (the card, if any, is held) is refused."""
    v = act.verb
    k = act.card
    one_mode = "the Data Analyser discards or destroys, not both (Data Analyser)"
    if v == V_DESTROY:
        if st._owned[p] <= MIN_ACTION_CARDS:
            text = (
                f"a player can never have less than {MIN_ACTION_CARDS} Action cards ({_STEP2}; R9)"
            )
            return _why(text, "action_floor", count=MIN_ACTION_CARDS)
        return _why(one_mode, "analyser_one_mode")
    if v == V_DISCARD:
        return _why(one_mode, "analyser_one_mode")
    if v == V_END:
        return _why("you must play as many cards as possible (mission 9)", "must_play_all")
    if v == V_SKIP:
        if st._rules.must_play:
            text = "you must play as many cards as possible, never skip (mission 9)"
            return _why(text, "never_skip")
        text = f"step 2 may be skipped only before any card is played ({_STEP2})"
        return _why(text, "skip_before_play")
    if v == V_STEAL:
        card = CARD_NAME[k]
        text = f"seat {st._target}'s discard pile holds no {card} (Thieving Robot)"
        return _why(text, "steal_missing", player=st._target, card=card)
    if v == V_ERA:
        shape = SHAPES[act.shape]
        text = f"no visible {shape} Era card (rules: Game Turn, step 4)"
        return _why(text, "era_not_visible", shape=shape)
    if v == V_ACQUIRE:
        if not st._eras[p]:
            text = "players who found the gem can no longer acquire technology (End of the Game)"
            return _why(text, "gem_no_acquire")
        why = _market(st, k, "Game Turn, step 4")
        if why is not None:
            return why
        tier = TIER_ADVANCED if k == BLIND_ADVANCED else (1 if k == BLIND_BASIC else TIER[k])
        cost = tier - (1 if st._wallet else 0)
        left = len(st._era_display)
        text = (
            f"it costs {cost} visible Era card(s) and only {left} are left "
            "(rules: Game Turn, step 4)"
        )
        return _why(text, "acquire_cost", count=cost, left=left)
    return _explain_play(st, act, p)


def _explain_play(st: EternitiumState, act: EternitiumAction, p: int) -> Why:
    """Why `play <card> ...` is refused (the card is held)."""
    k = act.card
    card = CARD_NAME[k]
    era = st._eras[p]
    if (MATCHES[k] or NEEDS_ERA[k]) and not era:
        return _why("you have found the gem: no Era card is left (End of the Game)", "gem_no_era")
    if MATCHES[k]:
        top = era[-1]
        if top & VISIBLE:
            shape = SHAPES[era_shape(top)]
            text = f"{card} does not match your visible {shape} Era card ({_STEP2}; R15)"
            return _why(text, "portal_mismatch", card=card, shape=shape)
        text = (
            "only a Portal card may try its luck on a hidden Era card (R6; option "
            "double_portal_luck)"
        )
        return _why(text, "luck_portal_only")
    if PER_TURN[k] and st._limited >= PER_TURN[k]:
        text = f"no more than {PER_TURN[k]} {card} cards per game turn (R3)"
        return _why(text, "per_turn_limit", count=PER_TURN[k], card=card)
    found = _explain_choice(st, act, p)
    return found or _why(f"not playable now ({_STEP2})", "not_playable_now")


def _explain_choice(st: EternitiumState, act: EternitiumAction, p: int) -> Why | None:
    """Why the choice a play names (cards.PARAM) is refused; None if it names none."""
    param = PARAM[act.card]
    if param == PARAM_SEAT_SWAP:
        if act.seat < 0:
            text = "name the opponent, e.g. 'play temporal-blaster seat-1' (Temporal Blaster)"
            return _why(text, "name_swap_target")
        text = (
            f"seat {act.seat} is not an opponent with Era cards left (Temporal Blaster; R5: a "
            "player who found the gem cannot be targeted)"
        )
        return _why(text, "swap_target_invalid", player=act.seat)
    if param == PARAM_SEAT_STEAL:
        if act.seat < 0:
            text = "name the opponent, e.g. 'play thieving-robot seat-1' (Thieving Robot)"
            return _why(text, "name_steal_target")
        text = f"seat {act.seat} is not an opponent with a discard pile to take from (R2)"
        return _why(text, "steal_target_invalid", player=act.seat)
    if param == PARAM_PAIR:
        if act.card2 < 0:
            text = "name the 2 cards it discards, e.g. 'play transporter discard a b' (Transporter)"
            return _why(text, "name_transporter_cards")
        return _why(
            "you must discard 2 other cards you hold (Transporter)", "transporter_needs_two"
        )
    if param == PARAM_OWN_DISCARD:
        return _explain_recycle(st, act, p)
    if param == PARAM_TECH:
        if not st._eras[p]:
            text = "players who found the gem take no more technology: play it bare (R8)"
            return _why(text, "laboratory_gem_found")
        if act.card2 < 0:
            text = "name the technology it adds, e.g. 'play laboratory blind-basic' (Laboratory)"
            return _why(text, "name_laboratory_tech")
        why = _market(st, act.card2, "Laboratory")
        return why or _why("not possible now (Laboratory)", "not_possible_now")
    return None


def _explain_recycle(st: EternitiumState, act: EternitiumAction, p: int) -> Why:
    """Why a Recycler Robot's choice is refused."""
    if not st._discards[p]:
        text = "your discard pile is empty: play it bare, 'play recycler-robot' (Recycler Robot)"
        return _why(text, "recycle_empty")
    c = act.card2
    if c < 0:
        return _why("name a card of your discard pile (Recycler Robot)", "name_recycled")
    text = (
        f"your discard pile holds no {CARD_NAME[c]} (Recycler Robot; R16: it cannot return itself)"
    )
    return _why(text, "recycle_missing", card=CARD_NAME[c])
