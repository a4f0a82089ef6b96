"""Eternitium's statistics per technology card, from the spectator events of each record.

A seat *took* a card when it came to it by name: picked at the Game Preparation
(`technology_picked`), acquired at step 4 (`technology_acquired`), gained or given by a
Laboratory (`technology_gained`, `technology_gifted`), or a Portal taken at step 1
(`portal_taken`). A card taken blind (the top of a technology deck) is named to nobody, the
taker included, so it is counted only in the totals (`blind_taken`), never per card: the
analysis reads what a spectator is told (`events_since(0, None)`) and nothing hidden. The
starting cards (a Portal of each shape and a Droid) are not taken; they are played. Per card:

- `played`: `card_played` events naming it;
- `era_discarded`: Era cards its effects discarded (`era_discarded` with it as `source`), the
  way to win; in Solo Mode what the AI's cards do is left out;
- `era_paid`: Era cards taken at step 4 to pay for it (the `era_taken` events after its
  `technology_acquired`; those paid for a blind card go to `era_paid_blind`);
- the takers' win share against their fair share (`card_stats`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from eterna.arena.card_stats import CardTally, per_card, spectator_story
from eterna.core.game import Record

COLUMNS = (("played", "Played"), ("era_discarded", "Discarded"), ("era_paid", "Paid"))
NOTE = (
    "Taken: by name (blind cards are named to nobody). Discarded: Era cards its effects "
    "discarded. Paid: Era cards taken to pay for it."
)
TAKEN_KINDS = frozenset(
    {"technology_picked", "technology_acquired", "technology_gained", "technology_gifted"}
)
BLIND = ""  # what a seat last acquired when it was taken blind


class _Game:
    """One game's cards taken (card -> seat -> times), figures and totals, event by event."""

    def __init__(self) -> None:
        self.taken: dict[str, Counter[int]] = {}
        self.figures: dict[str, Counter[str]] = {}
        self.totals: Counter[str] = Counter()
        self.acquired: dict[int, str] = {}  # seat -> the card its step 4 pays for
        self.ai = False  # between an AI card's strike and the next turn

    def count(self, card: str, column: str, amount: int = 1) -> None:
        self.figures.setdefault(card, Counter())[column] += amount

    def read(self, event: dict[str, Any]) -> None:
        kind = event["kind"]
        if kind in TAKEN_KINDS or kind == "portal_taken":
            self._took(kind, event)
        elif kind == "card_played":
            self.count(event["card"], "played")
            self.totals["played"] += 1
        elif kind == "era_discarded" and not self.ai:
            self.totals["era_discarded"] += 1
            if event["source"] is not None:
                self.count(event["source"], "era_discarded")
        elif kind == "era_taken":
            card = self.acquired.get(event["seat"], BLIND)
            self.totals["era_paid"] += 1
            if card == BLIND:
                self.totals["era_paid_blind"] += 1
            else:
                self.count(card, "era_paid")
        elif kind == "ai_strike":
            self.ai = True
        elif kind == "turn_started":
            self.ai = False

    def _took(self, kind: str, event: dict[str, Any]) -> None:
        seat, card = event["seat"], event.get("card")
        if kind == "technology_acquired":
            self.acquired[seat] = card or BLIND
        if card is None:
            self.totals["blind_taken"] += 1
            return
        self.taken.setdefault(card, Counter())[seat] += 1
        self.totals["taken"] += 1


def analyze_records(records: Sequence[Record]) -> dict[str, Any]:
    """Per technology: games and times taken, plays, Era cards discarded and paid, win share."""
    tally = CardTally("eternitium", [c for c, _ in COLUMNS])
    totals: Counter[str] = Counter()
    for record in records:
        state, events = spectator_story(record)
        game = _Game()
        for event in events:
            game.read(event)
        tally.add_game(state.players, state.winners, game.taken, game.figures)
        totals.update(game.totals)
    n = len(records) or 1
    taken = totals["taken"] + totals["blind_taken"]
    return {
        "cards_taken_per_game": taken / n,
        "blind_taken_share": totals["blind_taken"] / taken if taken else 0.0,
        "plays_per_game": totals["played"] / n,
        "era_discarded_per_game": totals["era_discarded"] / n,
        "era_paid_per_game": totals["era_paid"] / n,
        "era_paid_blind_per_game": totals["era_paid_blind"] / n,
        "per_card": per_card(tally, "Per technology", "Technology", COLUMNS, NOTE),
    }
