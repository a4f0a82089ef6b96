"""Eternity's heuristic agent: legal, deterministic, view-only, sensible, and far better than
random play."""

from __future__ import annotations

import random
from typing import Any

import pytest

import eterna
from eterna.agents import make_agent
from eterna.agents.random_agent import RandomAgent
from eterna.core.agent import Agent, SeatWindow, ViewAgent
from eterna.games.eternity import GAME
from eterna.games.eternity.cards import CARD_BY_NAME, CARD_TREES
from eterna.games.eternity.heuristic import EternityHeuristic


def play_out(state: Any, agents: list[Agent]) -> None:
    while not state.is_terminal:
        seat = state.current_player
        action = agents[seat].choose(state, seat)
        assert action in state.legal_actions()
        state.apply(action)


# ---------------------------------------------------------------- contract


def test_the_game_makes_its_heuristic_and_the_spec_finds_it():
    agent = GAME.make_heuristic(seed=3)
    assert isinstance(agent, EternityHeuristic) and isinstance(agent, ViewAgent)
    assert agent.name == "heuristic"
    state = GAME.new_game(4, seed=1)
    agents = [make_agent("heuristic", seed=s) for s in range(4)]
    play_out(state, agents)
    assert state.winners


def test_tuning_parameters_are_checked():
    EternityHeuristic(seed=1, beat=0.5, spread=1)
    with pytest.raises(eterna.EternaError, match="nonsense"):
        EternityHeuristic(seed=1, nonsense=1)
    with pytest.raises(eterna.EternaError, match="beat"):
        EternityHeuristic(seed=1, beat="high")
    state = GAME.new_game(4, seed=1)
    agent = make_agent("heuristic:bogus=2", seed=1)  # the registry builds it at first use
    with pytest.raises(eterna.EternaError, match="bogus"):
        agent.choose(state, state.current_player)
    tuned = make_agent("heuristic:beat=0.5,volatility=0", seed=1)
    assert tuned.choose(state, state.current_player) in state.legal_actions()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_only_legal_actions_at_every_table_size(players: int):
    for g in range(12):
        state = GAME.new_game(players, seed=1000 * players + g)
        agents: list[Agent] = [
            EternityHeuristic(seed=g * 10 + s) if (s + g) % 2 == 0 else RandomAgent(seed=g * 10 + s)
            for s in range(players)
        ]
        play_out(state, agents)  # asserts every choice is legal
        assert state.is_terminal


def test_same_seed_same_decisions():
    def record(seed: int) -> list[str]:
        state = GAME.new_game(4, seed=77)
        play_out(state, [EternityHeuristic(seed=seed + s) for s in range(4)])
        actions: list[str] = state.to_record()["actions"]
        return actions

    assert record(5) == record(5)


class ViewOnly:
    """A window that offers the seat's view and the legal actions, and nothing else."""

    def __init__(self, state: Any, seat: int) -> None:
        self._view = state.view(seat)
        self._legal = state.legal_actions()

    def view(self) -> dict[str, Any]:
        return self._view

    def legal_actions(self) -> list[Any]:
        return self._legal

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the heuristic asked its window for {name!r}")


def test_it_decides_from_the_view_and_legal_actions_alone():
    agent = EternityHeuristic(seed=2)
    rng = random.Random(2)
    state = GAME.new_game(4, seed=9)
    while not state.is_terminal:
        seat = state.current_player
        legal = state.legal_actions()
        chosen = agent.decide(ViewOnly(state, seat))  # type: ignore[arg-type]
        assert chosen in legal
        # the same view with the actions as plain notation strings: answers one of those strings
        texts = [str(a) for a in legal]
        assert agent.act(state.view(seat), texts) in texts
        assert agent.decide(SeatWindow(state, seat)) in legal
        state.apply(rng.choice(legal))


# ---------------------------------------------------------------- judgement

COLUMNS = ["sky", "sea", "earth"]  # sky-13 and sky-14 start the board: sky is trump


def hand(text: str) -> list[str]:
    return text.split()


def deal(*hands: list[str] | None) -> dict[str, Any]:
    return {
        "columns": COLUMNS,
        "first_leader": 0,
        "deals": [{"board": ["sky-13", "sky-14"], "hands": list(hands)}],
    }


def choices(state: Any, seat: int, seeds: range = range(8)) -> set[str]:
    """What the heuristic does here, over several seeds (ties break at random)."""
    return {str(EternityHeuristic(seed=s).choose(state, seat)) for s in seeds}


def test_a_hopeless_hand_with_no_trees_sheds_the_trick():
    # Seat 1 holds nothing but low cards and one sea-10 that could take the led sea-9.
    state = GAME.new_game(
        4,
        seed=1,
        setup=deal(
            hand("sea-9 earth-5 earth-6 earth-7 earth-8 sea-5 sea-6 sky-5 sky-6 sky-7"),
            hand("earth-1 earth-2 earth-3 earth-4 sea-1 sea-2 sea-3 sea-10 sky-1 sky-2"),
            None,
            None,
        ),
    )
    state.apply("play sea-9")
    for text in choices(state, 1):
        verb, card = text.split()
        assert card != "sea-10", text  # neither takes the trick nor pledges its two trees
        assert CARD_TREES[CARD_BY_NAME[card]] == 0 or verb == "play", text


