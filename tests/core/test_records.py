"""Records: JSON and JSON Lines files, replay of any registered game, malformed records."""

import json
import random

import pytest

import eterna
from eterna.core.errors import BadRecord
from eterna.core.records import read_records, replay, write_record


def _played(seed: int) -> eterna.GameState:
    state = eterna.load_game("eternity").new_game(4, seed=seed)
    rng = random.Random(seed)
    for _ in range(37):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_record_written_and_read_back_replays_the_same_game(tmp_path):
    state = _played(3)
    path = tmp_path / "game.json"
    write_record(path, state.to_record())
    (record,) = list(read_records(path))
    again = replay(record)
    assert again.view(None) == state.view(None)
    assert again.legal_actions() == state.legal_actions()


def test_json_lines_hold_one_record_per_line(tmp_path):
    states = [_played(s) for s in range(3)]
    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(s.to_record()) + "\n" for s in states))
    records = list(read_records(path))
    assert [r["seed"] for r in records] == [0, 1, 2]
    assert [replay(r).scores for r in records] == [s.scores for s in states]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"players": 4}, "a JSON object with a 'game' id"),
        ({"game": "eternity", "players": 9, "seed": 1, "actions": []}, "cannot start a game"),
        ({"game": "eternity", "players": 4, "seed": 1, "actions": "play"}, "must be a list"),
        ({"game": "eternity", "players": 4, "seed": 1, "actions": [7]}, "not a notation string"),
        (
            {"game": "eternity", "players": 4, "seed": 1, "actions": ["dance"]},
            r"action 0 \('dance'\)",
        ),
    ],
)
def test_malformed_records_raise_an_error_naming_the_fault(record, message):
    with pytest.raises(eterna.EternaError, match=message):
        replay(record)


def test_a_refused_action_in_a_record_is_reported_with_its_index():
    record = _played(5).to_record()
    record["actions"].append(record["actions"][-1])  # the same card cannot be played twice
    with pytest.raises(BadRecord, match=rf"action {len(record['actions']) - 1} "):
        replay(record)


def test_invalid_json_file_is_a_bad_record(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"game": "eternity"\n{oops\n')
    with pytest.raises(BadRecord, match="not valid JSON"):
        list(read_records(path))
