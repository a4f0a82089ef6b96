"""Dealing a round (§3) and reading the `setup` that fixes what the shuffle would decide.

The setup format is DESIGN.md's, documented in docs/eternity.md. Every key is optional;
within a deal, whatever is left out is dealt from the remaining cards by the game's generator
(`eterna.core.rng.Rng`; records of version 1 replay through `eterna.core.legacy`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import partial
from typing import Any, Final, NamedTuple, TypedDict

from eterna.core.errors import BadNotation, BadSetup
from eterna.core.legacy import Generator
from eterna.core.rng import Rng, order_by_draws
from eterna.games.eternity.cards import (
    BOARD_START,
    DECK_SIZE,
    DISPLAY_SIZE,
    FAMILIES,
    FAMILY_INDEX,
    HAND_SIZE,
    ROUNDS,
    card_id,
    mask_of,
    split_mask,
)


class Deal(TypedDict, total=False):
    """What a setup fixes of one round's deal (docs/eternity.md, "Setup format"), card ids checked:
    each key only when given. A dict at run time, as before (mypyc checks `dict`)."""

    hands: list[list[int] | None]  # one per seat; None: that hand is dealt
    board: list[int]
    display: list[int]


SETUP_KEYS: Final = ("columns", "first_leader", "deals")
DEAL_KEYS: Final = ("hands", "board", "display")

_DECK: Final = list(range(DECK_SIZE))  # copied, never dealt in place


def deal_round(
    rng: Generator | random.Random, players: int, fixed: Deal | None
) -> tuple[list[list[int]], list[int], list[int]]:
    """Hands, the two board cards, and the display (3 players) of one round.

    The deck is shuffled and cut in seat order: hand 0, hand 1, ..., then the display, then
    the two board cards. Cards fixed by the setup are taken out first.

    The game's `Rng` (record version 2) deals the deck (`Rng.deal`); a `random.Random` (record
    version 1) sorts it by one float per card (`order_by_draws`).
    """
    hand_size = HAND_SIZE[players]
    display_size = DISPLAY_SIZE[players]
    shuffle = rng.deal if isinstance(rng, Rng) else partial(order_by_draws, rng)
    fixed = fixed or {}  # (nothing fixed: draw_deals calls deal_chunks, the same cut)
    fixed_hands = fixed.get("hands") or [None] * players
    used: set[int] = set()
    for part in (*fixed_hands, fixed.get("board"), fixed.get("display")):
        if part:
            used.update(part)
    deck = [c for c in range(DECK_SIZE) if c not in used]
    shuffle(deck)
    hands = []
    for seat in range(players):
        given = fixed_hands[seat]
        if given is None:
            given, deck = deck[:hand_size], deck[hand_size:]
        hands.append(given)
    display: list[int] = fixed.get("display") or []
    if display_size and not display:
        display, deck = deck[:display_size], deck[display_size:]
    board: list[int] = fixed.get("board") or deck[: BOARD_START[players]]
    return hands, list(board), list(display)


def deal_chunks(rng: Generator | random.Random, players: int) -> tuple[list[int], list[int], int]:
    """`deal_round` with nothing fixed, the same cut of the same shuffle, given as the engine
    keeps it: the hands as one mask chunk per family and seat (`split_mask` of each hand), the
    board cards, and the display's mask. Every game start and determinization deals this way."""
    hand_size = HAND_SIZE[players]
    display_size = DISPLAY_SIZE[players]
    deck = _DECK[:]
    if isinstance(rng, Rng):
        rng.deal(deck)
    else:
        order_by_draws(rng, deck)
    chunks: list[int] = []
    k = 0
    for _seat in range(players):
        mask = 0
        for i in range(k, k + hand_size):
            mask |= 1 << deck[i]
        k += hand_size
        chunks.extend(split_mask(mask))
    display = 0
    for i in range(k, k + display_size):
        display |= 1 << deck[i]
    k += display_size
    return chunks, deck[k : k + BOARD_START[players]], display


