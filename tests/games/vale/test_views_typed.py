"""ValeView (typeddicts.py, re-exported by views.py) describes exactly what `ValeState.view`
returns: the same keys, nested entries included (the pending question, the log, the Artifacts'
part), in every kind of position (a seat's, the mover's, a spectator's), with and without the
Artifacts. The TypedDicts live in an interpreted module so that their optional keys are kept
at run time on the compiled build too (mypyc makes a compiled TypedDict total)."""

from __future__ import annotations

import random

from tests.typed_dicts import check_keys

from eterna.games.vale import GAME
from eterna.games.vale.views import ValeArtifacts, ValeLogEntry, ValePending, ValeView


def test_the_typed_dicts_declare_what_the_docs_name():
    assert ValeView.__optional_keys__ == {"legal_actions", "artifacts"}
    assert ValePending.__optional_keys__ == {"artifact", "options"}
    assert ValePending.__required_keys__ == {"chooser", "for_seat", "card", "kind"}
    assert ValeLogEntry.__required_keys__ == {"seat", "action"}
    assert not ValeArtifacts.__optional_keys__
    assert len(ValeView.__required_keys__) == 30


def test_the_view_has_exactly_the_typed_keys():
    seen: set[str] = set()  # the optional keys met, the pending question's included
    for players, options in ((2, {}), (3, {}), (4, {}), (2, {"expansions": ["artifacts"]}),
                             (4, {"expansions": ["artifacts"]})):  # fmt: skip
        rng = random.Random(players)
        state = GAME.new_game(players, seed=players, options=options)
        while True:
            for seat in (*range(players), None):
                view = state.view(seat)
                seen |= check_keys(view, ValeView, f"view({seat})") - ValeView.__required_keys__
                pending = view["pending"]
                if pending is not None:
                    seen |= check_keys(pending, ValePending, "pending")
                for entry in view["log"]:
                    check_keys(entry, ValeLogEntry, "log")
                if "artifacts" in view:
                    check_keys(view["artifacts"], ValeArtifacts, "artifacts")
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert seen >= ValeView.__optional_keys__ | ValePending.__optional_keys__, seen
