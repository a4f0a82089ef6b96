"""`eterna replay`: a recorded game action by action, as one seat (or a spectator) saw it.

Every game is narrated in words from the events that seat is told, in the `--lang` language.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
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
from eterna.cli.options import GameIndex, Lang, RecordFile, pick_lang
from eterna.cli.words import NARRATED, Narrator, say
from eterna.core.game import GameState
from eterna.i18n.names import Who, player_names
from eterna.render import Renderer, renderer_for

Seat = Annotated[
    int | None,
    typer.Option(
        "--seat",
        help="Show this seat's view (its hand included), counted from 1 (--seat 1 is Seat 1).",
    ),
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


@dataclass
class Replay:
    """One record replayed for one seat (None: a spectator), told in `lang`."""

    state: GameState
    seat: int | None
    names: list[str]
    lang: str
    console: Console
    renderer: Renderer
    narrator: Narrator

    @property
    def speaks(self) -> dict[str, str]:
        """The `lang=` the renderer takes for a game it speaks (a plain renderer shows data)."""
        return {"lang": self.lang} if self.narrator.game in NARRATED else {}

    def say(self, key: str, **params: Any) -> str:
        return say(self.lang, key, **params)

    def tell(self) -> None:
        """The events the seat has not been told yet, in words; a finished round's sheet."""
        for event in self.narrator.news(self.state):
            self.console.print(*self.narrator.lines(event), sep="\n")
            finished = self.narrator.round_over(event)
            if finished is not None:
                self.round_summary(finished)

    def round_summary(self, finished: int) -> None:
        view = self.state.view(self.seat)
        self.console.print(self.renderer.round_summary(view, finished, self.names, **self.speaks))

    def table(self) -> None:
        view = self.state.view(self.seat)
        self.console.print(self.renderer.table(view, self.names, [], **self.speaks))

    def action(self, number: int, total: int, text: str) -> None:
        """Apply action `number` and show what it did, and the table after it."""
        apply_action(self.state, number, text)
        self.console.print(Rule(self.say("common.action_of", number=number, total=total)))
        self.tell()
        self.table()

    def result(self, played: int, total: int) -> None:
        self.console.print(Rule(self.say("common.result")))
        if self.state.is_terminal:
            view = self.state.view(self.seat)
            self.console.print(self.renderer.final(view, self.names, **self.speaks))
        else:
            self.console.print(Text(self.say("common.not_over", played=played, total=total)))
            scores = ", ".join(map(str, self.state.scores))
            self.console.print(Text(self.say("common.scores_so_far", scores=scores)))


def replay(
    file: RecordFile,
    seat: Seat = None,
    spectator: Spectator = False,
    step: Step = True,
    game_index: GameIndex = 0,
    lang: Lang = None,
) -> None:
    """Replay a recorded game action by action, showing one seat's view (or a spectator's)
    and telling what happens in words (--lang)."""
    if seat is not None and spectator:
        fail("give either --seat or --spectator, not both")
    language = pick_lang(lang)
    record = load_record(file, game_index)
    state, actions = start_replay(record)
    if seat is not None:
        seat = check_seat(seat, state.players)
    given = record.get("meta")
    meta: dict[str, Any] = given if isinstance(given, dict) else {}
    names = _names(meta, state.players, language)
    game = state.game.id
    renderer = renderer_for(game)
    narrator = Narrator(game, language, names, seat)
    show = Replay(state, seat, names, language, make_console(), renderer, narrator)
    show.console.print(Text(_heading(show, file, record, len(actions)), style="bold"))
    show.tell()  # the deal
    show.table()
    played = 0
    for number, text in enumerate(actions, 1):
        show.action(number, len(actions), text)
        played = number
        if step and number < len(actions):
            answer = _ask(show)
            if answer == "stop":
                break
            step = answer == "next"
    show.result(played, len(actions))
    recorded = meta.get("scores")
    if state.is_terminal and isinstance(recorded, list) and recorded != state.scores:
        warning = show.say("common.record_scores_differ", scores=recorded)
        show.console.print(Text(warning, "bold red"))


def _heading(show: Replay, file: Path, record: dict[str, Any], count: int) -> str:
    state = show.state
    who = show.say("common.spectator") if show.seat is None else show.names[show.seat]
    table = show.say("common.table_size", count=state.players)
    return show.say(
        "common.replaying",
        file=file,
        game=state.game.name,
        table=table,
        seed=record.get("seed"),
        count=count,
        who=who,
    )


def _names(meta: dict[str, Any], players: int, lang: str) -> list[str]:
    """The seats' names as the web names them (`player_names`): from the record's meta, the
    seats of a web table or the agents of a simulation ("Heuristic bot 2"), else "Seat 1"."""
    seats = [Who() for _ in range(players)]
    specs = meta.get("agents")
    for s, spec in enumerate(specs if isinstance(specs, list) else []):
        if s < players and isinstance(spec, str):
            seats[s] = Who(None, spec)
    table = meta.get("seats")
    for info in table if isinstance(table, list) else []:
        at = info.get("seat") if isinstance(info, dict) else None
        if isinstance(at, int) and 0 <= at < players:
            name, agent = info.get("name"), info.get("agent")
            bot = info.get("kind") == "bot" and isinstance(agent, str)
            seats[at] = Who(name if isinstance(name, str) else None, agent if bot else None)
    return player_names(lang, seats)


def _ask(show: Replay) -> str:
    """What to do after an action: 'next' (Enter), 'end' (c, or the end of input), 'stop' (q)."""
    try:
        answer = show.console.input(f"[dim]{show.say('common.replay_step')}[/dim] ")
    except (EOFError, KeyboardInterrupt):
        return "end"
    answer = answer.strip().lower()
    if answer.startswith("q"):
        return "stop"
    if answer.startswith("c"):
        return "end"
    return "next"


def register(app: typer.Typer) -> None:
    app.command(name="replay")(replay)
