"""Readable playthroughs: seeded games written out move by move, compared on every test run.

In the spirit of OpenSpiel's playthrough files: each file in tests/playthroughs/<game>/ holds one
seeded game (dealt by the current record version's generator) played by a seeded uniform-random
policy, with at every step the seat to move, its legal moves, the move chosen and every view
(spectator first, then each seat). The first step
writes each view whole, flattened to one `path = value` line per field; later steps write only
the lines that changed (`+=` when a list only grew), so a difference reads as a rule that
behaved differently.

    .venv/bin/python -m tests.playthroughs.playthroughs --check   # compare with a fresh run
    .venv/bin/python -m tests.playthroughs.playthroughs --write   # rewrite after an intended change

The files are the proof that a refactor kept behaviour: they must not change unless a rule,
a view or the generator changes on purpose (and then the diff is reviewed).
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import eterna
from eterna.core.rng import RECORD_VERSION

HERE = Path(__file__).resolve().parent


def _case(game: str, players: int, seed: int, play_seed: int, **extra: Any) -> dict[str, Any]:
    return {
        "game": game,
        "players": players,
        "seed": seed,
        "play_seed": play_seed,
        "options": extra.get("options", {}),
        "setup": extra.get("setup"),
    }


# file name -> the game played (play_seed drives the random policy)
CASES: dict[str, dict[str, Any]] = {
    "eternity/3p": _case("eternity", 3, 2016, 1),
    "eternity/4p": _case("eternity", 4, 7, 2),
    "eternity/5p": _case("eternity", 5, 5, 3),
    "eternity/4p-options": _case(
        "eternity",
        4,
        42,
        4,
        options={
            "next_round_leader": "last_trick_winner",
            "column_order": "shuffle_each_round",
            "tree_supply": 18,
            "tie_break": "harmony_rounds",
        },
    ),
    "eternity/3p-lowest-score": _case(
        "eternity", 3, 99, 5, options={"next_round_leader": "lowest_score", "tree_supply": 4}
    ),
    "eternity/5p-setup": _case(
        "eternity",
        5,
        3,
        6,
        setup={
            "columns": ["sky", "sea", "earth"],
            "first_leader": 4,
            "deals": [{"board": ["sea-7", "sky-12"]}, None, {"board": ["earth-1", "earth-14"]}],
        },
    ),
    "vale/2p": _case("vale", 2, 11, 1),
    "vale/3p": _case("vale", 3, 12, 2),
    "vale/4p": _case("vale", 4, 13, 3),
    "vale/2p-options": _case(
        "vale",
        2,
        14,
        4,
        options={
            "dragon_attack_targets": "opponents",
            "young_spirit_area_limit": "ignored",
            "free_summon_triggers": "none",
            "exalted_recover": "copier",
            "allow_superfluous_payment": True,
        },
    ),
    "eternitium/2p": _case("eternitium", 2, 21, 1),
    "eternitium/3p": _case("eternitium", 3, 22, 2),
    "eternitium/4p": _case("eternitium", 4, 23, 3),
    "eternitium/5p": _case("eternitium", 5, 24, 4),
    "eternitium/2p-options": _case(
        "eternitium", 2, 25, 5, options={"double_portal_luck": True, "round_limit": 30}
    ),
    **{
        f"eternitium/solo-mission-{m}": _case("eternitium", 1, 30 + m, m, options={"mission": m})
        for m in range(1, 11)
    },
    "eternitium/solo-free": _case("eternitium", 1, 41, 11),
}


def _flatten(value: Any, path: str) -> Iterator[str]:
    """One `path = json` line per leaf; dicts open into paths, lists stay whole on their line."""
    if isinstance(value, dict) and value:
        for key in sorted(value):
            yield from _flatten(value[key], f"{path}.{key}" if path else str(key))
    else:
        yield f"{path} = {json.dumps(value, sort_keys=True, separators=(',', ':'))}"


def _view_lines(state: Any, seat: int | None) -> dict[str, str]:
    lines = {}
    for line in _flatten(state.view(seat), ""):
        key, _, _ = line.partition(" = ")
        lines[key] = line
    return lines


def _change(old: str | None, new: str) -> str:
    """The line for a changed field: `path += [...]` when a list only grew at its end."""
    if old is not None:
        key, _, was = old.partition(" = ")
        value = new.partition(" = ")[2]
        if (
            was.startswith("[")
            and was != "[]"
            and value.startswith(was[:-1])
            and value[len(was) - 1 : len(was)] == ","
        ):
            return f"{key} += [{value[len(was) :]}"
    return new


def playthrough(case: dict[str, Any]) -> str:
    """The playthrough text of one case (deterministic: the same text on every machine)."""
    game = eterna.load_game(case["game"])
    state = game.new_game(
        case["players"],
        seed=case["seed"],
        options=case["options"],
        setup=case["setup"],
        version=RECORD_VERSION,
    )
    policy = random.Random(case["play_seed"])
    seats: list[int | None] = [None, *range(case["players"])]
    head = {k: case[k] for k in ("game", "players", "seed", "options", "setup", "play_seed")}
    out = [f"# playthrough {json.dumps(head, sort_keys=True)}"]
    before: dict[int | None, dict[str, str]] = {seat: {} for seat in seats}
    ply = 0
    while True:
        out.append("")
        if state.is_terminal:
            out.append(f"== end after {ply} plies")
        else:
            out.append(f"== ply {ply}: seat {state.current_player} to move")
        for seat in seats:
            now = _view_lines(state, seat)
            old = before[seat]
            changed = [
                _change(old.get(key), line) for key, line in now.items() if old.get(key) != line
            ]
            gone = [f"{key} (gone)" for key in old if key not in now]
            if changed or gone:
                out.append(f"view {'*' if seat is None else seat}:")
                out.extend(f"  {line}" for line in changed + gone)
            before[seat] = now
        if state.is_terminal:
            break
        legal = state.legal_actions()
        out.append(f"legal ({len(legal)}): " + ", ".join(map(str, legal)))
        action = legal[policy.randrange(len(legal))]
        out.append(f"chosen: {action}")
        state.apply(action)
        ply += 1
    out.append(f"scores = {json.dumps(state.scores)}")
    out.append(f"winners = {json.dumps(state.winners)}")
    return "\n".join(out) + "\n"


def path_of(name: str) -> Path:
    return HERE / f"{name}.txt"


def compare(name: str) -> str:
    """'' when the stored file equals a fresh run, else a unified diff (stored -> fresh)."""
    fresh = playthrough(CASES[name])
    stored = path_of(name).read_text(encoding="utf-8")
    if fresh == stored:
        return ""
    diff = difflib.unified_diff(
        stored.splitlines(), fresh.splitlines(), f"stored/{name}", f"fresh/{name}", lineterm="", n=2
    )
    return "\n".join(list(diff)[:200])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    parser.add_argument("names", nargs="*", help="cases to run (default: all)")
    args = parser.parse_args(argv)
    failed = 0
    for name in args.names or CASES:
        if args.write:
            path_of(name).parent.mkdir(parents=True, exist_ok=True)
            path_of(name).write_text(playthrough(CASES[name]), encoding="utf-8")
            print(f"wrote {path_of(name)}")
        elif diff := compare(name):
            failed += 1
            print(diff)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
