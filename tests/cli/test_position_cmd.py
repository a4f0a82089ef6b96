"""`eterna position show|hint|write` and `eterna play --position`, through typer's CliRunner.

The commands go through the position contract only: every game's own format is tried.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import eterna
from eterna.arena.hints import advise
from eterna.cli import app
from eterna.cli.words import Narrator
from eterna.core.game import Game, GameState
from eterna.core.position import share_code

GAME = eterna.load_game("eternity")
ENV = {"COLUMNS": "160", "NO_COLOR": "1", "ETERNA_LANG": "en"}
runner = CliRunner()


def run(args: list[str], input: str | None = None) -> Any:
    return runner.invoke(app, args, input=input, env=ENV)


def played(moves: int, players: int = 3, seed: int = 11) -> GameState:
    state = GAME.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(played(14).to_record()), encoding="utf-8")
    return path


def write_position(tmp_path: Path, position: dict[str, Any], name: str = "p.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(position), encoding="utf-8")
    return path


def test_write_gives_the_position_after_the_first_actions(record_file: Path) -> None:
    result = run(["position", "write", str(record_file), "--at", "9"])
    assert result.exit_code == 0, result.output
    position = json.loads(result.stdout)
    assert position["format"] == "eterna-position" and position["seat"] is None
    loaded, expected = GAME.from_position(position), played(9)
    assert [str(a) for a in loaded.legal_actions()] == [str(a) for a in expected.legal_actions()]
    assert loaded.view(None) == expected.view(None)


def test_write_share_code_and_seat_position(record_file: Path) -> None:
    code = run(["position", "write", str(record_file), "--at", "5", "--share"]).stdout.strip()
    assert code.startswith("ep1.") and "\n" not in code
    assert code == share_code(played(5).to_position())
    mine = run(["position", "write", str(record_file), "--at", "5", "--seat", "3"])
    # --seat counts from 1 as players do; the position keeps the records' 0-based seat
    assert json.loads(mine.stdout)["seat"] == 2


def test_write_refuses_an_at_past_the_record(record_file: Path) -> None:
    result = run(["position", "write", str(record_file), "--at", "99"])
    assert result.exit_code == 2
    assert "--at must be from 0 to 14" in result.stderr


def test_show_a_whole_position_as_a_spectator(tmp_path: Path) -> None:
    state = played(7)
    result = run(["position", "show", str(write_position(tmp_path, state.to_position()))])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "Eternity, 3 players: the whole position, as a spectator sees it. "
        f"Seat {state.current_player + 1} to move."
    )
    assert "Your legal moves now:" not in result.stdout


def test_show_from_the_seat_to_move_lists_its_moves_in_words(tmp_path: Path) -> None:
    state = played(7)
    seat = state.current_player
    assert seat is not None
    path = write_position(tmp_path, state.to_position(seat))
    result = run(["position", "show", str(path), "--lang", "fr"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith(
        f"Eternity, 3 joueurs : la position de la place {seat + 1} "
    )
    narrator = Narrator("eternity", "fr", ["Place 1", "Place 2", "Place 3"], seat)
    for move in state.legal_actions():
        assert narrator.label(str(move)) in result.stdout


def test_show_reads_a_share_code_from_stdin_and_as_the_argument() -> None:
    state = played(4)
    code = share_code(state.to_position())
    from_stdin = run(["position", "show", "-", "--seat", "2"], input=code + "\n")
    assert from_stdin.exit_code == 0, from_stdin.output
    assert "the whole position, as seat 2 sees it" in from_stdin.stdout
    as_argument = run(["position", "show", code, "--seat", "2"])
    assert as_argument.stdout == from_stdin.stdout


def test_a_seat_position_shows_no_other_seat(tmp_path: Path) -> None:
    path = write_position(tmp_path, played(4).to_position(0))
    result = run(["position", "show", str(path), "--seat", "2"])
    assert result.exit_code == 2
    assert "this is seat 1's position: it knows nothing of seat 2's cards" in result.stderr


def test_hint_from_a_whole_position_advises_the_seat_to_move(tmp_path: Path) -> None:
    state = played(8)
    seat = state.current_player
    assert seat is not None
    path = write_position(tmp_path, state.to_position())
    result = run(["position", "hint", str(path), "-i", "60", "--seed", "3"])
    assert result.exit_code == 0, result.output
    best = advise(GAME.from_position(state.to_position()), seat, iterations=60, seed=3)[0]
    label = Narrator("eternity", "en", ["Seat 1", "Seat 2", "Seat 3"], seat).label(best.action)
    assert result.stdout.splitlines()[0] == (
        f"Eternity, from a position: seat {seat + 1} to move. Recommended: {label} ({best.action})"
    )
    assert "ISMCTS, 60 iterations, seed 3" in result.stdout


def test_hint_from_a_seat_position_off_its_turn_is_refused(tmp_path: Path) -> None:
    state = played(8)
    other = ((state.current_player or 0) + 1) % 3
    path = write_position(tmp_path, state.to_position(other))
    result = run(["position", "hint", str(path), "-i", "20"])
    assert result.exit_code == 2
    assert f"not seat {other + 1}'s" in result.stderr


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{not json", "position is not valid JSON"),
        ("ep1.!!!!", "not a share code: it does not decode"),
        ("[1, 2]", "this is not a position"),
        ('{"game": "chess"}', "unknown game"),
    ],
)
def test_malformed_text_is_one_clear_line(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    result = run(["position", "show", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ")
    assert expected in result.stderr
    assert "Traceback" not in result.output


def test_a_bad_field_is_named(tmp_path: Path) -> None:
    position = played(3).to_position()
    position["players"] = 9
    result = run(["position", "hint", str(write_position(tmp_path, position))])
    assert result.exit_code == 2
    assert "position players: Eternity is for 3-5 players, not 9" in result.stderr


def test_a_missing_file_is_one_clear_line(tmp_path: Path) -> None:
    result = run(["position", "show", str(tmp_path / "nowhere.json")])
    assert result.exit_code == 2
    assert "cannot read" in result.stderr


def test_a_game_without_a_position_format_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = eterna.load_game("vale")
    monkeypatch.setattr(type(game), "from_position", Game.from_position)  # the core's refusal
    position = {"format": "eterna-position", "version": 1, "game": "vale", "players": 2}
    result = run(["position", "show", str(write_position(tmp_path, position))])
    assert result.exit_code == 2
    assert result.stderr == "Error: The Vale of Eternity has no position format\n"


def test_play_on_from_a_seat_position(tmp_path: Path) -> None:
    state = played(6)
    seat = state.current_player
    assert seat is not None
    path = write_position(tmp_path, state.to_position(seat))
    save = tmp_path / "rec.json"
    args = ["play", "eternity", "--position", str(path), "--save", str(save), "--seed", "4"]
    result = run(args, input="quit\n")
    assert result.exit_code == 0, result.output
    assert f"You are seat {seat + 1}." in result.stdout  # seats count from 1 in words
    assert f"You play on from seat {seat + 1}'s position: the cards it cannot see" in result.stdout
    again = GAME.from_record(json.loads(save.read_text(encoding="utf-8")))
    assert again.view(seat) == state.view(seat)
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in state.legal_actions()]


def test_play_from_a_position_of_another_game_or_with_players(tmp_path: Path) -> None:
    path = write_position(tmp_path, played(2).to_position())
    other = run(["play", "vale", "--position", str(path)])
    assert other.exit_code == 2
    assert "the position is of Eternity, not The Vale of Eternity" in other.stderr
    both = run(["play", "eternity", "--position", str(path), "--players", "4"])
    assert both.exit_code == 2
    assert "--position gives the players and options" in both.stderr


@pytest.mark.parametrize(("game_id", "players"), [("eternity", 4), ("vale", 2), ("eternitium", 2)])
def test_every_game_with_a_format_shows_and_hints_from_a_seat(
    tmp_path: Path, game_id: str, players: int
) -> None:
    game = eterna.load_game(game_id)
    state = game.new_game(players=players, seed=3)
    rng = random.Random(3)
    for _ in range(9):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    assert seat is not None
    path = write_position(tmp_path, state.to_position(seat))
    shown = run(["position", "show", str(path)])
    assert shown.exit_code == 0, shown.output
    n = seat + 1  # seats as players count them
    assert f"seat {n}'s position (what seat {n} knows). Seat {n} to move." in shown.stdout
    narrator = Narrator(game_id, "en", [f"Seat {s + 1}" for s in range(players)], seat)
    for move in state.legal_actions():
        assert narrator.label(str(move)) in shown.stdout
    hinted = run(["position", "hint", str(path), "-i", "30"])
    assert hinted.exit_code == 0, hinted.output
    assert f"{game.name}, from a position: seat {n} to move. Recommended: " in hinted.stdout


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("json-5999-deep", "nests deeper than 16 levels"),
        ("integer-4301-digits", "integer of 4301 digits"),
        ("integer-in-share-code", "inflates past"),
        ("share-code-echo", "inflates past"),
        ("text-too-long", "over 262144 bytes"),
        ("eternitium-located-bomb-seat", "knowledge.known[0].portal-square"),
        ("rng-0x", "position rng: must be 16 hex digits, not '0x1'"),
    ],
)
def test_hostile_positions_are_one_bounded_line(tmp_path: Path, name: str, expected: str) -> None:
    """Issue 36's payloads from a file, from stdin and (share codes) as the argument: exit 2
    with one short line naming the fault, never a traceback."""
    from tests.hostile_positions import payloads

    payload = payloads()[name]
    text = payload if isinstance(payload, str) else json.dumps(payload)
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    runs = [run(["position", "show", str(path)]), run(["position", "hint", "-"], input=text)]
    if text.startswith("ep1."):
        runs.append(run(["position", "show", text]))
    for result in runs:
        assert result.exit_code == 2, result.output
        assert expected in result.stderr
        assert "Traceback" not in result.output and len(result.stderr) < 1000
