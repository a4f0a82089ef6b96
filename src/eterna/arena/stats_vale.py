"""The Vale of Eternity's statistics per creature, from the spectator events of each record.

A seat *took* a creature when it summoned it into its area (`summoned`, paid or free); taming
(`card_tamed`, into the hand) is counted apart, since a tamed card may be sold or never
summoned. Per creature:

- `taken`: its `summoned` events; `tamed`: its `card_tamed` events;
- `points`: the points its effects gave, the `points_gained` and `points_stolen` events whose
  `source` is that creature (points a rule gave, `source` null, belong to no card);
- the takers' win share against their fair share (`card_stats`).

Every figure is read from `events_since(0, None)`, what a spectator is told.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from eterna.arena.card_stats import CardTally, per_card, spectator_story
from eterna.core.game import Record

COLUMNS = (("tamed", "Tamed"), ("points", "Points"))
POINT_KINDS = ("points_gained", "points_stolen")
NOTE = "Taken: summoned. Points: the points its effects gave (gained or stolen)."


def game_cards(
    events: Sequence[dict[str, Any]],
) -> tuple[dict[str, Counter[int]], dict[str, Counter[str]], Counter[str]]:
    """One game's summons per creature and seat, figures per creature, and game totals."""
    taken: dict[str, Counter[int]] = {}
    figures: dict[str, Counter[str]] = {}
    totals: Counter[str] = Counter()
    for event in events:
        kind = event["kind"]
        if kind == "summoned":
            taken.setdefault(event["card"], Counter())[event["seat"]] += 1
            totals["summoned"] += 1
        elif kind == "card_tamed":
            figures.setdefault(event["card"], Counter())["tamed"] += 1
            totals["tamed"] += 1
        elif kind in POINT_KINDS:
            source = event["source"]
            totals["points"] += event["points"]
            if source is not None:
                figures.setdefault(source, Counter())["points"] += event["points"]
                totals["card_points"] += event["points"]
    return taken, figures, totals


def analyze_records(records: Sequence[Record]) -> dict[str, Any]:
    """Per creature (taken = summoned): games, summons, tamings, points, takers' win share."""
    tally = CardTally("vale", [c for c, _ in COLUMNS])
    totals: Counter[str] = Counter()
    for record in records:
        state, events = spectator_story(record)
        taken, figures, sums = game_cards(events)
        tally.add_game(state.players, state.winners, taken, figures)
        totals.update(sums)
    n = len(records) or 1
    gained = totals["points"]
    return {
        "summons_per_game": totals["summoned"] / n,
        "tamings_per_game": totals["tamed"] / n,
        "card_points_share": totals["card_points"] / gained if gained else 0.0,
        "per_card": per_card(tally, "Per creature", "Creature", COLUMNS, NOTE),
    }
