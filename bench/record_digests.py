"""Records made by one source tree, replayed by another: the proof that a refactor kept games.

    python bench/record_digests.py write records.jsonl     # play seeded random games, write
                                                            # each record with its digest
    python bench/record_digests.py check records.jsonl     # replay every record, compare

Run `write` with PYTHONPATH pointing at the old tree and `check` with the new one. A record's
digest is a SHA-256 over its final scores and every seat's (and a spectator's) view after each
action, so a difference anywhere in a replay shows. Only the public contract is used (load_game,
new_game, legal_actions, apply, to_record, from_record, view), so any version of Eterna runs it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from typing import Any

from eterna.core.registry import load_game

GAMES = {"eternity": (3, 4, 5), "vale": (2, 3, 4), "eternitium": (1, 2, 3, 4, 5)}


def _digest(state: Any, steps: list[Any]) -> str:
    h = hashlib.sha256()
    for views in steps:
        h.update(json.dumps(views, sort_keys=True, default=str).encode())
    h.update(json.dumps(state.scores).encode())
    return h.hexdigest()


def _views(state: Any) -> list[Any]:
    return [state.view(seat) for seat in [None, *range(state.players)]]


def _replay(record: dict[str, Any]) -> str:
    game = load_game(record["game"])
    first = dict(record, actions=[])
    state = game.from_record(first)
    steps = [_views(state)]
    for action in record["actions"]:
        state.apply(action)
        steps.append(_views(state))
    return _digest(state, steps)


def write(path: str, per_count: int) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for game_id, counts in GAMES.items():
            game = load_game(game_id)
            for players in counts:
                for seed in range(per_count):
                    state = game.new_game(players, seed=seed)
                    rng = random.Random(seed)
                    while not state.is_terminal:
                        state.apply(rng.choice(state.legal_actions()))
                    record = state.to_record()
                    out.write(json.dumps({"record": record, "digest": _replay(record)}) + "\n")


def check(path: str) -> int:
    bad = total = 0
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            entry = json.loads(line)
            total += 1
            if _replay(entry["record"]) != entry["digest"]:
                bad += 1
                rec = entry["record"]
                print(f"differs: {rec['game']} {rec['players']}p seed {rec['seed']}")
    print(f"{total - bad} of {total} records replay to the same scores and views")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("write", "check"))
    parser.add_argument("path")
    parser.add_argument("--per-count", type=int, default=4, help="games per player count")
    args = parser.parse_args()
    if args.mode == "write":
        write(args.path, args.per_count)
        return 0
    return check(args.path)


if __name__ == "__main__":
    sys.exit(main())
