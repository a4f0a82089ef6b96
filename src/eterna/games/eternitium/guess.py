"""A seat's position loaded: every "?" filled with one consistent guess (docs/eternitium.md,
'Positions'). The cards the seat cannot place are counted from the composition, less every card
the position names and the public knowledge; they fill the "?" slots in a canonical order, then
`determinize` draws the guess, so the result depends only on the position's text.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from eterna.games.eternitium.cards import (
    CARD_INDEX,
    CARD_NAME,
    DROID,
    NKINDS,
    NSHAPES,
    PORTALS,
    SHAPE_BITS,
    SHAPES,
    STARTING_SETS,
    TIER,
    TIER_ADVANCED,
    TIER_BASIC,
)

if TYPE_CHECKING:
    from eterna.games.eternitium.position import _Read
    from eterna.games.eternitium.state import EternitiumState

_MAX: Final = 1_000_000


def _fill(zone: list[int], cards: list[int]) -> None:
    """Put `cards` (in order) in the -1 slots of `zone`."""
    it = iter(cards)
    for i, c in enumerate(zone):
        if c < 0:
            zone[i] = next(it)


def _take(pool: list[int], cards: list[int]) -> bool:
    """Take `cards` from the counts `pool`; False if it has not got them."""
    for c in cards:
        if pool[c] <= 0:
            return False
        pool[c] -= 1
    return True


def guess(rd: _Read, st: EternitiumState, comp: list[int], rng: random.Random) -> EternitiumState:
    """The seat position's state with its unknowns filled, then determinized for the seat."""
    from eterna.games.eternitium.views import determinize

    seat = rd.seat
    assert seat is not None
    _guess_action_cards(rd, st, comp, seat)
    _guess_era_cards(rd, st, comp)
    return determinize(st, seat, rng)


def _named(rd: _Read, st: EternitiumState, seat: int) -> list[int]:
    """Every Action card the position names outside the other seats' cards, by kind."""
    top = rd.top
    named = list(st._box)
    own = [*st._decks[seat], *st._discards[seat]]
    zones = [
        st._basic_row,
        st._basic_deck,
        st._adv_row,
        st._adv_deck,
        st._portal_row,
    ]  # (the AI cards revealed went to the box: counted there)
    for zone in zones:
        for c in zone:
            if c >= 0:
                named[c] += 1
    for k, c in enumerate(st._hands[seat]):
        named[k] += c
    for c in own:
        if c >= 0:
            named[c] += 1
    for s in range(NSHAPES):
        named[s] += st._reserve[s]
    if st._in_play >= 0:
        named[st._in_play] += 1
    for key, zone in (
        ("deck_cards", st._decks[seat]),
        ("portal_deck_cards", st._portal_deck),
        ("ai_deck_cards", st._ai_deck),
    ):
        cards = rd.cards(top[key])
        allowed = _allowed(st, key)
        for i, c in enumerate(cards):
            if allowed is not None and c not in allowed:
                top[key][i].fail(f"{CARD_NAME[c]} cannot be there in this game")
        if len(cards) != sum(1 for c in zone if c < 0):
            top[key].fail(f"must name the {sum(1 for c in zone if c < 0)} hidden cards there")
        for c in cards:
            named[c] += 1
        _fill(zone, cards)
    return named


def _allowed(st: EternitiumState, key: str) -> set[int] | None:
    """The kinds a hidden solo deck may hold (None: any)."""
    if key == "portal_deck_cards":
        return set(PORTALS)
    if key == "ai_deck_cards":
        return {CARD_INDEX[c] for c in st._rules.ai_deck} if st._n == 1 else set()
    return None