def _cards(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise BadSetup(f"setup {where} must be a list of card ids like 'sea-3'")
    try:
        return [card_id(c) if isinstance(c, str) else _not_card(c) for c in value]
    except BadNotation as exc:
        raise BadSetup(f"setup {where}: {exc}") from None


def _not_card(value: Any) -> int:
    raise BadNotation(f"{value!r} is not a card id")


def parse_setup(
    setup: object, players: int
) -> tuple[list[int] | None, int | None, list[Deal | None]]:
    """Check a setup and turn it into (columns, first_leader, deals) with card ints."""
    if setup is None:
        return None, None, []
    if not isinstance(setup, Mapping):
        raise BadSetup("setup must be an object with keys columns, first_leader, deals")
    unknown = sorted(set(setup) - set(SETUP_KEYS))
    if unknown:
        raise BadSetup(f"unknown setup key(s) {', '.join(unknown)}; known: {', '.join(SETUP_KEYS)}")
    columns = None
    if setup.get("columns") is not None:
        given = setup["columns"]
        if not isinstance(given, list) or sorted(map(str, given)) != sorted(FAMILIES):
            raise BadSetup(f"setup columns must list {', '.join(FAMILIES)} once each, in order")
        columns = [FAMILY_INDEX[f] for f in given]
    first_leader = setup.get("first_leader")
    if first_leader is not None and (
        isinstance(first_leader, bool)
        or not isinstance(first_leader, int)
        or not 0 <= first_leader < players
    ):
        raise BadSetup(f"setup first_leader must be a seat 0..{players - 1}, not {first_leader!r}")
    raw_deals = setup.get("deals")
    if raw_deals is None:
        raw_deals = []
    if not isinstance(raw_deals, list) or len(raw_deals) > ROUNDS:
        raise BadSetup(f"setup deals must be a list of at most {ROUNDS} deals, one per round")
    deals = [_parse_deal(d, players, i + 1) for i, d in enumerate(raw_deals)]
    return columns, first_leader, deals


def _parse_deal(raw: object, players: int, rnd: int) -> Deal | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise BadSetup(f"setup deal for round {rnd} must be an object with hands, board, display")
    unknown = sorted(set(raw) - set(DEAL_KEYS))
    if unknown:
        raise BadSetup(f"round {rnd} deal: unknown key(s) {', '.join(unknown)}")
    hand_size = HAND_SIZE[players]
    deal: Deal = {}
    seen: dict[int, str] = {}

    def claim(cards: list[int], where: str) -> list[int]:
        for c in cards:
            if c in seen:
                raise BadSetup(f"round {rnd} deal: a card appears twice ({seen[c]} and {where})")
            seen[c] = where
        return cards

    if raw.get("hands") is not None:
        hands = raw["hands"]
        if not isinstance(hands, list) or len(hands) != players:
            raise BadSetup(f"round {rnd} deal: hands must hold one list per seat ({players})")
        parsed: list[list[int] | None] = []
        for seat, hand in enumerate(hands):
            if hand is None:
                parsed.append(None)
                continue
            cards = claim(_cards(hand, f"round {rnd} hand {seat}"), f"hand {seat}")
            if len(cards) != hand_size:
                raise BadSetup(
                    f"round {rnd} deal: hand {seat} has {len(cards)} cards; "
                    f"{players} players get {hand_size} each (rules §3)"
                )
            parsed.append(cards)
        deal["hands"] = parsed
    if raw.get("board") is not None:
        board = claim(_cards(raw["board"], f"round {rnd} board"), "the board")
        if len(board) != BOARD_START[players]:
            raise BadSetup(
                f"round {rnd} deal: the board starts with {BOARD_START[players]} cards (rules §3)"
            )
        deal["board"] = board
    if raw.get("display") is not None:
        display = claim(_cards(raw["display"], f"round {rnd} display"), "the display")
        if len(display) != DISPLAY_SIZE[players]:
            if DISPLAY_SIZE[players] == 0:
                raise BadSetup(f"round {rnd} deal: only 3-player games have a display (rules §3)")
            raise BadSetup(
                f"round {rnd} deal: the display holds {DISPLAY_SIZE[players]} cards (rules §3)"
            )
        deal["display"] = display
    return deal


class RoundDeal(NamedTuple):
    """One round's deal, drawn when the game starts (the future is hidden state like a deck)."""

    hands: tuple[int, ...]  # _NF chunks per seat, as in EternityState._hands
    board: tuple[int, ...]  # the two cards that start the trump board
    display: int  # mask of the 3-player face-up display
    columns: tuple[int, ...]  # trump board order for the round


def draw_deals(
    rng: Generator | random.Random,
    players: int,
    columns: list[int],
    fixed: list[Deal | None],
    first_round: int,
    reshuffle_columns: bool,
) -> list[RoundDeal]:
    """Deal rounds `first_round`..ROUNDS (§3, §8: a fresh deal every round)."""
    deals = []
    columns = list(columns)
    for rnd in range(first_round, ROUNDS + 1):
        if rnd > 1 and reshuffle_columns:
            rng.shuffle(columns)
        given = fixed[rnd - 1] if rnd <= len(fixed) else None
        if given:  # the setup fixes some of this round's cards
            hands, board, display_cards = deal_round(rng, players, given)
            chunks: list[int] = []
            for hand in hands:
                chunks += split_mask(mask_of(hand))
            display = mask_of(display_cards)
        else:
            chunks, board, display = deal_chunks(rng, players)
        deals.append(RoundDeal(tuple(chunks), tuple(board), display, tuple(columns)))
    return deals
