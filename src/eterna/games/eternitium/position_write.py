"""Writing an Eternitium position (docs/eternitium.md, 'Positions'; reading it back:
position.py): every zone top first, a face its own key; a seat's position writes "?" for every
card the seat cannot see and keeps the public knowledge `determinize` reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TypedDict, cast

from eterna.core.jsonvalue import JsonObject
from eterna.core.position import UNKNOWN, envelope, rng_text
from eterna.games.eternitium.board import PH_OVER, PH_STEAL, PHASE_NAME
from eterna.games.eternitium.cards import (
    CARD_NAME,
    ERA_KNOWN,
    NKINDS,
    NSHAPES,
    SEEN,
    SHAPE_BITS,
    SHAPES,
    TIER,
    VISIBLE,
)

if TYPE_CHECKING:
    from eterna.games.eternitium.state import EternitiumState

CYCLE_MODES: Final = ("any", "discard", "destroy")  # the Data Analyser's mode (0: not chosen yet)


def _names(cards: list[int]) -> list[str]:
    return [CARD_NAME[k] for k in cards]


def _hand(counts: list[int]) -> list[str]:
    return [CARD_NAME[k] for k in range(NKINDS) for _ in range(counts[k])]


def _count_map(counts: list[int], names: tuple[str, ...] | list[str]) -> dict[str, int]:
    return {names[k]: c for k, c in enumerate(counts) if c}


def _face(code: int) -> str:
    return "up" if code & VISIBLE else ("known" if code & ERA_KNOWN else "down")


def write_position(st: EternitiumState, seat: int | None) -> JsonObject:
    """The position of `st`: whole (seat None) or what `seat` knows."""
    pos = envelope(st.game, st._n, st._start.options, seat)
    if seat is None:
        pos["rng"] = rng_text(st._rng)
    over = st._phase == PH_OVER
    pos |= {
        "phase": PHASE_NAME[st._phase],
        "first_player": st._first,
        "active": st._active,
        "current": None if over else st._current,
        "turn": st._turn,
        "round": st._round,
        "winners": list(st._winners),
        "step": {
            "played": st._played,
            "skipped": st._skipped,
            "failed_luck": st._failed,
            "smartphones": st._limited,
            "wallet": st._wallet,
            "last_turn": st._last_turn,
        },
        "pending": {
            "in_play": None if st._in_play < 0 else CARD_NAME[st._in_play],
            "target": None if st._target < 0 else st._target,
            "gifts": list(st._gifts),
            "pickers": list(st._pickers),
            "cycle_mode": CYCLE_MODES[st._cycle_mode],
            "cycle_count": st._cycle_count,
            "pay_left": st._pay_left,
            "pay_face_down": st._pay_down,
        },
    }
    _write_zones(st, seat, pos)
    # JSON through and through; mypy takes a TypedDict for a Mapping[str, object] only
    pos["knowledge"] = cast(JsonObject, write_knowledge(st, seat))
    return pos


def _write_zones(st: EternitiumState, seat: int | None, pos: dict[str, Any]) -> None:
    whole = seat is None
    looking = st._target if st._phase == PH_STEAL and seat == st._active else -1

    def hidden(cards: list[int], shown: bool) -> list[str]:
        return _names(cards[::-1]) if shown else [UNKNOWN] * len(cards)

    n = st._n
    pos["hands"] = [
        _hand(st._hands[s]) if whole or s == seat else [UNKNOWN] * st._hsize[s] for s in range(n)
    ]
    pos["decks"] = [hidden(st._decks[s], whole) for s in range(n)]
    pos["discards"] = [hidden(st._discards[s], whole or s in (seat, looking)) for s in range(n)]
    pos["era"] = [
        [SHAPES[c & SHAPE_BITS] if whole or c & SEEN else UNKNOWN for c in reversed(pile)]
        for pile in st._eras
    ]
    pos["era_faces"] = [[_face(c) for c in reversed(pile)] for pile in st._eras]
    pos["era_deck"] = (
        [SHAPES[c] for c in reversed(st._era_deck)] if whole else [UNKNOWN] * len(st._era_deck)
    )
    pos["era_display"] = [SHAPES[c] for c in st._era_display]
    pos["era_discard"] = [SHAPES[c] for c in reversed(st._era_discard)]
    pos["portal_reserve"] = {SHAPES[s]: st._reserve[s] for s in range(NSHAPES)}
    pos["portal_row"] = _names(st._portal_row)
    pos["portal_deck"] = hidden(st._portal_deck, whole)
    for key, row, deck, t in (
        ("basic", st._basic_row, st._basic_deck, 0),
        ("advanced", st._adv_row, st._adv_deck, 1),
    ):
        pos[f"{key}_row"] = _names(row)
        b = st._bottom[t]  # the bottom b cards were seen put there (R14)
        pos[f"{key}_deck"] = hidden(deck[b:], whole) + _names(deck[:b][::-1])
    pos["ai_deck"] = hidden(st._ai_deck, whole)
    pos["ai_cards"] = _names(st._ai_log)
    pos["box"] = _count_map(st._box, CARD_NAME)
    pos["era_box"] = _count_map(st._era_box, SHAPES)
    if seat is not None:  # contents the seat knows, not their order: in card order
        pos["deck_cards"] = _names(sorted(st._decks[seat]))
        pos["portal_deck_cards"] = _names(sorted(st._portal_deck))
        pos["ai_deck_cards"] = _names(sorted(st._ai_deck))


class Peek(TypedDict):
    """What a thief saw of a victim's cards (a Thieving Robot's look)."""

    thief: int
    victim: int
    known: dict[str, int]  # card -> copies
    located: dict[str, int]


class Knowledge(TypedDict):
    """A position's `knowledge` (docs/eternitium.md, Determinization): per seat unless said."""

    known: list[dict[str, int]]  # card -> copies every seat knows the seat holds
    located: list[dict[str, int]]
    unknown_tiers: list[list[int]]  # per tier (0 portal, 1 basic, 2 advanced): cards unknown
    era_known: list[dict[str, int]]  # shape -> Era cards known
    era_deck_known: dict[str, int]
    market_bottom: list[int]  # per tier: the cards seen put at the bottom of its deck (R14)
    peeks: list[Peek]


