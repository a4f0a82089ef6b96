"""Properties over random games: termination, conservation, no leaks, replay, refusals."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eterna.core.errors import BadNotation, EternaError, IllegalAction
from eterna.games.eternitium import GAME
from eterna.games.eternitium.cards import ACTIONS

MAX_DECISIONS = 20_000
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _options(players: int, mission: int) -> dict[str, int]:
    return {"mission": mission} if players == 1 and mission else {}


def _playout(players: int, seed: int, mission: int = 0, check_every: int = 0):
    state = GAME.new_game(players, seed=seed, options=_options(players, mission))
    census = state.census()
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, f"no legal action in phase {state.phase}"
        if check_every and steps % check_every == 0:
            _check_views(state, rng)
            _check_refusal(state, rng, legal)
        state.apply(rng.choice(legal))
        steps += 1
        assert state.census() == census
        assert steps < MAX_DECISIONS
    return state


def _check_views(state, rng):
    for seat in range(state.players):
        view = state.view(seat)
        json.dumps(view)
        guess = state.determinize(seat, random.Random(rng.random()))
        # everything the seat sees is the same in any state consistent with its knowledge:
        # the view carries nothing of the hidden cards that determinize resampled
        assert guess.view(seat) == view
        assert guess.census() == state.census()
    json.dumps(state.view(None))


def _check_refusal(state, rng, legal):
    action = rng.choice(ACTIONS)
    if action in legal:
        return
    before = (state.to_record(), state.view(None), [state.view(s) for s in range(state.players)])
    try:
        state.apply(action)
    except IllegalAction as exc:
        assert str(exc).endswith(")"), f"the refusal names no rule: {exc}"
    else:
        raise AssertionError(f"{action} was accepted but is not legal")
    after = (state.to_record(), state.view(None), [state.view(s) for s in range(state.players)])
    assert after == before


@FAST
@given(players=st.integers(1, 5), seed=st.integers(0, 2**40))
def test_random_games_terminate_conserve_cards_and_replay(players, seed):
    state = _playout(players, seed)
    assert state.current_player is None and state.legal_actions() == []
    if players > 1:
        assert state.winners  # someone always wins a multiplayer game
    record = json.loads(json.dumps(state.to_record()))
    again = GAME.from_record(record)
    assert again.winners == state.winners and again.scores == state.scores
    for seat in range(players):
        assert again.view(seat) == state.view(seat)


@FAST
@given(mission=st.integers(1, 10), seed=st.integers(0, 2**40))
def test_every_mission_terminates(mission, seed):
    state = _playout(1, seed, mission)
    assert state.winners in ([], [0])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 4), seed=st.integers(0, 2**40), mission=st.integers(0, 10))
def test_views_leak_nothing_and_refusals_change_nothing(players, seed, mission):
    _playout(players, seed, mission, check_every=9)


@settings(max_examples=40, deadline=None)
@given(text=st.text(max_size=40))
def test_arbitrary_text_raises_only_eterna_errors(text):
    state = GAME.new_game(2, seed=1)
    before = state.to_record()
    try:
        state.apply(text)
    except (BadNotation, IllegalAction):
        pass
    except EternaError as exc:  # pragma: no cover - would be a bug
        raise AssertionError(f"unexpected {type(exc).__name__}") from exc
    else:
        assert text.lower().split() and state.to_record() != before
