"""Records as JSON: one per file, or one per line (JSON Lines)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from eterna.core.errors import BadRecord
from eterna.core.game import GameState, Record

RECORD_KEYS = ("game", "players", "seed", "options", "setup", "actions")


def make_record(
    game: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    setup: Any,
    actions: Iterable[str],
) -> Record:
    return {
        "game": game,
        "players": players,
        "seed": seed,
        "options": dict(options),
        "setup": setup,
        "actions": list(actions),
    }


def replay(record: Record) -> GameState:
    """Replay a record of any registered game."""
    from eterna.core.registry import load_game

    if not isinstance(record, dict) or not isinstance(record.get("game"), str):
        raise BadRecord("a record is a JSON object with a 'game' id")
    return load_game(record["game"]).from_record(record)


def read_records(path: str | Path) -> Iterator[Record]:
    """Records from a .json file (one record or a list) or a .jsonl file (one per line)."""
    text = Path(path).read_text(encoding="utf-8")
    stripped = text.lstrip()
    if not stripped:
        return
    try:
        if stripped.startswith("["):
            yield from json.loads(text)
            return
        if stripped.startswith("{") and "\n{" not in text.strip():
            yield json.loads(text)
            return
        for _number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                yield json.loads(line)
    except json.JSONDecodeError as exc:
        raise BadRecord(f"{path}: not valid JSON: {exc}") from exc


def write_record(path: str | Path, record: Record) -> None:
    Path(path).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
