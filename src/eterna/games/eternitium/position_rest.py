"""Eternitium's "the rest, shuffled" (docs/eternitium.md, Positions; core/position_rest.py):
a whole position may end `basic_deck`, `advanced_deck` or `era_deck` with `"..."`. That deck
then holds the cards listed on top, and below them every card of its kind (Basic, Advanced,
Era) that no other key places and `box` / `era_box` does not count, shuffled by the position's
generator (`rng`, Eternitium's `shuffle`, in the order basic, advanced, Era), which moves on.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Final

from eterna.core.errors import BadPosition
from eterna.core.position import Reader
from eterna.core.position_rest import REST
from eterna.core.rng import Rng
from eterna.games.eternitium.cards import (
    CARD_NAME,
    DROID,
    NKINDS,
    NSHAPES,
    SHAPES,
    STARTING_SETS,
    TIER,
    TIER_ADVANCED,
    TIER_BASIC,
)

if TYPE_CHECKING:
    from eterna.games.eternitium.state import EternitiumState

RESTS: Final = ("basic_deck", "advanced_deck", "era_deck")


def split_rests(doc: object) -> tuple[object, list[str]]:
    """The position to read (each closing "..." taken off) and the decks that had one."""
    if not isinstance(doc, dict):
        return doc, []
    keys = [k for k in RESTS if isinstance(doc.get(k), list) and doc[k][-1:] == [REST]]
    if not keys:
        return doc, []
    out = copy.copy(doc)
    for k in keys:
        out[k] = doc[k][:-1]
    return out, keys


def deal_rests(
    st: EternitiumState, top: Reader, keys: list[str], part: bool, comp: list[int]
) -> None:
    """Put each deck's rest below its listed cards (`keys` from `split_rests`)."""
    if not keys:
        return
    if part:
        raise BadPosition(
            f"position {keys[0]}: '...' (the rest, shuffled) is for a whole position; a seat's "
            "writes '?'",
            field=keys[0],
        )
    from eterna.games.eternitium.views import census

    counted = census(st)
    total = list(comp)
    total[DROID] += STARTING_SETS
    rng = Rng.at(st._rng)
    bottom = top["knowledge"].object().get("market_bottom") if top.has("knowledge") else None
    for key in keys:
        if key == "era_deck":
            era = [
                s
                for s in range(NSHAPES)
                for _ in range(total[NKINDS + s] - counted[f"era-{SHAPES[s]}"])
            ]
            rng.shuffle(era)
            st._era_deck[:0] = era
            continue
        t = 0 if key == "basic_deck" else 1
        if isinstance(bottom, list) and len(bottom) == 2 and bottom[t]:
            top["knowledge"]["market_bottom"][t].fail(
                f"counts cards seen at the bottom of {key}, which ends with '...': no card can "
                "be known to lie below the rest"
            )
        tier = TIER_BASIC if t == 0 else TIER_ADVANCED
        rest = [
            k
            for k in range(NKINDS)
            if TIER[k] == tier
            for _ in range(max(0, total[k] - counted[CARD_NAME[k]]))
        ]
        rng.shuffle(rest)
        (st._basic_deck if t == 0 else st._adv_deck)[:0] = rest
    st.load_fields({"_rng": rng.state})
