"""Win rates with Wilson intervals, ranks and aggregation, on synthetic results."""

from __future__ import annotations

import random

import pytest

from eterna.arena.simulate import GameResult
from eterna.arena.stats import aggregate, final_ranks, wilson


def fake(index: int, agents: tuple[str, ...], scores: tuple[int, ...], winners: tuple[int, ...]):
    return GameResult(index, index, agents, scores, winners, None)


def test_wilson_bounds_at_the_extremes_and_the_middle():
    low, high = wilson(0, 100)
    assert low == 0.0 and 0.03 < high < 0.04  # the rule of three, roughly
    low, high = wilson(100, 100)
    assert high == 1.0 and 0.96 < low < 0.97
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    # fractional successes (shared wins) are allowed and give an interval in between
    assert wilson(10, 40)[0] < wilson(10.5, 40)[0] < wilson(11, 40)[0]
    # more games, narrower interval
    assert wilson(500, 1000)[1] - wilson(500, 1000)[0] < wilson(50, 100)[1] - wilson(50, 100)[0]


def test_wilson_covers_the_true_rate_about_95_percent_of_the_time():
    rng = random.Random(1)
    for p in (0.1, 0.25, 0.5):
        n, trials = 120, 800
        covered = 0
        for _ in range(trials):
            wins = sum(rng.random() < p for _ in range(n))
            low, high = wilson(wins, n)
            covered += low <= p <= high
        assert 0.92 <= covered / trials <= 0.98, (p, covered / trials)


def test_final_ranks_share_wins_and_ties():
    assert final_ranks([10, 5, 7, 5], [0]) == [1, 3, 2, 3]
    assert final_ranks([9, 9, 3], [0, 1]) == [1, 1, 3]
    assert final_ranks([4, 8, 8], []) == [3, 1, 1]  # no winner: by score alone
    assert final_ranks([1, 9], [0]) == [1, 2]  # winners first whatever the score


def test_an_agent_that_always_wins_against_one_that_never_does():
    results = []
    for g in range(40):
        agents = ("strong", "weak") if g % 2 == 0 else ("weak", "strong")
        winner = agents.index("strong")
        scores = (10, 2) if winner == 0 else (2, 10)
        results.append(fake(g, agents, scores, (winner,)))
    summary = aggregate(list(reversed(results)))  # order of arrival does not matter
    strong, weak = summary["agents"]
    assert strong["agent"] == "strong" and weak["agent"] == "weak"
    assert strong["win_rate"] == 1.0 and strong["win_rate_high"] == 1.0
    assert strong["win_rate_low"] > 0.9
    assert weak["win_rate"] == 0.0 and weak["win_rate_low"] == 0.0
    assert weak["win_rate_high"] < 0.1
    assert strong["mean_rank"] == 1.0 and weak["mean_rank"] == 2.0
    assert strong["mean_score"] == 10 and weak["mean_score"] == 2
    assert strong["rating"]["low"] > weak["rating"]["high"]  # intervals apart
    assert [s["win_rate"] for s in summary["seats"]] == [0.5, 0.5]
    assert [g["index"] for g in summary["games"]] == list(range(40))


def test_shared_wins_count_one_over_k_and_seat_advantage_shows():
    results = [fake(g, ("a", "b", "c"), (5, 5, 1), (0, 1)) for g in range(10)]
    summary = aggregate(results)
    rates = {row["agent"]: row["win_rate"] for row in summary["agents"]}
    assert rates == {"a": 0.5, "b": 0.5, "c": 0.0}
    seats = summary["seats"]
    assert [s["win_rate"] for s in seats] == [0.5, 0.5, 0.0]
    assert sum(s["wins"] for s in seats) == 10


