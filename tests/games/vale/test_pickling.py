"""States go to worker processes (the server's bots and hints) by pickle.

A question asked inside an effect holds functions pickle cannot carry: such a state failed to
pickle and the server's bot played a random move instead. A Vale state now pickles as its whole
position (docs/positions.md), at every ply, base game and Artifacts alike.
"""

from __future__ import annotations

import pickle
import random

import pytest

from eterna.games.vale import GAME

ARTIFACTS = {"expansions": ["artifacts"]}


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(2, 6, {}), (4, 8, {}), (2, 0, ARTIFACTS), (3, 2, ARTIFACTS)],
)
def test_a_state_pickles_at_every_ply_and_plays_on_the_same(players, seed, options):
    st = GAME.new_game(players, seed=seed, options=options)
    rng = random.Random(seed)
    asked = 0
    while not st.is_terminal:
        copy = pickle.loads(pickle.dumps(st))
        assert [str(a) for a in copy.legal_actions()] == [str(a) for a in st.legal_actions()]
        for seat in (None, *range(players)):
            assert copy.view(seat) == st.view(seat)
        asked += st.view(None).get("pending") is not None
        action = rng.choice(st.legal_actions())
        copy.apply(str(action))
        st.apply(action)
        assert copy.view(None) == st.view(None)
    assert asked  # the game did stop inside an effect (where pickling used to fail)


def test_a_guess_still_pickles_as_an_object():
    st = GAME.new_game(2, seed=3)
    guess = st.determinize(0, random.Random(1))
    again = pickle.loads(pickle.dumps(guess))
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in guess.legal_actions()]
