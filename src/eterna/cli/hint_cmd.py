"""`eterna hint`: the move ISMCTS suggests to a seat of a recorded game, from its view only."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from eterna.cli.common import (
    apply_action,
    check_seat,
    fail,
    load_record,
    make_console,
    start_replay,
)
from eterna.cli.options import GameIndex, Lang, RecordFile, pick_lang
from eterna.cli.words import Narrator, say
from eterna.core.errors import EternaError
from eterna.i18n.names import seat_number

HINT_HELP = (
    "Suggest a move for a seat of a recorded game, from that seat's point of view only.\n\n"
    "Replays the record (or its first --at actions) and, if it is that seat's turn, runs the "
    "ISMCTS agent through the seat's window (its view, legal moves and determinizations) and "
    "shows every candidate with its visits, estimated win probability (a shared win counts "
    "1/k) and expected final score. The recommended move is named in the --lang language, "
    "its notation after it."
)

Seat = Annotated[
    int, typer.Option("--seat", help="The seat to advise, counted from 1 (--seat 1 is Seat 1).")
]
Iterations = Annotated[int, typer.Option("--iterations", "-i", help="ISMCTS iterations.", min=1)]
Seed = Annotated[int, typer.Option("--seed", help="Seed of the search.")]
At = Annotated[
    int | None,
    typer.Option("--at", help="Advise after only this many of the record's actions.", min=0),
]


def hint(
    record: RecordFile,
    seat: Seat,
    iterations: Iterations = 1000,
    seed: Seed = 0,
    at: At = None,
    game_index: GameIndex = 0,
    lang: Lang = None,
) -> None:
    from eterna.arena.hints import advise, hint_table

    language = pick_lang(lang)
    entry = load_record(record, game_index)
    state, actions = start_replay(entry)
    seat = check_seat(seat, state.players)
    if at is not None and at > len(actions):
        fail(f"--at must be from 0 to {len(actions)}: the record holds {len(actions)} actions")
    upto = actions if at is None else actions[:at]
    for number, text in enumerate(upto, 1):
        apply_action(state, number, text)
    if state.is_terminal and at is None:
        fail(
            f"the game is over at the end of this record: give --at N (0 to {len(actions) - 1}) "
            "to be advised at one of its moves"
        )
    try:
        candidates = advise(state, seat, iterations=iterations, seed=seed)
    except EternaError as exc:
        fail(str(exc))
    console = make_console()
    best = str(candidates[0].action)
    label = Narrator(state.game.id, language, [], seat).label(best)
    move = best if label == best else f"{label} ({best})"
    heading = say(
        language,
        "common.hint_heading",
        game=state.game.name,
        count=len(upto),
        seat=seat_number(seat),
        move=move,
    )
    console.print(Text(heading, style="bold"))
    title = say(language, "common.hint.search", iterations=iterations, seed=seed)
    narrator = Narrator(state.game.id, language, [], seat)
    console.print(hint_table(candidates, title, language, narrator.label, state.game.id))


def register(app: typer.Typer) -> None:
    app.command(name="hint", help=HINT_HELP)(hint)
