"""Eternity's balance statistics, computed from records through replayed spectator views only.

- pledges per round: how many cards were pledged in each round (and by each seat);
- exact-match rate: the share of (seat, round) results whose trees equal their tricks, the
  condition for scoring in Eternity, overall, per seat and per round.

Nothing here imports the game: the record is replayed through the registry and read through
`view(None)` (the round number before each action, the final `round_results`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from eterna.core.game import Record
from eterna.core.records import replay
from eterna.games.eternity.views import as_eternity_view


def record_stats(record: Record) -> dict[str, Any]:
    """Pledges per round (per seat) and the final round results of one Eternity record."""
    start = dict(record, actions=[])
    state = replay(start)
    pledges: dict[int, list[int]] = {}
    actions = cast("list[str]", record.get("actions", []))  # a record the arena wrote
    for text in actions:
        seat = state.current_player
        if text.startswith("pledge") and seat is not None:
            round_number = as_eternity_view(state.view(None))["round"]
            pledges.setdefault(round_number, [0] * state.players)[seat] += 1
        state.apply(text)
    view = as_eternity_view(state.view(None))
    results = view.get("round_results", [])
    for number in range(1, len(results) + 1):
        pledges.setdefault(number, [0] * state.players)
    return {"players": state.players, "pledges": pledges, "round_results": results}


def analyze_records(records: Sequence[Record]) -> dict[str, Any]:
    """Pledges per round and the exact-match (trees == tricks) rate over many records."""
    rounds = 0
    pledged = 0
    by_round_pledges: dict[int, list[int]] = {}  # round -> [pledges, rounds seen]
    matches = seat_rounds = 0
    seat_match: dict[int, list[int]] = {}  # seat -> [exact, rounds]
    round_match: dict[int, list[int]] = {}  # round -> [exact, seat-rounds]
    for record in records:
        stats = record_stats(record)
        for number, per_seat in stats["pledges"].items():
            rounds += 1
            pledged += sum(per_seat)
            entry = by_round_pledges.setdefault(number, [0, 0])
            entry[0] += sum(per_seat)
            entry[1] += 1
        for number, result in enumerate(stats["round_results"], 1):
            for seat, line in enumerate(result):
                hit = int(line["trees"] == line["tricks"])
                matches += hit
                seat_rounds += 1
                for table, key in ((seat_match, seat), (round_match, number)):
                    cell = table.setdefault(key, [0, 0])
                    cell[0] += hit
                    cell[1] += 1
    return {
        "rounds": rounds,
        "pledges_per_round": pledged / rounds if rounds else 0.0,
        "pledges_per_round_by_round": {
            str(n): p / c for n, (p, c) in sorted(by_round_pledges.items()) if c
        },
        "exact_match_rate": matches / seat_rounds if seat_rounds else 0.0,
        "exact_match_rate_by_seat": {str(s): h / n for s, (h, n) in sorted(seat_match.items())},
        "exact_match_rate_by_round": {str(r): h / n for r, (h, n) in sorted(round_match.items())},
    }
