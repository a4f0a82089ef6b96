"""The terminal table in French says everything in the catalogs' words (docs/i18n.md): whole
games of Eternitium (2 players, a solo mission) and of Eternity are played through
`eterna play --lang fr` with scripted input, and their output is searched for what a French
player should never read: a phrase of the English catalogs that French says otherwise, and a
move or card written in notation anywhere but the notation detail of a listed move.

Moves are typed both ways: a move's number in the list, and its notation (abbreviated, or in
capitals). A French transcript of a whole Eternitium game is kept in
test-output/transcripts/eternitium-fr.txt.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import eterna
from eterna.agents import make_agent
from eterna.arena.simulate import derive_seed
from eterna.cli import app
from eterna.cli.moves import refusal, resolve_move
from eterna.cli.words import seat_names
from eterna.core.errors import BadNotation, IllegalAction
from eterna.games.eternitium.cards import BLIND_NAME, CARD_INDEX, SHAPES
from eterna.games.eternity.cards import CARD_NAME as ETERNITY_CARDS
from eterna.games.vale.cards import CARD_NAME as VALE_CARDS
from eterna.i18n import DOMAINS, catalog, describe_refusal
from eterna.render import eternitium as render

runner = CliRunner()
ENV = {"COLUMNS": "140", "NO_COLOR": "1"}
TRANSCRIPTS = Path(__file__).resolve().parents[2] / "test-output" / "transcripts"
DETAIL = "  · "  # a listed move: its label, then its notation dimmed after this
SHORTEST = 12  # English phrases longer than this are searched for

ETERNITIUM_WORDS = sorted([*CARD_INDEX, *BLIND_NAME], key=len, reverse=True)
# a move or card of any game in notation: Eternitium's action words and card ids, Eternity's
# `sea-3`, the Vale's action words before a card id
NOTATION = re.compile(
    r"\b(pick|take|play|pledge|discard|destroy|steal|gift|keep|acquire|skip|era|portal)\b"
    rf"|(?<![\w-])({'|'.join(ETERNITIUM_WORDS)})(?![\w-])"
    r"|\b(earth|sea|sky)-\d+\b"
    rf"|\b(claim|sell|tame|summon|remove|resolve|recover|copy) ({'|'.join(VALE_CARDS)})\b"
)


def _messages(lang: str, domain: str) -> dict[str, Any]:
    node = resources.files("eterna.i18n").joinpath("catalogs", lang, f"{domain}.json")
    messages: dict[str, Any] = json.loads(node.read_text(encoding="utf-8"))["messages"]
    return messages


def _forms(message: Any) -> list[str]:
    return list(message.values()) if isinstance(message, dict) else [str(message)]


@cache
def english_phrases() -> frozenset[str]:
    """The literal parts (between placeholders) of every English catalog message, longer than
    SHORTEST characters, that the French message of the same key does not contain."""
    phrases = set()
    for domain in DOMAINS:
        french = _messages("fr", domain)
        for key, message in _messages("en", domain).items():
            theirs = _forms(french.get(key, ""))
            for form in _forms(message):
                for part in re.split(r"\{[^}]*\}", form):
                    part = part.strip(" :;,.!?()'\"")
                    if len(part) > SHORTEST and not any(part in f for f in theirs):
                        phrases.add(part)
    return frozenset(phrases)


def spoken(out: str) -> list[str]:
    """The output's lines without the notation detail of listed moves."""
    return [line.split(DETAIL)[0] for line in out.splitlines()]


def english_leaks(out: str) -> list[str]:
    flat = " ".join(" ".join(spoken(out)).split())
    return sorted(p for p in english_phrases() if p in flat)


def notation_leaks(out: str) -> list[str]:
    return [line for line in spoken(out) if NOTATION.search(line)]


def test_the_checks_find_english_and_notation() -> None:
    """The checks themselves: an English sentence and a move in notation are found, the
    notation detail of a listed move is not."""
    assert "Your legal moves now" in english_phrases()
    assert english_leaks("Vos coups\n  1. Jouer Droïde  · play droid") == []
    assert english_leaks("Vos coups possibles :\nYour legal moves now:") == ["Your legal moves now"]
    assert notation_leaks("  1. Jouer Droïde  · play droid\n  2. Passer  · skip") == []
    assert notation_leaks("Marché : droid") and notation_leaks("Tapez play sea-3")
    assert notation_leaks("│ portal-circle ×2 │")


def run(args: list[str], input: str) -> Any:
    return runner.invoke(app, args, input=input, env=ENV)


# ---------------------------------------------------------------------------------- Eternitium


