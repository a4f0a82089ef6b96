"""The fast observation path's cost in instructions, for callgrind: robust to a loaded machine.

Plays two seeded random games, then calls `Encoding.observe(state, seat)` on every (position,
seat) pair `--reps` times. Run it under callgrind with `--reps 0` and `--reps 2`: the difference
of the two totals over 2 x the pairs (printed on stderr) is the instructions an observation.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/observe_count.py eternity 4 --reps 0
    (the same with --reps 2; ETERNA_PURE=1 for the pure build; PYTHONPATH=<tree>/src for
    another source tree; `vale 2 --artifacts` for the Vale's version 2)
"""

from __future__ import annotations

import argparse
import random
import sys

import eterna
from eterna.adapters.encodings import make_encoding


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument(
        "--artifacts", action="store_true", help="the Vale with the Artifacts (encoding version 2)"
    )
    args = parser.parse_args()
    options: dict[str, object] = {"round_limit": 10} if args.game == "eternitium" else {}
    if args.artifacts:
        options["expansions"] = ["artifacts"]
    game = eterna.load_game(args.game)
    enc = make_encoding(args.game, args.players, options)
    rng = random.Random(1)
    states = []
    for seed in range(2):
        state = game.new_game(players=args.players, seed=seed, options=options)
        while not state.is_terminal:
            states.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        states.append(state)
    pairs = [(s, seat) for s in states for seat in range(args.players)]
    observe = enc.observe
    observe(states[0], 0)  # (warm in both runs)
    for _ in range(args.reps):
        for s, seat in pairs:
            observe(s, seat)
    print(f"{len(pairs)} (position, seat) pairs", file=sys.stderr)


if __name__ == "__main__":
    main()
