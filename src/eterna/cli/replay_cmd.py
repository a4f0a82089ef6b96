"""`eterna replay`: a recorded game action by action, as one seat (or a spectator) saw it."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from eterna.cli.common import (
    apply_action,
    check_seat,
    fail,
    load_record,
    make_console,
    start_replay,
)
from eterna.cli.options import GameIndex, RecordFile
from eterna.core.game import GameState
from eterna.render import Renderer, renderer_for

Seat = Annotated[
    int | None, typer.Option("--seat", help="Show this seat's view (its hand included).")
]
Spectator = Annotated[
    bool, typer.Option("--spectator", help="Show the spectator's view (the default).")
]
Step = Annotated[
    bool,
    typer.Option(
        "--step/--no-step",
        help="Wait for Enter between actions ('c' then Enter: run to the end; 'q': stop).",
    ),
]


def replay(
    file: RecordFile,
    seat: Seat = None,
    spectator: Spectator = False,
    step: Step = True,
    game_index: GameIndex = 0,
) -> None:
    """Replay a recorded game action by action, showing one seat's view (or a spectator's)."""
    if seat is not None and spectator:
        fail("give either --seat or --spectator, not both")
    record = load_record(file, game_index)
    state, actions = start_replay(record)
    if seat is not None:
        check_seat(seat, state.players)
    renderer = renderer_for(state.game.id)
    given = record.get("meta")
    meta: dict[str, Any] = given if isinstance(given, dict) else {}
    names = _names(meta, state.players)
    console = make_console()
    who = "spectator" if seat is None else f"seat {seat}"
    console.print(
        Text(
            f"Replaying {file} ({state.game.name}, {state.players} players, seed "
            f"{record.get('seed')}, {len(actions)} actions) as {who}.",
            style="bold",
        )
    )
    console.print(renderer.table(state.view(seat), names, []))
    played = 0
    for number, text in enumerate(actions, 1):
        _show_action(console, renderer, state, seat, number, len(actions), text, names)
        played = number
        if step and number < len(actions):
            answer = _ask(console)
            if answer == "stop":
                break
            step = answer == "next"
    _show_result(console, renderer, state, seat, names, played, len(actions))
    recorded = meta.get("scores")
    if state.is_terminal and isinstance(recorded, list) and recorded != state.scores:
        console.print(Text(f"Warning: the record says the scores were {recorded}", "bold red"))


def _names(meta: dict[str, Any], players: int) -> list[str]:
    """'S0 heuristic' when the record's meta names the agents, else 'S0'."""
    specs = meta.get("agents") if isinstance(meta.get("agents"), list) else None
    return [f"S{s} {specs[s]}" if specs and s < len(specs) else f"S{s}" for s in range(players)]


def _show_action(
    console: Console,
    renderer: Renderer,
    state: GameState,
    seat: int | None,
    number: int,
    total: int,
    text: str,
    names: list[str],
) -> None:
    """Apply action `number` and show what it did, and the table after it."""
    actor = state.current_player
    before = state.view(seat)
    apply_action(state, number, text)
    after = state.view(seat)
    lines = renderer.events(before, after, -1 if actor is None else actor, text, names)
    console.print(Rule(f"action {number}/{total}"))
    console.print(*lines, sep="\n")
    finished = renderer.round_finished(before, after)
    if finished is not None:
        console.print(renderer.round_summary(after, finished, names))
    console.print(renderer.table(after, names, []))


def _ask(console: Console) -> str:
    """What to do after an action: 'next' (Enter), 'end' (c, or the end of input), 'stop' (q)."""
    try:
        answer = console.input("[dim]Enter: next · c: to the end · q: stop[/dim] ")
    except (EOFError, KeyboardInterrupt):
        return "end"
    answer = answer.strip().lower()
    if answer.startswith("q"):
        return "stop"
    if answer.startswith("c"):
        return "end"
    return "next"


def _show_result(
    console: Console,
    renderer: Renderer,
    state: GameState,
    seat: int | None,
    names: list[str],
    played: int,
    total: int,
) -> None:
    console.print(Rule("Result"))
    if state.is_terminal:
        console.print(renderer.final(state.view(seat), names))
    else:
        console.print(Text(f"The game is not over (stopped after {played} of {total} actions)."))
        console.print(Text("Scores so far: " + ", ".join(map(str, state.scores))))


def register(app: typer.Typer) -> None:
    app.command(name="replay")(replay)
