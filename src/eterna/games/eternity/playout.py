"""Eternity's random playout: the loop of every search's random rollouts, without action lists.

`GameState.random_playout` plays `legal_actions()[int(draw() * len(...))]` until the end. Here
the same choice is read from the engine's own tables: a move's legal actions are at most four
runs of interned actions (`PLAY_ROWS` and `PLEDGE_ROWS`, one per family and hand chunk), in the
order `EternityState.legal_actions` lists them, so the k-th is found without building the list.
The same numbers are drawn and the same moves played (tests compare the two loops).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from eterna.games.eternity.cards import (
    PLAY_ROWS,
    PLAYS_EARTH,
    PLAYS_SEA,
    PLAYS_SKY,
    PLEDGES_EARTH,
    PLEDGES_SEA,
    PLEDGES_SKY,
    EternityAction,
)

# state.py imports this module only when a playout starts
from eterna.games.eternity.state import EternityState

_NONE: Final[tuple[EternityAction, ...]] = ()


def random_playout(state: EternityState, draw: Callable[[], float], limit: int) -> int:
    """Play uniformly random legal moves (see the module) until the game ends or `limit` moves
    are played (negative: no limit); the number played."""
    played = 0
    while played != limit:
        p = state._current
        if p < 0:  # the game is over
            break
        hands = state._hands
        b = p * 3
        h0, h1, h2 = hands[b], hands[b + 1], hands[b + 2]
        # the plays: the one family the seat must play (§5.3), or all three families in order
        led = state._led
        must = -1
        if led >= 0:  # §5.2: a leader plays any card
            # fast form of must_follow(hands, b, led, state._trump), generated (core/inline.py)
            must = led if hands[b + led] else state._trump if hands[b + state._trump] else -1
        one = PLAY_ROWS[must][hands[b + must]] if must >= 0 else _NONE
        a0, a1, a2 = PLAYS_EARTH[h0], PLAYS_SEA[h1], PLAYS_SKY[h2]
        n0, n1 = len(a0), len(a1)
        held = n0 + n1 + len(a2)
        plays = len(one) or held
        # §5.3-5.4: a follower may pledge any card while the trick's cap allows
        n = plays + held if led >= 0 and state._pledges_left else plays
        k = int(draw() * float(n))
        if k < plays:
            if one:
                act = one[k]
            elif k < n0:
                act = a0[k]
            elif k < n0 + n1:
                act = a1[k - n0]
            else:
                act = a2[k - n0 - n1]
        else:
            k -= plays
            if k < n0:
                act = PLEDGES_EARTH[h0][k]
            elif k < n0 + n1:
                act = PLEDGES_SEA[h1][k - n0]
            else:
                act = PLEDGES_SKY[h2][k - n0 - n1]
        state.apply(act)
        played += 1
    return played