def _guess_action_cards(rd: _Read, st: EternitiumState, comp: list[int], seat: int) -> None:
    """Action cards: what the seat cannot place, dealt to the other seats and the decks."""
    top = rd.top
    pool = list(comp[:NKINDS])
    pool[DROID] += STARTING_SETS
    named = _named(rd, st, seat)
    plans: list[tuple[int, list[int]]] = []
    for s in range(rd.n):
        if s == seat:
            continue
        known = st._known[s]
        peek = st._peeks.get((seat, s))
        if peek is not None:
            known = [max(a, b) for a, b in zip(known, peek[0], strict=True)]
        cards = [k for k in range(NKINDS) for _ in range(known[k])]
        for k in range(NKINDS):
            named[k] += known[k]
        plans.append((s, cards))
    left = [pool[k] - named[k] for k in range(NKINDS)]
    bad = [CARD_NAME[k] for k in range(NKINDS) if left[k] < 0]
    if bad:
        top["box"].fail(f"the cards do not add up: too many {', '.join(bad)} for the game")
    tiers = [[k for k in range(NKINDS) if TIER[k] == t for _ in range(left[k])] for t in range(3)]
    for s, cards in plans:
        want = [r.number(0, _MAX) for r in rd.tiers[s]]
        for t in range(3):
            if want[t] > len(tiers[t]):
                rd.tiers[s][t].fail("is more hidden cards than the game has left")
            cards += [tiers[t].pop() for _ in range(want[t])]
        _deal_seat(rd, st, s, cards)
    for deck, t in ((st._basic_deck, TIER_BASIC), (st._adv_deck, TIER_ADVANCED)):
        slots = sum(1 for c in deck if c < 0)
        if slots > len(tiers[t]):
            top["basic_deck" if t == TIER_BASIC else "advanced_deck"].fail(
                "holds more hidden cards than the game has left"
            )
        _fill(deck, [tiers[t].pop() for _ in range(slots)])
    if any(tiers):
        top["knowledge"]["unknown_tiers"].fail(
            "the hidden cards do not add up: some are in no hand, deck or discard pile"
        )


def _deal_seat(rd: _Read, st: EternitiumState, s: int, cards: list[int]) -> None:
    """Seat s's cards (known ones, then its hidden ones) into its hidden slots."""
    counts = [0] * NKINDS
    for c in cards:
        counts[c] += 1
    shown = [c for c in st._decks[s] + st._discards[s] if c >= 0]
    shown += [k for k in range(NKINDS) for _ in range(st._hands[s][k])]
    if not _take(counts, shown):
        rd.top["knowledge"]["known"][s].fail("does not hold the cards the position shows there")
    rest = [k for k in range(NKINDS) for _ in range(counts[k])]
    slots = rd.hidden_hands[s] + sum(1 for c in st._decks[s] + st._discards[s] if c < 0)
    if len(rest) != slots:
        rd.top["knowledge"]["unknown_tiers"][s].fail(
            f"with the known cards gives {len(rest) + len(shown)} cards; seat {s} holds "
            f"{slots + len(shown)}"
        )
    for _ in range(rd.hidden_hands[s]):
        st._hands[s][rest.pop()] += 1
    in_deck = sum(1 for c in st._decks[s] if c < 0)
    _fill(st._decks[s], rest[:in_deck])
    _fill(st._discards[s], rest[in_deck:])


def _guess_era_cards(rd: _Read, st: EternitiumState, comp: list[int]) -> None:
    """Era cards: what the seat cannot place, into the face-down slots and the common deck."""
    top = rd.top
    left = [comp[NKINDS + s] - st._era_box[s] for s in range(NSHAPES)]
    named = [c & SHAPE_BITS for pile in st._eras for c in pile if c >= 0]
    named += [c for c in st._era_deck if c >= 0] + st._era_display + st._era_discard
    for known in [*st._era_known, st._deck_known]:
        named += [x for x in range(NSHAPES) for _ in range(known[x])]
    if not _take(left, named):
        top["era_box"].fail("the Era cards do not add up: more named than the game has")
    pool = [x for x in range(NSHAPES) for _ in range(left[x])]
    for s, pile in enumerate(st._eras):
        ids = [x for x in range(NSHAPES) for _ in range(st._era_known[s][x])]
        slots = sum(1 for c in pile if c < 0)
        if slots < len(ids) or slots - len(ids) > len(pool):
            top["era"][s].fail(f"has {slots} hidden cards, which do not fit what is known of them")
        _fill(pile, ids + [pool.pop() for _ in range(slots - len(ids))])
    ids = [x for x in range(NSHAPES) for _ in range(st._deck_known[x])]
    slots = sum(1 for c in st._era_deck if c < 0)
    if slots != len(ids) + len(pool):
        top["era_deck"].fail(
            f"has {slots} hidden cards; the Era cards left for it are {len(ids) + len(pool)} "
            f"({', '.join(SHAPES)})"
        )
    _fill(st._era_deck, ids + pool)
