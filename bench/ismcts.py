"""ISMCTS speed: iterations per second of eterna's ISMCTS agent on every registered game, at the
first decision and mid-game, and of OpenSpiel's C++ IS-MCTS (pyspiel.ISMCTSBot with a random
rollout evaluator) on oh_hell(players=4, num_tricks_fixed=10) with the same budget in the same
run when open_spiel is installed.

Each measurement is one whole decision (`search` with the iteration budget) timed with this
process's CPU time (time.process_time); rounds alternate eterna and OpenSpiel so drift on a
shared machine hits both alike, and the median over rounds is reported. The mid-game position is
reached by seeded random moves for half of a seeded random game's length.
`--expansions artifacts` plays the Vale with that expansion (option `expansions`).
Run: `.venv/bin/python bench/ismcts.py [--spec ismcts:...] [--iterations N] [--rounds R]
[--games vale] [--expansions artifacts] [--json FILE]`.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from typing import Any

import eterna
from eterna.agents import make_agent
from eterna.agents.ismcts import ISMCTSAgent
from eterna.core.agent import SeatWindow

PLAYERS = {"eternity": 4, "vale": 2, "eternitium": 2}
OPENSPIEL_GAME = "oh_hell(players=4,num_tricks_fixed=10)"


def eterna_position(
    game_id: str, players: int, seed: int, phase: str, options: dict[str, Any] | None = None
) -> eterna.GameState:
    """The first decision of a seeded game, or the position halfway through it (random moves;
    then on to the next decision with a choice)."""
    game = eterna.load_game(game_id)
    state = game.new_game(players, seed=seed, options=options)
    if phase == "first":
        return state
    probe = state.clone()
    rng = random.Random(seed)
    length = 0
    while not probe.is_terminal:
        probe.apply(rng.choice(probe.legal_actions()))
        length += 1
    rng = random.Random(seed)
    for _ in range(length // 2):
        state.apply(rng.choice(state.legal_actions()))
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return state


def with_budget(spec: str, iterations: int | None) -> str:
    """`spec` with `iterations=N` added (None: the spec's own budget, or the game's default)."""
    if iterations is None:
        return spec
    return f"{spec}{',' if ':' in spec else ':'}iterations={iterations}"


def eterna_round(spec: str, state: eterna.GameState, seed: int) -> tuple[float, int]:
    """Iterations per second of one ISMCTS decision, and the iterations it ran."""
    agent = make_agent(spec, seed=seed)
    assert isinstance(agent, ISMCTSAgent)
    seat = state.current_player
    assert seat is not None
    window = SeatWindow(state, seat)
    start = time.process_time()
    root = agent.search(window)
    return root.visits / (time.process_time() - start), root.visits


def openspiel_position(seed: int, phase: str) -> Any:
    """oh_hell's first player decision (a bid) after a seeded deal, or the first decision with a
    choice halfway through the game."""
    import pyspiel

    game = pyspiel.load_game(OPENSPIEL_GAME)
    state = game.new_initial_state()
    rng = random.Random(seed)
    decisions = 0
    target = 0 if phase == "first" else 22  # 44 decisions a game: 4 bids + 40 cards
    while True:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice(outcomes)[0])
            continue
        if decisions >= target and len(state.legal_actions()) > 1:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
        decisions += 1


def openspiel_round(iterations: int, c: float, state: Any, seed: int) -> float:
    """Simulations per second of one pyspiel.ISMCTSBot decision (random rollouts, 1 each)."""
    import pyspiel

    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.ISMCTSBot(seed, evaluator, c, iterations, -1)
    start = time.process_time()
    bot.step(state)
    return iterations / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spec", default="ismcts", help="agent spec (default: the defaults)")
    parser.add_argument(
        "--iterations",
        type=int,
        help="budget per decision (default: the spec's own, else the game's default; "
        "OpenSpiel then gets the generic default)",
    )
    parser.add_argument("--rounds", type=int, default=5, help="timed decisions per cell")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(PLAYERS), help="comma-separated game ids")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--expansions", default="", help="the Vale's expansions (artifacts)")
    args = parser.parse_args(argv)
    vale_options = {"expansions": args.expansions.split(",")} if args.expansions else None

    spec = with_budget(args.spec, args.iterations)
    probe = make_agent(spec, seed=0)
    assert isinstance(probe, ISMCTSAgent)
    iterations = args.iterations or probe.iterations or 1000  # OpenSpiel's budget
    budgets: dict[str, int] = {}
    try:
        import pyspiel  # noqa: F401

        have_openspiel = True
    except ImportError:
        have_openspiel = False

    results: dict[str, dict[str, float]] = {}
    rows: list[tuple[str, str, str, float]] = []
    for phase in ("first", "mid"):
        os_rates: list[float] = []
        rates: dict[str, list[float]] = {g: [] for g in args.games.split(",")}
        for r in range(args.rounds):
            seed = args.seed + r
            for game_id in rates:
                opts = vale_options if game_id == "vale" else None
                state = eterna_position(game_id, PLAYERS[game_id], seed, phase, opts)
                rate, done = eterna_round(spec, state, seed)
                rates[game_id].append(rate)
                budgets[game_id] = done
            if have_openspiel:
                os_state = openspiel_position(seed, phase)
                os_rates.append(openspiel_round(iterations, probe.c, os_state, seed))
        for game_id, values in rates.items():
            med = statistics.median(values)
            results.setdefault(game_id, {})[phase] = med
            rows.append((game_id, f"{PLAYERS[game_id]}", phase, med))
        if have_openspiel:
            med = statistics.median(os_rates)
            results.setdefault("openspiel_oh_hell", {})[phase] = med
            rows.append(("OpenSpiel oh_hell (C++)", "4", phase, med))

    print(
        f"ISMCTS '{spec}'{' (vale ' + str(vale_options) + ')' if vale_options else ''}, "
        "iterations per decision: "
        f"{', '.join(f'{g} {n}' for g, n in budgets.items())} (OpenSpiel {iterations}); "
        f"median of {args.rounds} decisions, CPU time; Python {platform.python_version()} "
        f"on {platform.machine()}"
    )
    print(f"{'game':<26}{'players':>8}  {'position':<9}{'iterations / s':>16}")
    for game_id, players, phase, rate in rows:
        print(f"{game_id:<26}{players:>8}  {phase:<9}{rate:>16.0f}")
    if have_openspiel and "eternity" in results:
        for phase in ("first", "mid"):
            ratio = results["eternity"][phase] / results["openspiel_oh_hell"][phase]
            results.setdefault("ratio_eternity_over_openspiel", {})[phase] = ratio
            print(f"eternity / OpenSpiel, {phase}: {ratio:.2f} (aim: at least 0.2)")
    elif not have_openspiel:
        print("open_spiel is not installed: no OpenSpiel comparison")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(
                {
                    "spec": spec,
                    "iterations": budgets,
                    "openspiel_iterations": iterations,
                    "results": results,
                },
                fh,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
