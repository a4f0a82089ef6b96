"""Paired playout speed of two source trees in one run: is a change faster or slower?

Each tree gets a worker process of its own (PYTHONPATH=<tree>/src) that plays seeded random
playouts on request, as bench/playouts.py does; rounds alternate A B, then B A, so drift on a
shared machine hits both sides alike, and the median of the per-round ratios B/A is reported
per game. Time is each worker's CPU time.

    git worktree add /tmp/before <commit>
    .venv/bin/python bench/compare_trees.py /tmp/before . --rounds 20 --seconds 0.5
    ETERNA_PURE=1 .venv/bin/python bench/compare_trees.py /tmp/before . --games vale+artifacts

`--games` names `eternity` (4 players), `vale`, `eternitium` (2), and `vale+artifacts` (the Vale
with the Artifacts); `ETERNA_PURE=1` compares the pure builds, else each tree's compiled one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

PLAYERS = {"eternity": 4, "eternitium": 2, "vale": 2}

WORKER = r"""
import json, random, sys, time
import eterna

def rate(game_id, players, seconds, seed, options):
    game = eterna.load_game(game_id)
    choice = random.Random(seed).choice
    decisions = games = 0
    start = time.process_time()
    while True:
        state = game.new_game(players, seed=seed + games, options=options)
        apply, legal = state.apply, state.legal_actions
        while not state.is_terminal:
            apply(choice(legal()))
            decisions += 1
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return decisions / elapsed

for line in sys.stdin:
    game_id, players, seconds, seed, options = json.loads(line)
    print(rate(game_id, players, seconds, seed, options), flush=True)
"""


class Worker:
    def __init__(self, tree: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(tree / "src"))
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def rate(self, name: str, players: int, seconds: float, seed: int) -> float:
        assert self.proc.stdin and self.proc.stdout
        game_id, *expansions = name.split("+")
        options = {"expansions": expansions} if expansions else {}
        self.proc.stdin.write(json.dumps([game_id, players, seconds, seed, options]) + "\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="source tree A (the reference)")
    parser.add_argument("after", type=Path, help="source tree B (the change)")
    parser.add_argument("--games", default="eternity,vale,eternitium")
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args(argv)
    a, b = Worker(args.before.resolve()), Worker(args.after.resolve())
    try:
        for game_id in args.games.split(","):
            players = PLAYERS[game_id.split("+")[0]]
            ra: list[float] = []
            rb: list[float] = []
            for k in range(args.rounds):
                pair = [(a, ra), (b, rb)] if k % 2 == 0 else [(b, rb), (a, ra)]
                for worker, out in pair:
                    out.append(worker.rate(game_id, players, args.seconds, k))
            ratio = statistics.median(y / x for x, y in zip(ra, rb, strict=True))
            print(
                f"{game_id} ({players}p): A {statistics.median(ra):,.0f}/s, "
                f"B {statistics.median(rb):,.0f}/s, median ratio B/A {ratio:.3f}"
            )
    finally:
        a.close()
        b.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
