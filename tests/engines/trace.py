"""What a game shows the world, written down so that two runs can be compared: the readable
playthroughs, and per game a seeded random game's record, every seat's view and position every
few plies, the events each seat is told, a determinization's view and a pickled copy's view,
and now and then what the bots (the heuristic, the default search) would play.

`python -m tests.engines.trace` prints it as JSON; tests/engines/test_equivalence.py runs that
on the pure engines (ETERNA_PURE=1) and compares it with the same taken in its own process.
"""

from __future__ import annotations

import json
import pickle
import random
import sys
from typing import Any

from tests.playthroughs.playthroughs import CASES, playthrough

import eterna
from eterna.agents import make_agent

# (game, players, options): each game's base, the Vale's Artifacts and Eternitium's solo mode
GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("eternity", 3, {}),
    ("eternity", 5, {}),
    ("vale", 2, {}),
    ("vale", 4, {"expansions": ["artifacts"]}),
    ("eternitium", 2, {}),
    ("eternitium", 1, {"mission": 3}),
]
EVERY = 7  # plies between two snapshots
BOTS_EVERY = 8 * EVERY  # plies between two bot decisions (a search costs a second pure)
BOTS = ("heuristic", "ismcts:iterations=5")


def game_trace(game_id: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    game = eterna.load_game(game_id)
    state = game.new_game(players, seed=seed, options=options)
    state.events_since(0, None)  # narrate from the start
    policy = random.Random(seed)
    seats: list[int | None] = [None, *range(players)]
    snapshots = []
    bots = []
    ply = 0
    while not state.is_terminal and ply < 400:
        legal = state.legal_actions()
        if ply % EVERY == 0:
            seat = state.current_player
            assert seat is not None
            guess = state.determinize(seat, random.Random(ply))
            copy = pickle.loads(pickle.dumps(state))
            snapshots.append(
                {
                    "ply": ply,
                    "legal": [str(a) for a in legal],
                    "views": [state.view(s) for s in seats],
                    "positions": [state.to_position(s) for s in seats],
                    "guess": guess.view(seat),
                    "guess_legal": [str(a) for a in guess.legal_actions()],
                    "pickled": copy.view(None),
                    "clone": state.clone().view(seat),
                }
            )
            if ply % BOTS_EVERY == 0:
                bots.append([str(make_agent(s, seed=ply).choose(state, seat)) for s in BOTS])
        state.apply(legal[policy.randrange(len(legal))])
        ply += 1
    return {
        "record": state.to_record(),
        "scores": state.scores,
        "winners": state.winners,
        "events": [state.events_since(0, s) for s in seats],
        "snapshots": snapshots,
        "bots": bots,
    }


def collect() -> dict[str, Any]:
    """Everything compared, as plain JSON values."""
    return {
        "playthroughs": {name: playthrough(case) for name, case in sorted(CASES.items())},
        "games": {
            f"{g}/{p}p/{json.dumps(o, sort_keys=True)}": game_trace(g, p, o, seed=90 + p)
            for g, p, o in GAMES
        },
    }


def main() -> int:
    json.dump(
        {"compiled": eterna.engines.compiled(), "trace": collect()}, sys.stdout, sort_keys=True
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
