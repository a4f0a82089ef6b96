"""The `eterna` command line, driven through typer's CliRunner with typed input.

A whole game is played through stdin: the human's moves are found first by playing the same
seeded game with the same seeded bots (the CLI seeds bots from the game seed), then typed in.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import eterna
from eterna import engines
from eterna.agents import make_agent
from eterna.arena.simulate import derive_seed, lineup, run_games, seat_specs, split_specs
from eterna.cli import app
from eterna.cli.moves import refusal
from eterna.core.errors import IllegalAction
from eterna.i18n import describe_refusal

GAME = eterna.load_game("eternity")
ENV = {"COLUMNS": "160", "NO_COLOR": "1", "ETERNA_LANG": "en"}
runner = CliRunner()


def run(args: list[str], input: str | None = None) -> Any:
    return runner.invoke(app, args, input=input, env=ENV)


# ---------------------------------------------------------------------------------- helpers


def bots_like_cli(players: int, human: int, spec: str, seed: int) -> dict[int, Any]:
    """The bots `eterna play --seed seed --bots spec` makes (seeded like simulate's game 0)."""
    return {s: make_agent(spec, seed=derive_seed(seed, 0, s)) for s in range(players) if s != human}


def human_moves(
    seed: int,
    players: int,
    human: int,
    spec: str = "random",
    pick: Callable[[Any, list[Any]], Any] | None = None,
    stop_after: int | None = None,
) -> tuple[list[str], Any]:
    """The human's moves and the final state of the game `eterna play` would play.

    The human chooses with `pick(state, legal)` (default: a seeded random choice); the game
    stops before the human's move number `stop_after` when it is given.
    """
    rng = random.Random(seed)
    pick = pick or (lambda state, legal: rng.choice(legal))
    state = GAME.new_game(players=players, seed=seed)
    bots = bots_like_cli(players, human, spec, seed)
    moves: list[str] = []
    while not state.is_terminal:
        seat = state.current_player
        if seat == human:
            if stop_after is not None and len(moves) == stop_after:
                break
            action = pick(state, state.legal_actions())
            moves.append(str(action))
        else:
            action = bots[seat].choose(state, seat)
        state.apply(action)
    return moves, state


def typed(move: str, style: int) -> str:
    """A move the way a person might type it: bare cards, abbreviations, capitals."""
    verb, card = move.split()
    if verb == "play":
        return [card, f"PLAY {card.upper()}", f"pla {card}"][style % 3]
    return [f"ple {card}", f"Pledge {card}", f"pledge   {card}"][style % 3]


def first_turn_refusal(seed: int, players: int, human: int) -> tuple[str, IllegalAction]:
    """An illegal move at the human's first turn, and the engine's refusal of it."""
    state = GAME.new_game(players=players, seed=seed)
    bots = bots_like_cli(players, human, "random", seed)
    while state.current_player != human:
        seat = state.current_player
        state.apply(bots[seat].choose(state, seat))
    legal = {str(a) for a in state.legal_actions()}
    hand = state.hand(human)
    candidates = [f"pledge {c}" for c in hand] + [f"play {c}" for c in hand]
    outside = next(c for c in eterna.games.eternity.cards.CARD_NAME if c not in hand)
    candidates.append(f"play {outside}")
    move = next(m for m in candidates if m not in legal)
    return move, refusal(state, GAME.parse_action(move))


def assert_clean_error(result: Any, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Error:" in result.output
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.output


# ---------------------------------------------------------------------------------- play


def test_whole_game_through_stdin(tmp_path: Path) -> None:
    seed, players, human = 21, 4, 2
    moves, final = human_moves(seed, players, human)
    illegal, refused = first_turn_refusal(seed, players, human)
    assert refused.key is not None and refused.rule is not None
    message = describe_refusal(refused.key, refused.params, "en")
    lines = ["help", "rules", illegal, "pl", "bogus words"]
    lines += [typed(m, i) for i, m in enumerate(moves)]
    lines.insert(8, "log")  # a few moves in: the round's moves so far
    save = tmp_path / "game.json"
    args = ["play", "eternity", "--players", str(players), "--seat", str(human + 1)]
    args += ["--bots", "random", "--seed", str(seed), "--save", str(save)]
    result = run(args, input="\n".join(lines) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "Traceback" not in out
    # help and rules, refusals explained and the game went on
    assert "Your legal moves now:" in out and "quit" in out
    assert "Eternity rules in short" in out
    # the refusal in words, the rule as a detail; an ambiguity; text that is no move
    assert f"✗ {message}" in out and f"  Rule {refused.rule}" in out
    assert "'pl' fits several moves: Play " in out
    assert "'bogus words' is no legal move now" in out
    assert "is not an Eternity action" in out  # the engine's explanation, in English
    # moves listed with their labels and notation; the events told in words
    assert re.search(r"  1\. (Play|Pledge) .*  · (play|pledge) ", out)
    assert " wins trick 1 (" in out and "Round 1 begins" in out
    # the log's lines stand alone; the same events in the table are inside a panel (│)
    assert any(
        re.match(r"(Seat \d \(you\)|Random bot \d) wins trick \d", line)
        for line in out.splitlines()
    )
    # rounds, the last trick, bot moves, the final table, and the record
    for rnd in (1, 2, 3):
        assert f"Round {rnd} results" in out
    assert "Last trick: won by" in out
    assert "Since your last move" in out
    assert "Final scores" in out
    assert f"Record saved to {save}" in out
    record = json.loads(save.read_text())
    assert record["seed"] == seed and record["players"] == players
    replayed = eterna.replay(record)
    assert replayed.is_terminal
    assert replayed.scores == final.scores
    assert replayed.winners == final.winners
    for seat in range(players):
        assert str(final.scores[seat]) in out.split("Final scores")[-1]


def test_end_of_input_saves_and_exits_cleanly(tmp_path: Path) -> None:
    seed, players, human = 3, 3, 0
    moves, _ = human_moves(seed, players, human, stop_after=4)
    save = tmp_path / "partial.json"
    args = ["play", "eternity", "-p", "3", "--seat", "1", "--bots", "random", "--seed", "3"]
    result = run([*args, "--save", str(save)], input="\n".join(moves) + "\n")
    assert result.exit_code == 0, result.output
    assert "End of input" in result.output
    assert "Traceback" not in result.output
    record = json.loads(save.read_text())
    state = eterna.replay(record)
    assert not state.is_terminal
    assert state.current_player == human
    # exactly the four moves typed, among the bots'
    assert [a for a in record["actions"] if a in moves][:4] == moves[:4]
    # no input at all is fine too
    result = run([*args, "--save", str(tmp_path / "empty.json")], input="")
    assert result.exit_code == 0 and "End of input" in result.output


def test_quit_saves_to_the_default_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run(["play", "eternity", "--bots", "random", "--seed", "77"], input="show\nquit\n")
    assert result.exit_code == 0, result.output
    assert "You left the game" in result.output
    path = Path("records") / "eternity-77.json"
    assert f"Record saved to {path}" in result.output
    record = json.loads((tmp_path / path).read_text())
    assert record["game"] == "eternity" and record["players"] == 4


def test_bots_per_seat_and_heuristic(tmp_path: Path) -> None:
    save = tmp_path / "h.json"
    args = ["play", "eternity", "--seat", "2", "--seed", "5", "--save", str(save)]
    heuristic = Path(eterna.__file__).parent / "games" / "eternity" / "heuristic.py"
    result = run([*args, "--bots", "heuristic,random,heuristic"], input="")
    if heuristic.exists():
        assert result.exit_code == 0, result.output
        # bots by their catalog names, numbered from 1 when two share one, as on the web
        assert (
            "You are seat 2. Bots: Heuristic bot 1, Random bot, Heuristic bot 4." in result.output
        )
        assert save.exists()
    else:  # until the game has its heuristic, the CLI says so cleanly
        assert_clean_error(result, "heuristic")


def test_play_errors_exit_2() -> None:
    base = ["play", "eternity", "--bots", "random"]
    assert_clean_error(run(["play", "chess"]), "unknown game 'chess'")
    assert_clean_error(run([*base, "--players", "7"]), "3-5 players")
    # seats count from 1, as on the web: a 4-player table has seats 1 to 4
    assert_clean_error(run([*base, "--seat", "5"]), "--seat must be a seat from 1 to 4, not 5")
    assert_clean_error(run([*base, "--seat", "0"]), "--seat must be a seat from 1 to 4, not 0")
    assert_clean_error(run([*base, "--option", "nope=1"]), "unknown option")
    assert_clean_error(run([*base, "--option", "tie_break=coin"]), "tie_break")
    assert_clean_error(run([*base, "--option", "tree_supply"]), "key=value")
    assert_clean_error(run(["play", "eternity", "--bots", "wizard"]), "unknown agent 'wizard'")
    assert_clean_error(run(["play", "eternity", "--bots", "random,random"]), "one per bot seat")
    assert_clean_error(run([*base, "--seed", "-1"]), "seed")


# ---------------------------------------------------------------------------------- simulate


def test_simulate_table_and_jsonl(tmp_path: Path) -> None:
    out = tmp_path / "runs" / "records.jsonl"
    args = ["simulate", "eternity", "--games", "6", "--players", "3", "--agents", "random"]
    result = run([*args, "--seed", "11", "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Results of 6 games" in text
    assert "random" in text and "seat 1" in text and "seat 3" in text  # counted from 1
    assert "seat 0" not in text
    assert "shared win counts 1/k" in text
    assert "6 records written" in text
    lines = out.read_text().splitlines()
    assert len(lines) == 6
    wins = 0.0
    for index, line in enumerate(lines):
        record = json.loads(line)
        assert record["seed"] == 11 + index
        state = eterna.replay(record)  # the extra 'meta' key does not disturb a replay
        assert state.is_terminal
        assert state.scores == record["meta"]["scores"]
        assert state.winners == record["meta"]["winners"]
        wins += 1.0 if state.winners else 0.0
    # all seats share one agent: its wins are the number of games with a winner
    assert f"{wins:.2f}" in text


def test_agent_lists_keep_each_specs_parameters() -> None:
    assert split_specs("heuristic, random") == ["heuristic", "random"]
    text = "heuristic,ismcts:iterations=20,rollout=heuristic,random"
    assert split_specs(text) == ["heuristic", "ismcts:iterations=20,rollout=heuristic", "random"]
    assert split_specs("a:x=1,y=2,b:z=3,c") == ["a:x=1,y=2", "b:z=3", "c"]


def test_simulate_matches_run_games_and_rotates_seats() -> None:
    assert lineup(["a", "b"], 4) == ["a", "b", "a", "b"]
    assert seat_specs(["a", "b", "c"], 0) == ["a", "b", "c"]
    assert seat_specs(["a", "b", "c"], 1) == ["b", "c", "a"]
    first = run_games("eternity", ["random"], games=3, players=4, seed=5)
    again = run_games("eternity", ["random"], games=3, players=4, seed=5)
    assert [r.scores for r in first] == [r.scores for r in again]
    assert [r.record for r in first] == [r.record for r in again]
    assert [r.seed for r in first] == [5, 6, 7]
    for result in first:
        assert sum(result.shares()) == pytest.approx(1.0 if result.winners else 0.0)


def test_simulate_errors_exit_2() -> None:
    base = ["simulate", "eternity", "--games", "1"]
    assert_clean_error(
        run([*base, "--players", "3", "--agents", "random,random,random,random"]), "at most 3"
    )
    assert_clean_error(run([*base, "--agents", "random,ghost"]), "unknown agent 'ghost'")
    assert_clean_error(run(["simulate", "nogame"]), "unknown game")
    assert_clean_error(run([*base, "--players", "2"]), "3-5 players")
    assert_clean_error(run([*base, "--option", "column_order=spiral"]), "column_order")


# ---------------------------------------------------------------------------------- replay


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    state = GAME.new_game(players=4, seed=13)
    rng = random.Random(1)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path_factory.mktemp("replay") / "game.json"
    path.write_text(json.dumps(state.to_record()))
    return path, state


def test_replay_a_saved_record(saved_game: tuple[Path, Any]) -> None:
    path, final = saved_game
    result = run(["replay", str(path), "--seat", "2", "--no-step"])
    assert result.exit_code == 0, result.output
    out = result.output
    total = len(final.to_record()["actions"])
    assert f"action {total}/{total}" in out
    assert "Your hand" in out  # seat 1's own hand
    assert "Final scores" in out
    for rnd in (1, 2, 3):
        assert f"Round {rnd} results" in out
    tail = out.split("Final scores")[-1]
    for score in final.scores:
        assert str(score) in tail


def test_replay_spectator_and_step(saved_game: tuple[Path, Any]) -> None:
    path, _ = saved_game
    # --step waits for Enter: two Enters, then 'q' stops the replay after the third action
    result = run(["replay", str(path), "--spectator", "--step"], input="\n\nq\n")
    assert result.exit_code == 0, result.output
    assert "Your hand" not in result.output
    assert "action 3/" in result.output and "action 4/" not in result.output
    assert "stopped after 3 of" in result.output
    # end of input while stepping runs on to the end
    result = run(["replay", str(path)], input="\n")
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output


def test_replay_jsonl_game_index(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    args = ["simulate", "eternity", "-n", "3", "-p", "5", "--seed", "40", "--out", str(out)]
    assert run(args).exit_code == 0
    record = json.loads(out.read_text().splitlines()[2])
    result = run(["replay", str(out), "--game-index", "2", "--no-step"])
    assert result.exit_code == 0, result.output
    assert "seed 42" in result.output
    assert "Final scores" in result.output
    assert "Warning" not in result.output  # scores agree with the record's
    for score in record["meta"]["scores"]:
        assert str(score) in result.output.split("Final scores")[-1]


def test_replay_errors_exit_2(tmp_path: Path, saved_game: tuple[Path, Any]) -> None:
    path, _ = saved_game
    assert_clean_error(run(["replay", str(tmp_path / "missing.json")]), "cannot read")
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    assert_clean_error(run(["replay", str(garbage)]), "not valid JSON")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    assert_clean_error(run(["replay", str(binary)]))
    notrecord = tmp_path / "list.json"
    notrecord.write_text("[1, 2]")
    assert_clean_error(run(["replay", str(notrecord)]), "not a record")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"game": "go", "actions": []}))
    assert_clean_error(run(["replay", str(other)]), "unknown game 'go'")
    record = json.loads(path.read_text())
    record["actions"][5] = "play sea-99"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record))
    assert_clean_error(run(["replay", str(broken), "--no-step"]), "action 6")
    record["players"] = 9
    badplayers = tmp_path / "players.json"
    badplayers.write_text(json.dumps(record))
    assert_clean_error(run(["replay", str(badplayers)]), "cannot start a game")
    assert_clean_error(run(["replay", str(path), "--game-index", "1"]), "--game-index")
    assert_clean_error(run(["replay", str(path), "--seat", "9"]), "--seat")
    assert_clean_error(run(["replay", str(path), "--seat", "1", "--spectator"]), "not both")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert_clean_error(run(["replay", str(empty)]), "no record")


# ---------------------------------------------------------------------------------- games


def test_games_lists_players_and_options() -> None:
    result = run(["games"])
    assert result.exit_code == 0, result.output
    assert "eternity" in result.output and "3-5" in result.output
    for name, option in GAME.declared_options.items():
        assert name in result.output
        assert option.doc.split()[0] in result.output


def test_version_and_python_m() -> None:
    result = run(["--version"])
    assert result.exit_code == 0
    # the version, then which engines run (docs/compiled.md)
    expected = [f"eterna {eterna.__version__}", engines.describe()]
    assert result.output.splitlines() == expected
    done = subprocess.run(
        [sys.executable, "-m", "eterna", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert done.stdout.splitlines() == expected
