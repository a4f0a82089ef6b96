"""The Eternity renderer on real views: what a seat sees, and nothing it may not see."""

from __future__ import annotations

import random
import re

from rich.console import Console, RenderableType

import eterna
from eterna.cli.words import Narrator
from eterna.render import eternity as render
from eterna.render import renderer_for

GAME = eterna.load_game("eternity")
SETUP = {
    "columns": ["sea", "earth", "sky"],
    "first_leader": 0,
    "deals": [
        {
            "hands": [
                [
                    *("earth-1", "earth-5", "earth-12"),
                    *("sea-2", "sea-9", "sea-14"),
                    *("sky-3", "sky-6", "sky-10", "sky-11"),
                ],
                None,
                None,
            ],
            "board": ["sky-4", "earth-13"],
            "display": None,
        }
    ],
}


def text_of(renderable: RenderableType, width: int = 120) -> str:
    console = Console(record=True, width=width, color_system=None)
    console.print(renderable)
    return console.export_text()


def play_randomly(state: eterna.GameState, actions: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_terminal:
            return
        state.apply(rng.choice(state.legal_actions()))


def test_hand_by_family_with_trees_and_the_trump_board() -> None:
    state = GAME.new_game(players=3, seed=4, setup=SETUP)
    out = text_of(render.table(state.view(0), ["You", "S1 random", "S2 random"], []))
    lines = out.splitlines()
    # hand rows by family: 1-4 no tree, 5-9 one, 10-14 two
    assert any(line.split()[:4] == ["earth", "1", "5↟", "12↟↟"] for line in lines)
    assert any(line.split()[:4] == ["sea", "2", "9↟", "14↟↟"] for line in lines)
    assert any(line.split()[:5] == ["sky", "3", "6↟", "10↟↟", "11↟↟"] for line in lines)
    # trump board columns left to right, each with its count; a tie goes to the leftmost
    header = next(line for line in lines if "sea (0)" in line)
    assert header.index("sea (0)") < header.index("earth (1)") < header.index("sky (1)")
    assert "earth (1) ★ TRUMP" in header
    assert "trump: earth" in out
    # the 3-player display is shown, and the seat to move is told what it may do
    assert "Face-up display" in out
    assert "you lead" in out
    assert "harmony bonus 2" in out


def test_spectator_sees_no_hand() -> None:
    state = GAME.new_game(players=4, seed=9)
    play_randomly(state, 3)
    view = state.view(None)
    out = text_of(render.table(view, render.default_names(4), []))
    assert "Your hand" not in out
    assert "Face-up display" not in out
    shown = set(re.findall(r"(?:earth|sea|sky)-\d+", out))
    hidden = {card for seat in range(4) for card in state.hand(seat)}
    assert shown and not shown & hidden  # nobody's hidden cards leak into the spectator's table


def test_trick_in_progress_last_trick_and_pledges() -> None:
    state = GAME.new_game(players=4, seed=2)
    play_randomly(state, 4 + 2, seed=3)  # one whole trick, then two more cards
    view = state.view(state.current_player)
    out = text_of(render.table(view, render.default_names(4, view["seat"]), []))
    trick = view["last_trick"]
    assert f"Last trick: won by Seat {trick['winner'] + 1}" in out or "won by You" in out
    for entry in trick["cards"]:
        assert entry["card"] in out
    assert "This trick: led " + view["led"] in out
    assert "▶ You to move" in out
    assert "Your move:" in out


def test_round_summaries_and_the_narrated_rounds() -> None:
    """The events close each round (`round_scored`), whose sheet shows every seat's points;
    every event reads as a sentence, in each language."""
    state = GAME.new_game(players=4, seed=5)
    play_randomly(state, 10_000, seed=5)
    names = render.default_names(4, 0)
    for lang in ("en", "fr", "de"):
        narrator = Narrator("eternity", lang, names, 0)
        rounds = []
        for event in narrator.news(state):
            lines = [line.plain for line in narrator.lines(event)]
            assert lines and all(lines), event
            finished = narrator.round_over(event)
            if finished is not None:
                rounds.append(finished)
                summary = text_of(render.round_summary(state.view(0), finished, names, lang))
                for res in state.view(0)["round_results"][finished - 1]:
                    assert str(res["points"]) in summary
        assert rounds == [1, 2, 3]
    summary = text_of(render.round_summary(state.view(0), 2, names))
    assert "Round 2 results (harmony bonus 4)" in summary
    french = text_of(render.round_summary(state.view(0), 2, names, "fr"))
    assert "Résultats de la manche 2" in french


def test_final_table_per_round_and_winners() -> None:
    state = GAME.new_game(players=5, seed=8)
    play_randomly(state, 10_000)
    view = state.view(0)
    out = text_of(render.final(view, render.default_names(5, 0)))
    assert "Final scores" in out
    for rnd in (1, 2, 3):
        assert f"Round {rnd}" in out
    for seat in range(5):
        res = view["round_results"][0][seat]
        assert f"{res['trees']}/{res['tricks']} → {res['points']}" in out
    assert "Winner" in out
    for seat in view["winners"]:
        assert render.default_names(5, 0)[seat] in out.split("Winner")[-1]


def test_renderer_registry_and_plain_fallback() -> None:
    assert renderer_for("eternity").default_verb == "play"
    plain = renderer_for("no-such-game")
    out = text_of(plain.table({"scores": [1, 2]}, ["a", "b"], []))
    assert "scores" in out


def test_rules_and_moves_help() -> None:
    assert "harmony bonus" in text_of(render.rules())
    out = text_of(render.moves_help(["play sea-3", "pledge sea-3", "pledge sky-12"]))
    assert "play:" in out and "sea-3" in out and "sky-12↟↟" in out
