"""An update's `told` part is worded once per (events, language) and shared by every seat told
the same events (told.Teller): each seat's text must be what wording its own events gives, at
every ply of whole games of every game, in every language."""

from __future__ import annotations

import random

import pytest
from server_helpers import live_table

from eterna.i18n import LANGS
from eterna.server.protocol import encode, told_items
from eterna.server.told import Teller, seat_names


@pytest.mark.parametrize(
    ("game", "players", "seed"), [("eternity", 4, 1), ("vale", 3, 2), ("eternitium", 2, 3)]
)
def test_each_seat_is_told_its_own_events(game: str, players: int, seed: int) -> None:
    table = live_table(game, players, seed)
    state = table.state
    rng = random.Random(seed)
    shared = 0
    while not state.is_terminal:
        since = state.event_count()
        state = state.clone()
        state.apply(rng.choice(state.legal_actions()))
        table.state = state
        teller = Teller(table, state, since)
        for lang in LANGS:
            names = seat_names(table, lang)
            texts = []
            for seat in [None, *range(players)]:
                told, _moves = teller.parts(seat, lang)
                events = state.events_since(since, seat)
                assert told == encode(told_items(game, events, since, lang, names))
                texts.append(told)
            shared += len(texts) - len(set(texts))
    assert shared > 0  # seats were told the same events, and shared their words
