"""Golden Eternity games: seeded random play, recorded once and replayed by every test run.

Each game below is played by a seeded random policy (uniform over `legal_actions()`); its file
in tests/golden/eternity/ keeps the record, the final scores, winners and round results, and a
SHA-256 digest of every view (spectator and every seat) after every decision.
tests/games/eternity/test_golden.py replays the records and compares everything.

    .venv/bin/python tests/golden/make_golden.py --check   # compare stored files with a fresh run
    .venv/bin/python tests/golden/make_golden.py --write   # rewrite them (after an intended change
                                                            # of the rules: review the diff)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import eterna

HERE = Path(__file__).resolve().parent / "eternity"

# name -> how the game is made and played (play_seed drives the random policy)
GAMES: dict[str, dict[str, Any]] = {
    "3p-default": {"players": 3, "seed": 2016, "play_seed": 1, "options": {}, "setup": None},
    "4p-default": {"players": 4, "seed": 7, "play_seed": 2, "options": {}, "setup": None},
    "5p-default": {"players": 5, "seed": 5, "play_seed": 3, "options": {}, "setup": None},
    "4p-options": {
        "players": 4,
        "seed": 42,
        "play_seed": 4,
        "options": {
            "next_round_leader": "last_trick_winner",
            "column_order": "shuffle_each_round",
            "tree_supply": 18,
            "tie_break": "harmony_rounds",
        },
        "setup": None,
    },
    "3p-lowest-score-capped-trees": {
        "players": 3,
        "seed": 99,
        "play_seed": 5,
        "options": {"next_round_leader": "lowest_score", "tree_supply": 4},
        "setup": None,
    },
    "5p-setup": {
        "players": 5,
        "seed": 3,
        "play_seed": 6,
        "options": {},
        "setup": {
            "columns": ["sky", "sea", "earth"],
            "first_leader": 4,
            "deals": [{"board": ["sea-7", "sky-12"]}, None, {"board": ["earth-1", "earth-14"]}],
        },
    },
}


def views_digest(record: dict[str, Any]) -> str:
    """SHA-256 of every view (spectator, then each seat) before and after every decision."""
    game = eterna.load_game(record["game"])
    state = game.new_game(
        record["players"],
        seed=record["seed"],
        options=record["options"],
        setup=record["setup"],
        version=record.get("version", 1),  # absent: version 1
    )
    digest = hashlib.sha256()
    seats = [None, *range(record["players"])]
    for text in [None, *record["actions"]]:
        if text is not None:
            state.apply(text)
        views = [state.view(seat) for seat in seats]
        digest.update(json.dumps(views, sort_keys=True).encode() + b"\n")
    return digest.hexdigest()


def play(spec: dict[str, Any]) -> dict[str, Any]:
    """The golden entry of one game: played afresh by the seeded random policy."""
    state = eterna.load_game("eternity").new_game(
        spec["players"],
        seed=spec["seed"],
        options=spec["options"],
        setup=spec["setup"],
        version=1,  # the golden games are records of version 1 (the legacy generators)
    )
    rng = random.Random(spec["play_seed"])
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    record = state.to_record()
    return {
        "spec": spec,
        "record": record,
        "decisions": len(record["actions"]),
        "round_results": state.view(None)["round_results"],
        "scores": state.scores,
        "winners": state.winners,
        "views_sha256": views_digest(record),
    }


def path_of(name: str) -> Path:
    return HERE / f"{name}.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare (the default)")
    mode.add_argument("--write", action="store_true", help="rewrite the golden files")
    args = parser.parse_args(argv)
    failures = 0
    for name, spec in GAMES.items():
        fresh = play(spec)
        path = path_of(name)
        if args.write:
            HERE.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(fresh, indent=1) + "\n", encoding="utf-8")
            print(f"wrote {path}")
        elif not path.exists() or json.loads(path.read_text(encoding="utf-8")) != fresh:
            print(f"DIFFERS: {path}")
            failures += 1
        else:
            print(f"ok: {path.name}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
