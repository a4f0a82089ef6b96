"""The terminal table's words in the player's language (docs/i18n.md): the events a seat is
told, the legal moves' labels, refusals and the table's own headings and prompts.

Every game is narrated from `state.events_since` (the contract's events), never guessed from
two views.
Notation stays what players type: a move's label is followed by its notation, dimmed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rich.text import Text

from eterna.core.errors import EternaError, IllegalAction
from eterna.core.game import GameState
from eterna.i18n import catalog, describe_action, describe_refusal, event_lines
from eterna.i18n.names import Who, player_names, seat_number

# The games whose renderers speak the player's language (a game without one shows data).
NARRATED: Final = frozenset({"eternity", "vale", "eternitium"})
# How an event's lines look: a round's start and end, a trick won, the game's end stand out.
STYLE: Final[Mapping[str, str]] = {
    "round_started": "bold",
    "trick_won": "bold yellow",
    "trump_changed": "bold magenta",
    "round_scored": "bold",
    "round_ended": "bold",
    "phase_started": "bold",
    "game_over": "bold yellow",
    "points_gained": "yellow",
    "points_stolen": "yellow",
    "turn_started": "bold",
    "ai_strike": "bold red",
    "gem_found": "bold yellow",
    "mission_result": "bold yellow",
    "luck_tried": "yellow",
}
# The event that closes a round, after which the round's score sheet is shown.
ROUND_END: Final[Mapping[str, str]] = {
    "eternity": "round_scored",
    "vale": "round_ended",
    "eternitium": "round_ended",
}


def say(lang: str, key: str, **params: Any) -> str:
    """A `common.*` (or any) catalog message in `lang`."""
    return catalog(lang).text(key, **params)


def seat_names(
    lang: str, players: int, human: int | None, specs: Mapping[int, str], game: str = ""
) -> list[str]:
    """Each seat's name as the web names it (`player_names`): the human's `common.you_seat`
    ("Seat 1 (you)"), a bot's catalog name ("Heuristic bot 2"). A game that is not narrated
    keeps 'You', which its English renderer reads."""
    seats = [Who() if s == human else Who(None, specs.get(s, "bot")) for s in range(players)]
    names = player_names(lang, seats)
    if human is not None and 0 <= human < players:
        narrated = game in NARRATED or not game
        you = say(lang, "common.you_seat", n=seat_number(human))
        names[human] = you if narrated else "You"
    return names


@dataclass
class Narrator:
    """Tells one seat (None: a spectator) the events of a game it has not been told yet."""

    game: str
    lang: str
    names: Sequence[str]
    seat: int | None
    told: int = 0  # how many events of the game this seat has been told

    def news(self, state: GameState) -> list[dict[str, Any]]:
        """The events since the last call, as the seat may see them."""
        events = state.events_since(self.told, self.seat)
        self.told += len(events)
        return events

    def lines(self, event: Mapping[str, Any]) -> list[Text]:
        """One event as lines of text, in the narrator's language."""
        style = STYLE.get(str(event.get("kind")), "")
        try:
            words = event_lines(self.game, event, self.lang, self.names)
        except EternaError as exc:  # an event the catalog cannot say: show it as data
            words = [f"{event.get('kind')}: {exc}"]
        return [Text(line, style=style if i == 0 else "") for i, line in enumerate(words)]

    def round_over(self, event: Mapping[str, Any]) -> int | None:
        """The number of the round `event` closes, if it closes one."""
        if event.get("kind") == ROUND_END.get(self.game) and isinstance(event.get("round"), int):
            return int(event["round"])
        return None

    def move(self, notation: str, number: int | None = None) -> Text:
        """A legal move's label, then its notation dimmed: '3. Jouer Ciel 13 · play sky-13'."""
        text = Text(f"{number:>3}. " if number is not None else "", style="cyan")
        text.append(self.label(notation))
        text.append(f"  · {notation}", style="dim")
        return text

    def label(self, notation: str) -> str:
        try:
            return describe_action(self.game, notation, self.lang, self.names)
        except EternaError:
            return notation

    def refusal(self, exc: EternaError) -> list[Text]:
        """Why a typed move is refused, in words, with the rule as a dimmed detail."""
        line = Text("✗ ", style="bold red")
        key = exc.key if isinstance(exc, IllegalAction) else None
        if isinstance(exc, IllegalAction) and key is not None and catalog(self.lang).has(key):
            try:
                line.append(describe_refusal(key, exc.params, self.lang, self.names), "bold red")
            except EternaError:
                line.append(str(exc), style="bold red")
        else:
            line.append(str(exc), style="bold red")
        lines = [line]
        rule = exc.rule if isinstance(exc, IllegalAction) else None
        if rule:
            lines.append(Text("  " + say(self.lang, "common.rule", rule=rule), style="dim"))
        return lines
