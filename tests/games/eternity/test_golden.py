"""Golden games: records of whole Eternity games, replayed and compared on every run.

The files in tests/golden/eternity/ were produced once by tests/golden/make_golden.py (seeded
random play). Any change to the rules, the deal, the views or the order of legal actions shows
up here as a difference; regenerate with `make_golden.py --write` only for an intended change.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import eterna

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
FILES = sorted((GOLDEN / "eternity").glob("*.json"))


def _maker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_golden", GOLDEN / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKER = _maker()


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_golden_files_cover_every_player_count_and_option() -> None:
    """The golden set: one file per game of make_golden.GAMES, at 3, 4 and 5 players, with
    every option's alternative value used somewhere."""
    assert [p.stem for p in FILES] == sorted(MAKER.GAMES)
    records = [load(p)["record"] for p in FILES]
    assert {r["players"] for r in records} == {3, 4, 5}
    used = {(k, v) for r in records for k, v in r["options"].items()}
    for name, option in eterna.load_game("eternity").declared_options.items():
        for value in option.choices or (0, 18):
            assert (name, value) in used, (name, value)
    assert any(r["setup"] for r in records)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_record_replays_to_the_same_game(path: Path) -> None:
    """Replaying the record gives the stored scores, winners, round results and, view by
    view, the stored digest of every view after every decision."""
    golden = load(path)
    record = golden["record"]
    state = eterna.load_game("eternity").from_record(record)
    assert state.is_terminal
    assert len(record["actions"]) == golden["decisions"]
    players = record["players"]
    assert golden["decisions"] == 3 * players * {3: 10, 4: 10, 5: 8}[players]
    assert state.scores == golden["scores"]
    assert state.winners == golden["winners"]
    assert state.view(None)["round_results"] == golden["round_results"]
    assert state.to_record() == record
    assert MAKER.views_digest(record) == golden["views_sha256"]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_game_is_played_again_identically(path: Path) -> None:
    """The same seeds and the same seeded random policy choose the same actions again
    (legal_actions order is deterministic), so a fresh run equals the stored file."""
    golden = load(path)
    assert golden["spec"] == MAKER.GAMES[path.stem]
    assert MAKER.play(golden["spec"]) == golden


def test_golden_digest_detects_a_different_game() -> None:
    """The digest is sensitive: a record with two decisions swapped does not match."""
    golden = load(FILES[0])
    record = json.loads(json.dumps(golden["record"]))
    state = eterna.load_game("eternity").from_record({**record, "actions": []})
    first = [str(a) for a in state.legal_actions()]
    assert record["actions"][0] in first and len(first) > 1
    record["actions"] = [next(a for a in first if a != record["actions"][0])]
    assert MAKER.views_digest(record) != golden["views_sha256"]
