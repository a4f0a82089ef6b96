"""EternitiumView (views.py) describes exactly what `EternitiumState.view` returns: the same keys,
nested entries included, each value of its declared type, in every kind of position (a seat's,
the mover's, a spectator's); `policy_view` is the EternitiumPolicyView part of it."""

from __future__ import annotations

import random

from tests.typed_dicts import check_typed

from eterna.games.eternitium import GAME
from eterna.games.eternitium.views import (
    POLICY_KEYS,
    EternitiumPending,
    EternitiumPolicyView,
    EternitiumTurnState,
    EternitiumView,
    as_eternitium_policy_view,
    as_eternitium_view,
    policy_view,
)


def test_the_typed_dicts_declare_what_the_docs_name():
    assert EternitiumView.__optional_keys__ == {"legal_actions"}
    assert EternitiumPending.__optional_keys__ == {
        "victim",
        "victim_discard",
        "gifts_to_come",
        "mode",
        "chosen",
        "era_to_take",
    }
    assert EternitiumTurnState.__required_keys__ == {
        "played",
        "skipped",
        "failed_luck",
        "smartphones",
        "wallet",
    }
    # the heuristic's keys: declared once, in the part every view holds
    assert set(POLICY_KEYS) == EternitiumPolicyView.__required_keys__
    assert EternitiumPolicyView.__required_keys__ < EternitiumView.__required_keys__


def test_the_view_has_exactly_the_typed_keys_and_types():
    seen: set[str] = set()  # the pending keys met
    movers = 0
    for players in (1, 2, 3, 4, 5):
        for game in range(1):
            rng = random.Random(players * 10 + game)
            options = {"mission": game + 1} if players == 1 else {}
            state = GAME.new_game(players, seed=players * 10 + game, options=options)
            while True:
                for seat in (*range(players), None):
                    view = state.view(seat)
                    check_typed(view, EternitiumView, f"view({seat})")
                    seen |= set(view["pending"])
                    movers += "legal_actions" in view
                    if seat is not None:
                        part = policy_view(state, seat)
                        check_typed(part, EternitiumPolicyView, f"policy_view({seat})")
                if state.is_terminal:
                    break
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
    assert movers > 0
    assert seen == EternitiumPending.__optional_keys__, seen


def test_the_narrowing_functions_are_the_view_itself():
    view = GAME.new_game(3, seed=1).view(0)
    assert as_eternitium_view(view) is view
    assert as_eternitium_policy_view(view) is view
