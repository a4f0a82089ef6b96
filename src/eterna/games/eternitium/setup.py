"""Reading the `setup` that fixes what the shuffles would decide (docs/eternitium.md, 'Setup
format'). Every key is optional; what is left out is dealt by the game's generator.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, TypeGuard

from eterna.core.errors import BadNotation, BadSetup
from eterna.core.jsonvalue import JsonValue
from eterna.games.eternitium.cards import (
    CARD_NAME,
    PORTALS,
    SHAPE_INDEX,
    SHAPES,
    TIER,
    TIER_ADVANCED,
    TIER_BASIC,
    VISIBLE,
    card_id,
)
from eterna.games.eternitium.typeddicts import EternitiumSetup as EternitiumSetup

# The keys of EternitiumSetup that hold one list of card kinds per seat, and the market's.
SeatKey = Literal["hands", "decks", "discards", "blind"]
MarketKey = Literal["basic_row", "basic_deck", "advanced_row", "advanced_deck"]
EraKey = Literal["era_deck", "era_display", "era_discard"]
DeckKey = Literal["basic_deck", "advanced_deck", "era_deck"]

SETUP_KEYS: Final = (
    "first_player",
    "hands",
    "decks",
    "discards",
    "blind",
    "era",
    "era_visible",
    "era_deck",
    "era_display",
    "era_discard",
    "basic_row",
    "basic_deck",
    "advanced_row",
    "advanced_deck",
    "portals",
    "portal_deck",
    "ai_deck",
    "exact",
)
EXACT_KEYS: Final[tuple[DeckKey, ...]] = ("basic_deck", "advanced_deck", "era_deck")
_SEAT_KEYS: Final[tuple[SeatKey, ...]] = ("hands", "decks", "discards")
_ERA_KEYS: Final[tuple[EraKey, ...]] = ("era_deck", "era_display", "era_discard")
_MARKET_KEYS: Final[tuple[tuple[MarketKey, int], ...]] = (
    ("basic_row", TIER_BASIC),
    ("basic_deck", TIER_BASIC),
    ("advanced_row", TIER_ADVANCED),
    ("advanced_deck", TIER_ADVANCED),
)
_ROW_KEYS: Final[tuple[MarketKey, ...]] = ("basic_row", "advanced_row")


def _texts(values: list[JsonValue]) -> TypeGuard[list[str]]:
    return all(isinstance(c, str) for c in values)


def _cards(value: JsonValue, where: str) -> list[int]:
    if not isinstance(value, list) or not _texts(value):
        raise BadSetup(f"setup {where} must be a list of card ids like 'portal-circle'")
    try:
        return [card_id(c) for c in value]
    except BadNotation as exc:
        raise BadSetup(f"setup {where}: {exc}") from None


def _shapes(value: JsonValue, where: str) -> list[int]:
    if not isinstance(value, list) or not _texts(value) or not all(c in SHAPE_INDEX for c in value):
        raise BadSetup(f"setup {where} must be a list of shapes ({', '.join(SHAPES)})")
    return [SHAPE_INDEX[c] for c in value]


def _per_seat(value: JsonValue, where: str, players: int) -> list[JsonValue]:
    if not isinstance(value, list) or len(value) != players:
        raise BadSetup(f"setup {where} must hold one entry per seat ({players})")
    return value


def _tier(cards: list[int], tier: int, where: str) -> list[int]:
    for c in cards:
        if TIER[c] != tier:
            kind = "Basic" if tier == TIER_BASIC else "Advanced"
            raise BadSetup(f"setup {where}: {CARD_NAME[c]} is not a {kind} Technology card")
    return cards


def parse_setup(setup: object, players: int) -> EternitiumSetup:
    """Check a setup (JSON: docs/eternitium.md, 'Setup format') and turn its names into ints
    (decks stay top first, piles bottom first)."""
    if setup is None:
        return {}
    if not isinstance(setup, Mapping):
        raise BadSetup(f"setup must be an object with keys among {', '.join(SETUP_KEYS)}")
    unknown = sorted(set(setup) - set(SETUP_KEYS))
    if unknown:
        raise BadSetup(f"unknown setup key(s) {', '.join(unknown)}; known: {', '.join(SETUP_KEYS)}")
    given: Mapping[str, JsonValue] = setup  # a JSON object: each value is checked as read
    out: EternitiumSetup = {}
    first = given.get("first_player")
    if first is not None:
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
            raise BadSetup(f"setup first_player must be a seat 0..{players - 1}, not {first!r}")
        out["first_player"] = first
    _parse_seats(given, players, out)
    _parse_era(given, players, out)
    _parse_markets(given, out)
    return out


def _parse_seats(setup: Mapping[str, JsonValue], players: int, out: EternitiumSetup) -> None:
    """The Action cards of each seat: hands, decks, discard piles, the cards taken blind."""
    for key in _SEAT_KEYS:
        value = setup.get(key)
        if value is not None:
            rows = _per_seat(value, key, players)
            out[key] = [_cards(r or [], f"{key}[{s}]") for s, r in enumerate(rows)]
    value = setup.get("blind")
    if value is not None:
        rows = _per_seat(value, "blind", players)
        blind = [_cards(r or [], f"blind[{s}]") for s, r in enumerate(rows)]
        out["blind"] = blind
        for s, row in enumerate(blind):
            for c in row:
                if not TIER[c]:
                    raise BadSetup(
                        f"setup blind[{s}]: {CARD_NAME[c]} is no technology (only those are "
                        "taken blind)"
                    )
    if ("decks" in out or "discards" in out or "blind" in out) and "hands" not in out:
        raise BadSetup(
            "setup decks, discards and blind need hands too (they replace the setup pick)"
        )


def _parse_era(setup: Mapping[str, JsonValue], players: int, out: EternitiumSetup) -> None:
    """The Era piles (their faces), the common Era deck, display and discard pile."""
    cased: list[int | None] = [None] * players  # per cased pile: its face-up cards on top
    value = setup.get("era")
    if value is not None:
        rows = _per_seat(value, "era", players)
        piles: list[list[int]] = []
        out["era"] = piles
        for s, row in enumerate(rows):  # an upper-case shape is face up; [] found the gem
            if not isinstance(row, list) or not _texts(row):
                raise BadSetup(f"setup era[{s}] must be a list of shapes ({', '.join(SHAPES)})")
            codes = _shapes([c.lower() for c in row], f"era[{s}]")
            if any(name != name.lower() for name in row):
                cased[s] = next((i for i, name in enumerate(row) if not name.isupper()), len(row))
            piles.append(
                [c | VISIBLE if name.isupper() else c for c, name in zip(codes, row, strict=True)]
            )
    out["era_visible"] = _era_visible(setup.get("era_visible"), cased, players)
    for key in _ERA_KEYS:
        value = setup.get(key)
        if value is not None:
            out[key] = _shapes(value, key)
    if len(out.get("era_display", [])) > 2:
        raise BadSetup("setup era_display holds at most 2 Era cards (rules: Setup 7)")


def _era_visible(given: JsonValue, cased: list[int | None], players: int) -> list[int]:
    """How many top Era cards each seat's pile turns face up at the deal. One way per pile:
    a pile written with an upper-case card is read by case alone (0 here: the case already
    turned its cards); otherwise `era_visible[s]` (default 1, the rules' Setup 6). A count
    given for a pile written by case must say the same (the face-up cards on top, before the
    first lower-case one), else it is a contradiction, refused."""
    rows: list[JsonValue] = (
        [None] * players if given is None else _per_seat(given, "era_visible", players)
    )
    counts: list[int] = []
    for s, v in enumerate(rows):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
            raise BadSetup("setup era_visible must give a count >= 0 (or null) per seat")
        top = cased[s]
        if v is not None and top is not None and v != top:
            raise BadSetup(
                f"setup era[{s}] writes {top} face-up card(s) on top (upper case) but "
                f"era_visible[{s}] says {v}: a pile written in upper case is read by case "
                "alone; give no count (null) or the same one"
            )
        counts.append(0 if top is not None else (1 if v is None else v))
    return counts


def _parse_markets(setup: Mapping[str, JsonValue], out: EternitiumSetup) -> None:
    """The technology rows and decks, the Portal reserve or deck, the AI deck, `exact`."""
    for key, tier in _MARKET_KEYS:
        value = setup.get(key)
        if value is not None:
            out[key] = _tier(_cards(value, key), tier, key)
    for key in _ROW_KEYS:
        if len(out.get(key, [])) > 3:
            raise BadSetup(f"setup {key} holds at most 3 cards (rules: Setup 4-5)")
    given = setup.get("portals")
    if given is not None:
        if not isinstance(given, Mapping) or not all(
            k in SHAPE_INDEX and isinstance(v, int) and not isinstance(v, bool) and v >= 0
            for k, v in given.items()
        ):
            raise BadSetup("setup portals maps shapes to reserve counts, e.g. {'circle': 2}")
        out["portals"] = {SHAPE_INDEX[k]: v for k, v in given.items() if isinstance(v, int)}
    value = setup.get("portal_deck")
    if value is not None:
        cards = _cards(value, "portal_deck")
        if any(c not in PORTALS for c in cards):
            raise BadSetup("setup portal_deck holds Portal cards only")
        out["portal_deck"] = cards
    exact = setup.get("exact")
    if exact is not None:
        if (
            not isinstance(exact, list)
            or not _texts(exact)
            or not all(k in EXACT_KEYS for k in exact)
        ):
            raise BadSetup(f"setup exact lists keys among {', '.join(EXACT_KEYS)}")
        out["exact"] = [k for k in exact]
        for deck in EXACT_KEYS:
            if deck in exact:
                out.setdefault(deck, [])
    value = setup.get("ai_deck")
    if value is not None:
        out["ai_deck"] = _cards(value, "ai_deck")
