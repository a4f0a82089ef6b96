"""Eternitium's position invariants beyond the keys' own reads (docs/eternitium.md, "What a
position reader refuses"): states no legal game reaches and that would change what happens next
(the guesses `determinize` draws, the market's next refill). Called once by `read_position`
on the state read; each refusal is a BadPosition naming the field.

- The public knowledge agrees with the cards: a seat's `known` count of a card is at most the
  copies it owns (hand, deck, discard pile, the card in play), `located` at most the copies in
  its discard pile and at most `known`; `era_known` at most the face-down Era cards of that
  shape in its pile, `era_deck_known` at most those of the common deck; a thief's `peeks` the
  same against its victim's cards.
- The market rule (rules: Setup 4-5; R14): a face-up row shows the same technology twice only
  when its deck holds no different one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eterna.core.position import Reader
from eterna.games.eternitium.cards import CARD_NAME, NKINDS, NSHAPES, SHAPE_BITS, SHAPES, VISIBLE

if TYPE_CHECKING:
    from eterna.games.eternitium.state import EternitiumState


def check_position(st: EternitiumState, top: Reader, whole: bool) -> None:
    """Every invariant above (a seat's position: those its '?' cards leave decidable)."""
    if whole:
        _check_knowledge(st, top["knowledge"])
    _check_markets(st, top)


def _owned(st: EternitiumState, s: int) -> list[int]:
    counts = list(st._hands[s])
    for pile in (st._decks[s], st._discards[s]):
        for k in pile:
            counts[k] += 1
    if st._in_play >= 0 and st._active == s:
        counts[st._in_play] += 1
    return counts


def _in_discard(st: EternitiumState, s: int) -> list[int]:
    counts = [0] * NKINDS
    for k in st._discards[s]:
        counts[k] += 1
    return counts


def _at_most(r: Reader, got: list[int], bound: list[int], names: tuple[str, ...], why: str) -> None:
    for k, (g, b) in enumerate(zip(got, bound, strict=True)):
        if g > b:
            r[names[k]].fail(f"is {g}, but {why} {b}")


def _check_knowledge(st: EternitiumState, k: Reader) -> None:
    names = tuple(CARD_NAME[:NKINDS])
    for s in range(st.players):
        owned, discard = _owned(st, s), _in_discard(st, s)
        _at_most(k["known"][s], st._known[s], owned, names, f"seat {s} owns")
        _at_most(k["located"][s], st._located[s], discard, names, f"seat {s}'s discard pile holds")
        _at_most(k["located"][s], st._located[s], st._known[s], names, "known says")
        down = [0] * NSHAPES
        for code in st._eras[s]:
            if not code & VISIBLE:
                down[code & SHAPE_BITS] += 1
        _at_most(k["era_known"][s], st._era_known[s], down, SHAPES, f"seat {s}'s face-down cards:")
    deck = [0] * NSHAPES
    for shape in st._era_deck:
        deck[shape] += 1
    _at_most(k["era_deck_known"], st._deck_known, deck, SHAPES, "the common Era deck holds")
    looks = list(st._peeks)
    if looks != sorted(looks):
        k["peeks"].fail("must list the looks in (thief, victim) order, as they are written")
    for i, ((thief, victim), (known, located)) in enumerate(st._peeks.items()):
        r = k["peeks"][i]
        if thief == victim:
            r["victim"].fail("is the thief: a Thieving Robot looks at an opponent's pile (R2)")
        owned = _owned(st, victim)
        _at_most(r["known"], known, owned, names, f"seat {victim} owns")
        _at_most(r["located"], located, _in_discard(st, victim), names, "the discard pile holds")


def _check_markets(st: EternitiumState, top: Reader) -> None:
    for key, row, deck in (
        ("basic_row", st._basic_row, st._basic_deck),
        ("advanced_row", st._adv_row, st._adv_deck),
    ):
        other = market_breaks(row, deck, st._rules.same)
        if other is not None:
            top[key].fail(market_rule(other))


def market_breaks(row: list[int], deck: list[int], same: tuple[int, ...]) -> int | None:
    """A card of `deck` the row should show instead of a duplicate (Setup 4-5, R14), or None.
    `same` says which cards are the same technology (option basic_market_distinct); a deck
    with unknown cards ('?') is not judged."""
    shown = {same[k] for k in row}
    if len(shown) == len(row) or any(c < 0 for c in deck):
        return None
    return next((c for c in deck if same[c] not in shown), None)


def market_rule(other: int) -> str:
    return (
        f"shows the same technology twice while its deck still holds {CARD_NAME[other]}: the "
        "row's cards all differ unless no different card is left (Setup 4-5; R14)"
    )
