"""Random playouts: decisions per second of every registered game, and of OpenSpiel's C++
oh_hell(players=4, num_tricks_fixed=10) through the same Python loop when open_spiel is installed.

Rounds alternate A B, B A so drift on a shared machine hits both sides alike; the median of
the per-round ratios is reported. Time is this process's CPU time (time.process_time), which
other processes competing for the cores disturb far less than wall-clock time.
With `--expansions artifacts` the Vale is also timed with that expansion (option `expansions`),
in the same alternating rounds as the base Vale, and their median ratio is reported; `--games`
restricts the run to some games.
Run: `.venv/bin/python bench/playouts.py [--seconds S] [--rounds R] [--games vale]
[--expansions artifacts] [--json FILE]`.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

import eterna

PLAYERS = {"eternity": 4, "eternitium": 2, "vale": 2}


def eterna_round(
    game_id: str,
    players: int,
    seconds: float,
    seed: int,
    options: dict[str, object] | None = None,
    lengths: list[int] | None = None,
) -> float:
    """Decisions per second of seeded random playouts for about `seconds` (game options
    `options`; each finished game's length is appended to `lengths`)."""
    game = eterna.load_game(game_id)
    rng = random.Random(seed)
    choice = rng.choice
    decisions = 0
    games = 0
    start = time.process_time()
    while True:
        state = game.new_game(players, seed=seed + games, options=options)
        apply = state.apply
        legal = state.legal_actions
        before = decisions
        while not state.is_terminal:
            apply(choice(legal()))
            decisions += 1
        games += 1
        if lengths is not None:
            lengths.append(decisions - before)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return decisions / elapsed


def openspiel_round(seconds: float, seed: int) -> float:
    """Decisions per second of OpenSpiel's C++ oh_hell, chance nodes sampled in the loop."""
    import pyspiel

    game = pyspiel.load_game("oh_hell(players=4,num_tricks_fixed=10)")
    rng = random.Random(seed)
    choice = rng.choice
    decisions = 0
    start = time.process_time()
    while True:
        state = game.new_initial_state()
        apply = state.apply_action
        legal = state.legal_actions
        is_chance = state.is_chance_node
        is_terminal = state.is_terminal
        while not is_terminal():
            if is_chance():
                apply(choice(state.chance_outcomes())[0])
            else:
                apply(choice(legal()))
                decisions += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return decisions / elapsed


def vale_expansions(args: argparse.Namespace, expansions: list[str]) -> dict[str, object]:
    """The Vale with `expansions` against the base Vale, in alternating rounds."""
    players = PLAYERS["vale"]
    base: list[float] = []
    expanded: list[float] = []
    base_len: list[int] = []
    exp_len: list[int] = []
    opts: dict[str, object] = {"expansions": expansions}
    sides: list[tuple[list[float], Callable[[int], float]]] = [
        (base, lambda k: eterna_round("vale", players, args.seconds, k, None, base_len)),
        (expanded, lambda k: eterna_round("vale", players, args.seconds, k, opts, exp_len)),
    ]
    for k in range(args.rounds):
        order = sides if k % 2 == 0 else sides[::-1]
        for out, run in order:
            out.append(run(k))
    ratios = [a / b for a, b in zip(expanded, base, strict=True)]
    print(
        f"vale with {'+'.join(expansions)}: median {statistics.median(expanded):,.0f} decisions/s "
        f"({statistics.mean(exp_len):.0f} decisions a game) against the base game's "
        f"{statistics.median(base):,.0f}/s ({statistics.mean(base_len):.0f} a game) in the same "
        f"rounds; median ratio {statistics.median(ratios):.2f}x"
    )
    return {
        "players": players,
        "decisions_per_second": expanded,
        "base_decisions_per_second": base,
        "median_ratio": statistics.median(ratios),
        "decisions_per_game": statistics.mean(exp_len),
        "base_decisions_per_game": statistics.mean(base_len),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one timed round")
    parser.add_argument("--rounds", type=int, default=30, help="timed rounds per side")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--games", help="comma-separated game ids (default: every game)")
    parser.add_argument(
        "--expansions", default="", help="comma-separated Vale expansions also timed (artifacts)"
    )
    args = parser.parse_args(argv)
    expansions = [e for e in args.expansions.split(",") if e]

    try:
        import pyspiel  # noqa: F401

        have_openspiel = True
    except ImportError:
        have_openspiel = False

    results: dict[str, object] = {
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "seconds_per_round": args.seconds,
    }
    print(f"Python {results['python']} on {results['machine']}")
    for game_id in args.games.split(",") if args.games else eterna.game_ids():
        players = PLAYERS.get(game_id, eterna.load_game(game_id).min_players)
        ours: list[float] = []
        theirs: list[float] = []
        sides: list[tuple[list[float], Callable[[int], float]]] = [
            (ours, lambda k, g=game_id, p=players: eterna_round(g, p, args.seconds, k))
        ]
        if have_openspiel and game_id == "eternity":
            sides.append((theirs, lambda k: openspiel_round(args.seconds, k)))
        for k in range(args.rounds):
            order = sides if k % 2 == 0 else sides[::-1]  # A B, then B A
            for out, run in order:
                out.append(run(k))
        line = f"{game_id} ({players} players): median {statistics.median(ours):,.0f} decisions/s"
        entry: dict[str, object] = {"players": players, "decisions_per_second": ours}
        if theirs:
            ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
            entry["openspiel_oh_hell_decisions_per_second"] = theirs
            entry["ratios"] = ratios
            entry["median_ratio"] = statistics.median(ratios)
            line += (
                f"; OpenSpiel oh_hell (4 players, 10 tricks) median "
                f"{statistics.median(theirs):,.0f}/s; median ratio {statistics.median(ratios):.2f}x"
            )
        results[game_id] = entry
        print(line)
        if game_id == "vale" and expansions:
            results["vale+" + "+".join(expansions)] = vale_expansions(args, expansions)
    if not have_openspiel:
        print("open_spiel is not installed (pip install -e '.[dev]'): no comparison run")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