def write_knowledge(st: EternitiumState, seat: int | None) -> Knowledge:
    """The public knowledge (docs/eternitium.md, Determinization): what every seat knows of
    the hidden cards; a thief's look only in the thief's own position."""
    n = st._n
    tiers: list[list[int]] = []
    for s in range(n):
        cards = st._hands[s][:]
        for c in st._decks[s] + st._discards[s]:
            cards[c] += 1
        known = st._known[s]
        peek = st._peeks.get((seat, s)) if seat is not None else None
        if peek is not None:
            known = [max(a, b) for a, b in zip(known, peek[0], strict=True)]
        row = [0, 0, 0]
        for k in range(NKINDS):
            row[TIER[k]] += cards[k] - known[k]
        tiers.append(row)
    peeks: list[Peek] = [
        {
            "thief": thief,
            "victim": victim,
            "known": _count_map(known, CARD_NAME),
            "located": _count_map(located, CARD_NAME),
        }
        for (thief, victim), (known, located) in sorted(st._peeks.items())
        if seat is None or thief == seat
    ]
    return {
        "known": [_count_map(k, CARD_NAME) for k in st._known],
        "located": [_count_map(k, CARD_NAME) for k in st._located],
        "unknown_tiers": tiers,
        "era_known": [_count_map(k, SHAPES) for k in st._era_known],
        "era_deck_known": _count_map(st._deck_known, SHAPES),
        "market_bottom": list(st._bottom),
        "peeks": peeks,
    }
