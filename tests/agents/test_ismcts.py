"""ISMCTS: legal, reproducible, blind to hidden cards, and stronger than random."""

import random

import pytest

import eterna
from eterna.agents import make_agent
from eterna.agents.ismcts import ISMCTSAgent


def _midgame(game_id: str, players: int, seed: int, moves: int) -> eterna.GameState:
    state = eterna.load_game(game_id).new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("game_id", "players"), [("eternity", 4), ("vale", 2)])
def test_returns_a_legal_action_and_repeats_itself_for_a_seed(game_id, players):
    state = _midgame(game_id, players, seed=3, moves=9)
    seat = state.current_player
    first = make_agent("ismcts:iterations=60", seed=5).choose(state, seat)
    again = make_agent("ismcts:iterations=60", seed=5).choose(state, seat)
    assert first in state.legal_actions()
    assert first == again


@pytest.mark.parametrize(("game_id", "players", "moves"), [("eternity", 4, 13), ("vale", 2, 9)])
def test_choice_does_not_depend_on_the_hidden_cards(game_id, players, moves):
    """Swap every card the seat cannot see (a determinization of the real state stands in for
    the real state): for a fixed seed and budget the agent picks the same move."""
    state = _midgame(game_id, players, seed=8, moves=moves)
    seat = state.current_player
    other_world = state.determinize(seat, random.Random(99))
    assert other_world.view(seat) == state.view(seat)
    truth = ISMCTSAgent(seed=1, iterations=80).choose(state, seat)
    swapped = ISMCTSAgent(seed=1, iterations=80).choose(other_world, seat)
    assert truth == swapped


def test_beats_random_players_at_eternity():
    game = eterna.load_game("eternity")
    wins = 0.0
    games = 8
    for g in range(games):
        state = game.new_game(4, seed=500 + g)
        me = g % 4
        agents = [
            make_agent(
                "ismcts:iterations=40,rollout=random" if s == me else "random", seed=10 * g + s
            )
            for s in range(4)
        ]
        while not state.is_terminal:
            seat = state.current_player
            state.apply(agents[seat].choose(state, seat))
        if me in state.winners:
            wins += 1 / len(state.winners)
    assert wins >= 4  # random would expect 2 of 8


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=0",
        "ismcts:seconds=-1",
        "ismcts:rollout=magic",
        "ismcts:reward=fun",
        "ismcts:epsilon=1.5",
        "ismcts:depth=-2",
    ],
)
def test_bad_parameters_are_refused(spec):
    with pytest.raises(eterna.EternaError, match="ismcts"):
        make_agent(spec, seed=1)


def test_time_budget_searches_at_least_once():
    state = _midgame("eternity", 4, seed=2, moves=5)
    agent = ISMCTSAgent(seed=1, seconds=0.01)
    assert agent.choose(state, state.current_player) in state.legal_actions()
    assert sum(visits for visits, _ in agent.last_stats.values()) >= 1


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=30,depth=6,reward=score",
        "ismcts:iterations=8,rollout=heuristic,depth=10,epsilon=0.3",
    ],
)
@pytest.mark.parametrize(("game_id", "players"), [("eternity", 4), ("vale", 2)])
def test_cut_off_and_heuristic_rollouts_are_legal_and_reproducible(spec, game_id, players):
    state = _midgame(game_id, players, seed=4, moves=7)
    seat = state.current_player
    first = make_agent(spec, seed=3).choose(state, seat)
    assert first in state.legal_actions()
    assert make_agent(spec, seed=3).choose(state, seat) == first


def test_a_cut_off_position_is_scored_by_its_current_leaders():
    state = _midgame("vale", 2, seed=6, moves=30)
    agent = ISMCTSAgent(seed=1, reward="win")
    scores = state.scores
    rewards = agent._rewards(state)
    top = max(scores)
    leaders = [s for s in range(2) if scores[s] == top]
    assert rewards == [1 / len(leaders) if s in leaders else 0.0 for s in range(2)]
    assert all(0.0 <= r <= 1.0 for r in ISMCTSAgent(seed=1, reward="score")._rewards(state))


def test_a_depth_limited_rollout_stops_after_depth_moves():
    state = _midgame("eternity", 4, seed=2, moves=3)  # every Eternity game is 120 moves long
    for rollout in ("random", "heuristic"):
        probe = state.clone()
        ISMCTSAgent(seed=1, depth=5, rollout=rollout)._rollout(probe)
        assert len(probe._history) == 3 + 5
    probe = state.clone()
    ISMCTSAgent(seed=1, depth=0)._rollout(probe)
    assert probe.is_terminal


