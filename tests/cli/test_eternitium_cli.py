"""Eternitium in the terminal: its renderer on real views, typed moves, and the `eterna play`,
`simulate` and `replay` commands driven through typer's CliRunner.

As in test_cli.py, a whole game is played through stdin: the human's moves are found first by
playing the same seeded game with the same seeded bots (the CLI seeds bots from the game seed),
then typed in, some of them abbreviated.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console, RenderableType
from typer.testing import CliRunner

import eterna
from eterna.agents import make_agent
from eterna.arena.simulate import derive_seed
from eterna.cli import app
from eterna.cli.moves import refusal, resolve_move
from eterna.core.errors import BadNotation, IllegalAction
from eterna.i18n import describe_refusal
from eterna.render import eternitium as render
from eterna.render import renderer_for

GAME = eterna.load_game("eternitium")
ENV = {"COLUMNS": "110", "NO_COLOR": "1", "ETERNA_LANG": "en"}
runner = CliRunner()


def run(args: list[str], input: str | None = None) -> Any:
    return runner.invoke(app, args, input=input, env=ENV)


def text_of(renderable: RenderableType, width: int = 110) -> str:
    console = Console(record=True, width=width, color_system=None)
    console.print(renderable)
    return console.export_text()


def resolve(state: Any, text: str) -> str:
    return str(resolve_move(state, text, render.VERBS, render.DEFAULT_VERB))


def bots_like_cli(players: int, human: int, spec: str, seed: int) -> dict[int, Any]:
    return {s: make_agent(spec, seed=derive_seed(seed, 0, s)) for s in range(players) if s != human}


def views_of_game(players: int, seed: int, options: dict[str, Any] | None = None) -> list[Any]:
    """(state copy, view of the seat to move) along one heuristic game."""
    state: Any = GAME.new_game(players=players, seed=seed, options=options or {})
    bots = {s: make_agent("heuristic", seed=s) for s in range(players)}
    out = []
    while not state.is_terminal:
        seat = state.current_player
        out.append((state.clone(), state.view(seat)))
        state.apply(bots[seat].choose(state, seat))
    out.append((state, state.view(0)))
    return out


# ---------------------------------------------------------------------------------- render


@pytest.mark.parametrize(("players", "options"), [(1, {}), (1, {"mission": 3}), (3, {}), (5, {})])
def test_table_renders_real_views(players: int, options: dict[str, Any]) -> None:
    moments = views_of_game(players, seed=players + 2, options=options)
    phases = set()
    for _state, view in moments[:: max(1, len(moments) // 12)] + moments[-2:]:
        seat = view["seat"]
        names = render.default_names(players, seat)
        out = text_of(render.table(view, names, []))
        assert "Eternitium" in out and "Market" in out and "Players" in out
        for card in view["basic_row"] + view["advanced_row"]:
            assert card in out
        assert "Common Era cards" in out
        if view["hand"] and not view["is_terminal"]:
            assert "Your hand" in out
            for card in view["hand"]:
                assert card in out
        if view.get("legal_actions"):
            assert "Your move:" in out
        if players == 1:
            assert "AI deck" in out and "left)" in out
            if options.get("mission"):
                assert f"mission {options['mission']}" in out
        assert max(len(line) for line in out.splitlines()) <= 110
        phases.add(view["phase"])
    assert "play" in phases
    end_state, end_view = moments[-1]
    final = text_of(render.final(end_view, render.default_names(players, 0)))
    if players == 1:
        assert ("you win" in final) == bool(end_state.winners)
    else:
        assert "Final ranking" in final and "then most Advanced cards" in final
        verdict = final.split("Winner")[-1]
        for seat in end_state.winners:
            assert render.default_names(players, 0)[seat] in verdict


def test_spectator_view_shows_no_hidden_card() -> None:
    for state, _view in views_of_game(3, seed=9)[10:60:7]:
        view = state.view(None)
        out = text_of(render.table(view, render.default_names(3), []))
        assert "Your hand" not in out and "Your move" not in out
        shown = set(view["basic_row"] + view["advanced_row"] + view["portal_row"])
        secret = {c for s in range(3) for c in state.hand(s) + state.deck(s)} - shown
        secret -= {c for s in range(3) for c in state.discard_pile(s)}  # may be seen played
        for card in secret:
            assert not re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", out), card


def test_events_hide_an_opponents_kept_card() -> None:
    """The terminal narrates the events (eterna.cli.words): a card kept after a skip is named
    to its keeper only; the renderer guesses nothing from two views any more."""
    assert not hasattr(renderer_for("eternitium"), "events")
    for seed in range(40):
        state = eterna.load_game("eternitium").new_game(3, seed=seed)
        bots = {s: make_agent("random", seed=seed + s) for s in range(3)}
        while not state.is_terminal:
            state.apply(bots[state.current_player].choose(state, state.current_player))
        kept = [e for e in state.events_since(0, None) if e["kind"] == "card_kept"]
        if kept:
            break
    assert kept and all("card" not in e for e in kept)
    keeper = kept[0]["seat"]
    mine = [e for e in state.events_since(0, keeper) if e["kind"] == "card_kept"]
    assert any("card" in e for e in mine)
    other = (keeper + 1) % 3
    theirs = [e for e in state.events_since(0, other) if e["kind"] == "card_kept"]
    assert all("card" not in e or e["seat"] == other for e in theirs)


def test_renderer_registry_rules_and_card_info() -> None:
    renderer = renderer_for("eternitium")
    assert renderer.verbs == render.VERBS and renderer.card_info is not None
    assert "Eternitium rules in short" in text_of(renderer.rules())
    info = text_of(render.card_info("ultim") or "")
    assert "ultimate-portal" in info and "Advanced, costs 2 Era cards" in info
    assert "solo AI card" in text_of(render.card_info("time-bomb") or "")
    assert render.card_info("portal-c") is not None
    assert render.card_info("d") is None  # ambiguous


def test_typed_moves_complete_eternitium_notation() -> None:
    state = GAME.new_game(
        3,
        seed=1,
        setup={
            "first_player": 0,
            "hands": [["transporter", "droid", "portal-circle", "portal-square"], [], []],
            "era": [["circle", "square"], ["square"], ["diamond"]],
            "portals": {"circle": 0, "square": 0, "triangle": 0, "diamond": 0},
        },
    )
    assert resolve(state, "pl dro") == "play droid"
    assert resolve(state, "droid") == "play droid"
    assert resolve(state, "play transporter discard droid portal-square") == (
        "play transporter discard portal-square droid"  # canonical: card order
    )
    with pytest.raises(IllegalAction, match="R15"):
        resolve(state, "play portal-square")
    with pytest.raises(BadNotation):
        resolve(state, "dance")


# ---------------------------------------------------------------------------------- play


def typed_form(state: Any, move: str, style: int) -> str:
    words = move.split()
    candidates = [" ".join([words[0][:3], *(w[:5] for w in words[1:])]), move.upper(), move]
    for text in candidates[style % 3 :] + candidates:
        try:
            if resolve(state, text) == move:
                return text
        except (IllegalAction, BadNotation):
            continue
    return move


def human_game(
    players: int, seed: int, options: dict[str, Any]
) -> tuple[list[str], Any, tuple[str, IllegalAction]]:
    """The moves `eterna play eternitium` needs (as typed), the final state, and an illegal move
    at the human's first play step with the engine's refusal of it."""
    state: Any = GAME.new_game(players=players, seed=seed, options=options)
    bots = bots_like_cli(players, 0, "heuristic", seed)
    me = make_agent("heuristic", seed=seed + 1)
    typed: list[str] = []
    illegal: tuple[str, IllegalAction] | None = None
    while not state.is_terminal:
        seat = state.current_player
        if seat == 0:
            if illegal is None and state.phase == "play":
                legal = {str(a) for a in state.legal_actions()}
                for shape in ("circle", "square", "triangle", "diamond"):
                    if f"play portal-{shape}" not in legal:
                        bad = GAME.parse_action(f"play portal-{shape}")
                        illegal = (f"play portal-{shape}", refusal(state, bad))
                        break
            action = me.choose(state, seat)
            typed.append(typed_form(state, str(action), len(typed)))
        else:
            action = bots[seat].choose(state, seat)
        state.apply(action)
    assert illegal is not None
    return typed, state, illegal


@pytest.mark.parametrize(
    ("players", "seed", "options"), [(3, 7, {}), (1, 3, {}), (1, 5, {"mission": 3})]
)
def test_whole_game_through_stdin(
    tmp_path: Path, players: int, seed: int, options: dict[str, Any]
) -> None:
    typed, final, (illegal, refused) = human_game(players, seed, options)
    first_play = 2  # after the pick and the first Portal
    lines = ["help", "rules", "card ultim", "card zzz", *typed[:first_play], illegal]
    lines += typed[first_play:]
    save = tmp_path / "et.json"
    args = ["play", "eternitium", "--players", str(players), "--seat", "1", "--bots", "heuristic"]
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    result = run([*args, "--seed", str(seed), "--save", str(save)], input="\n".join(lines) + "\n")
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    flat = " ".join(out.split())  # long lines wrap at the terminal width
    assert "Traceback" not in out
    assert "Your legal moves now:" in out and "Eternitium rules in short" in out
    assert "Advanced: costs 2 Era cards" in out and "no single card is called 'zzz'" in out
    # the refusal in the catalog's words, the rule as its detail (the engine's text in English)
    assert refused.key is not None and refused.rule in ("R15", "R6")
    names = ["Seat 1 (you)", "Heuristic bot 2", "Heuristic bot 3"]
    assert f"✗ {describe_refusal(refused.key, refused.params, 'en', names)}" in flat
    assert f"Rule {refused.rule}" in flat
    assert "Your hand" in out
    if players > 1:
        assert "Heuristic bot 2" in out and "Final ranking" in out
        verdict = out.split("Final ranking")[-1].split("Winner")[-1]
        for seat in final.winners:
            assert ["You", "Heuristic bot 2", "Heuristic bot 3"][seat] in verdict
    else:
        assert ("you win" in out) == bool(final.winners)
        assert "The AI reveals" in out
    record = json.loads(save.read_text())
    assert record["game"] == "eternitium" and record["seed"] == seed
    assert record["actions"] == final.to_record()["actions"]
    replayed = eterna.replay(record)
    assert replayed.winners == final.winners


# ---------------------------------------------------------------------------------- simulate


def test_simulate_eternitium_records_and_replay(tmp_path: Path) -> None:
    out = tmp_path / "et.jsonl"
    args = ["simulate", "eternitium", "--games", "10", "--players", "3"]
    result = run([*args, "--agents", "heuristic,random", "--seed", "5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "10 games, 3 players" in result.output and "10 records written" in result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 10
    for line in lines:
        record = json.loads(line)
        state = eterna.replay(record)
        assert state.is_terminal
        assert state.scores == record["meta"]["scores"]
        assert state.winners == record["meta"]["winners"]
    record = json.loads(lines[2])
    result = run(["replay", str(out), "--game-index", "2", "--seat", "2", "--no-step"])
    assert result.exit_code == 0, result.output
    total = len(record["actions"])
    assert f"action {total}/{total}" in result.output
    assert "Final ranking" in result.output and "Traceback" not in result.output
