"""Decisions per second through each research adapter against the raw engine, and observation
encodings per second.

    .venv/bin/python bench/adapters.py [--rounds 7] [--block 0.3] [--games eternity,vale,eternitium]

Every loop plays uniformly random legal actions from fresh seeded games and counts every
decision; the raw and PettingZoo loops play the very same games (same seeds, same draws):
- raw: `legal_actions()` + `apply()` on the engine;
- pettingzoo (mask): the wrapped AEC env, `last(observe=False)` + `legal_action_ids()` +
  `step()` (a loop that needs only the legal moves);
- pettingzoo (obs): the same with `last()`, i.e. the observation dict (observation and action
  mask) computed for the agent to move at every step; the action is still drawn from the legal
  ids, so the difference to (mask) is the observation's cost alone (an agent reading the mask
  with `np.flatnonzero` pays about 2 µs more a step on The Vale's 12 336 actions);
- pettingzoo (empty obs): the (mask) loop plus what an observation costs besides its writer:
  the observation dict with a fresh observation row (from the encoding's pool, as `observe`
  takes it) and the action mask, but nothing written into the row. The ceiling of (obs) with
  a free writer: the share of the step that the PettingZoo API and fresh arrays take whatever
  the encoding does;
- gymnasium: `step()` against random opponents, with the learner's observation and mask built
  at each of its steps (the decisions of every seat are counted);
- openspiel: `legal_actions()` + `apply_action()` on the registered Python game (no
  observation);
- observe: `Encoding.observe(state, seat)` (the fast path, writing from the engine's fields)
  over the positions of random games; view + encode: `encode(state.view(seat))`, the reference
  it equals; view: `state.view(seat)` alone.

The machine may be shared, so timing is by CPU time (`time.process_time`) and paired: each
round runs every loop once on the same fixed block of games, in turn, and the ratio to raw is
taken within the round; the figures printed are medians over the rounds.
Eternitium runs with `round_limit=10` so random games stay short.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import eterna
from eterna.adapters.encodings import make_encoding

PLAYERS = {"eternity": 4, "vale": 2, "eternitium": 2}

#: a loop plays the games of `seeds` and returns the number of decisions taken
Loop = Callable[[list[int]], int]


def options_for(game_id: str) -> dict[str, int]:
    return {"round_limit": 10} if game_id == "eternitium" else {}


def game_seed(seed: int) -> int:
    """The engine seed the PettingZoo env draws after `reset(seed=seed)`: raw and PettingZoo
    loops play the very same games."""
    return random.Random(seed).getrandbits(62)


def raw(game_id: str, players: int) -> Loop:
    game = eterna.load_game(game_id)
    options = options_for(game_id)

    def loop(seeds: list[int]) -> int:
        count = 0
        for seed in seeds:
            rng = random.Random(seed)
            state = game.new_game(players=players, seed=game_seed(seed), options=options)
            while not state.is_terminal:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                count += 1
        return count

    return loop


def pettingzoo(game_id: str, players: int, observe: bool) -> Loop:
    return _pettingzoo(game_id, players, observe, empty=False)


def pettingzoo_empty(game_id: str, players: int) -> Loop:
    return _pettingzoo(game_id, players, False, empty=True)


def _pettingzoo(game_id: str, players: int, observe: bool, empty: bool) -> Loop:
    from eterna.adapters.pettingzoo import env

    e = env(game_id, players=players, **options_for(game_id))
    unwrapped = e.unwrapped
    enc = unwrapped.encoding
    rows = enc._obs_rows  # the pool observe() takes its rows from (for `empty`)

    def loop(seeds: list[int]) -> int:
        count = 0
        for seed in seeds:
            rng = random.Random(seed)
            e.reset(seed=seed)
            for _agent in e.agent_iter():
                _o, _r, term, trunc, _i = e.last(observe)
                if term or trunc:
                    e.step(None)
                    continue
                ids = unwrapped.legal_action_ids()
                if empty:  # the observation dict, its row left unwritten
                    _o = {"observation": rows.take()[0], "action_mask": enc.new_mask(ids)}
                e.step(ids[rng.randrange(len(ids))])
                count += 1
        return count

    return loop


def gymnasium(game_id: str, players: int) -> Loop:
    from eterna.adapters.gymnasium import make

    env = make(game_id, players=players, opponents="random", **options_for(game_id))

    def loop(seeds: list[int]) -> int:
        count = 0
        for seed in seeds:
            rng = random.Random(seed)
            env.reset(seed=seed)
            done = False
            while not done:
                ids = env.legal_action_ids()
                _o, _r, done, _t, _i = env.step(ids[rng.randrange(len(ids))])
            assert env.state is not None
            count += len(env.state.to_record()["actions"])  # every seat's decisions
        return count

    return loop


def openspiel(game_id: str, players: int) -> Loop:
    import eterna.adapters.openspiel as eo

    game = eo.load(game_id, players=players, rng_seed=0, **options_for(game_id))

    def loop(seeds: list[int]) -> int:
        count = 0
        for seed in seeds:
            rng = random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                count += 1
        return count

    return loop


def positions(game_id: str, players: int, games: int = 3) -> list[tuple[object, int]]:
    """(state, seat to move) at every decision of a few random games."""
    game = eterna.load_game(game_id)
    rng = random.Random(1)
    out = []
    for seed in range(games):
        state = game.new_game(players=players, seed=seed, options=options_for(game_id))
        while not state.is_terminal:
            out.append((state.clone(), state.current_player))
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return out


def encoding_loops(game_id: str, players: int) -> dict[str, Callable[[], int]]:
    enc = make_encoding(game_id, players)
    where = positions(game_id, players)

    def observe() -> int:
        for state, seat in where:
            enc.observe(state, seat)  # type: ignore[arg-type]
        return len(where)

    def view_encode() -> int:
        for state, seat in where:
            enc.encode(state.view(seat))  # type: ignore[attr-defined]
        return len(where)

    def view() -> int:
        for state, seat in where:
            state.view(seat)  # type: ignore[attr-defined]
        return len(where)

    return {"observe (fast path)": observe, "view + encode": view_encode, "view": view}


def cpu_rate(run: Callable[[], int]) -> float:
    start = time.process_time()
    count = run()
    return count / (time.process_time() - start)


def block_for(loop: Loop, seconds: float) -> list[int]:
    """The seeds of a block of games the raw engine plays in about `seconds` of CPU time."""
    seeds: list[int] = []
    start = time.process_time()
    while time.process_time() - start < seconds or len(seeds) < 2:
        seeds.append(1000 + len(seeds))
        loop(seeds[-1:])
    return seeds


def bench_game(game_id: str, rounds: int, block: float) -> None:
    players = PLAYERS[game_id]
    loops: dict[str, Loop] = {
        "raw engine": raw(game_id, players),
        "pettingzoo (mask)": pettingzoo(game_id, players, observe=False),
        "pettingzoo (obs)": pettingzoo(game_id, players, observe=True),
        "pettingzoo (empty obs)": pettingzoo_empty(game_id, players),
        "gymnasium (obs)": gymnasium(game_id, players),
        "openspiel": openspiel(game_id, players),
    }
    seeds = block_for(loops["raw engine"], block)
    encoders = encoding_loops(game_id, players)
    for loop in loops.values():  # warm up (imports, caches)
        loop(seeds[:1])
    rates: dict[str, list[float]] = {name: [] for name in [*loops, *encoders]}
    ratios: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(rounds):
        base = 0.0
        for name, loop in loops.items():
            rate = cpu_rate(lambda loop=loop: loop(seeds))  # type: ignore[misc]
            base = base or rate
            rates[name].append(rate)
            ratios[name].append(rate / base)
        for name, run in encoders.items():
            rates[name].append(cpu_rate(run))
    print(f"{game_id} ({players} players; {len(seeds)} games a block, {rounds} rounds, medians)")
    for name in loops:
        rate = statistics.median(rates[name])
        ratio = statistics.median(ratios[name])
        low, high = min(ratios[name]), max(ratios[name])
        spread = "" if name == "raw engine" else f"  (rounds: {low:.2f}-{high:.2f})"
        print(f"  {name:<22} {rate:>9,.0f} decisions/s {ratio:5.2f} x raw{spread}")
    for name in encoders:
        rate = statistics.median(rates[name])
        print(f"  {name:<22} {rate:>9,.0f} observations/s ({1e6 / rate:5.1f} µs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="paired rounds (odd: a median)")
    parser.add_argument("--block", type=float, default=0.3, help="raw CPU seconds per block")
    parser.add_argument("--games", default="eternity,vale,eternitium")
    args = parser.parse_args()
    for game_id in args.games.split(","):
        bench_game(game_id, args.rounds, args.block)


if __name__ == "__main__":
    main()
