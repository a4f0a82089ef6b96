"""Instructions per decision of the engines' hot loop, counted by valgrind (callgrind).

A count, unlike a rate, does not move with the machine's load: two source trees compare
exactly on a shared machine. Each workload runs under `valgrind --tool=callgrind` with the
instrumentation off until the work starts (a tiny C helper, compiled here with `cc`, switches it
on and off around the work), so start-up and set-up are not counted.

    git worktree add /tmp/before <commit>
    .venv/bin/python bench/instructions.py /tmp/before . --games eternity --modes loop,legal
    .venv/bin/python bench/instructions.py . --compiled      # the compiled build in place

Workloads (`--modes`), per decision:

- `loop`: the contract loop `apply(choice(legal_actions()))`, a new seeded game whenever one
  ends (`new_game` counted, as in bench/playouts.py);
- `playout`: `GameState.random_playout` from new seeded games;
- `legal`, `clone`, `apply`: each alone, over the states of 10 seeded games (`apply` on a
  clone made before the count starts).

Needs valgrind (with its headers, `valgrind/callgrind.h`) and a C compiler.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

PLAYERS = {"eternity": 4, "vale": 2, "eternitium": 2}
REPS = {"loop": 10, "playout": 10, "legal": 3, "clone": 3, "apply": 3}  # games or passes
HELPER = """#include <valgrind/callgrind.h>
void cg_start(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_ZERO_STATS; }
void cg_stop(void) { CALLGRIND_DUMP_STATS_AT("work"); CALLGRIND_STOP_INSTRUMENTATION; }
"""


def workload(mode: str, game_id: str, reps: int, helper: str) -> int:
    """Run one workload between the helper's start and stop; the decisions it made."""
    import eterna

    cg = ctypes.CDLL(helper)
    game = eterna.load_game(game_id)
    players = PLAYERS[game_id]
    decisions = 0
    game.new_game(players, seed=1)  # warm
    if mode in ("loop", "playout"):
        choice, draw = random.Random(5).choice, random.Random(5).random
        cg.cg_start()
        for g in range(reps):
            state = game.new_game(players, seed=100 + g)
            if mode == "playout":
                decisions += state.random_playout(draw)
                continue
            apply, legal = state.apply, state.legal_actions
            while not state.is_terminal:
                apply(choice(legal()))
                decisions += 1
        cg.cg_stop()
        return decisions
    rng = random.Random(7)
    traj = []
    for g in range(10):
        state = game.new_game(players, seed=1000 + g)
        while not state.is_terminal:
            action = rng.choice(state.legal_actions())
            traj.append((state.clone(), action))
            state.apply(action)
    fresh = [(s.clone(), a) for _ in range(reps) for s, a in traj] if mode == "apply" else []
    cg.cg_start()
    if mode == "apply":
        for s, a in fresh:
            s.apply(a)
    else:
        for _ in range(reps):
            for s, _a in traj:
                s.legal_actions() if mode == "legal" else s.clone()
    cg.cg_stop()
    return reps * len(traj)


def count(tree: Path, mode: str, game_id: str, compiled: bool, helper: str, out: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), PYTHONHASHSEED="0")
    env.pop("ETERNA_PURE", None)
    if not compiled:
        env["ETERNA_PURE"] = "1"
    args = [mode, game_id, str(REPS[mode]), helper]
    cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"]
    run = subprocess.run(
        [*cmd, sys.executable, __file__, "--work", *args],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    decisions = int(run.stdout.split()[-1])
    total = next(
        int(line.split()[1])
        for line in Path(out + ".1").read_text().splitlines()
        if line.startswith(("summary:", "totals:"))
    )
    return total / decisions


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--work"]:
        mode, game_id, reps, helper = argv[1:5]
        print(workload(mode, game_id, int(reps), helper))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", type=Path, nargs="+", help="source trees (the first: reference)")
    parser.add_argument("--games", default="eternity,vale,eternitium")
    parser.add_argument("--modes", default="loop")
    parser.add_argument("--compiled", action="store_true", help="count the compiled build")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        helper = str(Path(tmp) / "cg.so")
        source = Path(tmp) / "cg.c"
        source.write_text(HELPER)
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", helper, str(source)], check=True)
        for game_id in args.games.split(","):
            for mode in args.modes.split(","):
                counts = [
                    count(t.resolve(), mode, game_id, args.compiled, helper, f"{tmp}/out{k}")
                    for k, t in enumerate(args.trees)
                ]
                ratios = "".join(f", {counts[0] / c:.3f}x" for c in counts[1:])
                line = ", ".join(f"{c:,.0f}" for c in counts)
                print(f"{game_id} {mode}: {line} instructions a decision{ratios}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
