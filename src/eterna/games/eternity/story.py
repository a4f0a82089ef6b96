"""What a game of Eternity tells as it is played: the events of a round's start, a trick's
end and the pledges reaching the board (docs/architecture.md, "Events").

Told only while narrating (the state's `_events` is a list), never on a playout's path;
`EternityState` calls these from its round and trick flow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eterna.core.events import Event
from eterna.games.eternity.cards import CARD_NAME, FAMILIES, cards_of, names_of

if TYPE_CHECKING:
    from eterna.games.eternity.state import EternityState


def tell_round_start(st: EternityState, leader: int) -> None:
    assert st._events is not None
    board = [CARD_NAME[c] for c in cards_of(st._board_mask)]
    st._events.append(
        Event(
            "round_started",
            {
                "round": st._round,
                "leader": leader,
                "board": board,
                "trump": FAMILIES[st._trump],
                "harmony_bonus": st._game_bonus(st._round),
                "display": names_of(st._display),
            },
        )
    )
    for seat in range(st._n):
        hand = names_of(st._hand_mask(seat))
        st._events.append(
            Event("hand_dealt", {"seat": seat, "count": len(hand)}, {"cards": hand}, (seat,))
        )


def tell_trick(st: EternityState, winner: int) -> None:
    assert st._events is not None
    n = st._n
    trick = st._seated(len(st._history) - n, len(st._history))
    st._events.append(
        Event(
            "trick_won",
            {
                "seat": winner,
                "trick": st._trick_no + 1,
                "cards": [CARD_NAME[a.card] for _, a in trick if not a.pledge],
                "tricks": st._tricks[winner],
            },
        )
    )


def tell_board(st: EternityState, old_trump: int) -> None:
    assert st._events is not None
    pledged = [CARD_NAME[a.card] for a in st._history[-st._n :] if a.pledge]
    st._events.append(Event("pledges_to_board", {"cards": pledged}))
    if st._trump != old_trump:
        st._events.append(
            Event(
                "trump_changed",
                {"trump": FAMILIES[st._trump], "previous_trump": FAMILIES[old_trump]},
            )
        )
