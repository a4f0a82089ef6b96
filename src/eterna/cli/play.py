"""`eterna play`: one human seat against seeded bots, in the terminal.

The human sees only `state.view(seat)` of their seat, rendered by the game's renderer, and is
told what happens by the events their seat is told (`state.events_since`), in words of their
language (`eterna.cli.words`); the legal moves are listed with their labels and notation.
Input is read line by line
through `read_line` (the Rich console's `input`, which reads stdin), so tests drive a whole game
with `CliRunner(input=...)`. End of input or `quit` ends the game early; the record is saved in
every case.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from eterna.agents import make_agent
from eterna.arena.simulate import derive_seed
from eterna.cli.moves import AmbiguousMove, resolve_move
from eterna.cli.words import NARRATED, Narrator, say, seat_names
from eterna.core.agent import Agent
from eterna.core.errors import BadNotation, EternaError, IllegalAction
from eterna.core.game import GameState, View
from eterna.core.records import write_record
from eterna.i18n import catalog
from eterna.render import Renderer, renderer_for

# The commands, typed in English like the notation; what each does is `common.command.<name>`.
COMMANDS: tuple[str, ...] = ("help", "hint", "rules", "show", "log", "quit")
ALIASES = {"?": "help", "exit": "quit", "h": "help"}
CARD_COMMAND = "card"  # `card <name>`: a card's full text, for games whose renderer has it
# A card each game's `card` command knows, suggested when a name matches no single card.
CARD_EXAMPLES = {"eternitium": "temp", "vale": "kappa"}


class EndOfInput(Exception):
    """The player's input stream ended (EOF) or was interrupted (Ctrl-C); says which."""

    def __init__(self, message: str, interrupted: bool = False) -> None:
        super().__init__(message)
        self.interrupted = interrupted


