"""The hint in solo Eternitium: every line the search plays out loses in most positions, so a
win share is 0 for every move and tells nothing. The search values a solo line by the game's
goal instead (GameState.solo_goal: the share of the dealt Era cards gone), and the hint shows
the share of lines reaching the goal and the Era cards left where they stop."""

from __future__ import annotations

import eterna
from eterna.agents.ismcts import ISMCTSAgent
from eterna.arena.hints import advise, hint_table


def solo(mission: int = 0, seed: int = 1):
    return eterna.load_game("eternitium").new_game(1, seed=seed, options={"mission": mission})


def test_solo_goal_is_the_share_of_era_cards_gone():
    state = solo()
    progress, left = state.solo_goal()
    assert progress == 0.0 and left == len(state.view(0)["era"][0]) > 0
    two = eterna.load_game("eternitium").new_game(2, seed=1)
    assert two.solo_goal() is None  # several seats: no solo goal, win shares as before
    assert eterna.load_game("vale").new_game(2, seed=1).solo_goal() is None


def test_a_lost_solo_line_is_worth_its_progress_and_a_won_one_more():
    """Playouts' rewards: a lost solo game nearer its goal is worth more, never a win's 1."""
    playout = ISMCTSAgent(seed=0, iterations=1)._playout()
    ends = []
    for seed in range(12):
        state = solo(mission=seed % 4, seed=seed)
        agent = state.game.make_heuristic(seed=seed)
        while not state.is_terminal:
            state.apply(agent.choose(state, 0))
        ends.append((state.solo_goal(), bool(state.winners), playout.rewards(state)[0]))
    for (progress, _left), won, reward in ends:
        assert reward == (1.0 if won else 0.5 * progress)
    lost = sorted((p, r) for (p, _), won, r in ends if not won)
    assert lost[0][1] < lost[-1][1]  # lost lines differ: the search sees a gradient


def test_the_solo_hint_shows_the_goal_not_a_win_share_of_zero():
    state = solo(mission=0, seed=1)
    hints = advise(state, 0, iterations=60, seed=2)
    tried = [c for c in hints if c.visits]
    assert tried and all(c.left is not None and c.goal is not None for c in tried)
    assert all(0.0 <= c.goal <= 1.0 and 0.0 <= c.win <= 1.0 for c in tried)
    assert len({round(c.left, 6) for c in tried}) > 1  # moves differ by the Era cards left
    dealt = state.solo_goal()[1]
    assert min(c.left for c in tried) < dealt  # heuristic rollouts come near the goal
    text = "".join(
        str(cell)
        for column in hint_table(hints, "Hint", "de", game="eternitium").columns
        for cell in [column.header, *column._cells]
    )
    assert "Übrige Ära-Karten" in text and "Ziel erreicht" in text
    assert "Erwartete Punkte" not in text  # technology points say nothing of a solo goal


def test_several_seats_keep_the_win_share():
    state = eterna.load_game("eternitium").new_game(2, seed=3)
    hints = advise(state, state.current_player, iterations=40, seed=1)
    assert all(c.goal is None and c.left is None for c in hints)
