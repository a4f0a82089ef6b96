"""Ratings with openskill's Plackett-Luce model (Weng-Lin Bayesian ratings).

Every agent spec starts at openskill's default (mu 25, sigma 25/3). Games are rated one at a time
in game-index order (so the ratings do not depend on which worker finished first), each seat a
team of one ranked by its final rank (`stats.final_ranks`: winners share rank 1, ties shared).
When one spec fills several seats of a game, each seat is rated as its own player starting from
the spec's rating, and the spec then takes the mean of those seats' updated mu and sigma.
The interval reported is mu ± 2 sigma; `ordinal` is openskill's conservative mu - 3 sigma.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eterna.arena.simulate import GameResult


def rate_games(results: Sequence[GameResult]) -> dict[str, dict[str, float]]:
    """Spec -> {mu, sigma, low, high, ordinal} after rating every game in index order."""
    from openskill.models import PlackettLuce

    from eterna.arena.stats import final_ranks

    model = PlackettLuce()
    current: dict[str, Any] = {}
    for result in sorted(results, key=lambda r: r.index):
        ranks = final_ranks(result.scores, result.winners)
        teams = []
        for spec in result.agents:
            if spec not in current:
                current[spec] = model.rating(name=spec)
            base = current[spec]
            teams.append([model.rating(mu=base.mu, sigma=base.sigma, name=spec)])
        rated = model.rate(teams, ranks=[float(r) for r in ranks])
        updates: dict[str, list[tuple[float, float]]] = {}
        for spec, team in zip(result.agents, rated, strict=True):
            updates.setdefault(spec, []).append((team[0].mu, team[0].sigma))
        for spec, pairs in updates.items():
            mu = sum(p[0] for p in pairs) / len(pairs)
            sigma = sum(p[1] for p in pairs) / len(pairs)
            current[spec] = model.rating(mu=mu, sigma=sigma, name=spec)
    return {
        spec: {
            "mu": r.mu,
            "sigma": r.sigma,
            "low": r.mu - 2 * r.sigma,
            "high": r.mu + 2 * r.sigma,
            "ordinal": r.mu - 3 * r.sigma,
        }
        for spec, r in current.items()
    }
