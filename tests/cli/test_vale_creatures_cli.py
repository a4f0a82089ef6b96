"""The Artifacts' creatures without tiles (option artifact_set 'creatures', digest Q-A9) played
in the terminal from the first claim to the final scores: the mode is explained in the player's
language, the game ends at the base game's 60 points, and its record replays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

import eterna
from eterna.agents import make_agent
from eterna.arena.simulate import derive_seed
from eterna.cli import app

GAME = eterna.load_game("vale")
OPTIONS = {"expansions": ["artifacts"], "artifact_set": "creatures"}
runner = CliRunner()


def game_that_ends_at_60() -> tuple[int, list[str], Any]:
    """A seed whose 2-player game (seat 0 played by a heuristic, seat 1 the CLI's bot) ends
    before round 10 because a score reached 60; the seat-0 moves and the final state."""
    for seed in range(40):
        state: Any = GAME.new_game(2, seed=seed, options=OPTIONS)
        bot = make_agent("heuristic", seed=derive_seed(seed, 0, 1))
        me = make_agent("heuristic", seed=seed)
        moves: list[str] = []
        while not state.is_terminal:
            seat = state.current_player
            action = (me if seat == 0 else bot).choose(state, seat)
            if seat == 0:
                moves.append(str(action))
            state.apply(action)
        if state.round < 10:
            return seed, moves, state
    raise AssertionError("no game of 40 seeds ended before round 10")


def test_the_creatures_without_tiles_play_to_their_end_in_the_terminal(tmp_path: Path) -> None:
    seed, moves, final = game_that_ends_at_60()
    assert final.start.end_score == 60 and final.arts is None
    assert max(final.scores) >= 60 and final.round < 10  # the game ended on 60, not 80
    save = tmp_path / "creatures.json"
    args = ["play", "vale", "-p", "2", "--bots", "heuristic", "--seed", str(seed)]
    args += ["-o", 'expansions=["artifacts"]', "-o", "artifact_set=creatures"]
    env = {"COLUMNS": "110", "NO_COLOR": "1", "ETERNA_LANG": "en"}
    result = runner.invoke(
        app, [*args, "--save", str(save)], input="\n".join(moves) + "\n", env=env
    )
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "Traceback" not in out
    flat = " ".join(out.split())
    assert "Option Artifact tiles in play: creatures only, no tiles." in flat
    assert "no tiles and no shelter; the game ends at 60 points" in flat
    assert "Glade" not in out and "shelter" not in out.split("Round 1 begins")[-1]
    tail = out.split("Final scores")[-1]
    for score in final.scores:
        assert str(score) in tail
    record = json.loads(save.read_text())
    assert record["options"]["artifact_set"] == "creatures"
    replayed = eterna.replay(record)
    assert replayed.scores == final.scores and replayed.round == final.round


def test_the_mode_is_explained_in_french_and_german(tmp_path: Path) -> None:
    for lang, said in (
        ("fr", "Option Tuiles artefact en jeu : créatures seules, sans tuile."),
        ("de", "Option Artefakt-Plättchen im Spiel: nur Kreaturen, keine Plättchen."),
    ):
        args = ["play", "vale", "-p", "2", "--seed", "1", "--lang", lang]
        args += ["-o", 'expansions=["artifacts"]', "-o", "artifact_set=creatures"]
        result = runner.invoke(
            app, [*args, "--save", str(tmp_path / f"{lang}.json")], input="quit\n"
        )
        assert said in " ".join(result.output.split()), result.output[:2000]
        assert ("60 points" if lang == "fr" else "60 Punkten") in " ".join(result.output.split())