def test_defaults_follow_the_rollout_policy():
    strong = ISMCTSAgent(seed=1)
    assert (strong.rollout, strong.depth, strong.reward, strong.iterations) == (
        "heuristic",
        40,
        "score",
        60,
    )
    plain = ISMCTSAgent(seed=1, rollout="random")
    assert (plain.depth, plain.reward) == (0, "win")


def test_a_games_own_search_defaults_apply_unless_the_spec_sets_them():
    from eterna.games.eternitium.heuristic import EternitiumHeuristic

    state = _midgame("eternitium", 2, seed=3, moves=4)
    seat = state.current_player
    agent = ISMCTSAgent(seed=1, iterations=4)
    agent.choose(state, seat)
    own = EternitiumHeuristic.search_defaults
    assert (agent.depth, agent.reward, agent.iterations) == (own["depth"], own["reward"], 4)
    plain = ISMCTSAgent(seed=1, rollout="random", iterations=4)
    plain.choose(state, seat)
    assert (plain.depth, plain.reward, plain.root) == (0, "win", "ucb")


@pytest.mark.parametrize("compiled", [False, True])
def test_the_default_budget_follows_the_build(monkeypatch, compiled):
    """The pure build keeps each game's own budget; the compiled one (cheaper iterations) spends
    the larger COMPILED_BUDGET; every other default, and a spec's own budget, hold on both."""
    from eterna import engines
    from eterna.agents.ismcts import COMPILED_BUDGET, game_defaults

    monkeypatch.setattr(engines, "compiled", lambda: compiled)
    for game_id, players in (("eternity", 4), ("vale", 2), ("eternitium", 2)):
        state = eterna.load_game(game_id).new_game(players, seed=1)
        own = state.game.search_defaults()
        agent = ISMCTSAgent(seed=1)
        agent._settle(state)
        budget = COMPILED_BUDGET[game_id]["iterations"]
        assert budget > own["iterations"]
        assert agent.iterations == (budget if compiled else own["iterations"])
        assert (agent.depth, agent.reward) == (own.get("depth", 40), own.get("reward", "score"))
        assert game_defaults(state.game) == game_defaults(state.game, compiled=compiled)
        given = ISMCTSAgent(seed=1, iterations=7)
        given._settle(state)
        assert given.iterations == 7


@pytest.mark.parametrize("spec", ["ismcts:root=magic", "ismcts:cut=never", "ismcts:trust=x"])
def test_bad_search_parameters_are_refused(spec):
    with pytest.raises(eterna.EternaError, match="ismcts"):
        make_agent(spec, seed=1)


def test_halving_keeps_the_heuristics_move_unless_clearly_beaten():
    agent = ISMCTSAgent(seed=1, trust=1.0)
    samples = {"h": [0.5, 0.5, 0.5, 0.5], "x": [0.6, 0.4, 0.6, 0.4], "y": [0.6, 0.6, 0.7, 0.6]}
    assert agent._duel("h", "x", samples) == "h"  # no gain on average
    assert agent._duel("h", "y", samples) == "y"  # a steady gain
    assert ISMCTSAgent(seed=1, trust=9.0)._duel("h", "y", samples) == "h"


def test_halving_spends_about_the_budget_and_the_anchor_is_searched_most():
    state = _midgame("eternity", 4, seed=5, moves=6)
    seat = state.current_player
    agent = ISMCTSAgent(seed=2, iterations=40)
    choice = agent.choose(state, seat)
    visits = {a: n for a, (n, _) in agent.last_stats.items()}
    assert 20 <= sum(visits.values()) <= 40 + len(visits)
    assert choice == agent.last_choice and choice in state.legal_actions()


def test_a_score_cut_stops_the_rollout_when_the_round_ends():
    state = _midgame("eternity", 4, seed=2, moves=30)  # round 1 ends after move 40
    probe = state.clone()
    ISMCTSAgent(seed=1, depth=40, cut="score")._rollout(probe)
    assert len(probe._history) == 40


def test_a_hint_with_heuristic_rollouts_puts_the_agents_choice_first():
    from eterna.arena.hints import advise

    state = _midgame("eternity", 4, seed=6, moves=5)
    seat = state.current_player
    hints = advise(state, seat, iterations=12, seed=3, rollout="heuristic")
    choice = ISMCTSAgent(seed=3, iterations=12).choose(state, seat)
    assert hints[0].action == str(choice)
