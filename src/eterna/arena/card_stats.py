"""Per-card statistics shared by the Vale's and Eternitium's analysis (docs/arena.md).

A game's module reads the spectator events of each replayed record (`state.events_since(0,
None)`: public fields only, so nothing hidden is read) and tells a `CardTally`, game by game,
which seats *took* which cards and how much each card did (a column per figure: times tamed,
points gained, Era cards discarded, ...). The tally then gives one row per card:

- `games`, `game_rate`: games in which at least one seat took it, and their share of all games;
- `taken`: times it was taken over all games; `takers`: (game, seat) pairs that took it;
- the figures of its columns, summed over all games, whoever the events name;
- `win_share`: the share of its takers that won, a shared win counting 1/k to each of its k
  winners, with its 95% Wilson interval (`win_share_low`, `win_share_high`), and
  `fair_share`, what that share would be if taking the card changed nothing (the mean of
  1/players over its takers).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from eterna.arena.stats import wilson
from eterna.core.errors import EternaError
from eterna.core.game import GameState, Record
from eterna.core.records import replay
from eterna.core.state import BaseState
from eterna.i18n import catalog


def spectator_story(record: Record) -> tuple[GameState, list[dict[str, Any]]]:
    """The record replayed and every event of it as a spectator sees it (public fields)."""
    state = replay(record)
    if not isinstance(state, BaseState):
        raise EternaError(f"a {type(state).__name__} tells no events")
    return state, state.events_since(0, None)


def card_name(game: str, card: str) -> str:
    """A card's English name from the i18n catalog (its id when the catalog has none)."""
    words = catalog("en")
    key = f"{game}.card.{card}.name"
    return words.text(key) if words.has(key) else card


@dataclass
class _CardLine:
    games: int = 0
    taken: int = 0
    takers: int = 0
    wins: float = 0.0
    fair: float = 0.0
    figures: Counter[str] = field(default_factory=Counter)


class CardTally:
    """Takers, win shares and figures per card, added one game at a time."""

    def __init__(self, game: str, columns: Sequence[str]) -> None:
        self.game = game
        self.columns = tuple(columns)
        self.records = 0
        self.lines: dict[str, _CardLine] = {}

    def add_game(
        self,
        players: int,
        winners: Sequence[int],
        taken: Mapping[str, Counter[int]],
        figures: Mapping[str, Counter[str]],
    ) -> None:
        """One finished game: `taken` card -> seat -> times; `figures` card -> column -> sum."""
        self.records += 1
        won = set(winners)
        share = 1 / len(won) if won else 0.0
        for card, seats in taken.items():
            line = self.lines.setdefault(card, _CardLine())
            takers = [s for s, times in seats.items() if times > 0]
            line.games += bool(takers)
            line.taken += sum(seats.values())
            line.takers += len(takers)
            line.wins += share * sum(s in won for s in takers)
            line.fair += len(takers) / players
        for card, sums in figures.items():
            self.lines.setdefault(card, _CardLine()).figures.update(sums)

    def rows(self) -> list[dict[str, Any]]:
        """One row per card seen, surest winners first: by the low end of the win share's
        interval, so that a card few players took does not top the table by luck (cards
        nobody took last)."""
        out = []
        for card, line in self.lines.items():
            low, high = wilson(line.wins, line.takers)
            n = line.takers
            row: dict[str, Any] = {
                "card": card,
                "name": card_name(self.game, card),
                "games": line.games,
                "game_rate": line.games / self.records if self.records else 0.0,
                "taken": line.taken,
                "takers": n,
                "wins": round(line.wins, 6),
                "win_share": line.wins / n if n else None,
                "win_share_low": low if n else None,
                "win_share_high": high if n else None,
                "fair_share": line.fair / n if n else None,
            }
            row.update({c: line.figures.get(c, 0) for c in self.columns})
            out.append(row)
        out.sort(key=lambda r: (r["takers"] == 0, -(r["win_share_low"] or 0.0), -r["takers"]))
        return out


def per_card(
    tally: CardTally, title: str, label: str, columns: Sequence[tuple[str, str]], note: str
) -> dict[str, Any]:
    """The `per_card` entry of a game's statistics: what the report's table shows (`columns`:
    (key, header) of the game's own figures; `note`: what they mean)."""
    return {
        "title": title,
        "label": label,
        "note": note,
        "columns": [list(c) for c in columns],
        "rows": tally.rows(),
    }


__all__ = ["CardTally", "card_name", "per_card", "spectator_story"]
