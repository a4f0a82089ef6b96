"""EternityView (views.py) describes exactly what `EternityState.view` returns: the same keys,
nested entries included, in every kind of position (a seat's, the mover's, a spectator's)."""

from __future__ import annotations

import random
from typing import Any

from tests.typed_dicts import check_keys

from eterna.games.eternity import GAME
from eterna.games.eternity.views import (
    EternityLastTrick,
    EternityLogEntry,
    EternityRoundResult,
    EternitySeatedCard,
    EternityView,
    as_eternity_view,
)


def check_view(view: dict[str, Any]) -> None:
    check_keys(view, EternityView)
    for entry in view["trick"] + view["pledges"]:
        check_keys(entry, EternitySeatedCard)
    for entry in view["log"]:
        check_keys(entry, EternityLogEntry)
        assert set(entry) in ({"seat", "action"}, {"trick_won_by"})
    for results in view["round_results"]:
        for result in results:
            check_keys(result, EternityRoundResult)
    last = view["last_trick"]
    if last is not None:
        check_keys(last, EternityLastTrick)
        for entry in last["cards"] + last["pledges"]:
            check_keys(entry, EternitySeatedCard)


def test_the_view_has_exactly_the_typed_keys():
    for players in (3, 4, 5):
        rng = random.Random(players)
        state = GAME.new_game(players, seed=players, options={"tree_supply": 9})
        movers = 0
        while True:
            for seat in (*range(players), None):
                view = state.view(seat)
                check_view(view)
                movers += "legal_actions" in view
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        assert movers > 0 and state.view(0)["round_results"]


def test_as_eternity_view_is_the_view_itself():
    view = GAME.new_game(3, seed=1).view(0)
    assert as_eternity_view(view) is view
