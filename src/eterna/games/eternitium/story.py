"""The events that tell a whole part of the game at once (docs/events.md, Eternitium): the deal
and the end. The moves' own events are told where the rules act (board.py, resolve.py,
state.py), each behind `if self._events is not None:`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eterna.games.eternitium.cards import CARD_NAME, NKINDS, SHAPE_BITS, SHAPES, VISIBLE

if TYPE_CHECKING:
    from eterna.games.eternitium.board import EternitiumBoard


def tell_deal(st: EternitiumBoard) -> None:
    """Setup 1-3: the table, then each seat's starting cards (its own hand only to it)."""
    rules = st._rules
    st.tell(
        "game_started",
        players=st._n,
        first=st._first,
        mission=rules.mission,
        turns=rules.turns if st._n == 1 else 0,
    )
    for s in range(st._n):
        hand = st._hands[s]
        if st._hsize[s]:
            cards = [CARD_NAME[k] for k in range(NKINDS) for _ in range(hand[k])]
            st.tell("hand_dealt", {"cards": cards}, (s,), seat=s, count=st._hsize[s])
        st.tell("deck_dealt", seat=s, count=len(st._decks[s]))


def tell_era_dealt(st: EternitiumBoard) -> None:
    """Setup 6: each seat's Era pile, its face-up cards by shape (top first)."""
    for s, pile in enumerate(st._eras):
        shapes = [SHAPES[c & SHAPE_BITS] for c in reversed(pile) if c & VISIBLE]
        st.tell("era_dealt", seat=s, count=len(pile), shapes=shapes)


def tell_end(st: EternitiumBoard) -> None:
    """End of the Game (Solo Mode: the mission's result), with the technology points and, with
    several players, who found the gem (`finders`, empty when a round limit ended the game)."""
    scores = [st._points_of(s) for s in range(st._n)]
    if st._n == 1:
        st.tell(
            "mission_result",
            seat=0,
            mission=st._rules.mission,
            won=bool(st._winners),
            turns=st._turn,
            era=len(st._eras[0]),
        )
    if st._n == 1:
        st.tell("game_over", winners=list(st._winners), scores=scores)
    else:  # the gem's finders: the winners among them have the most technology points
        finders = [s for s in range(st._n) if not st._eras[s]]
        st.tell("game_over", winners=list(st._winners), scores=scores, finders=finders)