def test_known_strengths_are_ordered_and_covered():
    """Agents winning 60/30/10% of 3-player games: each interval covers its true rate and the
    ratings keep the order."""
    rng = random.Random(4)
    truth = {"p60": 0.6, "p30": 0.3, "p10": 0.1}
    names = list(truth)
    results = []
    for g in range(600):
        seats = tuple(names[(s + g) % 3] for s in range(3))
        winner = rng.choices(range(3), weights=[truth[n] for n in seats])[0]
        scores = tuple(10 if s == winner else rng.randrange(9) for s in range(3))
        results.append(fake(g, seats, scores, (winner,)))
    summary = aggregate(results)
    assert [row["agent"] for row in summary["agents"]] == names
    for row in summary["agents"]:
        assert row["win_rate_low"] <= truth[row["agent"]] <= row["win_rate_high"]


def test_play_out_times_only_decisions_with_a_choice():
    """`play_out` with clocks counts, per seat, the decisions that offered two moves or more
    (a forced move costs no thought), and those are every such position of the game."""
    from eterna.agents import make_agent
    from eterna.arena.simulate import play_out
    from eterna.core.registry import load_game

    game = load_game("eternitium")
    state = game.new_game(2, seed=4)
    agents = {s: make_agent("random", seed=s) for s in range(2)}
    cpu, choices = [0.0, 0.0], [0, 0]
    play_out(state, agents, cpu=cpu, choices=choices)
    replayed = game.new_game(2, seed=4)
    expected = [0, 0]
    for action in state.to_record()["actions"]:
        if len(replayed.legal_actions()) > 1:
            expected[replayed.current_player] += 1
        replayed.apply(action)
    assert choices == expected and min(expected) > 0
    assert all(t >= 0 for t in cpu)


def test_head_to_head_counts_every_pair_of_seats_of_different_agents():
    """Two games of `a, b, c, c`: pairs are counted per seat pair, ahead by final rank, levels
    halved, identical specs never paired, and the lineup order decides which is first."""
    from eterna.arena.stats import head_to_head

    results = [
        # a wins; b second; the c seats tie for last
        fake(0, ("a", "b", "c", "c"), (9, 5, 1, 1), (0,)),
        # rotated: b wins, a and one c level on 3, the other c last
        fake(1, ("c", "a", "b", "c"), (3, 3, 8, 0), (2,)),
    ]
    pairs = {(p["agent"], p["opponent"]): p for p in head_to_head(results)}
    assert list(pairs) == [("a", "b"), ("a", "c"), ("b", "c")]
    ab = pairs[("a", "b")]
    assert (ab["meetings"], ab["ahead"], ab["level"], ab["behind"]) == (2, 1, 0, 1)
    assert ab["share"] == 0.5
    ac = pairs[("a", "c")]  # game 0: ahead of both c; game 1: level with one, ahead of the other
    assert (ac["meetings"], ac["ahead"], ac["level"], ac["behind"]) == (4, 3, 1, 0)
    assert ac["share"] == pytest.approx(3.5 / 4)
    assert ac["share_low"] < ac["share"] < ac["share_high"] <= 1.0
    bc = pairs[("b", "c")]
    assert (bc["meetings"], bc["ahead"], bc["level"], bc["behind"]) == (4, 4, 0, 0)
    assert aggregate(results)["head_to_head"] == head_to_head(results)


def test_head_to_head_of_a_stronger_synthetic_agent_excludes_parity():
    """An agent that finishes ahead 70% of the time over 400 meetings: the share's interval
    holds 70% and excludes 50%."""
    from eterna.arena.stats import head_to_head

    rng = random.Random(3)
    results = []
    for i in range(400):
        first = rng.random() < 0.7
        agents = ("strong", "weak") if i % 2 == 0 else ("weak", "strong")
        strong_seat = agents.index("strong")
        winner = strong_seat if first else 1 - strong_seat
        scores = tuple(10 if s == winner else 5 for s in range(2))
        results.append(fake(i, agents, scores, (winner,)))
    (pair,) = head_to_head(results)
    assert pair["agent"] == "strong" and pair["meetings"] == 400
    assert pair["share_low"] <= 0.7 <= pair["share_high"] and pair["share_low"] > 0.5
