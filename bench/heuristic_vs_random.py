"""A game's heuristic agent against random agents (or any agent against any other).

Mode `1v3` (default): game g seats one heuristic in seat g % 4 and random agents elsewhere.
Mode `2v2`: two heuristics, in seats g % 4 and (g + 2) % 4. Mode `self`: four heuristics (a
sanity check: the mean score per round they reach together). Games are seeded (game g uses
seed `--seed + g`; agents are seeded from it too), so a run is reproducible.

Reported: the heuristic's win rate (a win shared by k players counts 1/k) with a 95% Wilson
interval, the mean final score of a heuristic seat and of a random seat, and the CPU time per
heuristic decision (process time, so other load on the machine does not count).

`--game vale --players 2 --expansions artifacts` plays another game, with its options (the
Vale's `expansions`, `-o key=value` for any other option given as JSON or text). Mode `1v1`
(two players): game g seats the agent in seat g % 2, on seed `--seed + g // 2`, so each deal
is played twice with the seats swapped (paired games); `--opponent` names the other seats'
agent (default random), e.g. `--agent ismcts:iterations=5 --opponent heuristic`.

Run: `.venv/bin/python bench/heuristic_vs_random.py [--games N] [--mode 1v3|2v2|self|1v1]
[--game G] [--players P] [--expansions E] [--agent SPEC] [--opponent SPEC]`
"""

from __future__ import annotations

import argparse
import json
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


def heuristic_seats(mode: str, g: int, players: int = PLAYERS) -> set[int]:
    if mode in ("1v3", "1v1"):
        return {g % players}
    if mode == "2v2":
        return {g % players, (g + 2) % players}
    return set(range(players))


def run(
    games: int,
    mode: str,
    seed: int,
    spec: str,
    game_id: str = "eternity",
    players: int = PLAYERS,
    options: dict[str, Any] | None = None,
    opponent: str = "random",
    progress: bool = False,
) -> dict[str, Any]:
    game = eterna.load_game(game_id)
    wins = 0.0  # per heuristic seat: each game's share of the win, split over its seats
    team = 0.0  # the heuristics together: the share of the win they took
    h_scores: list[int] = []
    r_scores: list[int] = []
    h_time = 0.0
    h_moves = 0
    for g in range(games):
        heur = heuristic_seats(mode, g, players)
        deal = seed + (g // players if mode == "1v1" else g)
        agents: list[Agent] = [
            make_agent(spec if s in heur else opponent, seed=(seed + g) * 8 + s)
            for s in range(players)
        ]
        state = game.new_game(players, seed=deal, options=options)
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
        for s in range(players):
            (h_scores if s in heur else r_scores).append(state.scores[s])
        shared = [s for s in winners if s in heur]
        if winners:
            team += len(shared) / len(winners)
            wins += len(shared) / len(winners) / len(heur)
        if progress:  # a long run's partial figures (flushed: readable while it runs)
            print(
                f"game {g + 1}: deal {deal}, seats {sorted(heur)}, scores {state.scores}, "
                f"winners {winners}; wins so far {wins:g}; {h_time:.0f} s CPU in "
                f"{h_moves} decisions",
                flush=True,
            )
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
    parser.add_argument("--mode", choices=("1v3", "2v2", "self", "1v1"), default="1v3")
    parser.add_argument("--game", default="eternity")
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--expansions", default="", help="the Vale's expansions (artifacts)")
    parser.add_argument("-o", dest="opts", action="append", default=[], help="option key=value")
    parser.add_argument("--opponent", default="random", help="agent spec for the other seats")
    parser.add_argument("--progress", action="store_true", help="a line per game as it ends")
    parser.add_argument("--seed", type=int, default=0, help="game g uses seed SEED + g")
    parser.add_argument("--agent", default="heuristic", help="agent spec for the heuristic seats")
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    if args.expansions:
        options["expansions"] = args.expansions.split(",")
    for item in args.opts:
        key, _, text = item.partition("=")
        try:
            options[key] = json.loads(text)
        except ValueError:
            options[key] = text
    r = run(
        args.games,
        args.mode,
        args.seed,
        args.agent,
        args.game,
        args.players,
        options or None,
        args.opponent,
        args.progress,
    )
    lo, hi = r["ci95"]
    print(
        f"{args.game}, {args.players} players, options {options}, {r['games']} games, "
        f"mode {r['mode']} ({args.agent} against {args.opponent})"
    )
    if args.mode != "self":
        print(
            f"win rate {r['win_rate']:.3f} per {args.agent} seat "
            f"(95% Wilson CI {lo:.3f}-{hi:.3f}; parity {1 / args.players:.2f})"
        )
        if args.mode == "2v2":
            t_lo, t_hi = r["team_ci95"]
            print(
                f"the two heuristics together win {r['team_win_rate']:.3f} "
                f"(95% Wilson CI {t_lo:.3f}-{t_hi:.3f}; parity 0.50)"
            )
        print(
            f"mean final score: {args.agent} {r['heuristic_mean']:.2f}, "
            f"{args.opponent} {r['random_mean']:.2f}"
        )
    else:
        print(
            f"mean final score per seat {r['heuristic_mean']:.2f} "
            f"({r['heuristic_mean'] / 3:.2f} per round)"
        )
    print(f"{r['ms_per_decision']:.3f} ms CPU per {args.agent} decision (view building included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
