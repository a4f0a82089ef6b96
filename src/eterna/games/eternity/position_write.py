"""Writing an Eternity position (docs/eternity.md#positions; reading it back: position.py).

The round being played, the previous round's last trick while the round has none of its own,
the counters the view shows, the per-round results and the deals still to come; with a seat,
the other hands and the future deals are written "?".
"""

from __future__ import annotations

from typing import Any, Final

from eterna.core.jsonvalue import JsonObject, JsonValue
from eterna.core.position import UNKNOWN, envelope, rng_text
from eterna.games.eternity.cards import CARD_NAME, FAMILIES, FAMILY_MASK, join_chunks, names_of
from eterna.games.eternity.deal import RoundDeal
from eterna.games.eternity.state import EternityState
from eterna.games.eternity.views import EternityRoundResult

_NF: Final = len(FAMILIES)


def write_position(st: EternityState, seat: int | None) -> JsonObject:
    """`st` as a position; with `seat`, other hands and the future deals are written "?"."""
    start = st._start
    n = st._n
    pos = envelope(start.game, n, start.options, seat)
    if seat is None:
        pos["rng"] = rng_text(start.seed)
    seated = st._seated(st._round_start, len(st._history))
    whole = len(seated) - len(seated) % n
    first = st._round_start // n
    played: list[JsonValue] = [
        {
            "actions": [a.text for _, a in seated[i : i + n]],
            "winner": st._trick_winners[first + i // n],
        }
        for i in range(0, whole, n)
    ]
    pos.update(
        first_leader=st._first_leader,
        round=st._round,
        leader=st._round_leader,
        to_move=st.current_player,
        columns=[FAMILIES[f] for f in st._col_order],
        board={FAMILIES[f]: names_of(st._board_mask & FAMILY_MASK[f]) for f in st._col_order},
        display=names_of(st._display),
        hands=[_hand(st._hand_mask(s), seat is None or s == seat) for s in range(n)],
        played=played,
        trick=[a.text for _, a in seated[whole:]],
        last_trick=_last_trick(st) if not played and st._round > 1 else None,
        tricks=list(st._tricks),
        trees=list(st._trees),
        tree_supply=None if st._supply_left < 0 else st._supply_left,
        voids=[[FAMILIES[f] for f in range(_NF) if st._voids[s] >> f & 1] for s in range(n)],
        round_results=[[_result(r) for r in results] for results in st._round_results],
        scores=list(st._scores),
        future=[_write_deal(st, d, seat is None) for d in start.deals[st._round :]],
    )
    return pos


def _result(r: EternityRoundResult) -> JsonObject:
    return {"trees": r["trees"], "tricks": r["tricks"], "points": r["points"]}


def _hand(mask: int, known: bool) -> list[str]:
    return names_of(mask) if known else [UNKNOWN] * mask.bit_count()


def _last_trick(st: EternityState) -> dict[str, Any]:
    n = st._n
    k = len(st._trick_winners) - 1
    seated = st._seated(k * n, (k + 1) * n)
    return {
        "leader": seated[0][0],
        "actions": [a.text for _, a in seated],
        "winner": st._trick_winners[k],
    }


def _write_deal(st: EternityState, deal: RoundDeal, known: bool) -> dict[str, Any]:
    n = st._n
    fixed = st._start.options["column_order"] == "fixed"
    board = sorted(deal.board)
    return {
        "columns": [FAMILIES[f] if known or fixed else UNKNOWN for f in deal.columns],
        "board": [CARD_NAME[c] if known else UNKNOWN for c in board],
        "display": _hand(deal.display, known),
        "hands": [_hand(join_chunks(deal.hands[s * _NF : s * _NF + _NF]), known) for s in range(n)],
    }
