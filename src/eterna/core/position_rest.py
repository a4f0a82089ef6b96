""" "The rest, shuffled": a whole position may end a deck with `"..."` (docs/positions.md).

Writing a moment by hand should not mean listing every card: a deck (or another pile no seat
sees) written `["kappa", "imp", "..."]` holds those cards on top, then every card of the game
no other key places, in an order drawn by the position's own generator (`rng`), which then
moves on as a deal would. A position read that way writes its deck in full; the same position
text always gives the same deck. Only a whole position may say it (a seat's position writes
`"?"` for what it cannot see), and only as a pile's last entry.
"""

from __future__ import annotations

from typing import Final

from eterna.core.position import Reader

REST: Final = "..."  # the rest of the game's cards, shuffled by the position's generator


def ends_with_rest(r: Reader, seat: int | None) -> bool:
    """Whether the pile `r` (a list) ends with `"..."`; refused in a seat's position, or
    anywhere but last (its items are then read without it: `pile_items`)."""
    items = list(r.items())
    for i, x in enumerate(items):
        if x.value != REST:
            continue
        if seat is not None:
            x.fail("'...' (the rest, shuffled) is for a whole position; a seat's writes '?'")
        if i != len(items) - 1:
            x.fail("'...' (the rest, shuffled) ends a pile: nothing may follow it")
        return True
    return False


def pile_items(r: Reader, rest: bool) -> list[Reader]:
    """The items of a pile, without its closing `"..."`."""
    items = list(r.items())
    return items[:-1] if rest else items
