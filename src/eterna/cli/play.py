"""`eterna play`: one human seat against seeded bots, in the terminal.

The human sees only `state.view(seat)` of their seat, rendered by the game's renderer. Input is
read line by line through `read_line` (the Rich console's `input`, which reads stdin), so tests
drive a whole game with `CliRunner(input=...)`. End of input or `quit` ends the game early; the
record is saved in every case.
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
from eterna.cli.moves import resolve_move
from eterna.core.agent import Agent
from eterna.core.errors import BadNotation, EternaError, IllegalAction
from eterna.core.game import GameState
from eterna.core.records import write_record
from eterna.render import Renderer, renderer_for

COMMANDS: dict[str, str] = {
    "help": "list the commands and your legal moves (also '?')",
    "hint": "suggest a move (ISMCTS search from your view only)",
    "rules": "a short summary of the rules",
    "show": "show the table again",
    "log": "every move of this round so far",
    "quit": "end the game now (the record is still saved; also 'exit')",
}
ALIASES = {"?": "help", "exit": "quit", "h": "help"}
CARD_COMMAND = "card"  # `card <name>`: a card's full text, for games whose renderer has it


class EndOfInput(Exception):
    """The player's input stream ended (EOF) or was interrupted (Ctrl-C); says which."""

    def __init__(self, message: str, interrupted: bool = False) -> None:
        super().__init__(message)
        self.interrupted = interrupted


def seat_names(players: int, human: int, specs: dict[int, str]) -> list[str]:
    """'You' and 'S<seat> <agent name>' (the spec's parameters left out, to keep tables narrow)."""
    return [
        "You" if seat == human else f"S{seat} {specs.get(seat, 'bot').partition(':')[0]}"
        for seat in range(players)
    ]


@dataclass
class PlaySession:
    """A game between one human seat and bots, driven by lines of input."""

    state: GameState
    human: int
    bots: dict[int, Agent]
    console: Console
    read_line: Callable[[str], str]
    renderer: Renderer = field(init=False)
    names: list[str] = field(init=False)
    recent: list[Text] = field(default_factory=list)
    interrupted: bool = False  # input ended by Ctrl-C rather than end of file

    def __post_init__(self) -> None:
        self.renderer = renderer_for(self.state.game.id)
        specs = {seat: agent.spec for seat, agent in self.bots.items()}
        self.names = seat_names(self.state.players, self.human, specs)

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
                    self.console.print(f"{reason}: the game stops here.", style="bold")
                    return False
            else:
                self.apply(seat, self.bot_move(seat))
        self.show_final()
        return True

    def bot_move(self, seat: int) -> Any:
        """The bot's choice; a spinner shows a slow bot thinking (on a terminal only)."""
        if not self.console.is_terminal:
            return self.bots[seat].choose(self.state, seat)
        with self.console.status(f"{self.names[seat]} is thinking…"):
            return self.bots[seat].choose(self.state, seat)

    def apply(self, seat: int, action: Any) -> None:
        before = self.state.view(self.human)
        self.state.apply(action)
        after = self.state.view(self.human)
        self.recent += self.renderer.events(before, after, seat, str(action), self.names)
        finished = self.renderer.round_finished(before, after)
        if finished is not None:
            self.flush_recent()
            self.console.print(Rule(f"Round {finished} is over"))
            self.console.print(self.renderer.round_summary(after, finished, self.names))

    def flush_recent(self) -> None:
        """Show the moves not shown yet (those that end a round or the game) and forget them."""
        if self.recent:
            self.console.print(
                Panel(
                    Group(*self.recent),
                    title="Since your last move",
                    title_align="left",
                    expand=False,
                )
            )
            self.recent = []

    def show_table(self) -> None:
        view = self.state.view(self.human)
        self.console.print(Rule())
        self.console.print(self.renderer.table(view, self.names, self.recent))

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
                self.console.print("You left the game.", style="bold")
                return False
            if command in COMMANDS:
                self.run_command(command)
                continue
            if word.split()[0] == CARD_COMMAND and self.renderer.card_info is not None:
                self.show_card(word.split(maxsplit=1)[1:])
                continue
            try:
                action = resolve_move(
                    self.state, line, self.renderer.verbs, self.renderer.default_verb
                )
            except (IllegalAction, BadNotation) as exc:
                self.console.print(Text(f"✗ {exc}", style="bold red"))
                continue
            self.recent = []
            self.apply(self.human, action)
            return True

    def prompt(self) -> str:
        return f"[bold]{self.names[self.human]} (seat {self.human})[/bold] move> "

    def run_command(self, command: str) -> None:
        view = self.state.view(self.human)
        if command == "help":
            self.console.print(Text("Commands:", style="bold"))
            for name, doc in COMMANDS.items():
                line = Text(f"  {name:<7}", style="cyan")
                line.append(doc, style="")
                self.console.print(line)
            if self.renderer.card_info is not None:
                line = Text(f"  {CARD_COMMAND} <name>", style="cyan")
                line.append("  a card's full text (a prefix of its name will do)", style="")
                self.console.print(line)
            self.console.print(Text("Your legal moves now:", style="bold"))
            self.console.print(self.renderer.moves_help(view.get("legal_actions", [])))
        elif command == "rules":
            self.console.print(self.renderer.rules())
        elif command == "show":
            self.show_table()
        elif command == "log":
            self.show_log(view)
        elif command == "hint":
            from eterna.arena.hints import PLAY_ITERATIONS, advise, hint_table

            hints = advise(self.state, self.human, iterations=PLAY_ITERATIONS)
            self.console.print(hint_table(hints, f"Hint (ISMCTS, {PLAY_ITERATIONS} iterations)"))

    def show_card(self, args: Sequence[str]) -> None:
        info = self.renderer.card_info
        shown = info(args[0]) if info is not None and args else None
        if shown is None:
            what = f"no single card is called {args[0]!r}" if args else "name a card"
            self.console.print(Text(f"✗ {what}: type e.g. '{CARD_COMMAND} kappa'", "bold red"))
            return
        self.console.print(shown)

    def show_log(self, view: dict[str, Any]) -> None:
        log = view.get("log", [])
        if not log:
            self.console.print("Nothing played yet this round.")
            return
        for entry in log:
            if "trick_won_by" in entry:
                who = self.names[entry["trick_won_by"]]
                self.console.print(Text(f"  → trick won by {who}", style="bold"))
            else:
                seat = entry["seat"]
                line = self.renderer.events(view, view, seat, entry["action"], self.names)[0]
                self.console.print(line)

    def show_final(self) -> None:
        self.flush_recent()
        self.console.print(Rule("Game over"))
        self.console.print(self.renderer.final(self.state.view(self.human), self.names))


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


def save_record(state: GameState, path: Path, console: Console) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_record(path, state.to_record())
    console.print(Text(f"Record saved to {path}", style="bold"))
