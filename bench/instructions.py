"""Instructions per decision of the engines' hot loop, counted by valgrind (callgrind).

A count, unlike a rate, does not move with the machine's load: two source trees compare
exactly on a shared machine. Each workload runs under `valgrind --tool=callgrind` with the
instrumentation off until the work starts (a tiny C helper, compiled here with `cc`, switches it
on and off around the work), so start-up and set-up are not counted; Python's collector is off
during the count (where it ran moved a compiled playout's count by 7%).

    git worktree add /tmp/before <commit>
    .venv/bin/python bench/instructions.py /tmp/before . --games eternity --modes loop,legal
    .venv/bin/python bench/instructions.py . --compiled      # the compiled build in place
    .venv/bin/python bench/instructions.py /tmp/before . --games vale+artifacts --modes observe

Games (`--games`): `eternity` (4 players), `vale`, `eternitium` (2 players), and
`vale+artifacts`, the Vale with the Artifacts (option `expansions`).

Workloads (`--modes`), per decision:

- `loop`: the contract loop `apply(choice(legal_actions()))`, a new seeded game whenever one
  ends (`new_game` counted, as in bench/playouts.py);
- `playout`: `GameState.random_playout` from new seeded games;
- `legal`, `clone`, `apply`: each alone, over the states of 10 seeded games (`apply` on a
  clone made before the count starts), each a method call made from interpreted code
  (`s.apply(a)`, as the server, the CLI and a script call it; the `loop` takes bound methods);
- `observe`: per observation, not per decision: `Encoding.observe(state, seat)` (the fast path
  the adapters call, its copy into the row included) for every seat of every state of 10 seeded
  games, once (one warm-up call before the count).
- `view`: per view: `state.view(seat)` for every seat and the spectator of every state of 10
  seeded games, once (what bots and the reference observation path build);
- `rollout`: per decision: the game's heuristic's `act_state(state, seat, legal)` (the search's
  rollout step) over the states of 10 seeded games.

Needs valgrind (with its headers, `valgrind/callgrind.h`) and a C compiler.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from eterna.core.game import Game, GameState

PLAYERS = {"eternity": 4, "vale": 2, "eternitium": 2}
REPS = {
    "loop": 10,
    "playout": 10,
    "legal": 3,
    "clone": 3,
    "apply": 3,
    "observe": 1,
    "view": 1,
    "rollout": 3,
}


def spec(name: str) -> tuple[str, dict[str, object]]:
    """A `--games` entry: the game's id and its options (`vale+artifacts`: an expansion)."""
    game_id, *expansions = name.split("+")
    return game_id, ({"expansions": expansions} if expansions else {})


HELPER = """#include <valgrind/callgrind.h>
void cg_start(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_ZERO_STATS; }
void cg_stop(void) { CALLGRIND_DUMP_STATS_AT("work"); CALLGRIND_STOP_INSTRUMENTATION; }
"""


def workload(mode: str, name: str, reps: int, helper: str) -> int:
    """Run one workload between the helper's start and stop; the decisions (or observations)
    it made."""
    import eterna

    cg = ctypes.CDLL(helper)

    def start() -> None:  # the collector off: where it runs would move a count
        gc.collect()
        gc.disable()
        cg.cg_start()

    def stop() -> None:
        cg.cg_stop()
        gc.enable()

    game_id, options = spec(name)
    game = eterna.load_game(game_id)
    players = PLAYERS[game_id]
    decisions = 0
    warm = game.new_game(players, seed=1, options=options)
    if mode in ("loop", "playout"):
        choice, draw = random.Random(5).choice, random.Random(5).random
        if mode == "playout":  # a game's own loop may import its module at the first playout
            warm.random_playout(random.Random(1).random)
        start()
        for g in range(reps):
            state = game.new_game(players, seed=100 + g, options=options)
            if mode == "playout":
                decisions += state.random_playout(draw)
                continue
            apply, legal = state.apply, state.legal_actions
            while not state.is_terminal:
                apply(choice(legal()))
                decisions += 1
        stop()
        return decisions
    rng = random.Random(7)
    traj = []
    for g in range(10):
        state = game.new_game(players, seed=1000 + g, options=options)
        while not state.is_terminal:
            action = rng.choice(state.legal_actions())
            traj.append((state.clone(), action))
            state.apply(action)
    if mode == "observe":
        from eterna.adapters.encodings import make_encoding

        observe = make_encoding(game_id, players, options).observe
        pairs = [(s, seat) for _ in range(reps) for s, _a in traj for seat in range(players)]
        observe(pairs[0][0], 0)  # warm: the buffers and tables made once
        start()
        for s, seat in pairs:
            observe(s, seat)
        stop()
        return len(pairs)
    if mode in ("view", "rollout"):
        states = [s for _ in range(reps) for s, _a in traj]
        return _reading(mode, game, players, states, start, stop)
    fresh = [(s.clone(), a) for _ in range(reps) for s, a in traj] if mode == "apply" else []
    start()
    if mode == "apply":
        for s, a in fresh:
            s.apply(a)
    else:
        for _ in range(reps):
            for s, _a in traj:
                s.legal_actions() if mode == "legal" else s.clone()
    stop()
    return reps * len(traj)


def _reading(
    mode: str,
    game: Game,
    players: int,
    states: list[GameState],
    start: Callable[[], None],
    stop: Callable[[], None],
) -> int:
    """The `view` and `rollout` workloads over `states`: what a seat's bot reads."""
    from eterna.core.agent import ViewAgent

    if mode == "view":
        views = [(s, seat) for s in states for seat in (*range(players), None)]
        views[0][0].view(0)  # warm: a module imported at the first view
        start()
        for s, seat in views:
            s.view(seat)
        stop()
        return len(views)
    agent = game.make_heuristic(seed=3)
    assert isinstance(agent, ViewAgent), f"{game.id} has no heuristic that reads views"
    steps = [(s, s.current_player or 0, s.legal_actions()) for s in states]  # none is over
    agent.act_state(*steps[0])  # warm
    start()
    for s, seat, legal in steps:
        agent.act_state(s, seat, legal)
    stop()
    return len(steps)


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
                unit = {"observe": "an observation", "view": "a view"}.get(mode, "a decision")
                print(f"{game_id} {mode}: {line} instructions {unit}{ratios}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
