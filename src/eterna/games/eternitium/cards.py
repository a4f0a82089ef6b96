"""Eternitium's cards, effects and actions, built once from the package's card data.

An Action card is an int kind 0..22 (copies of one kind are interchangeable):
0-3 the Portal cards of the four shapes, then the Basic and the Advanced Technology cards in the
data file's order. An Era card is a shape 0..3; on a player's Era pile it is stored as
`shape | VISIBLE` when face up. Every technology's effect is a tuple of primitives (effects.py)
compiled from the data file; the engine resolves them (state.py, `_run`).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Final, cast

from eterna.core.errors import BadNotation
from eterna.core.game import Action
from eterna.games.eternitium.effects import (
    OTHERS,
    SELF,
    TIER_ADVANCED,
    TIER_BASIC,
    DiscardEra,
    DiscardFromHand,
    Effect,
    GainTech,
    Recycle,
    Steal,
    SwapTopEra,
    compile_primitive,
)
from eterna.games.eternitium.typeddicts import (
    EternitiumCardsFile,
    EternitiumMission,
    EternitiumTechnology,
)

__all__ = ["OTHERS", "SELF", "TIER_ADVANCED", "TIER_BASIC"]  # re-exported for the engine


def _load() -> object:
    text = resources.files("eterna.games.eternitium").joinpath("data/cards.json").read_text("utf-8")
    return json.loads(text)


# The package's own data, typed by a `cast` (nothing checked at import): tests/core/
# test_typed_contract.py holds the file to its TypedDicts, every key and every value.
DATA: Final = cast(EternitiumCardsFile, _load())

SHAPES: Final[tuple[str, ...]] = tuple(DATA["shapes"])
SHAPE_INDEX: Final[dict[str, int]] = {s: i for i, s in enumerate(SHAPES)}
NSHAPES: Final = len(SHAPES)
# An Era card on a pile is a code: its shape in the low bits, and at most one of two flags.
SHAPE_BITS: Final = 3  # code & SHAPE_BITS: the shape 0..3
VISIBLE: Final = 4  # face up
ERA_KNOWN: Final = 8  # face down, but everyone saw which it is (a missed try, missions 5 and 8)
SEEN: Final = VISIBLE | ERA_KNOWN  # its identity is public
ERA_CODES: Final = 16  # every code is below this


def era_shape(code: int) -> int:
    """The shape of an Era card code (off the hot path; the engine writes `code & SHAPE_BITS`)."""
    return code & SHAPE_BITS


HIDDEN_NAME: Final = "hidden"

# ---------------------------------------------------------------------------- card kinds
PORTAL_IDS: Final = tuple(f"portal-{s}" for s in SHAPES)
_TECH: Final[list[EternitiumTechnology]] = DATA["technologies"]

CARD_NAME: Final[tuple[str, ...]] = PORTAL_IDS + tuple(t["id"] for t in _TECH)
CARD_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(CARD_NAME)}
NKINDS: Final = len(CARD_NAME)
PORTALS: Final = tuple(range(NSHAPES))
TECHS: Final = tuple(range(NSHAPES, NKINDS))
# Tier of each kind: 0 portal, 1 basic, 2 advanced; technology points are the tier (rules
# "End of the Game": Basic 1 point, Advanced 2).
TIER: Final[tuple[int, ...]] = (0,) * NSHAPES + tuple(
    TIER_BASIC if t["tier"] == "basic" else TIER_ADVANCED for t in _TECH
)
BASIC: Final = tuple(k for k in TECHS if TIER[k] == TIER_BASIC)
#: per kind as bytes (read natively when compiled, where a tuple's items are boxed): the points,
#: and 1 for an Advanced card (board.py `_points_of`, each seat's score in every observation)
TIER_POINTS: Final = bytes(TIER)
ADVANCED_CARDS: Final = bytes(t == TIER_ADVANCED for t in TIER)
# The technology each kind is a copy of, by its name in the card list (the six printed Double
# Portals are one technology, "Double Portal", in 6 copies): the first kind of that name. The
# markets' "all different" rule reads it (option basic_market_distinct, docs/eternitium.md).
_FIRST_OF_NAME: Final[dict[str, int]] = {}
for _k, _t in enumerate(_TECH, NSHAPES):
    _FIRST_OF_NAME.setdefault(_t["name"], _k)
TECHNOLOGY: Final[tuple[int, ...]] = tuple(range(NSHAPES)) + tuple(
    _FIRST_OF_NAME[t["name"]] for t in _TECH
)
ADVANCED: Final = tuple(k for k in TECHS if TIER[k] == TIER_ADVANCED)
EFFECT: Final[tuple[Effect, ...]] = tuple((DiscardEra(1 << s),) for s in range(NSHAPES)) + tuple(
    tuple(compile_primitive(op, SHAPE_INDEX) for op in t["effect"]) for t in _TECH
)
AI_EFFECT: Final[dict[int, Effect]] = {
    CARD_INDEX[t["id"]]: tuple(compile_primitive(op, SHAPE_INDEX) for op in t["ai_effect"])
    for t in _TECH
    if "ai_effect" in t
}
PER_TURN: Final[tuple[int, ...]] = (0,) * NSHAPES + tuple(int(t.get("per_turn", 0)) for t in _TECH)
VOID_IF_VISIBLE: Final[tuple[int, ...]] = (0,) * NSHAPES + tuple(
    int(t.get("void_if_visible", 0)) for t in _TECH
)
# The shape mask a card matches when played on an Era card (0: not a portal-like card).
MATCHES: Final[tuple[int, ...]] = tuple(
    next((op.shapes for op in EFFECT[k] if isinstance(op, DiscardEra) and not op.any_shape), 0)
    for k in range(NKINDS)
)
# Parameter a play needs, from its effect: the first primitive that asks for a choice.
PARAM_NONE: Final = 0
PARAM_SEAT_SWAP: Final = 1
PARAM_SEAT_STEAL: Final = 2
PARAM_PAIR: Final = 3
PARAM_OWN_DISCARD: Final = 4
PARAM_TECH: Final = 5


def _param(effect: Effect) -> int:
    for op in effect:
        if isinstance(op, SwapTopEra):
            return PARAM_SEAT_SWAP
        if isinstance(op, Steal):
            return PARAM_SEAT_STEAL
        if isinstance(op, DiscardFromHand):
            return PARAM_PAIR
        if isinstance(op, Recycle):
            return PARAM_OWN_DISCARD
        if isinstance(op, GainTech) and op.who == SELF:
            return PARAM_TECH
    return PARAM_NONE


PARAM: Final[tuple[int, ...]] = tuple(_param(e) for e in EFFECT)
NEEDS_ERA: Final[tuple[bool, ...]] = tuple(
    any(isinstance(op, (DiscardEra, SwapTopEra)) for op in e) for e in EFFECT
)

DROID: Final = CARD_INDEX["droid"]
STARTING_SET: Final = tuple(CARD_INDEX[c] for c in DATA["starting_set"])
STARTING_SETS: Final[int] = DATA["starting_sets"]
SOLO_AI_KINDS: Final = tuple(CARD_INDEX[c] for c in DATA["solo"]["ai_deck"])
SOLO_TURNS: Final[int] = DATA["solo"]["turns"]
MISSIONS: Final[dict[int, EternitiumMission]] = {int(k): v for k, v in DATA["missions"].items()}
ERA_DEALT: Final[dict[int, int]] = {int(k): v for k, v in DATA["era"]["dealt"].items()}
ERA_DISPLAY: Final[int] = DATA["era"]["display"]
MARKET_ROW: Final[int] = DATA["market_row"]
FIRST_HAND: Final[int] = DATA["first_hand"]
HAND_REFILL: Final[int] = DATA["hand_refill"]
HAND_AFTER_LUCK: Final[int] = DATA["hand_refill_after_failed_luck"]
HAND_AFTER_SKIP: Final[int] = DATA["hand_after_skip"]
KEEP_AFTER_SKIP: Final[int] = DATA["keep_after_skip"]
MIN_ACTION_CARDS: Final[int] = DATA["min_action_cards"]
RESERVE_PER_PLAYER: Final[int] = DATA["portals"]["reserve_per_player"]

# Blind picks (the top face-down card of a technology deck) are written as pseudo-cards.
BLIND_BASIC: Final = NKINDS
BLIND_ADVANCED: Final = NKINDS + 1
BLIND_NAME: Final = ("blind-basic", "blind-advanced")
MAX_SEATS: Final = 5


def default_composition() -> dict[str, int]:
    """Every count the option `composition` may override, with the data file's defaults.

    Technology ids give the copies in the market deck (Droid: besides the 5 starting Droids);
    `era-<shape>` gives the Era cards of that shape.
    """
    out = {t["id"]: int(t["copies"]) for t in _TECH}
    for s in SHAPES:
        out[f"era-{s}"] = int(DATA["era"]["per_shape"][s])
    return out


def card_name(kind: int) -> str:
    if kind >= NKINDS:
        return BLIND_NAME[kind - NKINDS]
    return CARD_NAME[kind]


def card_id(name: str) -> int:
    """The Action card kind written `name` (e.g. 'portal-circle'), or BadNotation."""
    try:
        return CARD_INDEX[name]
    except KeyError:
        raise BadNotation(
            f"{name!r} is not an Eternitium card: write e.g. 'portal-circle', 'droid', "
            "'double-portal-circle-square', 'ultimate-portal'"
        ) from None


# ---------------------------------------------------------------------------- actions
V_PICK: Final = 0  # setup: take a Basic Technology card
V_TAKE: Final = 1  # step 1: take a Portal card
V_PLAY: Final = 2  # step 2: play a card
V_END: Final = 3  # step 2: stop playing
V_SKIP: Final = 4  # step 2: skip playing
V_DISCARD: Final = 5  # Data Analyser: discard a card from hand
V_DESTROY: Final = 6  # destroy a card from hand (skip, Data Analyser, mission 6)
V_DONE: Final = 7  # Data Analyser: no more cards
V_STEAL: Final = 8  # Thieving Robot: the card taken
V_GIFT: Final = 9  # Laboratory: the Basic Technology another player takes
V_KEEP: Final = 10  # after skipping: the card kept (card -1: none)
V_ACQUIRE: Final = 11  # step 4
V_PASS: Final = 12  # step 4: acquire nothing
V_ERA: Final = 13  # step 4: the visible Era card taken


class EternitiumAction(Action):
    """One interned action; card, card2, card3, seat, shape are its parameters (-1: none)."""

    __slots__ = ("card", "card2", "card3", "seat", "shape", "verb")

    def __init__(
        self,
        index: int,
        text: str,
        verb: int,
        card: int = -1,
        card2: int = -1,
        card3: int = -1,
        seat: int = -1,
        shape: int = -1,
    ) -> None:
        super().__init__(index, text)
        self.verb = verb
        self.card = card
        self.card2 = card2
        self.card3 = card3
        self.seat = seat
        self.shape = shape

    @classmethod
    def from_notation(cls, text: str) -> EternitiumAction:
        return parse_action(text)


_ALL: list[EternitiumAction] = []


def _mk(text: str, verb: int, **kw: int) -> EternitiumAction:
    action = EternitiumAction(len(_ALL), text, verb, **kw)
    _ALL.append(action)
    return action


_TECH_AND_BLIND: Final = (*TECHS, BLIND_BASIC, BLIND_ADVANCED)
_BASIC_AND_BLIND: Final = (*BASIC, BLIND_BASIC)

PICK: Final = {k: _mk(f"pick {card_name(k)}", V_PICK, card=k) for k in _BASIC_AND_BLIND}
TAKE: Final = tuple(_mk(f"take {CARD_NAME[s]}", V_TAKE, card=s, shape=s) for s in PORTALS)
PLAY: Final = tuple(_mk(f"play {CARD_NAME[k]}", V_PLAY, card=k) for k in range(NKINDS))
PLAY_SEAT: Final = {
    k: tuple(_mk(f"play {CARD_NAME[k]} seat-{s}", V_PLAY, card=k, seat=s) for s in range(MAX_SEATS))
    for k in range(NKINDS)
    if PARAM[k] in (PARAM_SEAT_SWAP, PARAM_SEAT_STEAL)
}
PLAY_PAIR: Final = {
    k: {
        (a, b): _mk(
            f"play {CARD_NAME[k]} discard {CARD_NAME[a]} {CARD_NAME[b]}",
            V_PLAY,
            card=k,
            card2=a,
            card3=b,
        )
        for a in range(NKINDS)
        for b in range(a, NKINDS)
    }
    for k in range(NKINDS)
    if PARAM[k] == PARAM_PAIR
}
PLAY_CARD: Final = {
    k: {
        c: _mk(f"play {CARD_NAME[k]} {card_name(c)}", V_PLAY, card=k, card2=c)
        for c in (range(NKINDS) if PARAM[k] == PARAM_OWN_DISCARD else _TECH_AND_BLIND)
    }
    for k in range(NKINDS)
    if PARAM[k] in (PARAM_OWN_DISCARD, PARAM_TECH)
}
END: Final = _mk("end", V_END)
SKIP: Final = _mk("skip", V_SKIP)
DISCARD: Final = tuple(_mk(f"discard {CARD_NAME[k]}", V_DISCARD, card=k) for k in range(NKINDS))
DESTROY: Final = tuple(_mk(f"destroy {CARD_NAME[k]}", V_DESTROY, card=k) for k in range(NKINDS))
DONE: Final = _mk("done", V_DONE)
STEAL: Final = tuple(_mk(f"steal {CARD_NAME[k]}", V_STEAL, card=k) for k in range(NKINDS))
GIFT: Final = {k: _mk(f"gift {card_name(k)}", V_GIFT, card=k) for k in _BASIC_AND_BLIND}
KEEP: Final = tuple(_mk(f"keep {CARD_NAME[k]}", V_KEEP, card=k) for k in range(NKINDS))
KEEP_NONE: Final = _mk("keep none", V_KEEP)
ACQUIRE: Final = {k: _mk(f"acquire {card_name(k)}", V_ACQUIRE, card=k) for k in _TECH_AND_BLIND}
PASS: Final = _mk("pass", V_PASS)
ERA: Final = tuple(_mk(f"era {SHAPES[s]}", V_ERA, shape=s) for s in range(NSHAPES))

ACTIONS: Final[tuple[EternitiumAction, ...]] = tuple(_ALL)
_BY_TEXT: Final[dict[str, EternitiumAction]] = {a.text: a for a in ACTIONS}
VERBS: Final[tuple[str, ...]] = (  # the action words of the notation (docs/eternitium.md)
    "pick",
    "take",
    "play",
    "end",
    "skip",
    "discard",
    "destroy",
    "done",
    "steal",
    "gift",
    "keep",
    "acquire",
    "pass",
    "era",
)


def parse_action(text: object) -> EternitiumAction:
    """The action written `text` (case and spacing forgiven), or BadNotation."""
    if not isinstance(text, str):
        raise BadNotation(f"an Eternitium action is a string like 'play droid', not {text!r}")
    found = _BY_TEXT.get(text)
    if found is not None:
        return found
    words = text.lower().split()
    found = _BY_TEXT.get(" ".join(words))
    if found is not None:
        return found
    if words and words[0] == "play" and len(words) == 5 and words[2] == "discard":
        # the two discarded cards may be written in any order
        a, b = sorted((card_id(words[3]), card_id(words[4])))
        found = _BY_TEXT.get(f"play {words[1]} discard {CARD_NAME[a]} {CARD_NAME[b]}")
        if found is not None:
            return found
    if not words or words[0] not in VERBS:
        raise BadNotation(
            f"{text!r} is not an Eternitium action: it starts with one of {', '.join(VERBS)} "
            "(docs/eternitium.md, 'Notation')"
        )
    for word in words[1:]:
        if (
            word not in CARD_INDEX
            and word not in BLIND_NAME
            and word not in SHAPE_INDEX
            and word not in ("discard", "none")
            and not word.startswith("seat-")
        ):
            card_id(word)  # raises, naming the unknown card
    raise BadNotation(
        f"{text!r} is not an Eternitium action: see docs/eternitium.md, 'Notation', e.g. "
        "'take portal-circle', 'play transporter discard portal-triangle portal-diamond'"
    )
