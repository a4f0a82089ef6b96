"""The Vale of Eternity's cards, stones and actions, built once from the package's card data.

A card is an int: 0..69 the base cards in data/cards.json's order (families Fire, Water, Earth,
Wind, Dragon, alphabetical within each), then 70..97 the Artifacts creatures of data/artifacts.json
in the same order; `SET_CARDS` says which cards each set brings (a game's deck holds the base
set and the sets of its `expansions` option). Stones are colours 0..2 (red, blue, purple). A
payment is a multiset of stones, stored as a (red, blue, purple) count triple with at most
MAX_PAYMENT stones (no player can hold more: the stone limit is 6 with Hestia).

Every action is interned: one object per distinct notation, built at import, its `index` its
position in ACTIONS. What a card does is composed in abilities.py; this module holds facts only.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final, cast

from eterna.core.errors import BadNotation
from eterna.core.game import Action
from eterna.games.vale.typeddicts import (
    ValeArtifactsFile,
    ValeCardData,
    ValeCardsFile,
    ValeRulesData,
    ValeTileData,
)


def _load(name: str) -> object:
    return json.loads(
        resources.files("eterna.games.vale").joinpath(f"data/{name}").read_text("utf-8")
    )


# The package's own data, typed by a `cast` (nothing checked at import): tests/core/
# test_typed_contract.py holds both files to their TypedDicts, every key and every value.
DATA: Final = cast(ValeCardsFile, _load("cards.json"))
ARTIFACTS: Final = cast(ValeArtifactsFile, _load("artifacts.json"))  # its creatures; its tiles
ARTIFACTS_DATA: Final = ARTIFACTS
EXPANSIONS: Final[tuple[str, ...]] = tuple(ARTIFACTS["sets"])  # ("artifacts",)

FAMILIES: Final[tuple[str, ...]] = tuple(f["id"] for f in DATA["families"])
FAMILY_INDEX: Final = {name: i for i, name in enumerate(FAMILIES)}
FIRE, WATER, EARTH, WIND, DRAGON = range(5)
COLOURS: Final[tuple[str, ...]] = tuple(s["id"] for s in DATA["stones"])
COLOUR_INDEX: Final = {name: i for i, name in enumerate(COLOURS)}
RED, BLUE, PURPLE = range(3)
BASE_VALUE: Final[tuple[int, ...]] = tuple(s["value"] for s in DATA["stones"])
SELL: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (f["sell"].get("red", 0), f["sell"].get("blue", 0), f["sell"].get("purple", 0))
    for f in DATA["families"]
)

RULES: Final[ValeRulesData] = DATA["rules"]
ROUNDS: Final[int] = RULES["rounds"]
END_SCORE: Final[int] = RULES["end_score"]
STONE_LIMIT: Final[int] = RULES["stone_limit"]
PICKS: Final[int] = RULES["picks_per_player"]
STARTING_POINTS: Final[tuple[int, ...]] = tuple(RULES["starting_points"])

CARDS: Final[tuple[ValeCardData, ...]] = (*DATA["cards"], *ARTIFACTS["creatures"])
DECK_SIZE: Final[int] = len(CARDS)  # every card of every set (98)
BASE_DECK_SIZE: Final[int] = len(DATA["cards"])  # the base game's 70
CARD_NAME: Final[tuple[str, ...]] = tuple(c["id"] for c in CARDS)
CARD_TITLE: Final[tuple[str, ...]] = tuple(c["name"] for c in CARDS)
CARD_BY_NAME: Final[dict[str, int]] = {name: i for i, name in enumerate(CARD_NAME)}
CARD_FAMILY: Final[tuple[int, ...]] = tuple(FAMILY_INDEX[c["family"]] for c in CARDS)
CARD_COST: Final[tuple[int, ...]] = tuple(c["cost"] for c in CARDS)  # the written cost
HAS_INSTANT: Final[tuple[bool, ...]] = tuple("instant" in c for c in CARDS)
HAS_PERMANENT: Final[tuple[bool, ...]] = tuple("permanent" in c for c in CARDS)
HAS_ACTIVE: Final[tuple[bool, ...]] = tuple("resolution" in c for c in CARDS)
CARD_SET: Final[tuple[str, ...]] = tuple(c["set"] for c in CARDS)
SET_CARDS: Final[dict[str, tuple[int, ...]]] = {
    name: tuple(c for c in range(DECK_SIZE) if CARD_SET[c] == name)
    for name in ("base", *EXPANSIONS)
}


def cards_in_play(expansions: tuple[str, ...] | list[str]) -> tuple[int, ...]:
    """The cards of a game played with these expansions (option `expansions`), in index order."""
    return tuple(sorted(c for name in ("base", *expansions) for c in SET_CARDS[name]))


MAX_PAYMENT: Final = 6

# The Artifacts expansion's tiles (data/artifacts.json "tiles"): ints 0..10 in the file's order
TILES: Final[tuple[ValeTileData, ...]] = tuple(ARTIFACTS_DATA["tiles"])
TILE_NAME: Final[tuple[str, ...]] = tuple(t["id"] for t in TILES)
TILE_BY_NAME: Final[dict[str, int]] = {name: i for i, name in enumerate(TILE_NAME)}
TILE_TIMING: Final[tuple[str, ...]] = tuple(t["timing"] for t in TILES)
TILE_GROUP: Final[tuple[str, ...]] = tuple(t["group"] for t in TILES)


def tile_id(name: str) -> int:
    """The artifact tile written `name` (e.g. 'book-of-thoth'), or BadNotation."""
    try:
        return TILE_BY_NAME[name.strip().lower()]
    except (KeyError, AttributeError):
        raise BadNotation(
            f"{name!r} is not an artifact tile: tiles are written by name in lower case with "
            "hyphens, e.g. 'book-of-thoth'"
        ) from None


def card_id(name: str) -> int:
    """The card written `name` (e.g. 'lava-giant'), or BadNotation."""
    try:
        return CARD_BY_NAME[name.strip().lower()]
    except (KeyError, AttributeError):
        raise BadNotation(
            f"{name!r} is not a Vale of Eternity card: cards are written by name in lower case "
            "with hyphens, e.g. 'kappa', 'lava-giant'"
        ) from None


# ---------------------------------------------------------------------------- payments
PAYMENTS: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (r, b, p)
    for total in range(MAX_PAYMENT + 1)
    for p in range(total + 1)
    for b in range(total - p + 1)
    for r in (total - p - b,)
)
PAYMENT_INDEX: Final[dict[tuple[int, int, int], int]] = {pay: i for i, pay in enumerate(PAYMENTS)}


def payment_text(pay: tuple[int, int, int]) -> str:
    """'purple+blue+red': largest stones first."""
    r, b, p = pay
    return "+".join(["purple"] * p + ["blue"] * b + ["red"] * r)


def parse_payment(text: str) -> tuple[int, int, int]:
    counts = [0, 0, 0]
    for word in text.split("+"):
        colour = COLOUR_INDEX.get(word.strip())
        if colour is None:
            raise BadNotation(
                f"{text!r} is not a payment: write stones joined by '+', e.g. 'blue+red'"
            )
        counts[colour] += 1
    pay = (counts[0], counts[1], counts[2])
    if sum(pay) > MAX_PAYMENT:
        raise BadNotation(f"{text!r}: no payment has more than {MAX_PAYMENT} stones")
    return pay


# ---------------------------------------------------------------------------- actions
CLAIM, SELL_, TAME, SUMMON, REMOVE, END_TURN, DISCARD_STONE = range(7)
RESOLVE, RECOVER, DISCARD, TAKE, COPY, SUMMON_FREE, TARGET, CHOOSE, DONE = range(7, 16)
SWAP, PUT_ON_DECK = range(16, 18)  # the Artifacts creatures' (swap Dragons, Nurikabe)
# the Artifacts tiles' moves (artifacts.py)
PICK, USE, SHELTER, RETRIEVE, UPGRADE, BUY_AREA = range(18, 24)

# Names of the options a `choose` answers: the base game's (Hydra, Basilisk, Snail Maiden), then
# the Artifacts creatures' (a family named by Kraken, Rukh or Loki; Mandrake's two options;
# Hephaestus' three red stones)
BASE_CHOICES: Final[tuple[str, ...]] = (
    "red",
    "blue",
    "purple",
    "draw",
    "points",
    "blue-to-purple",
    "purple-to-blue",
)
CHOICES: Final[tuple[str, ...]] = (
    *BASE_CHOICES,
    *FAMILIES,
    "discard",
    "lose-points",
    "three-red",
)
# ... and the Artifacts tiles' (Pied Piper's Pipe, Incense Burner, Golden Fleece, Gem of Kukulkan),
# numbered after CHOICES: their actions are built after every base action (see ACTIONS)
ART_CHOICES: Final[tuple[str, ...]] = ("shelter-top", "retrieve-all", "keep-sold")
ALL_CHOICES: Final[tuple[str, ...]] = CHOICES + ART_CHOICES
CHOICE_INDEX: Final = {name: i for i, name in enumerate(ALL_CHOICES)}
MAX_SEATS: Final = 4


class ValeAction(Action):
    """One interned action: `kind`, and the card, payment or argument it names."""

    __slots__ = ("arg", "card", "kind", "pay")

    def __init__(
        self, index: int, text: str, kind: int, card: int = -1, pay: int = -1, arg: int = -1
    ) -> None:
        super().__init__(index, text)
        self.kind = kind
        self.card = card
        self.pay = pay  # index into PAYMENTS
        self.arg = arg  # a seat (target), a colour (discard-stone) or a CHOICES index

    @classmethod
    def from_notation(cls, text: str) -> ValeAction:
        return parse_action(text)


_BUILT: list[ValeAction] = []


def _new(text: str, kind: int, card: int = -1, pay: int = -1, arg: int = -1) -> ValeAction:
    action = ValeAction(len(_BUILT), text, kind, card, pay, arg)
    _BUILT.append(action)
    return action


def _block(cards: range) -> dict[str, tuple[Any, ...]]:
    """The card actions of `cards`, in the base game's order (its indexes are the encoding's
    action ids: the base block comes first and never moves)."""

    def per_card(verb: str, kind: int) -> tuple[ValeAction, ...]:
        return tuple(_new(f"{verb} {CARD_NAME[c]}", kind, c) for c in cards)

    out: dict[str, tuple[Any, ...]] = {
        "claim": per_card("claim", CLAIM),
        "sell": per_card("sell", SELL_),
        "tame": per_card("tame", TAME),
        "summon": tuple(
            tuple(
                _new(
                    f"summon {CARD_NAME[c]}" + (f" pay {payment_text(pay)}" if any(pay) else ""),
                    SUMMON,
                    c,
                    i,
                )
                for i, pay in enumerate(PAYMENTS)
            )
            for c in cards
        ),
        # remove[c][i - 1] pays with PAYMENTS[i]: a removal always costs at least 1 (§5.4)
        "remove": tuple(
            tuple(
                _new(f"remove {CARD_NAME[c]} pay {payment_text(pay)}", REMOVE, c, i)
                for i, pay in enumerate(PAYMENTS)
                if i
            )
            for c in cards
        ),
    }
    if cards.start == 0:
        out["end-turn"] = (_new("end-turn", END_TURN),)
        out["discard-stone"] = tuple(
            _new(f"discard-stone {c}", DISCARD_STONE, arg=i) for i, c in enumerate(COLOURS)
        )
    out["resolve"] = per_card("resolve", RESOLVE)
    out["recover"] = per_card("recover", RECOVER)
    out["discard"] = per_card("discard", DISCARD)
    out["take"] = per_card("take", TAKE)
    out["copy"] = per_card("copy", COPY)
    out["summon-free"] = tuple(_new(f"summon {CARD_NAME[c]} free", SUMMON_FREE, c) for c in cards)
    return out


_BASE: Final = _block(range(BASE_DECK_SIZE))
A_TARGET: Final = tuple(_new(f"target seat-{s}", TARGET, arg=s) for s in range(MAX_SEATS))
_BASE_CHOOSE: Final = tuple(
    _new(f"choose {name}", CHOOSE, arg=i) for i, name in enumerate(BASE_CHOICES)
)
A_DONE: Final = _new("done", DONE)
BASE_ACTION_COUNT: Final = len(_BUILT)  # the base game's actions (the encoding's version 1)
# the Artifacts creatures: their cards' actions, the new `choose` options, the new verbs
_MORE: Final = _block(range(BASE_DECK_SIZE, DECK_SIZE))
A_CHOOSE: Final = (
    *_BASE_CHOOSE,
    *(
        _new(f"choose {name}", CHOOSE, arg=i)
        for i, name in enumerate(CHOICES)
        if i >= len(_BASE_CHOOSE)
    ),
)
A_SWAP: Final = tuple(_new(f"swap {CARD_NAME[c]}", SWAP, c) for c in range(DECK_SIZE))
A_PUT_ON_DECK: Final = tuple(
    _new(f"put-on-deck {CARD_NAME[c]}", PUT_ON_DECK, c) for c in range(DECK_SIZE)
)


def _joined(verb: str) -> tuple[Any, ...]:
    return (*_BASE[verb], *_MORE[verb])


A_CLAIM: Final[tuple[ValeAction, ...]] = _joined("claim")
A_SELL: Final[tuple[ValeAction, ...]] = _joined("sell")
A_TAME: Final[tuple[ValeAction, ...]] = _joined("tame")
A_SUMMON: Final[tuple[tuple[ValeAction, ...], ...]] = _joined("summon")
A_REMOVE: Final[tuple[tuple[ValeAction, ...], ...]] = _joined("remove")
A_END_TURN: Final[ValeAction] = _BASE["end-turn"][0]
A_DISCARD_STONE: Final[tuple[ValeAction, ...]] = _BASE["discard-stone"]
A_RESOLVE: Final[tuple[ValeAction, ...]] = _joined("resolve")
A_RECOVER: Final[tuple[ValeAction, ...]] = _joined("recover")
A_DISCARD: Final[tuple[ValeAction, ...]] = _joined("discard")
A_TAKE: Final[tuple[ValeAction, ...]] = _joined("take")
A_COPY: Final[tuple[ValeAction, ...]] = _joined("copy")
A_SUMMON_FREE: Final[tuple[ValeAction, ...]] = _joined("summon-free")


def _per_card(verb: str, kind: int) -> tuple[ValeAction, ...]:
    return tuple(_new(f"{verb} {CARD_NAME[c]}", kind, c) for c in range(DECK_SIZE))


# The Artifacts tiles' moves, after every base action so that no base id moves
A_PICK: Final = tuple(_new(f"pick {name}", PICK, arg=t) for t, name in enumerate(TILE_NAME))
A_USE: Final = tuple(_new(f"use {name}", USE, arg=t) for t, name in enumerate(TILE_NAME))
A_SHELTER: Final = _per_card("shelter", SHELTER)
A_RETRIEVE: Final = _per_card("retrieve", RETRIEVE)
A_UPGRADE: Final = tuple(_new(f"upgrade {COLOURS[c]}", UPGRADE, arg=c) for c in (RED, BLUE))
A_BUY_AREA: Final = tuple(
    _new("buy-area" + (f" pay {payment_text(pay)}" if any(pay) else ""), BUY_AREA, pay=i)
    for i, pay in enumerate(PAYMENTS)
)
A_CHOOSE_ART: Final = tuple(
    _new(f"choose {name}", CHOOSE, arg=len(CHOICES) + i) for i, name in enumerate(ART_CHOICES)
)
A_CHOOSE_ALL: Final = A_CHOOSE + A_CHOOSE_ART

ACTIONS: Final[tuple[ValeAction, ...]] = tuple(_BUILT)
BASE_ACTIONS: Final[tuple[ValeAction, ...]] = ACTIONS[:BASE_ACTION_COUNT]
_BY_TEXT: Final[dict[str, ValeAction]] = {a.text: a for a in ACTIONS}

_CARD_VERBS: Final[dict[str, tuple[ValeAction, ...]]] = {
    "claim": A_CLAIM,
    "sell": A_SELL,
    "tame": A_TAME,
    "resolve": A_RESOLVE,
    "recover": A_RECOVER,
    "discard": A_DISCARD,
    "take": A_TAKE,
    "copy": A_COPY,
    "swap": A_SWAP,
    "put-on-deck": A_PUT_ON_DECK,
    "shelter": A_SHELTER,
    "retrieve": A_RETRIEVE,
}

FORMS: Final = (
    "claim/sell/tame/resolve/recover/discard/take/copy/swap/put-on-deck <card>, "
    "summon <card> [pay <stones>], summon <card> free, remove <card> pay <stones>, "
    "discard-stone <colour>, target seat-<n>, "
    f"choose <{'|'.join(ALL_CHOICES)}>, end-turn, done; with the Artifacts: pick/use <tile>, "
    "shelter/retrieve <card>, upgrade <red|blue>, buy-area [pay <stones>]"
)


def parse_action(text: object) -> ValeAction:
    """The interned action written `text` (case and spacing forgiven), or BadNotation."""
    if not isinstance(text, str):
        raise BadNotation(f"a Vale action is a string like 'summon ifrit pay blue', not {text!r}")
    found = _BY_TEXT.get(text)
    if found is not None:
        return found
    words = text.lower().split()
    canonical = " ".join(words)
    found = _BY_TEXT.get(canonical)
    if found is not None:
        return found
    if not words:
        raise BadNotation(f"{text!r} is empty: write one of {FORMS}")
    verb = words[0]
    if verb in _CARD_VERBS and len(words) == 2:
        return _CARD_VERBS[verb][card_id(words[1])]
    if verb in ("summon", "remove") and len(words) in (2, 3, 4):
        card = card_id(words[1])
        if len(words) == 3 and verb == "summon" and words[2] == "free":
            return A_SUMMON_FREE[card]
        if len(words) == 4 and words[2] == "pay":
            pay = PAYMENT_INDEX[parse_payment(words[3])]
            if verb == "summon":
                return A_SUMMON[card][pay]
            if pay:
                return A_REMOVE[card][pay - 1]
        if len(words) == 2 and verb == "summon":
            return A_SUMMON[card][0]
        raise BadNotation(
            f"{text!r}: write 'summon <card> [pay <stones>]' or 'remove <card> pay <stones>'"
        )
    if verb == "discard-stone" and len(words) == 2 and words[1] in COLOUR_INDEX:
        return A_DISCARD_STONE[COLOUR_INDEX[words[1]]]
    if verb == "choose" and len(words) == 2 and words[1] in CHOICE_INDEX:
        return A_CHOOSE_ALL[CHOICE_INDEX[words[1]]]
    if verb in ("pick", "use") and len(words) == 2:
        return (A_PICK if verb == "pick" else A_USE)[tile_id(words[1])]
    if verb == "upgrade" and len(words) == 2 and words[1] in ("red", "blue"):
        return A_UPGRADE[COLOUR_INDEX[words[1]]]
    if verb == "buy-area" and len(words) == 3 and words[1] == "pay":
        return A_BUY_AREA[PAYMENT_INDEX[parse_payment(words[2])]]
    if verb == "target" and len(words) == 2:
        seat = words[1].removeprefix("seat-")
        if seat.isdigit() and int(seat) < MAX_SEATS:
            return A_TARGET[int(seat)]
    raise BadNotation(f"{text!r} is not a Vale of Eternity action: write one of {FORMS}")