@dataclass
class PlaySession:
    """A game between one human seat and bots, driven by lines of input, told in `lang`.

    The game is narrated from the events the human's seat is told (docs/events.md)."""

    state: GameState
    human: int
    bots: dict[int, Agent]
    console: Console
    read_line: Callable[[str], str]
    lang: str = "en"
    renderer: Renderer = field(init=False)
    names: list[str] = field(init=False)
    narrator: Narrator = field(init=False)
    recent: list[Text] = field(default_factory=list)
    story: list[Text] = field(default_factory=list)  # this round's lines, for `log`
    interrupted: bool = False  # input ended by Ctrl-C rather than end of file

    def __post_init__(self) -> None:
        game = self.state.game.id
        self.renderer = renderer_for(game)
        specs = {seat: agent.spec for seat, agent in self.bots.items()}
        self.names = seat_names(self.lang, self.state.players, self.human, specs, game)
        self.narrator = Narrator(game, self.lang, self.names, self.human)
        self.tell()  # the deal

    def say(self, key: str, **params: Any) -> str:
        return say(self.lang, key, **params)

    @property
    def speaks(self) -> dict[str, str]:
        """The `lang=` the renderer takes for a game it speaks (a plain renderer shows data)."""
        return {"lang": self.lang} if self.narrator.game in NARRATED else {}

    # ------------------------------------------------------------------ the loop
    def run(self) -> bool:
        """Play until the end, `quit` or end of input. True if the game reached its end."""
        while not self.state.is_terminal:
            seat = self.state.current_player
            if seat is None:
                break
            if seat == self.human:
                try:
                    if not self.human_turn():
                        return False
                except EndOfInput as reason:
                    self.interrupted = reason.interrupted
                    self.console.print()
                    self.console.print(self.say("common.game_stops", reason=reason), style="bold")
                    return False
            else:
                self.apply(seat, self.bot_move(seat))
        self.show_final()
        return True

    def bot_move(self, seat: int) -> Any:
        """The bot's choice; a spinner shows a slow bot thinking (on a terminal only)."""
        if not self.console.is_terminal:
            return self.bots[seat].choose(self.state, seat)
        with self.console.status(self.say("common.thinking", player=self.names[seat])):
            return self.bots[seat].choose(self.state, seat)

    def apply(self, seat: int, action: Any) -> None:
        self.state.apply(action)
        self.tell()

    def tell(self) -> None:
        """The events the human's seat has not been told yet, in words; a round's end shows
        its score sheet."""
        for event in self.narrator.news(self.state):
            if event.get("kind") == "round_started":
                self.story = []
            lines = self.narrator.lines(event)
            self.recent += lines
            self.story += lines
            finished = self.narrator.round_over(event)
            if finished is not None:
                self.round_over(finished)

    def round_over(self, finished: int) -> None:
        self.flush_recent()
        self.console.print(Rule(self.say("common.round_over", round=finished)))
        view = self.state.view(self.human)
        summary = self.renderer.round_summary(view, finished, self.names, **self.speaks)
        self.console.print(summary)

    def flush_recent(self) -> None:
        """Show the moves not shown yet (those that end a round or the game) and forget them."""
        if self.recent:
            title = self.say("common.since_last_move")
            self.console.print(
                Panel(Group(*self.recent), title=title, title_align="left", expand=False)
            )
            self.recent = []

    def show_table(self) -> None:
        view = self.state.view(self.human)
        self.console.print(Rule())
        self.console.print(self.renderer.table(view, self.names, self.recent, **self.speaks))
        self.show_moves()

    def show_moves(self) -> None:
        """The legal moves, numbered, each with its label and its notation dimmed."""
        legal = [str(a) for a in self.state.legal_actions()]
        self.console.print(Text(self.say("common.legal_moves_now"), style="bold yellow"))
        for number, move in enumerate(legal, 1):
            self.console.print(self.narrator.move(move, number))
        if not legal:
            self.console.print(Text(self.say("common.no_move_now"), style="dim"))

    def human_turn(self) -> bool:
        """Read lines until one is a legal move (True) or `quit` (False)."""
        self.show_table()
        while True:
            line = self.read_line(self.prompt())
            word = line.strip().lower()
            command = ALIASES.get(word, word)
            if not word:
                continue
            if command == "quit":
                self.console.print(self.say("common.you_left"), style="bold")
                return False
            if command in COMMANDS:
                self.run_command(command)
                continue
            if word.split()[0] == CARD_COMMAND and self.renderer.card_info is not None:
                self.show_card(word.split(maxsplit=1)[1:])
                continue
            actions = self.read_moves(line)
            if not actions:
                continue
            self.recent = []
            for action in actions:  # one move each, in order: records replay them alike
                self.apply(self.human, action)
            return True

    def read_moves(self, line: str) -> list[Any]:
        """The moves a line means: one move, or one verb with several arguments for a choice
        made several times in a row (`discard red red blue`: three stones discarded down to
        the Vale's stone limit), each argument a legal move once the ones before it are made.
        Nothing is played unless every one is legal; else the first refusal is printed."""
        words = line.split()
        if len(words) > 2:
            verbs, default = self.renderer.verbs, self.renderer.default_verb
            try:
                return [resolve_move(self.state, line, verbs, default)]
            except (IllegalAction, BadNotation):
                pass
            trial = self.state.clone()
            moves: list[Any] = []
            for argument in words[1:]:
                text = f"{words[0]} {argument}"
                try:
                    if trial.is_terminal or trial.current_player != self.human:
                        raise IllegalAction(f"{text}: it is no longer your turn")
                    move = resolve_move(trial, text, verbs, default)
                except (IllegalAction, BadNotation) as exc:
                    if not moves:
                        break  # not several of one choice: read as one move below
                    self.console.print(*self.refusal(text, exc), sep="\n")
                    return []
                trial.apply(move)
                moves.append(move)
            else:
                return moves
        action = self.read_move(line)
        return [] if action is None else [action]

    def read_move(self, line: str) -> Any | None:
        """The legal move a line means (a move's number in the list, its notation or a
        prefix of it), or None after printing why it is refused."""
        legal = self.state.legal_actions()
        word = line.strip()
        if word.isdigit() and 1 <= int(word) <= len(legal):
            return legal[int(word) - 1]
        try:
            return resolve_move(self.state, line, self.renderer.verbs, self.renderer.default_verb)
        except (IllegalAction, BadNotation) as exc:
            self.console.print(*self.refusal(line, exc), sep="\n")
        return None

    def refusal(self, line: str, exc: EternaError) -> list[Text]:
        """Why a line is no move: the engine's refusal, an ambiguity, or no move at all."""
        text = line.strip()
        if isinstance(exc, AmbiguousMove):
            moves = catalog(self.lang).join(self.narrator.label(m) for m in exc.matches)
            message = self.say("common.ambiguous", text=text, moves=moves)
            return [Text(f"✗ {message}", style="bold red")]
        if isinstance(exc, IllegalAction) and exc.key is not None:
            return self.narrator.refusal(exc)
        lines = [Text("✗ " + self.say("common.not_a_move", text=text), style="bold red")]
        if self.lang == "en":  # the engine's own explanation, in English only
            lines.append(Text(f"  {exc}", style="dim"))
        return lines

    def prompt(self) -> str:
        return f"[bold]{self.say('common.prompt_move', player=self.names[self.human])}[/bold]"

    def run_command(self, command: str) -> None:
        if command == "help":
            self.show_help()
        elif command == "rules":
            self.console.print(self.renderer.rules_in(**self.speaks))
        elif command == "show":
            self.show_table()
        elif command == "log":
            self.show_log(self.state.view(self.human))
        elif command == "hint":
            from eterna.arena.hints import PLAY_ITERATIONS, advise, hint_table

            hints = advise(self.state, self.human, iterations=PLAY_ITERATIONS)
            title = self.say("common.hint_title", count=PLAY_ITERATIONS)
            label = self.narrator.label
            self.console.print(hint_table(hints, title, self.lang, label, self.state.game.id))

    def show_help(self) -> None:
        self.console.print(Text(self.say("common.commands"), style="bold"))
        for name in COMMANDS:
            line = Text(f"  {name:<7}", style="cyan")
            line.append(self.say(f"common.command.{name}"), style="")
            self.console.print(line)
        if self.renderer.card_info is not None:
            line = Text(f"  {CARD_COMMAND} <name>", style="cyan")
            line.append("  " + self.say("common.command.card"), style="")
            self.console.print(line)
        self.show_moves()
        self.console.print(Text(self.say("common.moves_typing"), style="dim"))

    def show_card(self, args: Sequence[str]) -> None:
        shown = self.renderer.card(args[0], **self.speaks) if args else None
        if shown is None:
            what = (
                self.say(
                    "common.no_card_called",
                    name=args[0],
                    example=CARD_EXAMPLES.get(self.state.game.id, "..."),
                )
                if args
                else self.say(
                    "common.name_a_card", example=CARD_EXAMPLES.get(self.state.game.id, "...")
                )
            )
            self.console.print(Text(f"✗ {what}", "bold red"))
            return
        self.console.print(shown)

    def show_log(self, view: View) -> None:
        for line in self.story:
            self.console.print(line)
        if not self.story:
            self.console.print(self.say("common.nothing_yet"))

    def show_final(self) -> None:
        self.flush_recent()
        self.console.print(Rule(self.say("common.game_over")))
        view = self.state.view(self.human)
        self.console.print(self.renderer.final(view, self.names, **self.speaks))


def make_bots(players: int, human: int, specs: Sequence[str], seed: int) -> dict[int, Agent]:
    """One agent per bot seat, in seat order; seeded like game 0 of `eterna simulate`."""
    seats = [s for s in range(players) if s != human]
    if len(specs) == 1:
        specs = list(specs) * len(seats)
    if len(specs) != len(seats):
        raise EternaError(
            f"--bots takes one agent spec for every bot, or one per bot seat ({len(seats)}); "
            f"got {len(specs)}"
        )
    return {
        seat: make_agent(spec, seed=derive_seed(seed, 0, seat))
        for seat, spec in zip(seats, specs, strict=True)
    }


def save_record(state: GameState, path: Path, console: Console, lang: str = "en") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_record(path, state.to_record())
    console.print(Text(say(lang, "common.record_saved", path=path), style="bold"))
