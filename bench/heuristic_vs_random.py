"""Eternity's heuristic agent against random agents.

Mode `1v3` (default): game g seats one heuristic in seat g % 4 and random agents elsewhere.
Mode `2v2`: two heuristics, in seats g % 4 and (g + 2) % 4. Mode `self`: four heuristics (a
sanity check: the mean score per round they reach together). Games are seeded (game g uses
seed `--seed + g`; agents are seeded from it too), so a run is reproducible.

Reported: the heuristic's win rate (a win shared by k players counts 1/k) with a 95% Wilson
interval, the mean final score of a heuristic seat and of a random seat, and the CPU time per
heuristic decision (process time, so other load on the machine does not count).

Run: `.venv/bin/python bench/heuristic_vs_random.py [--games N] [--mode 1v3|2v2|self]`
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import eterna
from eterna.agents import make_agent
from eterna.core.agent import Agent

PLAYERS = 4


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (fractional successes allowed)."""
    if n == 0:
        return 0.0, 1.0
    phat = successes / n
    denom = 1 + z * z / n
    centre = (phat + z * z / (2 * n)) / denom
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def heuristic_seats(mode: str, g: int) -> set[int]:
    if mode == "1v3":
        return {g % PLAYERS}
    if mode == "2v2":
        return {g % PLAYERS, (g + 2) % PLAYERS}
    return set(range(PLAYERS))


def run(games: int, mode: str, seed: int, spec: str) -> dict[str, Any]:
    game = eterna.load_game("eternity")
    wins = 0.0  # per heuristic seat: each game's share of the win, split over its seats
    team = 0.0  # the heuristics together: the share of the win they took
    h_scores: list[int] = []
    r_scores: list[int] = []
    h_time = 0.0
    h_moves = 0
    for g in range(games):
        heur = heuristic_seats(mode, g)
        agents: list[Agent] = [
            make_agent(spec if s in heur else "random", seed=(seed + g) * 8 + s)
            for s in range(PLAYERS)
        ]
        state = game.new_game(PLAYERS, seed=seed + g)
        while not state.is_terminal:
            p = state.current_player
            assert p is not None
            if p in heur:
                t0 = time.process_time()
                action = agents[p].choose(state, p)
                h_time += time.process_time() - t0
                h_moves += 1
            else:
                action = agents[p].choose(state, p)
            state.apply(action)
        winners = state.winners
        for s in range(PLAYERS):
            (h_scores if s in heur else r_scores).append(state.scores[s])
        shared = [s for s in winners if s in heur]
        if winners:
            team += len(shared) / len(winners)
            wins += len(shared) / len(winners) / len(heur)
    lo, hi = wilson(wins, games)
    return {
        "games": games,
        "mode": mode,
        "win_rate": wins / games,
        "ci95": (lo, hi),
        "team_win_rate": team / games,
        "team_ci95": wilson(team, games),
        "heuristic_mean": sum(h_scores) / len(h_scores),
        "random_mean": sum(r_scores) / len(r_scores) if r_scores else float("nan"),
        "ms_per_decision": 1000 * h_time / max(1, h_moves),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--mode", choices=("1v3", "2v2", "self"), default="1v3")
    parser.add_argument("--seed", type=int, default=0, help="game g uses seed SEED + g")
    parser.add_argument("--agent", default="heuristic", help="agent spec for the heuristic seats")
    args = parser.parse_args(argv)
    r = run(args.games, args.mode, args.seed, args.agent)
    lo, hi = r["ci95"]
    print(f"Eternity, {PLAYERS} players, {r['games']} games, mode {r['mode']} ({args.agent})")
    if args.mode != "self":
        print(
            f"heuristic win rate {r['win_rate']:.3f} per heuristic seat "
            f"(95% Wilson CI {lo:.3f}-{hi:.3f}; parity 0.25)"
        )
        if args.mode == "2v2":
            t_lo, t_hi = r["team_ci95"]
            print(
                f"the two heuristics together win {r['team_win_rate']:.3f} "
                f"(95% Wilson CI {t_lo:.3f}-{t_hi:.3f}; parity 0.50)"
            )
        print(
            f"mean final score: heuristic {r['heuristic_mean']:.2f}, random {r['random_mean']:.2f}"
        )
    else:
        print(
            f"mean final score per seat {r['heuristic_mean']:.2f} "
            f"({r['heuristic_mean'] / 3:.2f} per round)"
        )
    print(f"{r['ms_per_decision']:.3f} ms CPU per heuristic decision (view building included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
