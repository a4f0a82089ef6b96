"""Aggregating arena results: win rates with Wilson intervals, ranks, scores and ratings.

Win rates count a shared win as 1/k to each of its k winners. The 95% interval is Wilson's score
interval evaluated at the observed (possibly fractional) success count; it stays inside [0, 1],
is sensible near 0% and 100%, and treats games as independent. Paired seating makes games of a
rotation set positively correlated in their deal but the comparison *between* agents less noisy,
so the interval is a fair (slightly conservative) guide for ranking agents; an agent filling
several seats of the same game counts each seat as a game.

Ranks: winners share rank 1; the other seats follow by score, equal scores sharing a rank
("1224" competition ranking). Ratings: openskill's Plackett-Luce model, each game rated once, in
game-index order, by those ranks (see `ratings`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eterna.arena.simulate import GameResult

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (successes may be fractional); (0, 1) for n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, successes / n))
    z2 = z * z
    denom = 1 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, center - half)
    high = 1.0 if successes >= n else min(1.0, center + half)
    return low, high


def final_ranks(scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Rank per seat (1 = best): winners share 1, the rest by score, ties shared."""
    won = set(winners)
    keys = [(1, 0) if seat in won else (0, score) for seat, score in enumerate(scores)]
    return [1 + sum(other > key for other in keys) for key in keys]


@dataclass
class Line:
    """Running totals of one agent or one seat."""

    games: int = 0
    wins: float = 0.0
    points: float = 0.0
    rank_sum: float = 0.0

    def add(self, share: float, score: float, rank: int) -> None:
        self.games += 1
        self.wins += share
        self.points += score
        self.rank_sum += rank

    def summary(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.games)
        n = self.games or 1
        return {
            "games": self.games,
            "wins": round(self.wins, 6),
            "win_rate": self.wins / n,
            "win_rate_low": low,
            "win_rate_high": high,
            "mean_score": self.points / n,
            "mean_rank": self.rank_sum / n,
        }


def aggregate(results: Sequence[GameResult], ratings: bool = True) -> dict[str, Any]:
    """Per agent (win rate with 95% Wilson interval, mean score, mean rank, rating) and per seat
    (the seat advantage), from results in any order (they are sorted by game index first)."""
    ordered = sorted(results, key=lambda r: r.index)
    by_agent: dict[str, Line] = {}
    by_seat: dict[int, Line] = {}
    games = []
    for result in ordered:
        shares = result.shares()
        ranks = final_ranks(result.scores, result.winners)
        for seat, spec in enumerate(result.agents):
            by_agent.setdefault(spec, Line()).add(shares[seat], result.scores[seat], ranks[seat])
            by_seat.setdefault(seat, Line()).add(shares[seat], result.scores[seat], ranks[seat])
        games.append(
            {
                "index": result.index,
                "seed": result.seed,
                "agents": list(result.agents),
                "scores": list(result.scores),
                "winners": list(result.winners),
                "ranks": ranks,
            }
        )
    agents = {spec: line.summary() for spec, line in by_agent.items()}
    pairs = head_to_head(ordered)
    if ratings and ordered:
        from eterna.arena.ratings import rate_games

        for spec, rating in rate_games(ordered).items():
            agents[spec]["rating"] = rating
    order = sorted(
        agents,
        key=lambda s: (-agents[s].get("rating", {}).get("ordinal", 0.0), -agents[s]["win_rate"]),
    )
    return {
        "agents": [{"agent": spec, **agents[spec]} for spec in order],
        "seats": [{"seat": seat, **by_seat[seat].summary()} for seat in sorted(by_seat)],
        "head_to_head": pairs,
        "games": games,
    }


def head_to_head(results: Sequence[GameResult]) -> list[dict[str, Any]]:
    """For each two different agent specs, over every game and every pair of seats they held in
    it: how often the first finished ahead of the second (a better final rank), level, or
    behind, and the first's share (ahead + half the levels) with its 95% Wilson interval. With
    a lineup like `ismcts,heuristic,random,random` this says how the two agents of interest
    fared against each other, which their win rates against the whole table do not. Specs are
    paired in order of first appearance in the lineup."""
    order: dict[str, int] = {}
    for result in results:
        for spec in result.agents:
            order.setdefault(spec, len(order))
    tally: dict[tuple[str, str], list[int]] = {}
    for result in results:
        ranks = final_ranks(result.scores, result.winners)
        seats = list(enumerate(result.agents))
        for s, a in seats:
            for t, b in seats:
                if a == b or order[a] > order[b] or s == t:
                    continue
                line = tally.setdefault((a, b), [0, 0, 0])
                line[0 if ranks[s] < ranks[t] else 1 if ranks[s] == ranks[t] else 2] += 1
    out = []
    for (a, b), (ahead, level, behind) in sorted(
        tally.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]])
    ):
        n = ahead + level + behind
        share = ahead + level / 2
        low, high = wilson(share, n)
        out.append(
            {
                "agent": a,
                "opponent": b,
                "meetings": n,
                "ahead": ahead,
                "level": level,
                "behind": behind,
                "share": share / n,
                "share_low": low,
                "share_high": high,
            }
        )
    return out


def timing(results: Sequence[GameResult]) -> dict[str, dict[str, float]]:
    """Per agent spec: decisions with a choice, CPU seconds spent on them, and seconds per
    decision (machine-dependent, so kept apart from `aggregate`'s reproducible figures)."""
    totals: dict[str, list[float]] = {}
    for result in sorted(results, key=lambda r: r.index):
        for seat, spec in enumerate(result.agents):
            if seat < len(result.choices):
                line = totals.setdefault(spec, [0.0, 0.0])
                line[0] += result.choices[seat]
                line[1] += result.cpu[seat]
    return {
        spec: {
            "decisions": int(n),
            "cpu_seconds": seconds,
            "seconds_per_decision": seconds / n if n else 0.0,
        }
        for spec, (n, seconds) in totals.items()
    }
