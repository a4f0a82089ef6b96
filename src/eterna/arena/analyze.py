"""Balance tools over records: seat advantage, score distributions, per-game statistics.

Every record is replayed (so nothing is taken on trust from its `meta`), then summarised with
nothing game-specific. Statistics particular to one game come from its entry in `GAME_STATS`
below (the one registry of per-game statistics), computed from replayed views or spectator
events only; the Vale's and Eternitium's include a `per_card` table (`card_stats`).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from eterna.arena import stats_eternitium, stats_eternity, stats_vale
from eterna.arena.stats import Line, final_ranks
from eterna.core.errors import BadRecord, EternaError
from eterna.core.game import GameState, Record
from eterna.core.records import replay
from eterna.core.registry import load_game
from eterna.i18n.names import seat_number

# Game id -> statistics over that game's records (the per-game hook when the game has none).
GAME_STATS: dict[str, Callable[[Sequence[Record]], dict[str, Any]]] = {
    "eternity": stats_eternity.analyze_records,
    "vale": stats_vale.analyze_records,
    "eternitium": stats_eternitium.analyze_records,
}


def game_stats_hook(game_id: str) -> Callable[[Sequence[Record]], dict[str, Any]] | None:
    return GAME_STATS.get(game_id)


def _describe(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "sd": 0.0, "min": 0.0, "median": 0.0, "max": 0.0}
    return {
        "mean": statistics.fmean(values),
        "sd": statistics.pstdev(values),
        "min": min(values),
        "median": statistics.median(values),
        "max": max(values),
    }


@dataclass
class _Totals:
    """What `analyze_records` adds up, record by record."""

    finished: list[Record] = field(default_factory=list)
    unfinished: int = 0
    # players -> seat -> totals, and final scores
    seat_lines: dict[int, dict[int, Line]] = field(default_factory=dict)
    seat_scores: dict[int, dict[int, list[int]]] = field(default_factory=dict)
    agent_lines: dict[str, Line] = field(default_factory=dict)
    lengths: list[int] = field(default_factory=list)
    winning: list[int] = field(default_factory=list)
    margins: list[int] = field(default_factory=list)
    shared: int = 0
    no_winner: int = 0

    def add(self, record: Record, state: GameState) -> None:
        """One finished game: its record and its final state."""
        self.finished.append(record)
        scores, winners, players = state.scores, state.winners, state.players
        ranks = final_ranks(scores, winners)
        k = len(winners)
        meta = record.get("meta")
        specs = meta.get("agents") if isinstance(meta, dict) else None
        for seat in range(players):
            share = 1 / k if seat in winners else 0.0
            self.seat_lines.setdefault(players, {}).setdefault(seat, Line()).add(
                share, scores[seat], ranks[seat]
            )
            self.seat_scores.setdefault(players, {}).setdefault(seat, []).append(scores[seat])
            if isinstance(specs, list) and len(specs) == players:
                self.agent_lines.setdefault(str(specs[seat]), Line()).add(
                    share, scores[seat], ranks[seat]
                )
        actions = cast("list[str]", record.get("actions", []))  # a record the arena wrote
        self.lengths.append(len(actions))
        self.shared += k > 1
        self.no_winner += k == 0
        if winners:
            top = max(scores[s] for s in winners)
            self.winning.append(top)
            others = [scores[s] for s in range(players) if s not in winners]
            self.margins.append(top - max(others) if others else 0)

    def summary(self, game_id: str) -> dict[str, Any]:
        n = len(self.finished)
        return {
            "game": game_id,
            "records": n,
            "unfinished": self.unfinished,
            "seats": {
                str(p): [
                    {"seat": s, **line.summary(), "fair_share": 1 / p}
                    for s, line in sorted(lines.items())
                ]
                for p, lines in sorted(self.seat_lines.items())
            },
            "scores": {
                str(p): {str(s): _describe(v) for s, v in sorted(per.items())}
                for p, per in sorted(self.seat_scores.items())
            },
            "games": {
                "length": _describe(self.lengths),
                "winning_score": _describe(self.winning),
                "winning_margin": _describe(self.margins),
                "shared_win_rate": self.shared / n if n else 0.0,
                "no_winner_rate": self.no_winner / n if n else 0.0,
            },
            "agents": [
                {"agent": spec, **line.summary()} for spec, line in self.agent_lines.items()
            ],
            "game_stats": None,
        }


def _replayed(game_id: str, number: int, record: Record) -> GameState:
    if not isinstance(record, dict) or record.get("game") != game_id:
        found = record.get("game") if isinstance(record, dict) else None
        raise EternaError(f"record {number} is for game {found!r}, not {game_id!r}")
    try:
        return replay(record)
    except BadRecord as exc:
        raise EternaError(f"record {number} does not replay: {exc}") from None


def analyze_records(game_id: str, records: Sequence[Record]) -> dict[str, Any]:
    """Summarise finished records of `game_id` (EternaError if one is of another game or does
    not replay; unfinished records are counted and left out)."""
    game = load_game(game_id)
    totals = _Totals()
    for number, record in enumerate(records):
        state = _replayed(game.id, number, record)
        if state.is_terminal:
            totals.add(record, state)
        else:
            totals.unfinished += 1
    out = totals.summary(game.id)
    hook = game_stats_hook(game.id)
    if hook is not None and totals.finished:
        out["game_stats"] = hook(totals.finished)
    out["_score_samples"] = {p: dict(per) for p, per in totals.seat_scores.items()}
    out["_lengths"] = totals.lengths
    return out


def write_plots(analysis: dict[str, Any], directory: Path) -> list[Path]:
    """Seat win rates (with 95% Wilson intervals), score histograms per seat and game lengths."""
    from eterna.arena.plots import plot_bars, plot_histograms

    game = analysis["game"]
    paths = []
    for players, rows in analysis["seats"].items():
        paths.append(
            plot_bars(
                [f"seat {seat_number(r['seat'])}" for r in rows],
                [r["win_rate"] for r in rows],
                directory / f"{game}-{players}p-seat-win-rate.png",
                f"{game}, {players} players: win rate by seat (95% Wilson)",
                "win rate",
                lows=[r["win_rate_low"] for r in rows],
                highs=[r["win_rate_high"] for r in rows],
                reference=1 / int(players),
            )
        )
    for players, per in analysis["_score_samples"].items():
        paths.append(
            plot_histograms(
                {f"seat {seat_number(s)}": v for s, v in sorted(per.items())},
                directory / f"{game}-{players}p-scores.png",
                f"{game}, {players} players: final scores by seat",
                "final score",
            )
        )
    paths.append(
        plot_histograms(
            {"actions": analysis["_lengths"]},
            directory / f"{game}-game-length.png",
            f"{game}: game length",
            "actions per game",
        )
    )
    paths.extend(_card_plots(analysis, directory))
    return paths


def _card_plots(analysis: dict[str, Any], directory: Path) -> list[Path]:
    """The takers' win share per card (95% Wilson) against the fair share, if any card."""
    from eterna.arena.plots import plot_shares

    table = (analysis.get("game_stats") or {}).get("per_card")
    rows = [r for r in table["rows"] if r["takers"]] if table else []
    if not table or not rows:
        return []
    game = analysis["game"]
    label = table["label"].lower()
    return [
        plot_shares(
            [f"{r['name']} ({r['takers']})" for r in rows],
            [(r["win_share"], r["win_share_low"], r["win_share_high"]) for r in rows],
            directory / f"{game}-{label}-win-share.png",
            f"{game}: win share of the players who took each {label} (95% Wilson)",
            [r["fair_share"] for r in rows],
        )
    ]


def public(analysis: dict[str, Any]) -> dict[str, Any]:
    """The analysis without its raw samples (for JSON output)."""
    return {k: v for k, v in analysis.items() if not k.startswith("_")}


__all__ = ["GAME_STATS", "analyze_records", "game_stats_hook", "public", "write_plots"]
