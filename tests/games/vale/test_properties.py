"""Hypothesis properties over random games: termination, conservation of the cards (70, or 98
with the Artifacts creatures), views that leak nothing, records that replay, and refused actions
that change nothing; each drawn with and without the expansion (option `expansions`)."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from eterna import EternaError, IllegalAction
from eterna.games.vale import GAME, ValeState
from eterna.games.vale import state as vale_state
from eterna.games.vale.cards import ACTIONS, CARD_NAME, cards_in_play

SEEDS = st_.integers(min_value=0, max_value=2**62 - 1)
PLAYERS = st_.integers(min_value=2, max_value=4)
MAX_DECISIONS = 3000
EXPANSIONS = st_.sampled_from([[], ["artifacts"]])


def in_play(st: ValeState) -> list[str]:
    """The names of the game's cards (its sets: option `expansions`)."""
    return [CARD_NAME[c] for c in cards_in_play(st.start.options["expansions"])]


def all_cards(st: ValeState) -> list[str]:
    cards = st.deck() + st.discard_pile() + st.revealed()
    for s in range(st.players):
        cards += st.hand(s) + st.area(s) + st.claimed(s)
    if st.arts is not None:  # the Artifacts' shelters
        cards += [CARD_NAME[c] for shelter in st.arts.shelters for c in shelter]
    return cards


def snapshot(st: ValeState) -> str:
    views = [st.view(s) for s in range(st.players)] + [st.view(None)]
    return json.dumps([views, st.to_record(), [str(a) for a in st.legal_actions()], st.deck()])


def random_game(
    players: int, seed: int, check: bool = False, expansions: list[str] | None = None
) -> ValeState:
    st = GAME.new_game(players, seed=seed, options={"expansions": expansions or []})
    rng = random.Random(seed)
    for step in range(MAX_DECISIONS):
        if st.is_terminal:
            return st
        if check:
            cards = all_cards(st)
            assert sorted(cards) == sorted(in_play(st))
            assert all(x >= 0 for x in st.scores)
        if check and step % 7 == 0:
            for seat in range(players):
                guess = st.determinize(seat, random.Random(step))
                assert guess.view(seat) == st.view(seat)  # the view is all the seat knows
        st.apply(rng.choice(st.legal_actions()))
    raise AssertionError(f"game {players}p seed {seed} did not end in {MAX_DECISIONS} decisions")


@settings(max_examples=12, deadline=None)
@given(PLAYERS, SEEDS, EXPANSIONS)
def test_random_games_terminate_conserve_cards_and_leak_nothing(players, seed, expansions):
    st = random_game(players, seed, check=True, expansions=expansions)
    assert st.is_terminal and st.current_player is None and st.winners
    assert st.view(None)["round"] <= 10
    assert max(st.scores) >= 60 or st.round == 10


@settings(max_examples=10, deadline=None)
@given(PLAYERS, SEEDS, st_.integers(min_value=0, max_value=400), EXPANSIONS)
def test_records_replay_identically(players, seed, cut, expansions):
    st = GAME.new_game(players, seed=seed, options={"expansions": expansions})
    rng = random.Random(seed ^ 1)
    for _ in range(cut):
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_actions()))
    record = json.loads(json.dumps(st.to_record()))
    again = GAME.from_record(record)
    assert snapshot(again) == snapshot(st)


@settings(max_examples=10, deadline=None)
@given(PLAYERS, SEEDS, st_.integers(min_value=0, max_value=300), EXPANSIONS)
def test_refused_actions_change_nothing(players, seed, cut, expansions):
    st = GAME.new_game(players, seed=seed, options={"expansions": expansions})
    rng = random.Random(seed ^ 2)
    for _ in range(cut):
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_actions()))
    legal = set(st.legal_actions())
    before = snapshot(st)
    tried = 0
    for action in rng.sample(ACTIONS, 60):
        if action in legal:
            continue
        tried += 1
        try:
            st.apply(action)
        except IllegalAction as exc:
            assert str(action) in str(exc)
        else:
            raise AssertionError(f"{action} was accepted but is not legal")
        with contextlib.suppress(EternaError):
            st.apply(action.text + " extra words")
    assert tried and snapshot(st) == before


