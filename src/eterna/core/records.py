"""Records as JSON: one per file, or one per line (JSON Lines)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Final

from eterna.core.errors import BadRecord
from eterna.core.game import GameState, JsonValue, Record
from eterna.core.options import OptionValue
from eterna.core.rng import RECORD_VERSION

# "version" is written for records of version 2 on; a record without it is version 1
RECORD_KEYS: Final = ("game", "version", "players", "seed", "options", "setup", "actions")


def make_record(
    game: str,
    players: int,
    seed: int,
    options: Mapping[str, OptionValue],
    setup: JsonValue,
    actions: Iterable[str],
    version: int = RECORD_VERSION,
) -> Record:
    """A record; version 1 (the legacy generators) is written without a "version" key, as it
    was before there were versions."""
    head: Record = {"game": game} if version == 1 else {"game": game, "version": version}
    return head | {
        "players": players,
        "seed": seed,
        "options": dict(options),
        "setup": setup,
        "actions": list(actions),
    }


def replay(record: Record) -> GameState:
    """Replay a record of any registered game."""
    from eterna.core.registry import load_game

    game = record.get("game") if isinstance(record, dict) else None
    if not isinstance(game, str):
        raise BadRecord("a record is a JSON object with a 'game' id")
    return load_game(game).from_record(record)


def read_records(path: str | Path) -> Iterator[Record]:
    """Records from a JSON file (one record, or a list of them) or a JSON Lines file."""
    text = Path(path).read_text(encoding="utf-8")
    if not text.strip():
        return
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None  # not one JSON document: read it as JSON Lines
    if isinstance(whole, list):
        yield from whole
        return
    if whole is not None:
        yield whole
        return
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise BadRecord(f"{path}, line {number}: not valid JSON: {exc}") from exc


def write_record(path: str | Path, record: Record) -> None:
    Path(path).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
