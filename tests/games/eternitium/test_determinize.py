"""determinize(seat, rng): the seat's view is kept, everything it cannot see is drawn again
(docs/eternitium.md, Determinization). Adversarial: the hidden parts really vary, and nothing
a seat is shown tells the true state from a determinized one."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from eternitium_helpers import make

from eterna.agents import make_agent
from eterna.core.agent import SeatWindow
from eterna.games.eternitium import GAME, EternitiumState

STARTING = ["portal-circle", "portal-square", "portal-triangle", "portal-diamond", "droid"]
FILLER = ["portal-diamond"] * 3 + ["portal-triangle"] * 3


def full(state: EternitiumState) -> dict[str, Any]:
    """Everything about a state that the owner-of-everything tools show."""
    n = state.players
    return {
        "views": [state.view(None)] + [state.view(s) for s in range(n)],
        "hands": [sorted(state.hand(s)) for s in range(n)],
        "decks": [state.deck(s) for s in range(n)],
        "discards": [state.discard_pile(s) for s in range(n)],
        "eras": [state.era_pile(s) for s in range(n)],
        "markets": [state.market_deck("basic"), state.market_deck("advanced")],
        "ai": state.ai_deck(),
        "census": state.census(),
        "legal": [str(a) for a in state.legal_actions()],
    }


def collection(state: EternitiumState, seat: int) -> Counter[str]:
    return Counter(state.hand(seat) + state.deck(seat) + state.discard_pile(seat))


def states(players: int, seed: int, every: int = 3) -> list[EternitiumState]:
    """Positions of one game between a heuristic and random players."""
    state = GAME.new_game(players, seed=seed)
    agents = [make_agent("heuristic" if s == 0 else "random", seed=seed + s) for s in range(5)]
    out = []
    for step in range(400):
        if state.is_terminal:
            break
        if step % every == 0:
            out.append(state.clone())
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].choose(state, seat))
    return out


@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_determinize_keeps_the_seat_view_and_every_count(players):
    for state in states(players, seed=players * 7):
        for seat in range(players):
            guess = state.determinize(seat, random.Random(seat))
            assert guess.view(seat) == state.view(seat)
            assert guess.census() == state.census()
            if seat == state.current_player:
                assert [str(a) for a in guess.legal_actions()] == [
                    str(a) for a in state.legal_actions()
                ]
                assert sorted(guess.hand(seat)) == sorted(state.hand(seat))
                assert Counter(guess.deck(seat)) == Counter(state.deck(seat))


@pytest.mark.parametrize("players", [1, 3, 4])
def test_swap_a_seat_cannot_tell_the_true_state_from_a_determinized_one(players):
    """Swap test: give a seat's window either the true state or a determinization of it. The
    view, the legal moves, every determinization drawn from it (same rng) and the choices of
    the random, heuristic and search agents are identical."""
    for state in states(players, seed=11 + players, every=7)[:8]:
        seat = state.current_player
        assert seat is not None
        guess = state.determinize(seat, random.Random(99))
        true_window, fake_window = SeatWindow(state, seat), SeatWindow(guess, seat)
        assert true_window.view() == fake_window.view()
        assert [str(a) for a in true_window.legal_actions()] == [
            str(a) for a in fake_window.legal_actions()
        ]
        for k in range(3):
            assert full(true_window.determinize(random.Random(k))) == full(
                fake_window.determinize(random.Random(k))
            )
        for spec in ("random", "heuristic", "ismcts:iterations=20"):
            a = make_agent(spec, seed=5).choose(state, seat)
            b = make_agent(spec, seed=5).choose(guess, seat)
            assert str(a) == str(b)


def test_a_blind_pick_is_unknown_to_the_others():
    """Game Preparation: a card picked blind is seen by its taker only; the others' guesses
    for it vary over the Basic cards nobody can locate."""
    state = GAME.new_game(3, seed=4, setup={"first_player": 0})
    state.apply("pick blind-basic")
    true_card = next(iter(collection(state, 0) - Counter(STARTING)))
    seen = set()
    for k in range(20):
        for seat in (1, 2):
            guess = state.determinize(seat, random.Random(k * 3 + seat))
            (card,) = collection(guess, 0) - Counter(STARTING)
            seen.add(card)
        mine = state.determinize(0, random.Random(k))
        assert collection(mine, 0) == collection(state, 0)
    assert len(seen) > 1 and seen - {true_card}


def test_a_visible_pick_is_known_to_everyone():
    state = GAME.new_game(3, seed=4, setup={"first_player": 0})
    picked = state.view(0)["basic_row"][0]
    state.apply(f"pick {picked}")
    for k in range(10):
        guess = state.determinize(1, random.Random(k))
        assert collection(guess, 0) == Counter([*STARTING, picked])


def test_setup_blind_cards_vary_and_the_rest_stays():
    """Setup `blind`: cards the others never saw; the rest of a setup collection is public."""
    state = make(
        3,
        hands=[["droid"], ["transporter", "portal-circle"], []],
        decks=[FILLER, ["futuristic-smartphone", "droid"], []],
        blind=[[], ["transporter"], []],
        era=[["circle"] * 3, ["square"] * 3, ["triangle"] * 3],
    )
    guesses = [state.determinize(0, random.Random(k)) for k in range(20)]
    for guess in guesses:
        cards = collection(guess, 1)
        assert cards["portal-circle"] == 1 and cards["futuristic-smartphone"] >= 1
        assert cards["droid"] >= 1 and sum(cards.values()) == 4
    assert any(collection(g, 1)["transporter"] == 0 for g in guesses)
    assert all(
        collection(state.determinize(1, random.Random(k)), 1) == collection(state, 1)
        for k in range(5)
    )


def test_a_card_seen_played_stays_in_its_discard_pile():
    """A played card lies face up in its owner's discard pile until that pile is reshuffled."""
    state = make(
        3,
        hands=[["droid", "portal-circle", "portal-square"], [], []],
        decks=[FILLER, FILLER, FILLER],
        era=[["circle", "square"], ["square"] * 3, ["triangle"] * 3],
        era_visible=[2, 1, 1],
    )
    state.apply("play portal-circle")
    for k in range(20):
        guess = state.determinize(1, random.Random(k))
        assert guess.discard_pile(0) == ["portal-circle"]  # the rest may be anywhere
        assert collection(guess, 0) == collection(state, 0)  # all of it was public


