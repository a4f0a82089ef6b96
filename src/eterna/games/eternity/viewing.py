"""What a seat may know of a game of Eternity (`view`), and a full state consistent with it
(`determinize`). The view's shape is declared in views.py (docs/eternity.md, "The view").

Hidden from a seat: the other hands and every deal still to come; revealed voids (a seat that
did not follow, §5.3) are public and kept by a determinization.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from eterna.core.rng import Rng
from eterna.games.eternity.cards import (
    CARD_FAMILY,
    CARD_NAME,
    FAMILIES,
    ROUNDS,
    cards_of,
    names_of,
    split_mask,
)
from eterna.games.eternity.deal import RoundDeal, draw_deals
from eterna.games.eternity.sampling import sample_hands
from eterna.games.eternity.views import EternityLastTrick, EternityLogEntry, EternityView

if TYPE_CHECKING:
    from eterna.games.eternity.state import EternityState

_NF: Final = len(FAMILIES)


def build_view(st: EternityState, seat: int | None) -> EternityView:
    """What `seat` sees (None: a spectator), as docs/eternity.md, "The view", lists it."""
    n = st._n
    board = {FAMILIES[f]: [] for f in st._col_order}  # type: dict[str, list[str]]
    for card in cards_of(st._board_mask):
        board[FAMILIES[CARD_FAMILY[card]]].append(CARD_NAME[card])
    current = st.current_player
    done = len(st._history)
    trick = st._seated(done - done % n, done)  # every trick has n actions
    view: EternityView = {
        "game": "eternity",
        "seat": seat,
        "players": n,
        "round": st._round,
        "rounds": ROUNDS,
        "harmony_bonus": st._game_bonus(st._round),
        "trick_number": min(st._trick_no + 1, st._start.hand_size),
        "tricks_per_round": st._start.hand_size,
        "current_player": current,
        "leader": None if st._trick_leader < 0 else st._trick_leader,
        "columns": [FAMILIES[f] for f in st._col_order],
        "board": board,
        "trump": FAMILIES[st._trump],
        "display": names_of(st._display),
        "led": None if st._led < 0 else FAMILIES[st._led],
        "trick": [{"seat": s, "card": CARD_NAME[a.card]} for s, a in trick if not a.pledge],
        "pledges": [{"seat": s, "card": CARD_NAME[a.card]} for s, a in trick if a.pledge],
        "pledges_left": st._pledges_left,
        "hand": None if seat is None else names_of(st._hand_mask(seat)),
        "hand_sizes": [st._hand_mask(s).bit_count() for s in range(n)],
        "tricks": list(st._tricks),
        "trees": list(st._trees),
        "tree_supply": None if st._supply_left < 0 else st._supply_left,
        "scores": list(st._scores),
        "round_results": [[seat.copy() for seat in r] for r in st._round_results],
        "last_trick": last_trick(st),
        "log": round_log(st),
        "is_terminal": st.is_terminal,
        "winners": list(st._winners),
    }
    if seat is not None and seat == current:
        view["legal_actions"] = [str(a) for a in st.legal_actions()]
    return view


def last_trick(st: EternityState) -> EternityLastTrick | None:
    """The last finished trick (it stays shown across a round's end)."""
    k = len(st._trick_winners) - 1
    if k < 0:
        return None
    actions = st._seated(k * st._n, (k + 1) * st._n)
    return {
        "round": k // st._start.hand_size + 1,
        "leader": actions[0][0],
        "cards": [{"seat": s, "card": CARD_NAME[a.card]} for s, a in actions if not a.pledge],
        "pledges": [{"seat": s, "card": CARD_NAME[a.card]} for s, a in actions if a.pledge],
        "winner": st._trick_winners[k],
    }


def round_log(st: EternityState) -> list[EternityLogEntry]:
    """The public events of this round: every action, and who won each trick."""
    log: list[EternityLogEntry] = []
    n = st._n
    first_trick = st._round_start // n
    for i, (seat, action) in enumerate(st._seated(st._round_start, len(st._history))):
        log.append({"seat": seat, "action": action.text})
        if i % n == n - 1:
            log.append({"trick_won_by": st._trick_winners[first_trick + i // n]})
    return log


def determinize(st: EternityState, seat: int, rng: random.Random) -> EternityState:
    """Resample every card `seat` cannot see, keeping hand sizes and revealed voids.

    Future deals are unknown too: the copy deals later rounds afresh, from a game generator
    (`Rng`, whose native deal is several times cheaper than sorting the deck by `rng`'s
    floats) seeded with 64 bits of `rng`.
    """
    new = st.clone()
    # The current round's deal holds the true starting hands: blank it (it is read only when
    # a round starts). Earlier rounds were played out in public, later ones are redrawn.
    deals = st._start.deals
    current = deals[st._round - 1]
    blank = RoundDeal((0,) * len(current.hands), (), 0, current.columns)
    new_deals = (
        *deals[: st._round - 1],
        blank,
        *draw_deals(
            Rng(rng.getrandbits(64)),
            st._n,
            list(st._col_order),
            [],
            st._round + 1,
            st._start.options["column_order"] == "shuffle_each_round",
        ),
    )
    new._start = st._start.with_deals(new_deals)
    masks = {s: st._hand_mask(s) for s in range(st._n) if s != seat}
    others = [s for s, mask in masks.items() if mask]
    if others:
        pool = 0
        for s in others:
            pool |= masks[s]
        sizes = {s: masks[s].bit_count() for s in others}
        hands = sample_hands(cards_of(pool), sizes, {s: st._voids[s] for s in others}, rng)
        for s in others:
            new._hands[s * _NF : s * _NF + _NF] = split_mask(hands[s])
    return new
