"""One terminal command for a choice made several times in a row: `discard red blue` discards
a stone of each colour down to the Vale's stone limit, one engine move per stone, in order
(the record holds each, so it replays alike); if any of them is illegal nothing is played."""

from __future__ import annotations

import random

from rich.console import Console

import eterna
from eterna.agents import make_agent
from eterna.cli.play import PlaySession


def over_the_limit():
    """Seat 1 of a 2-player Vale holding 5 red and 1 blue stones, limit 4: discard 2."""
    state = eterna.load_game("vale").new_game(2, seed=1)
    rng = random.Random(1)
    for _ in range(19):
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(1)
    assert view["pending"]["kind"] == "stone_limit" and view["current_player"] == 1
    assert view["stones"][1] == {"red": 5, "blue": 1, "purple": 0}
    return state


def session(state, lines: list[str]) -> tuple[PlaySession, Console]:
    console = Console(record=True, width=110, color_system=None)
    feed = iter(lines)
    bots = {0: make_agent("heuristic", seed=0)}
    return PlaySession(state, 1, bots, console, lambda _prompt: next(feed)), console


def test_one_command_discards_several_stones_in_order() -> None:
    state = over_the_limit()
    before = len(state.to_record()["actions"])
    play, console = session(state, ["discard red red red", "discard red blue"])
    assert play.human_turn()
    out = console.export_text()
    assert "✗ 'discard red' is no legal move now" in out  # the third red: nothing played
    actions = state.to_record()["actions"][before:]
    assert actions == ["discard-stone red", "discard-stone blue"]
    assert state.view(1)["stones"][1] == {"red": 4, "blue": 0, "purple": 0}
    assert state.view(1)["pending"] is None or state.view(1)["pending"]["kind"] != "stone_limit"
    replayed = eterna.replay(state.to_record())
    assert replayed.view(1) == state.view(1)


def test_a_single_move_still_reads_as_one() -> None:
    state = over_the_limit()
    before = len(state.to_record()["actions"])
    play, _ = session(state, ["discard-stone blue"])
    assert play.human_turn()
    assert state.to_record()["actions"][before:] == ["discard-stone blue"]
