"""Eternitium's numeric rules tested at exactly their threshold and one step on each side
(issue 34): the floor of 6 Action cards (rulebook, Game Turn step 2; digest R9), the Era cards a
technology costs with and without a Digital Wallet (rulebook, step 4; R16), the Futuristic
Smartphone's 3 per turn (R3), the refill's 5 / 4 / 6 cards, the Era piles dealt by player count
and the end's tie-breaks (rulebook, End of the Game; R7). Each test names its rule."""

from __future__ import annotations

from typing import Any

import pytest
from eternitium_helpers import do, legal, make

from eterna.core.errors import IllegalAction
from eterna.games.eternitium import GAME

ERA = [["circle", "square"], ["square"]]


def analyser(deck: int) -> Any:
    """Seat 0 plays Data Analyser holding two Droids, `deck` Droids in its deck: it owns
    3 + deck Action cards (the Analyser included while it is in play)."""
    state = make(
        2,
        hands=[["data-analyser", "droid", "droid"], []],
        decks=[["portal-diamond"] * deck, []],
        era=ERA,
    )
    state.apply("play data-analyser")
    return state


@pytest.mark.parametrize(
    ("deck", "owned", "destroys"), [(2, 5, 0), (3, 6, 0), (4, 7, 1), (5, 8, 2)]
)
def test_data_analyser_floor_of_6_action_cards_r9(deck: int, owned: int, destroys: int) -> None:
    """Rulebook step 2, "a player can never have less than 6 Action cards"; digest R9: when a
    destroy would leave fewer than 6, nothing is destroyed. Owning exactly 6, no destroy is
    offered or accepted; owning 7, one; owning 8, two."""
    state = analyser(deck)
    assert state._owned[0] == owned
    if not destroys:
        with pytest.raises(IllegalAction, match="6 Action cards"):
            state.apply("destroy droid")  # refused, naming the rule
        assert state._owned[0] == owned  # and nothing changed
        return
    done = 0
    while "destroy droid" in legal(state):
        state.apply("destroy droid")
        done += 1
    assert done == destroys and state._owned[0] == 6  # down to the floor, never below


def test_data_analyser_at_exactly_6_may_still_discard_r9() -> None:
    """At the floor the discard mode stays open: discarding loses no Action card."""
    state = analyser(3)
    assert "discard droid" in legal(state) and "destroy droid" not in legal(state)
    state.apply("discard droid")
    assert state._owned[0] == 6


@pytest.mark.parametrize(("deck", "offered"), [(3, False), (4, False), (5, True)])
def test_skip_destroys_only_above_the_floor_of_6(deck: int, offered: bool) -> None:
    """Rulebook step 2 (skip: destroy any cards) with the floor of 6 (R9): owning 5 or exactly
    6 (2 in hand, 4 in deck) no destroy is offered; owning 7, it is."""
    state = make(2, hands=[["droid", "droid"], []], decks=[["portal-diamond"] * deck, []], era=ERA)
    state.apply("skip")
    assert state._owned[0] == 2 + deck
    assert ("destroy droid" in legal(state)) is offered


def acquiring(display: list[str], wallet: bool) -> Any:
    """Seat 0 at step 4 (or past it) with `display` the only Era cards it can take."""
    state = make(
        2,
        hands=[["digital-wallet", "droid"], []],
        era=ERA,
        era_display=display,
        era_deck=[],
        exact=["era_deck", "basic_deck", "advanced_deck"],
        basic_row=["transporter"],
        advanced_row=["laboratory"],
        basic_deck=[],
        advanced_deck=[],
    )
    if wallet:
        state.apply("play digital-wallet")
    state.apply("end")
    return state


def offered(state: Any) -> set[str]:
    return (
        {a for a in legal(state) if a.startswith("acquire ")}
        if state.current_player == 0
        else set()
    )


@pytest.mark.parametrize(
    ("display", "wallet", "basic", "advanced"),
    [
        ([], False, False, False),  # Basic costs 1: one below
        (["circle"], False, True, False),  # Basic at exactly 1; Advanced (2) one below
        (["circle", "square"], False, True, True),  # Advanced at exactly 2
        ([], True, True, False),  # Wallet: Basic costs 0 (exactly); Advanced 1, one below
        (["circle"], True, True, True),  # Wallet: Advanced at exactly 1
        (["circle", "square"], True, True, True),  # one above
    ],
)
def test_acquire_costs_era_cards_on_display_and_the_wallet_gate_r16(
    display: list[str], wallet: bool, basic: bool, advanced: bool
) -> None:
    """Rulebook step 4: a Basic technology costs 1 visible Era card, an Advanced one 2; a
    played Digital Wallet takes one off (R16); a technology is offered only when the display
    holds what it costs (docs/eternitium.md, "Reading"), a Basic one with no visible Era card
    only after a Wallet."""
    state = acquiring(display, wallet)
    got = offered(state)
    assert ("acquire transporter" in got) is basic
    assert ("acquire laboratory" in got) is advanced


def test_a_basic_acquire_with_no_visible_era_card_is_refused_without_a_wallet() -> None:
    """Step 4 at zero Era cards: the turn moves on (nothing is affordable), and the Basic
    card stays in its market."""
    state = acquiring([], False)
    assert state.current_player == 1
    assert state.view(None)["basic_row"] == ["transporter"]


def test_two_digital_wallets_do_not_add_up_r16() -> None:
    state = make(
        2,
        hands=[["digital-wallet", "digital-wallet"], []],
        era=ERA,
        era_display=["circle"],
        era_deck=[],
        exact=["era_deck", "basic_deck", "advanced_deck"],
        basic_row=[],
        advanced_row=["laboratory"],
        basic_deck=[],
        advanced_deck=[],
    )
    do(state, "play digital-wallet", "play digital-wallet")  # the empty hand ends step 2
    assert offered(state) == {"acquire laboratory"}  # costs 1 (not 0): one card on display
    state.apply("acquire laboratory")
    assert state.view(None)["era_display"] == []


@pytest.mark.parametrize(("played", "allowed"), [(2, True), (3, False)])
def test_futuristic_smartphone_at_most_3_per_turn_r3(played: int, allowed: bool) -> None:
    """R3: "you can't use more than 3 Futuristic Smartphone cards per game turn": after 2 a
    third is offered; after 3 a fourth (a composition with 4) is refused."""
    state = make(
        2,
        options={"composition": {"futuristic-smartphone": 4}},
        hands=[["futuristic-smartphone"] * 4, []],
        decks=[["portal-diamond"] * 10, []],
        era=ERA,
    )
    for _ in range(played):
        state.apply("play futuristic-smartphone")
    assert ("play futuristic-smartphone" in legal(state)) is allowed
    if not allowed:
        with pytest.raises(IllegalAction):
            state.apply("play futuristic-smartphone")


@pytest.mark.parametrize(("players", "dealt"), [(3, 10), (4, 9), (5, 8)])
def test_era_cards_dealt_10_up_to_3_players_9_at_4_8_at_5(players: int, dealt: int) -> None:
    """Setup 6 (digest §5): 10 Era cards with 1-3 players, 9 with 4, 8 with 5."""
    state = GAME.new_game(players, seed=3)
    assert [len(state.era_pile(s)) for s in range(players)] == [dealt] * players


def test_refill_draws_5_after_a_played_turn() -> None:
    """Step 5: draw 5."""
    state = make(2, hands=[["droid"], []], decks=[["portal-diamond"] * 8, []], era=ERA)
    do(state, "end")
    if state.current_player == 0:
        state.apply("pass")
    assert state.view(0)["hand_sizes"][0] == 5
