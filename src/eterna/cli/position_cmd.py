"""`eterna position show|hint|write`: positions (docs/positions.md) in the terminal.

Every game is handled through the contract alone (`GameState.to_position`,
`Game.from_position`): a game without a position format says so in one line, like any other
error of the user's input.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.text import Text

from eterna.cli.common import (
    apply_action,
    fail,
    load_position,
    load_record,
    make_console,
    position_seat,
    start_replay,
)
from eterna.cli.options import GameIndex, Lang, RecordFile, pick_lang
from eterna.cli.words import NARRATED, Narrator, say
from eterna.core.errors import EternaError
from eterna.core.game import GameState
from eterna.core.position import dumps, share_code
from eterna.i18n.names import Who, player_names, seat_number
from eterna.render import renderer_for

POSITION_HELP = (
    "Positions: any moment of a game written down (docs/positions.md). 'show' prints one in "
    "words, 'hint' asks the ISMCTS agent for a move from it, 'write' makes one from a record."
)

PositionFile = Annotated[
    str,
    typer.Argument(
        help="A position: a file holding its JSON or its share code, '-' for stdin, or the "
        "share code itself (ep1....)."
    ),
]
Seat = Annotated[
    int | None,
    typer.Option(
        "--seat",
        help="The seat to look from, counted from 1 (a seat's position: its own seat).",
        show_default="the position's seat, else a spectator (show) or the seat to move (hint)",
    ),
]
Iterations = Annotated[int, typer.Option("--iterations", "-i", help="ISMCTS iterations.", min=1)]
Seed = Annotated[int, typer.Option("--seed", help="Seed of the search.")]
At = Annotated[
    int | None,
    typer.Option("--at", help="After only this many of the record's actions.", min=0),
]
Share = Annotated[
    bool, typer.Option("--share", help="Write the one-line share code instead of the JSON.")
]

position_app = typer.Typer(name="position", help=POSITION_HELP, no_args_is_help=True)


def names_of(lang: str, players: int) -> list[str]:
    """The seats' names as players read them: "Seat 1", "Seat 2" (a position names nobody)."""
    return player_names(lang, [Who()] * players)


def number(seat: int | None) -> int | None:
    return None if seat is None else seat_number(seat)


def heading(lang: str, state: GameState, position: dict[str, Any], seat: int | None) -> str:
    """Whose position this is and whose eyes show it, then who is to move."""
    game, table = state.game.name, say(lang, "common.table_size", count=state.players)
    if position.get("seat") is not None:
        line = say(lang, "common.position_of_seat", game=game, table=table, seat=number(seat))
    elif seat is None:
        line = say(lang, "common.position_whole_spectator", game=game, table=table)
    else:
        line = say(lang, "common.position_whole_seat", game=game, table=table, seat=number(seat))
    if state.is_terminal:
        return line + " " + say(lang, "common.position_over")
    return line + " " + say(lang, "common.position_to_move", seat=number(state.current_player))


@position_app.command(name="show")
def show(source: PositionFile, seat: Seat = None, lang: Lang = None) -> None:
    """Show a position in words: the table as the position's seat (or --seat, else a
    spectator) sees it, and that seat's legal moves when it is to move."""
    language = pick_lang(lang)
    state, position = load_position(source)
    viewer = position_seat(position, seat, state.players)
    game = state.game.id
    names = names_of(language, state.players)
    speaks = {"lang": language} if game in NARRATED else {}
    console = make_console()
    console.print(Text(heading(language, state, position, viewer), style="bold"))
    console.print(renderer_for(game).table(state.view(viewer), names, [], **speaks))
    if viewer is None or state.is_terminal or state.current_player != viewer:
        return
    narrator = Narrator(game, language, names, viewer)
    console.print(Text(say(language, "common.legal_moves_now"), style="bold yellow"))
    for number, move in enumerate(state.legal_actions(), 1):
        console.print(narrator.move(str(move), number))


@position_app.command(name="hint")
def hint(
    source: PositionFile,
    seat: Seat = None,
    iterations: Iterations = 1000,
    seed: Seed = 0,
    lang: Lang = None,
) -> None:
    """Suggest a move from a position, as `eterna hint` does: the ISMCTS agent searches from
    the position's seat (a whole position: the seat to move) through what that seat knows."""
    from eterna.arena.hints import advise, hint_table

    language = pick_lang(lang)
    state, position = load_position(source)
    if state.is_terminal:
        fail("the game is over: there is no move to advise")
    chosen = position_seat(position, seat, state.players)
    advised = state.current_player if chosen is None else chosen
    assert advised is not None
    try:
        candidates = advise(state, advised, iterations=iterations, seed=seed)
    except EternaError as exc:
        fail(str(exc))
    best = candidates[0].action
    label = Narrator(state.game.id, language, names_of(language, state.players), advised).label(
        best
    )
    move = best if label == best else f"{label} ({best})"
    line = say(
        language, "common.position_hint", game=state.game.name, seat=seat_number(advised), move=move
    )
    console = make_console()
    console.print(Text(line, style="bold"))
    title = say(language, "common.hint.search", iterations=iterations, seed=seed)
    narrator = Narrator(state.game.id, language, names_of(language, state.players), advised)
    console.print(hint_table(candidates, title, language, narrator.label, state.game.id))


@position_app.command(name="write")
def write(
    record: RecordFile,
    at: At = None,
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat", help="Write only what this seat knows, counted from 1.", show_default="whole"
        ),
    ] = None,
    share: Share = False,
    game_index: GameIndex = 0,
) -> None:
    """Write the position after a record's first --at actions (all of them by default): the
    whole position, or a seat's; its JSON, or its share code."""
    entry = load_record(record, game_index)
    state, actions = start_replay(entry)
    if at is not None and at > len(actions):
        fail(f"--at must be from 0 to {len(actions)}: the record holds {len(actions)} actions")
    for number, text in enumerate(actions if at is None else actions[:at], 1):
        apply_action(state, number, text)
    try:
        position = state.to_position(position_seat({}, seat, state.players))
    except EternaError as exc:
        fail(str(exc))
    typer.echo(share_code(position) if share else dumps(position))


def register(app: typer.Typer) -> None:
    app.add_typer(position_app)