def test_with_trees_equal_to_tricks_it_avoids_a_trick_it_can_lose():
    hands = [
        hand("earth-5 earth-4 earth-12 sea-3 earth-8 sea-5 sea-7 sky-5 sky-6 sky-7"),
        hand("earth-1 earth-11 sea-1 sea-4 sea-6 sea-10 sky-1 sky-2 sky-3 sky-4"),
        hand("earth-9 earth-6 earth-14 sea-9 earth-10 sea-8 sea-11 sky-8 sky-9 sky-10"),
        hand("earth-3 earth-2 earth-7 sea-2 earth-13 sea-12 sea-13 sea-14 sky-11 sky-12"),
    ]
    state = GAME.new_game(4, seed=1, setup=deal(*hands))
    for action in [
        *("play earth-5", "pledge sea-6", "play earth-9", "play earth-3"),  # seat 1: a tree
        *("play earth-6", "play earth-2", "play earth-4", "play earth-11"),  # seat 1: a trick
        *("play earth-1", "play earth-14", "play earth-7", "play earth-12"),
        *("play sea-9", "play sea-2", "play sea-3"),  # seat 1, last, could win with sea-10
    ]:
        state.apply(action)
    view = state.view(1)
    assert (view["tricks"][1], view["trees"][1]) == (1, 1)
    for seed in range(8):
        trial = state.clone()
        trial.apply(EternityHeuristic(seed=seed).choose(trial, 1))
        after = trial.view(1)
        assert after["tricks"][1] == after["trees"][1] == 1, after["last_trick"]


def test_sure_tricks_and_no_trees_make_it_pledge_a_tree_card():
    # Seat 1 holds the top trumps left (sky-12, 11, 10) and two other aces: tricks it cannot
    # shed, and no trees yet. Second to act with the pledge slot free, it pledges trees.
    state = GAME.new_game(
        4,
        seed=1,
        setup=deal(
            hand("earth-5 earth-4 earth-12 sea-3 earth-8 sea-5 sea-7 sky-5 sky-6 sky-7"),
            hand("sky-12 sky-11 sky-10 sea-14 earth-14 earth-9 sea-8 earth-1 sea-1 sky-1"),
            None,
            None,
        ),
    )
    state.apply("play earth-5")
    for text in choices(state, 1):
        verb, card = text.split()
        assert verb == "pledge" and CARD_TREES[CARD_BY_NAME[card]] > 0, text


def last_trick_positions(players: int, games: int) -> list[tuple[Any, int]]:
    """(state, seat) for every decision of a non-leader on a round's last trick, random games."""
    found = []
    for g in range(games):
        state = GAME.new_game(players, seed=500 + g)
        rng = random.Random(g)
        while not state.is_terminal:
            seat = state.current_player
            view = state.view(seat)
            if view["trick_number"] == view["tricks_per_round"] and view["led"] is not None:
                found.append((state.clone(), seat))
            state.apply(rng.choice(state.legal_actions()))
    return found


def test_on_the_last_trick_it_counts_exactly():
    checked = 0
    for players in (3, 4, 5):
        for state, seat in last_trick_positions(players, 40):
            view = state.view(seat)
            card = view["hand"][0]
            trees = CARD_TREES[CARD_BY_NAME[card]]
            need = view["tricks"][seat] - view["trees"][seat]  # trees still missing
            if not view["pledges_left"] or view["tree_supply"] is not None:
                continue
            choice = str(EternityHeuristic(seed=1).choose(state, seat))
            if trees and need == trees:  # the pledge makes trees == tricks: take it
                assert choice == f"pledge {card}", (view, choice)
                checked += 1
            elif trees and 0 <= need < trees and (view["trees"][seat] or not need):
                # a pledge would leave more trees than tricks (nothing), playing scores
                assert choice == f"play {card}", (view, choice)
                checked += 1
    assert checked > 50


# ---------------------------------------------------------------- strength


def test_it_beats_random_players_by_a_wide_margin():
    games = 200
    wins = 0.0
    mine = 0
    theirs = 0
    for g in range(games):
        me = g % 4
        agents: list[Agent] = [
            EternityHeuristic(seed=g) if s == me else RandomAgent(seed=g * 10 + s) for s in range(4)
        ]
        state = GAME.new_game(4, seed=20_000 + g)
        play_out(state, agents)
        if me in state.winners:
            wins += 1 / len(state.winners)
        mine += state.scores[me]
        theirs += sum(state.scores) - state.scores[me]
    assert wins / games > 0.5
    assert mine / games > 2 * (theirs / (3 * games))