def typed(state: Any, move: str, turn: int) -> str:
    """`move` as a player may type it: its number in the list every other turn, else its
    notation abbreviated or in capitals (whichever resolves to it)."""
    legal = [str(a) for a in state.legal_actions()]
    if turn % 2 == 0:
        return str(legal.index(move) + 1)
    words = move.split()
    for text in (" ".join([words[0][:3], *(w[:5] for w in words[1:])]), move.upper()):
        try:
            if str(resolve_move(state, text, render.VERBS, render.DEFAULT_VERB)) == move:
                return text
        except (IllegalAction, BadNotation):
            continue
    return move


def eternitium_script(players: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """The lines `eterna play eternitium` is fed (an illegal move at the first play step), the
    final state and the refused move's key and parameters."""
    state: Any = eterna.load_game("eternitium").new_game(players, seed=seed, options=options)
    bots = {s: make_agent("heuristic", seed=derive_seed(seed, 0, s)) for s in range(1, players)}
    me = make_agent("heuristic", seed=seed + 1)
    lines = ["help", "card temp", "card portal-c", "card zzz", "log", "show"]
    refused: IllegalAction | None = None
    while not state.is_terminal:
        seat = state.current_player
        if seat != 0:
            state.apply(bots[seat].choose(state, seat))
            continue
        if refused is None and state.phase == "play":
            legal = {str(a) for a in state.legal_actions()}
            bad = next(f"play portal-{s}" for s in SHAPES if f"play portal-{s}" not in legal)
            refused = refusal(state, state.game.parse_action(bad))
            lines.append(bad)
        action = me.choose(state, seat)
        lines.append(typed(state, str(action), len(lines)))
        state.apply(action)
    assert refused is not None and refused.key is not None
    return {"lines": lines, "state": state, "refused": refused}


@pytest.mark.parametrize(
    ("players", "seed", "options"), [(2, 7, {}), (1, 5, {"mission": 3})], ids=["two", "solo"]
)
def test_eternitium_in_french(
    tmp_path: Path, players: int, seed: int, options: dict[str, Any]
) -> None:
    script = eternitium_script(players, seed, options)
    save = tmp_path / "game.json"
    args = ["play", "eternitium", "-p", str(players), "--bots", "heuristic", "--seed", str(seed)]
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    result = run([*args, "--lang", "fr", "--save", str(save)], "\n".join(script["lines"]) + "\n")
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    if players > 1:
        TRANSCRIPTS.mkdir(parents=True, exist_ok=True)
        (TRANSCRIPTS / "eternitium-fr.txt").write_text(out, encoding="utf-8")
    flat = " ".join(out.split())
    for words in [
        "Marché",
        "Cartes Ère communes",
        "Pile Ère (du dessus)",
        "Votre main",
        "Vos coups possibles :",
        "Blaster temporel (Base : coûte 1 carte Ère, vaut 1 point)",
        "Carte IA : votre carte Ère du dessus",
        "Portail cercle (carte Portail)",
        "aucune carte ne s'appelle « zzz »",
    ]:
        assert words in flat, words
    names = seat_names("fr", players, 0, {s: "heuristic" for s in range(1, players)})
    refused = script["refused"]
    assert describe_refusal(refused.key, refused.params, "fr", names) in flat
    assert re.search(rf"  \d+\. Jouer Portail \w+{DETAIL}play portal-\w+", out)
    assert re.search(rf"  1\. Prendre Portail cercle{DETAIL}take portal-circle", out)
    final = script["state"]
    if players > 1:
        assert "Classement final" in out and "Points de techno" in out
        assert "Vainqueur" in out.split("Classement final")[-1]
    else:
        assert "Pioche IA : " in out and ("vous gagnez" in out) == bool(final.winners)
    assert english_leaks(out) == []
    assert notation_leaks(out) == []
    record = json.loads(save.read_text())
    assert record["actions"] == final.to_record()["actions"]
    seat = str(players)  # another seat than the player's (seat 1), when there is one
    replay = run(["replay", str(save), "--seat", seat, "--no-step", "--lang", "fr"], "")
    assert replay.exit_code == 0 and f"action {len(record['actions'])}/" in replay.output
    assert english_leaks(replay.output) == [] and notation_leaks(replay.output) == []


# ---------------------------------------------------------------------------------- the others


def test_eternity_in_french() -> None:
    state: Any = eterna.load_game("eternity").new_game(players=4, seed=4)
    move = next(f"play {c}" for c in ETERNITY_CARDS if c not in state.hand(0))
    args = ["play", "eternity", "--seed", "4", "--bots", "random", "--lang", "fr"]
    result = run([*args, "--save", "/dev/null"], "\n".join(["help", move, *["1"] * 40]) + "\n")
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "Scores finaux" in out and "Vos coups possibles" in out
    assert english_leaks(out) == []
    assert notation_leaks(out) == []


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_eternitium_rules_in_the_players_language(lang: str) -> None:
    """`rules` speaks the player's language (the notation in it is what to type)."""
    from rich.console import Console

    from eterna.render import renderer_for

    console = Console(record=True, width=110, color_system=None)
    console.print(renderer_for("eternitium").rules_in(lang))
    out = console.export_text()
    assert catalog(lang).text("eternitium.rules.title") in out
    assert "take portal-" in " ".join(out.split())  # what to type stays notation
    if lang == "fr":
        assert "Défaussez toutes vos cartes Ère pour trouver la gemme" in " ".join(out.split())
        assert english_leaks(out) == []


# ---------------------------------------------------------------------------------- the Vale


VALE_IDS = [card for card in VALE_CARDS if "-" in card]  # ids no card name is spelled as


def vale_script(seed: int) -> dict[str, Any]:
    """The lines `eterna play vale` (2 players: the player and a heuristic bot) is fed: moves
    typed by number and in notation (capitals) in turn, with help, a card and the log (not
    `rules`: its notation is what to type)."""
    from eterna.render import vale as vale_render

    state: Any = eterna.load_game("vale").new_game(2, seed=seed)
    bot = make_agent("heuristic", seed=derive_seed(seed, 0, 1))
    me = make_agent("heuristic", seed=seed + 1)
    lines = ["help", "card kappa", "card zzz", "log", "show"]
    while not state.is_terminal:
        seat = state.current_player
        if seat != 0:
            state.apply(bot.choose(state, seat))
            continue
        action = me.choose(state, seat)
        move = str(action)
        legal = [str(a) for a in state.legal_actions()]
        text = str(legal.index(move) + 1) if len(lines) % 2 else move.upper()
        verbs, default = vale_render.VERBS, vale_render.DEFAULT_VERB
        if not text.isdigit():
            assert str(resolve_move(state, text, verbs, default)) == move
        lines.append(text)
        state.apply(action)
    return {"lines": lines, "state": state}


def test_vale_in_french(tmp_path: Path) -> None:
    script = vale_script(11)
    save = tmp_path / "game.json"
    args = ["play", "vale", "-p", "2", "--bots", "heuristic", "--seed", "11", "--lang", "fr"]
    result = run([*args, "--save", str(save)], "\n".join(script["lines"]) + "\n")
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    TRANSCRIPTS.mkdir(parents=True, exist_ok=True)
    (TRANSCRIPTS / "vale-fr.txt").write_text(out, encoding="utf-8")
    flat = " ".join(out.split())
    for words in ["Plateau de chasse", "Vos coups possibles", "Scores finaux", "Kappa"]:
        assert words in flat, words
    assert "tapez par exemple 'card kappa'" in flat  # the Vale's own card in the hint
    # a pending choice says what is asked, e.g. the stone limit's discards
    assert re.search(r"⏳ Place 1 \(vous\) doit répondre : défausser \d pierres? de son choix", out)
    assert english_leaks(out) == []
    assert notation_leaks(out) == []
    said = " ".join(spoken(out))
    assert not re.search(r"\b\d+ (red|blue|purple)\b", said)  # stones are in words
    assert not re.search(rf"(?<![\w-])({'|'.join(VALE_IDS)})(?![\w-])", said)  # cards by name
    record = json.loads(save.read_text())
    assert record["actions"] == script["state"].to_record()["actions"]
    replay = run(["replay", str(save), "--seat", "2", "--no-step", "--lang", "fr"], "")
    assert replay.exit_code == 0
    assert english_leaks(replay.output) == [] and notation_leaks(replay.output) == []


def test_vale_starts_in_german() -> None:
    args = ["play", "vale", "-p", "2", "--bots", "heuristic", "--seed", "3", "--lang", "de"]
    result = run([*args, "--save", "/dev/null"], "help\ncard zzz\nrules\nquit\n")
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    flat = " ".join(out.split())
    assert catalog("de").text("vale.word.hunting_board") in flat
    assert catalog("de").text("vale.rules.title") in flat
    assert not re.search(r"\b\d+ (red|blue|purple)\b", " ".join(spoken(out)))
    revealed = eterna.load_game("vale").new_game(2, seed=3).view(0)["revealed"]
    for card in revealed:  # the hunting board: each card by name, with its effect in German
        assert catalog("de").card_name("vale", card) in flat
        assert " ".join(catalog("de").text(f"vale.short.{card}").split()) in flat


@pytest.mark.parametrize(("game", "lang"), [("eternity", "fr"), ("vale", "fr"), ("vale", "de")])
def test_other_rules_in_the_players_language(game: str, lang: str) -> None:
    from rich.console import Console

    from eterna.render import renderer_for

    console = Console(record=True, width=110, color_system=None)
    console.print(renderer_for(game).rules_in(lang))
    out = console.export_text()
    assert catalog(lang).text(f"{game}.rules.title") in out
    if lang == "fr":
        assert english_leaks(out) == []
