"""Reading the `setup` that fixes what the shuffles would decide (docs/eternitium.md, 'Setup
format'). Every key is optional; what is left out is dealt by the game's generator.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from eterna.core.errors import BadNotation, BadSetup
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
EXACT_KEYS: Final = ("basic_deck", "advanced_deck", "era_deck")


def _cards(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise BadSetup(f"setup {where} must be a list of card ids like 'portal-circle'")
    try:
        return [card_id(c) for c in value]
    except BadNotation as exc:
        raise BadSetup(f"setup {where}: {exc}") from None


def _shapes(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(c, str) and c in SHAPE_INDEX for c in value
    ):
        raise BadSetup(f"setup {where} must be a list of shapes ({', '.join(SHAPES)})")
    return [SHAPE_INDEX[c] for c in value]


def _per_seat(value: Any, where: str, players: int) -> list[Any]:
    if not isinstance(value, list) or len(value) != players:
        raise BadSetup(f"setup {where} must hold one entry per seat ({players})")
    return value


def _tier(cards: list[int], tier: int, where: str) -> list[int]:
    for c in cards:
        if TIER[c] != tier:
            kind = "Basic" if tier == TIER_BASIC else "Advanced"
            raise BadSetup(f"setup {where}: {CARD_NAME[c]} is not a {kind} Technology card")
    return cards


def parse_setup(setup: object, players: int) -> dict[str, Any]:
    """Check a setup and turn its names into ints (decks stay top first, piles bottom first)."""
    if setup is None:
        return {}
    if not isinstance(setup, Mapping):
        raise BadSetup(f"setup must be an object with keys among {', '.join(SETUP_KEYS)}")
    unknown = sorted(set(setup) - set(SETUP_KEYS))
    if unknown:
        raise BadSetup(f"unknown setup key(s) {', '.join(unknown)}; known: {', '.join(SETUP_KEYS)}")
    out: dict[str, Any] = {}
    first = setup.get("first_player")
    if first is not None:
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
            raise BadSetup(f"setup first_player must be a seat 0..{players - 1}, not {first!r}")
        out["first_player"] = first
    _parse_seats(setup, players, out)
    _parse_era(setup, players, out)
    _parse_markets(setup, out)
    return out


def _parse_seats(setup: Mapping[str, Any], players: int, out: dict[str, Any]) -> None:
    """The Action cards of each seat: hands, decks, discard piles, the cards taken blind."""
    for key in ("hands", "decks", "discards"):
        if setup.get(key) is not None:
            rows = _per_seat(setup[key], key, players)
            out[key] = [_cards(r or [], f"{key}[{s}]") for s, r in enumerate(rows)]
    if setup.get("blind") is not None:
        rows = _per_seat(setup["blind"], "blind", players)
        out["blind"] = [_cards(r or [], f"blind[{s}]") for s, r in enumerate(rows)]
        for s, row in enumerate(out["blind"]):
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


def _parse_era(setup: Mapping[str, Any], players: int, out: dict[str, Any]) -> None:
    """The Era piles (their faces), the common Era deck, display and discard pile."""
    cased: list[int | None] = [None] * players  # per cased pile: its face-up cards on top
    if setup.get("era") is not None:
        rows = _per_seat(setup["era"], "era", players)
        out["era"] = []
        for s, row in enumerate(rows):  # an upper-case shape is face up; [] found the gem
            if not isinstance(row, list) or not all(isinstance(c, str) for c in row):
                raise BadSetup(f"setup era[{s}] must be a list of shapes ({', '.join(SHAPES)})")
            codes = _shapes([c.lower() for c in row], f"era[{s}]")
            if any(name != name.lower() for name in row):
                cased[s] = next((i for i, name in enumerate(row) if not name.isupper()), len(row))
            out["era"].append(
                [c | VISIBLE if name.isupper() else c for c, name in zip(codes, row, strict=True)]
            )
    out["era_visible"] = _era_visible(setup.get("era_visible"), cased, players)
    for key in ("era_deck", "era_display", "era_discard"):
        if setup.get(key) is not None:
            out[key] = _shapes(setup[key], key)
    if len(out.get("era_display", [])) > 2:
        raise BadSetup("setup era_display holds at most 2 Era cards (rules: Setup 7)")


def _era_visible(given: Any, cased: list[int | None], players: int) -> list[int]:
    """How many top Era cards each seat's pile turns face up at the deal. One way per pile:
    a pile written with an upper-case card is read by case alone (0 here: the case already
    turned its cards); otherwise `era_visible[s]` (default 1, the rules' Setup 6). A count
    given for a pile written by case must say the same (the face-up cards on top, before the
    first lower-case one), else it is a contradiction, refused."""
    rows = [None] * players if given is None else _per_seat(given, "era_visible", players)
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


def _parse_markets(setup: Mapping[str, Any], out: dict[str, Any]) -> None:
    """The technology rows and decks, the Portal reserve or deck, the AI deck, `exact`."""
    for key, tier in (
        ("basic_row", TIER_BASIC),
        ("basic_deck", TIER_BASIC),
        ("advanced_row", TIER_ADVANCED),
        ("advanced_deck", TIER_ADVANCED),
    ):
        if setup.get(key) is not None:
            out[key] = _tier(_cards(setup[key], key), tier, key)
    for key in ("basic_row", "advanced_row"):
        if len(out.get(key, [])) > 3:
            raise BadSetup(f"setup {key} holds at most 3 cards (rules: Setup 4-5)")
    if setup.get("portals") is not None:
        given = setup["portals"]
        if not isinstance(given, Mapping) or not all(
            k in SHAPE_INDEX and isinstance(v, int) and not isinstance(v, bool) and v >= 0
            for k, v in given.items()
        ):
            raise BadSetup("setup portals maps shapes to reserve counts, e.g. {'circle': 2}")
        out["portals"] = {SHAPE_INDEX[k]: v for k, v in given.items()}
    if setup.get("portal_deck") is not None:
        cards = _cards(setup["portal_deck"], "portal_deck")
        if any(c not in PORTALS for c in cards):
            raise BadSetup("setup portal_deck holds Portal cards only")
        out["portal_deck"] = cards
    if setup.get("exact") is not None:
        exact = setup["exact"]
        if not isinstance(exact, list) or not all(k in EXACT_KEYS for k in exact):
            raise BadSetup(f"setup exact lists keys among {', '.join(EXACT_KEYS)}")
        out["exact"] = [k for k in exact]
        for key in exact:
            out.setdefault(key, [])
    if setup.get("ai_deck") is not None:
        out["ai_deck"] = _cards(setup["ai_deck"], "ai_deck")
