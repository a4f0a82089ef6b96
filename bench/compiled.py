"""The compiled engines against the pure ones and against OpenSpiel's C++, in one run.

Each round starts two worker processes of this script, one on the pure engines (ETERNA_PURE=1)
and one on the install's compiled ones, in alternating order (A B, B A) so that drift on a shared
machine hits both alike; each worker measures every figure once with its own CPU time
(time.process_time) and prints them as JSON. OpenSpiel's figures (C++ oh_hell random playouts,
C++ IS-MCTS) are taken in the compiled worker, in the same process as the engines they are
compared with. Medians over rounds are reported:

- random playouts, decisions per second: Eternity 4 players (and OpenSpiel's
  oh_hell(players=4, num_tricks_fixed=10) through the same Python loop), the Vale and
  Eternitium 2 players, the Vale 2 players with the Artifacts;
- ISMCTS on Eternity 4 players with random rollouts (`ismcts:rollout=random`), iterations per
  second of one decision at the first and a mid-game position, and pyspiel.ISMCTSBot's on
  oh_hell with the same budget;
- PettingZoo with an observation every step, as a fraction of the raw engine's decisions per
  second on the same seeds (bench/adapters.py's loops), per game.

Run: `.venv/bin/python bench/compiled.py [--rounds R] [--seconds S] [--json FILE]`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
GAMES = {"eternity": 4, "vale": 2, "eternitium": 2}
ISMCTS_ITERATIONS = 1000


def _bench(name: str) -> ModuleType:
    """A sibling benchmark script as a module (bench/ is no package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(seconds: float, seed: int) -> dict[str, float]:
    """Every figure once, in this process (whichever engines it runs)."""
    import eterna
    from eterna import engines

    playouts, ismcts, adapters = _bench("playouts"), _bench("ismcts"), _bench("adapters")
    out: dict[str, float] = {"compiled": float(engines.compiled())}
    for game_id, players in GAMES.items():
        out[f"playouts/{game_id}"] = playouts.eterna_round(game_id, players, seconds, seed)
    out["playouts/vale+artifacts"] = playouts.eterna_round(
        "vale", 2, seconds, seed, {"expansions": ["artifacts"]}
    )
    for phase in ("first", "mid"):
        state = ismcts.eterna_position("eternity", 4, seed, phase)
        spec = ismcts.with_budget("ismcts:rollout=random", ISMCTS_ITERATIONS)
        out[f"ismcts/eternity/{phase}"] = ismcts.eterna_round(spec, state, seed)[0]
    for game_id, players in GAMES.items():
        raw = adapters.raw(game_id, players)
        seeds = adapters.block_for(raw, seconds / 2)
        zoo = adapters.pettingzoo(game_id, players, True)
        empty = adapters.pettingzoo_empty(game_id, players)
        out[f"raw/{game_id}"] = adapters.cpu_rate(lambda r=raw, s=seeds: r(s))
        out[f"pettingzoo/{game_id}"] = adapters.cpu_rate(lambda z=zoo, s=seeds: z(s))
        out[f"pettingzoo-empty/{game_id}"] = adapters.cpu_rate(lambda z=empty, s=seeds: z(s))
    if engines.compiled() and importlib.util.find_spec("pyspiel") is not None:
        out["openspiel/oh_hell"] = playouts.openspiel_round(seconds, seed)
        for phase in ("first", "mid"):
            state = ismcts.openspiel_position(seed, phase)
            out[f"openspiel/ismcts/{phase}"] = ismcts.openspiel_round(
                ISMCTS_ITERATIONS, 0.7, state, seed
            )
    del eterna
    return out


def worker(pure: bool, seconds: float, seed: int) -> dict[str, float]:
    env = {**os.environ, "ETERNA_PURE": "1" if pure else "0"}
    done = subprocess.run(
        [sys.executable, __file__, "--worker", "--seconds", str(seconds), "--seed", str(seed)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout)
    if bool(result["compiled"]) == pure:
        raise SystemExit("the compiled engines did not load: build them first (make build)")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        json.dump(measure(args.seconds, args.seed), sys.stdout)
        return 0
    pure: list[dict[str, float]] = []
    compiled: list[dict[str, float]] = []
    started = time.time()
    for r in range(args.rounds):
        order = (True, False) if r % 2 == 0 else (False, True)
        for side in order:
            (pure if side else compiled).append(worker(side, args.seconds, args.seed + r))
    med: dict[str, dict[str, float]] = {
        "pure": {k: statistics.median(d[k] for d in pure) for k in pure[0]},
        "compiled": {k: statistics.median(d[k] for d in compiled) for k in compiled[0]},
    }
    p, c = med["pure"], med["compiled"]
    ratios: dict[str, float] = {}
    for key in p:
        if key != "compiled":
            ratios[f"{key} compiled/pure"] = statistics.median(
                b[key] / a[key] for a, b in zip(pure, compiled, strict=True)
            )
    if "openspiel/oh_hell" in c:
        ratios["eternity playouts compiled/openspiel"] = statistics.median(
            b["playouts/eternity"] / b["openspiel/oh_hell"] for b in compiled
        )
        ratios["eternity playouts pure/openspiel"] = statistics.median(
            a["playouts/eternity"] / b["openspiel/oh_hell"]
            for a, b in zip(pure, compiled, strict=True)
        )
        for phase in ("first", "mid"):
            for side, runs in (("compiled", compiled), ("pure", pure)):
                ratios[f"ismcts {phase} {side}/openspiel"] = statistics.median(
                    a[f"ismcts/eternity/{phase}"] / b[f"openspiel/ismcts/{phase}"]
                    for a, b in zip(runs, compiled, strict=True)
                )
    for game_id in GAMES:
        for side, runs in (("compiled", compiled), ("pure", pure)):
            ratios[f"pettingzoo/{game_id} {side} obs/raw"] = statistics.median(
                d[f"pettingzoo/{game_id}"] / d[f"raw/{game_id}"] for d in runs
            )
            ratios[f"pettingzoo/{game_id} {side} empty obs/raw"] = statistics.median(
                d[f"pettingzoo-empty/{game_id}"] / d[f"raw/{game_id}"] for d in runs
            )
    print(f"{platform.python_implementation()} {platform.python_version()}, {args.rounds} rounds")
    print(f"{'figure':38} {'pure':>12} {'compiled':>12}")
    for key in c:
        if key != "compiled":
            print(f"{key:38} {p.get(key, float('nan')):12.1f} {c[key]:12.1f}")
    print()
    for key, value in ratios.items():
        print(f"{key:46} {value:6.2f}")
    print(f"({time.time() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps({"medians": med, "ratios": ratios}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
