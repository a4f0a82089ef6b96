"""The terminal table in French and German: `--lang`, the events told in words, the legal
moves' labels (their notation only as a dimmed detail), localized refusals, and replays.

Games are driven through typer's CliRunner: the human types `1` (the first legal move listed)
at every turn, after one refused move; the bots are seeded by the game seed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import eterna
from eterna.agents import make_agent
from eterna.arena.simulate import derive_seed
from eterna.cli import app
from eterna.cli.moves import refusal
from eterna.cli.options import pick_lang
from eterna.cli.words import seat_names
from eterna.games.eternity.cards import CARD_NAME as ETERNITY_CARDS
from eterna.games.vale.cards import CARD_NAME as VALE_CARDS
from eterna.i18n import catalog, describe_refusal

runner = CliRunner()
ENV = {"COLUMNS": "140", "NO_COLOR": "1"}
VALE_VERBS = "claim|sell|tame|summon|remove|resolve|discard|take|recover|copy"
# a move in notation: a verb and a card id (`pledge sky-13`, `summon ifrit pay blue`)
NOTATION = re.compile(
    r"\b(play|pledge) (earth|sea|sky)-\d+"
    rf"|\b({VALE_VERBS}) ({'|'.join(sorted(VALE_CARDS, key=len, reverse=True))})\b"
)
DETAIL = "  · "  # a listed move: its label, then its notation dimmed after this


def run(args: list[str], input: str | None = None, **env: str) -> Any:
    return runner.invoke(app, args, input=input, env={**ENV, **env})


def raw_notation(out: str) -> list[str]:
    """Moves in notation outside the notation detail of a listed move."""
    return [line for line in out.splitlines() if NOTATION.search(line.split(DETAIL)[0])]


def first_refusal(game: str, players: int, seed: int, lang: str) -> tuple[str, str, str]:
    """An illegal move at seat 0's first turn (random bots, seeded as `eterna play` seeds
    them), its refusal in `lang` and the rule it cites."""
    state: Any = eterna.load_game(game).new_game(players=players, seed=seed)
    bots = {s: make_agent("random", seed=derive_seed(seed, 0, s)) for s in range(1, players)}
    while state.current_player != 0:
        state.apply(bots[state.current_player].choose(state, state.current_player))
    legal = {str(a) for a in state.legal_actions()}
    if game == "eternity":
        candidates = [f"play {c}" for c in ETERNITY_CARDS] + [f"pledge {c}" for c in state.hand(0)]
    else:
        candidates = [f"claim {c}" for c in VALE_CARDS]
    move = next(m for m in candidates if m not in legal)
    refused = refusal(state, state.game.parse_action(move))
    assert refused.key is not None and refused.rule is not None
    names = seat_names(lang, players, 0, {s: "random" for s in range(1, players)}, game)
    return move, describe_refusal(refused.key, refused.params, lang, names), refused.rule


# ---------------------------------------------------------------------------------- --lang


def test_pick_lang_from_the_option_then_the_environment() -> None:
    assert pick_lang("FR", {}) == "fr"
    assert pick_lang(None, {"ETERNA_LANG": "de", "LANG": "fr_FR.UTF-8"}) == "de"
    assert pick_lang(None, {"LANG": "fr_FR.UTF-8"}) == "fr"
    assert pick_lang(None, {"LC_ALL": "de_AT.UTF-8", "LANG": "fr_FR.UTF-8"}) == "de"
    assert pick_lang(None, {"LC_ALL": "C", "LANG": "de_DE"}) == "de"  # C says nothing
    assert pick_lang(None, {"LANG": "it_IT.UTF-8"}) == "en"
    assert pick_lang(None, {"ETERNA_LANG": "it", "LANG": "fr_FR"}) == "fr"
    assert pick_lang(None, {}) == "en"


def test_bad_lang_is_a_usage_error() -> None:
    result = run(["play", "eternity", "--lang", "xx"])
    assert result.exit_code == 2 and "--lang must be one of en, fr, de" in result.output


def test_the_environment_picks_the_language(tmp_path: Path) -> None:
    save = str(tmp_path / "g.json")
    args = ["play", "eternity", "--seed", "1", "--bots", "random", "--save", save]
    result = run(args, input="quit\n", ETERNA_LANG="de")
    assert result.exit_code == 0, result.output
    assert "Du sitzt auf Platz 1" in result.output and "Deine erlaubten Züge:" in result.output
    assert "Du hast die Partie verlassen." in result.output


# ---------------------------------------------------------------------------------- play


@pytest.mark.parametrize(
    ("lang", "sentences"),
    [
        ("fr", ["La manche 1 commence", "remporte le pli", "Scores finaux", "Vos coups"]),
        ("de", ["Runde 1 beginnt", "gewinnt Stich", "Endstand", "Deine erlaubten Züge"]),
    ],
)
def test_eternity_game_in_words(tmp_path: Path, lang: str, sentences: list[str]) -> None:
    seed = 4
    move, message, rule = first_refusal("eternity", 4, seed, lang)
    save = tmp_path / "game.json"
    args = ["play", "eternity", "--seed", str(seed), "--bots", "random", "--save", str(save)]
    result = run([*args, "--lang", lang], input="\n".join([move, *["1"] * 40]) + "\n")
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    cat = catalog(lang)
    assert f"✗ {message}" in out and cat.text("common.rule", rule=rule) in out
    for sentence in sentences:
        assert sentence in out, sentence
    assert cat.text("common.round_over", round=3) in out
    assert cat.text("common.record_saved", path=save) in out
    # the first legal move is listed with its label, its notation dimmed after it
    assert re.search(rf"  1\. \w.*{DETAIL}(play|pledge) (earth|sea|sky)-\d+", out)
    assert raw_notation(out) == []
    assert eterna.replay(json.loads(save.read_text())).is_terminal


@pytest.mark.parametrize(
    ("lang", "sentences"),
    [
        ("fr", ["La manche 1 commence", "revendique", "la phase d'actions commence"]),
        ("de", ["Runde 1 beginnt", "beansprucht", "Die Aktionsphase beginnt"]),
    ],
)
def test_vale_rounds_in_words(tmp_path: Path, lang: str, sentences: list[str]) -> None:
    seed = 3
    move, message, rule = first_refusal("vale", 3, seed, lang)
    save = tmp_path / "vale.json"
    args = ["play", "vale", "-p", "3", "--seed", str(seed), "--bots", "random"]
    result = run([*args, "--save", str(save), "--lang", lang], input="\n".join([move, *["1"] * 25]))
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    cat = catalog(lang)
    assert f"✗ {message}" in out and cat.text("common.rule", rule=rule) in out
    for sentence in sentences:
        assert sentence in out, sentence
    assert cat.text("common.game_stops", reason=cat.text("common.end_of_input")) in out
    assert re.search(rf"  1\. \w.*{DETAIL}claim [a-z-]+", out)
    assert raw_notation(out) == []


# ---------------------------------------------------------------------------------- replay


def test_replay_tells_the_events_in_words(tmp_path: Path) -> None:
    state = eterna.load_game("eternity").new_game(players=4, seed=6)
    bots = {s: make_agent("random", seed=s) for s in range(4)}
    while not state.is_terminal:
        state.apply(bots[state.current_player].choose(state, state.current_player))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.to_record()))
    result = run(["replay", str(path), "--seat", "2", "--no-step", "--lang", "de"])
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "aus Sicht von Platz 2" in " ".join(out.split())  # seats count from 1
    assert "Aktion 1/" in out
    assert "Platz 2 erhält 10 Karten:" in out  # its own hand, named
    assert "Platz 3 erhält 10 Karten\n" in out  # another's, hidden
    assert "gewinnt Stich" in out and "Endstand" in out and raw_notation(out) == []
    result = run(["replay", str(path), "--no-step", "--lang", "fr"])
    assert result.exit_code == 0 and "vue par Spectateur" in " ".join(result.output.split())
    assert "remporte le pli" in result.output and "Place 2 reçoit 10 cartes\n" in result.output


def test_hint_names_the_move_in_words(tmp_path: Path) -> None:
    state = eterna.load_game("eternity").new_game(players=4, seed=2)
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.to_record()))
    seat = str(state.current_player + 1)
    result = run(["hint", str(path), "--seat", seat, "-i", "30", "--lang", "fr"])
    assert result.exit_code == 0, result.output
    heading = re.search(r"Conseillé : (Jouer|Offrir) .* \((play|pledge) \w+-\d+\)", result.output)
    assert heading and "après 5 actions" in result.output


def test_vale_sheets_in_german() -> None:
    from rich.console import Console

    from eterna.render import vale as render

    state: Any = eterna.load_game("vale").new_game(players=3, seed=1)
    bots = {s: make_agent("heuristic", seed=s) for s in range(3)}
    while not state.is_terminal:
        state.apply(bots[state.current_player].choose(state, state.current_player))
    names = seat_names("de", 3, 0, {1: "heuristic", 2: "heuristic"}, "vale")
    console = Console(record=True, width=110, color_system=None)
    console.print(render.final(state.view(0), names, "de"))
    console.print(render.round_summary(state.view(0), state.round, names, "de"))
    console.print(render.table(state.view(0), names, [], "de"))
    out = console.export_text()
    assert "Endstand" in out and f"Die Partie endete nach Runde {state.round}" in out
    assert "Bei Punktgleichheit gewinnt" in out and "Sieger: " in out
    assert f"Ergebnis der Runde {state.round}" in out and "Steine" in out
    assert "Platz 1 (du)" in out and "Your move" not in out


# ---------------------------------------------------------------------------------- Eternitium


def test_eternitium_solo_mission_in_french(tmp_path: Path) -> None:
    """`eterna play eternitium` narrates the engine's events: the deal, the draws (named to
    the player), the solo AI's strikes and the mission's result, in French."""
    save = tmp_path / "solo.json"
    args = ["play", "eternitium", "-p", "1", "-o", "mission=3", "--seed", "5", "--lang", "fr"]
    result = run([*args, "--save", str(save)], input="\n".join(["1"] * 200) + "\n")
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    for sentence in [
        "Une partie solo d'Eternitium commence (mission 3, 4 tours au plus)",
        "Place 1 (vous) pioche 5 cartes : Portail cercle",
        "Manche 1, tour 1 : à Place 1 (vous) de jouer",
        "L'IA révèle",
        "Mission 3 perdue",
        "La partie est finie sans vainqueur",
    ]:
        assert sentence in out, sentence
    assert "Depuis votre dernier coup" in out and "Since your last move" not in out
    assert "AI card:" not in out  # no more lines guessed from two views
    assert eterna.replay(json.loads(save.read_text())).is_terminal


def test_eternitium_replay_hides_another_seats_draws(tmp_path: Path) -> None:
    state = eterna.load_game("eternitium").new_game(players=3, seed=6)
    bots = {s: make_agent("random", seed=s) for s in range(3)}
    while not state.is_terminal:
        state.apply(bots[state.current_player].choose(state, state.current_player))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.to_record()))
    result = run(["replay", str(path), "--seat", "2", "--no-step", "--lang", "de"])
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert re.search(r"Platz 2 zieht 5 Karten: ", out)  # its own draws, named
    assert re.search(r"Platz 3 zieht 5 Karten\n", out)  # another's, counted
    assert "Die Partie endet" in out or "gewinnt" in out
