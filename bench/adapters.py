"""Decisions per second through each research adapter against the raw engine, and observation
encodings per second.

    .venv/bin/python bench/adapters.py [--seconds 2] [--games eternity,vale,eternitium]

Every loop plays uniformly random legal actions from fresh seeded games:
- raw: `legal_actions()` + `apply()` on the engine;
- pettingzoo (mask): the wrapped AEC env, `last(observe=False)` + legal ids + `step()` (what a
  loop that needs only the legal moves pays);
- pettingzoo (obs): the same with `last()`, i.e. the observation and mask computed every step;
- openspiel: `legal_actions()` + `apply_action()` on the registered Python game;
- gymnasium: `step()` against random opponents (decisions of every seat counted), with the
  observation and mask built for the learner each step;
- view / encode / view+encode: `state.view(seat)`, `Encoding.encode(view)`, both.
Eternitium runs with `round_limit=10` so random games stay short.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

import eterna
from eterna.adapters.encodings import make_encoding

PLAYERS = {"eternity": 4, "vale": 2, "eternitium": 2}


def options_for(game_id: str) -> dict[str, int]:
    return {"round_limit": 10} if game_id == "eternitium" else {}


def timed(loop: Callable[[float], int], seconds: float) -> float:
    start = time.perf_counter()
    count = loop(start + seconds)
    return count / (time.perf_counter() - start)


def raw(game_id: str, players: int) -> Callable[[float], int]:
    game = eterna.load_game(game_id)
    options = options_for(game_id)

    def loop(deadline: float) -> int:
        rng = random.Random(0)
        count = seed = 0
        while time.perf_counter() < deadline:
            state = game.new_game(players=players, seed=seed, options=options)
            seed += 1
            while not state.is_terminal:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                count += 1
        return count

    return loop


def pettingzoo(game_id: str, players: int, observe: bool) -> Callable[[float], int]:
    from eterna.adapters.pettingzoo import env

    e = env(game_id, players=players, **options_for(game_id))
    unwrapped = e.unwrapped

    def loop(deadline: float) -> int:
        rng = random.Random(0)
        count = 0
        e.reset(seed=0)
        while time.perf_counter() < deadline:
            e.reset()
            for _agent in e.agent_iter():
                if observe:
                    obs, _r, term, trunc, _i = e.last()
                    ids = np.flatnonzero(obs["action_mask"])
                else:
                    _o, _r, term, trunc, _i = e.last(observe=False)
                    ids = unwrapped.legal_action_ids()
                if term or trunc:
                    e.step(None)
                    continue
                e.step(ids[rng.randrange(len(ids))])
                count += 1
        return count

    return loop


def openspiel(game_id: str, players: int) -> Callable[[float], int]:
    import eterna.adapters.openspiel as eo

    game = eo.load(game_id, players=players, rng_seed=0, **options_for(game_id))

    def loop(deadline: float) -> int:
        rng = random.Random(0)
        count = 0
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                count += 1
        return count

    return loop


def gymnasium(game_id: str, players: int) -> Callable[[float], int]:
    from eterna.adapters.gymnasium import make

    env = make(game_id, players=players, opponents="random", **options_for(game_id))

    def loop(deadline: float) -> int:
        rng = random.Random(0)
        count = 0
        env.reset(seed=0)
        while time.perf_counter() < deadline:
            env.reset()
            done = False
            while not done:
                ids = np.flatnonzero(env.action_masks())
                _o, _r, done, _t, _i = env.step(int(ids[rng.randrange(len(ids))]))
            assert env.state is not None
            count += len(env.state.to_record()["actions"])  # every seat's decisions
        return count

    return loop


def encodings(game_id: str, players: int, seconds: float) -> tuple[float, float, float]:
    """(views/s, encodings of a ready view/s, view+encode/s) over positions of random games."""
    game = eterna.load_game(game_id)
    enc = make_encoding(game_id, players)
    rng = random.Random(1)
    states = []
    for seed in range(3):
        state = game.new_game(players=players, seed=seed, options=options_for(game_id))
        while not state.is_terminal:
            states.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    positions = [(s, s.current_player) for s in states]
    views = [s.view(seat) for s, seat in positions]

    def view_loop(deadline: float) -> int:
        count = 0
        while time.perf_counter() < deadline:
            for s, seat in positions:
                s.view(seat)
            count += len(positions)
        return count

    def encode_loop(deadline: float) -> int:
        count = 0
        while time.perf_counter() < deadline:
            for view in views:
                enc.encode(view)
            count += len(views)
        return count

    def both_loop(deadline: float) -> int:
        count = 0
        while time.perf_counter() < deadline:
            for s, seat in positions:
                enc.observe(s, seat)
            count += len(positions)
        return count

    return (
        timed(view_loop, seconds),
        timed(encode_loop, seconds),
        timed(both_loop, seconds),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--games", default="eternity,vale,eternitium")
    args = parser.parse_args()
    for game_id in args.games.split(","):
        players = PLAYERS[game_id]
        print(f"{game_id} ({players} players)")
        base = timed(raw(game_id, players), args.seconds)
        rows = [("raw engine", base)]
        rows.append(("pettingzoo (mask)", timed(pettingzoo(game_id, players, False), args.seconds)))
        rows.append(("pettingzoo (obs)", timed(pettingzoo(game_id, players, True), args.seconds)))
        rows.append(("openspiel", timed(openspiel(game_id, players), args.seconds)))
        rows.append(("gymnasium (obs)", timed(gymnasium(game_id, players), args.seconds)))
        for name, rate in rows:
            print(f"  {name:<20} {rate:>10,.0f} decisions/s  {rate / base:6.2f} x raw")
        view, enc, both = encodings(game_id, players, args.seconds)
        print(f"  {'view':<20} {view:>10,.0f} /s")
        print(f"  {'encode(view)':<20} {enc:>10,.0f} /s")
        print(f"  {'view + encode':<20} {both:>10,.0f} /s")


if __name__ == "__main__":
    main()