def test_cards_moved_to_the_bottom_of_a_technology_deck_stay_there():
    """Setup 5 / R14: a duplicate goes to the bottom, seen by all; the rest is reshuffled."""
    state = make(
        2,
        hands=[["futuristic-smartphone"], []],
        decks=[FILLER, FILLER],
        basic_row=["droid", "transporter", "digital-wallet"],
        basic_deck=["droid", "transporter", "data-analyser"],
        era=[["circle"] * 4, ["square"] * 4],
        era_display=["circle", "square"],
    )
    state.apply("end")
    state.apply("acquire digital-wallet")
    assert state.market_deck("basic")[-2:] == ["droid", "transporter"]
    tops = set()
    for k in range(20):
        guess = state.determinize(1, random.Random(k))
        deck = guess.market_deck("basic")
        assert deck[-2:] == ["droid", "transporter"]
        assert Counter(deck) == Counter(state.market_deck("basic"))
        tops.add(tuple(deck[:3]))
    assert len(tops) > 1


def test_hidden_era_cards_vary_and_a_missed_card_stays_in_its_pile():
    """Try your luck: the missed card is seen, then the pile is shuffled: it is still in the
    pile (somewhere); the other face-down cards are anybody's guess."""
    state = make(
        2,
        hands=[["portal-diamond", "droid"], []],
        decks=[FILLER, FILLER],
        era=[["circle", "square", "triangle"], ["square"] * 3],
        era_visible=[0, 1],
    )
    state.apply("play portal-diamond")  # misses the hidden circle
    assert state.view(0)["turn_state"]["failed_luck"]
    piles = set()
    for k in range(20):
        for seat in (0, 1):
            guess = state.determinize(seat, random.Random(k * 2 + seat))
            pile = guess.era_pile(0)
            assert "circle" in pile and len(pile) == 3
            piles.add(tuple(pile))
    assert len(piles) > 3


def test_the_thief_alone_sees_the_victims_discard_pile():
    """Thieving Robot (R2): while choosing, the thief sees the pile; the others do not."""
    state = make(
        3,
        hands=[["thieving-robot"], [], []],
        decks=[FILLER, FILLER, FILLER],
        discards=[[], ["transporter", "giga-droid", "droid"], []],
        blind=[[], ["transporter", "giga-droid"], []],
        era=[["circle"] * 3, ["square"] * 3, ["triangle"] * 3],
    )
    state.apply("play thieving-robot seat-1")
    assert state.phase == "steal"
    others = set()
    for k in range(20):
        guess = state.determinize(0, random.Random(k))
        assert guess.discard_pile(1) == ["transporter", "giga-droid", "droid"]
        others.add(tuple(sorted(state.determinize(2, random.Random(k)).discard_pile(1))))
    assert len(others) > 1
    state.apply("steal giga-droid")  # now public: seat 1 held a Giga Droid, seat 0 holds it
    for k in range(10):
        guess = state.determinize(2, random.Random(k))
        assert collection(guess, 0)["giga-droid"] == 1
        assert "thieving-robot" in guess.discard_pile(1)
        thief = state.determinize(0, random.Random(k))  # remembers what it saw
        assert sorted(thief.discard_pile(1)) == ["droid", "thieving-robot", "transporter"]


def test_a_determinized_state_has_no_record():
    state = GAME.new_game(2, seed=1)
    guess = state.determinize(0, random.Random(0))
    with pytest.raises(Exception, match="no record"):
        guess.to_record()
