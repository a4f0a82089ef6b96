"""Hints: every legal move with visits, win probability and expected score, from the seat's
window only."""

from __future__ import annotations

import random

import pytest

import eterna
from eterna.arena.hints import advise, hint_table


def midgame(game_id: str, players: int, seed: int, moves: int):
    state = eterna.load_game(game_id).new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("game_id", "players", "moves"), [("eternity", 4, 13), ("vale", 2, 15)])
def test_hint_lists_every_legal_move_and_ignores_hidden_cards(game_id, players, moves):
    """Swap every hidden card (a determinization stands in for the real state): same hint.

    Exactly the same numbers at Eternity, whose `determinize` depends on the seat's knowledge
    alone. The Vale's `determinize` shuffles the hidden cards starting from their true order, so
    its determinizations (and the estimates) differ with the hidden order though each is
    equally likely; there the recommended move is compared."""
    state = midgame(game_id, players, seed=8, moves=moves)
    seat = state.current_player
    hints = advise(state, seat, iterations=120, seed=3)
    assert sorted(c.action for c in hints) == sorted(str(a) for a in state.legal_actions())
    assert sum(c.visits for c in hints) == 120
    assert hints[0].visits == max(c.visits for c in hints)
    for c in hints:
        if c.visits:
            assert 0.0 <= c.win <= 1.0 and c.score is not None
    other_world = state.determinize(seat, random.Random(99))
    assert other_world.view(seat) == state.view(seat)
    swapped = advise(other_world, seat, iterations=120, seed=3)
    if game_id == "eternity":
        assert swapped == hints
    else:
        assert swapped[0].action == hints[0].action


def test_expected_score_is_tracked_by_ismcts():
    from eterna.agents.ismcts import ISMCTSAgent

    state = midgame("eternity", 4, seed=2, moves=5)
    agent = ISMCTSAgent(seed=1, iterations=80)
    agent.choose(state, state.current_player)
    assert set(agent.last_scores) == set(agent.last_stats)
    assert all(score >= 0 for score in agent.last_scores.values())


def test_hint_refuses_when_it_is_not_the_seats_turn():
    state = midgame("eternity", 4, seed=2, moves=5)
    other = (state.current_player + 1) % 4
    with pytest.raises(eterna.EternaError, match="turn"):
        advise(state, other, iterations=10)


def test_hint_table_marks_the_recommendation():
    state = midgame("eternity", 4, seed=2, moves=5)
    hints = advise(state, state.current_player, iterations=40)
    table = hint_table(hints)
    assert table.row_count == len(hints)