@settings(max_examples=8, deadline=None)
@given(PLAYERS, SEEDS, EXPANSIONS)
def test_clone_and_legal_actions_are_deterministic(players, seed, expansions):
    st = GAME.new_game(players, seed=seed, options={"expansions": expansions})
    rng = random.Random(seed)
    for _ in range(120):
        if st.is_terminal:
            break
        copy = st.clone()
        assert copy.legal_actions() == st.legal_actions()
        action = rng.choice(st.legal_actions())
        copy.apply(action)
        st.apply(action)
        assert snapshot(copy) == snapshot(st)


@settings(max_examples=8, deadline=None)
@given(PLAYERS, SEEDS, st_.integers(min_value=0, max_value=300), EXPANSIONS)
def test_determinized_states_play_on_to_the_end(players, seed, cut, expansions):
    st = GAME.new_game(players, seed=seed, options={"expansions": expansions})
    rng = random.Random(seed ^ 3)
    for _ in range(cut):
        if st.is_terminal:
            return
        st.apply(rng.choice(st.legal_actions()))
    for seat in range(players):
        guess = st.determinize(seat, random.Random(seat))
        cards = all_cards(guess)
        assert sorted(cards) == sorted(in_play(st))
        for _ in range(MAX_DECISIONS):
            if guess.is_terminal:
                break
            guess.apply(rng.choice(guess.legal_actions()))
        assert guess.is_terminal


# the options that are neither an enumeration nor a flag, with values worth trying
VALUES = {
    "expansions": ([], ["artifacts"]),
    "end_threshold": (0, 60, 80),
    "bought_area_limit": (0, 2),
}
OPTION_SETS = st_.fixed_dictionaries(
    {
        name: st_.sampled_from(VALUES.get(name) or opt.choices or (False, True))
        for name, opt in GAME.declared_options.items()
    }
)


@settings(max_examples=10, deadline=None)
@given(PLAYERS, SEEDS, OPTION_SETS)
def test_every_option_set_plays_to_the_end(players, seed, options):
    st = GAME.new_game(players, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_actions()))
    assert st.is_terminal
    assert GAME.from_record(st.to_record()).scores == st.scores


def _waiting_on_another(players: int, seed: int, plies: int) -> ValeState:
    st = GAME.new_game(players, seed=seed, version=1)  # the position the report found
    rng = random.Random(seed)
    for _ in range(plies):
        st.apply(rng.choice(st.legal_actions()))
    return st


@pytest.mark.parametrize("redeals", [32, 0])
def test_determinize_keeps_another_seats_pending_question(monkeypatch, redeals):
    """A pending question is public (view's `pending`): a guess must still ask it. Four
    players, seed 2, after 252 random moves seat 2 answers its Dragon Egg; a redeal of seat 2's
    hidden hand without a card the egg may summon used to drop the question. redeals=0 forces
    the last resort, which swaps unseen cards into the chooser's hand until it is asked."""
    monkeypatch.setattr(vale_state, "_REDEALS", redeals)
    st = _waiting_on_another(4, 2, 252)
    assert st.view(0)["pending"]["card"] == "dragon-egg"
    for seat in (0, 1, 3):
        for k in range(20):
            guess = st.determinize(seat, random.Random(k))
            assert guess.view(seat) == st.view(seat)
            assert guess.current_player == st.current_player == 2


@settings(max_examples=6, deadline=None)
@given(PLAYERS, SEEDS)
def test_every_guess_waits_on_the_same_question(players, seed):
    st = GAME.new_game(players, seed=seed)
    rng = random.Random(seed)
    while not st.is_terminal:
        pending = st.view(None)["pending"]
        if pending is not None:
            for seat in range(players):
                if seat != pending["chooser"]:
                    guess = st.determinize(seat, random.Random(seat))
                    assert guess.view(seat)["pending"] == st.view(seat)["pending"]
        st.apply(rng.choice(st.legal_actions()))
