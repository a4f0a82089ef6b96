"""What the commands print and write about many games: Rich tables and JSON documents.

Each function takes figures already computed (by `eterna.arena`) and only lays them out, so a
command reads as: check the input, compute, print the report.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from eterna.arena.runner import ArenaSpec
from eterna.arena.simulate import GameResult, Tally, summarize
from eterna.core.game import Game
from eterna.i18n import catalog
from eterna.i18n.names import seat_number
from eterna.server.lobby_words import option_words


def _rate(value: float) -> str:
    return f"{value:.1%}"


def _interval(row: dict[str, Any]) -> str:
    return f"{100 * row['win_rate_low']:.1f}-{_rate(row['win_rate_high'])}"


def _seconds(value: float) -> str:
    """Seconds for the s/move column: 1.13, 12 ms, 85 µs."""
    if value >= 0.1:
        return f"{value:.2f}"
    if value >= 0.001:
        return f"{value * 1000:.3g} ms"
    return f"{value * 1e6:.3g} µs"


def _span(d: dict[str, float]) -> str:
    return f"{d['mean']:.2f} ({d['min']:g}-{d['max']:g})"


def _show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_show(v)}" for k, v in value.items())
    return str(value)


# ---------------------------------------------------------------------------------- games


def _options_cell(game: Game, lang: str) -> Text:
    """Each option with its default, its values and its help as the lobby says it (the
    catalog's player words in `lang`; the declarations' `doc` notes are for developers)."""
    said = option_words(game, catalog(lang))
    lines = Text()
    for name, opt in game.declared_options.items():
        if lines:
            lines.append("\n")
        lines.append(name, style="bold cyan")
        lines.append(f" = {opt.default!r}")
        if opt.choices:
            lines.append(f"  (one of: {', '.join(map(str, opt.choices))})", style="dim")
        if opt.items:
            items = ", ".join(map(str, opt.items))
            lines.append(f"  (any of: {items}, comma-separated)", style="dim")
        help_text = said[name]["help"]
        if help_text:
            lines.append(f"\n  {help_text}")
    return lines or Text("none")


def games_table(games: Sequence[Game], lang: str = "en") -> Table:
    """The games with their player counts and their options (`eterna games`), the options'
    help in `lang`."""
    table = Table(title="Games", title_justify="left", show_lines=True)
    table.add_column("Game id", style="bold")
    table.add_column("Name")
    table.add_column("Players", justify="center")
    table.add_column("Options (--option key=value)")
    for game in games:
        table.add_row(
            game.id, game.name, f"{game.min_players}-{game.max_players}", _options_cell(game, lang)
        )
    return table


# ---------------------------------------------------------------------------------- simulate


def _tally_cells(tally: Tally) -> tuple[str, str, str, str]:
    return (
        str(tally.games),
        f"{tally.wins:.2f}",
        f"{tally.win_rate:.1%}",
        f"{tally.mean_score:.2f}",
    )


def simulation_table(results: Sequence[GameResult]) -> Table:
    """Wins, win rate and mean score per agent and per seat (`eterna simulate`)."""
    by_agent, by_seat = summarize(results)
    table = Table(
        title=f"Results of {len(results)} game{'s' if len(results) != 1 else ''}",
        title_justify="left",
        title_style="bold",
        caption="Wins: a shared win counts 1/k to each of its k winners.",
        caption_justify="left",
    )
    table.add_column("Agent / seat", style="bold")
    for column in ("Games", "Wins", "Win rate", "Mean score"):
        table.add_column(column, justify="right")
    for spec, tally in by_agent.items():
        table.add_row(spec, *_tally_cells(tally))
    table.add_section()
    for seat, seat_tally in sorted(by_seat.items()):
        table.add_row(f"seat {seat_number(seat)}", *_tally_cells(seat_tally))
    return table


def record_line(result: GameResult) -> str:
    """One game's record as a JSON line, with a `meta` entry naming its agents, scores and
    winners (the --out of `eterna simulate`, the --records of `eterna arena`)."""
    entry = dict(result.record or {})
    entry["meta"] = {
        "game_index": result.index,
        "agents": list(result.agents),
        "scores": list(result.scores),
        "winners": list(result.winners),
    }
    return json.dumps(entry) + "\n"


# ---------------------------------------------------------------------------------- arena


def arena_table(
    summary: dict[str, Any], title: str, timing: dict[str, dict[str, float]] | None = None
) -> Table:
    """Per agent and per seat: games, win rate with its interval, score, rank, rating (and
    seconds per decision when the agents were timed)."""
    table = Table(
        title=title,
        title_justify="left",
        title_style="bold",
        caption="Win: a shared win counts 1/k. 95% CI: Wilson. Score, Rank: means. Rating: "
        "openskill Plackett-Luce mu ± 2 sigma."
        + (" s/move: CPU seconds per decision with a choice." if timing else ""),
        caption_justify="left",
    )
    table.add_column("Agent / seat", style="bold", overflow="fold")
    columns = ["Games", "Win", "95% CI", "Score", "Rank", "Rating ±2σ"]
    if timing:
        columns.append("s/move")
    for column in columns:
        table.add_column(column, justify="right", no_wrap=True)
    for row in summary["agents"]:
        rating = row.get("rating")
        cells = [
            row["agent"],
            *_line_cells(row),
            f"{rating['mu']:.1f} ± {2 * rating['sigma']:.1f}" if rating else "-",
        ]
        if timing:
            spent = timing.get(row["agent"])
            cells.append(_seconds(spent["seconds_per_decision"]) if spent else "-")
        table.add_row(*cells)
    table.add_section()
    for row in summary["seats"]:
        cells = [f"seat {seat_number(row['seat'])}", *_line_cells(row), ""]
        table.add_row(*cells, *([""] if timing else []))
    return table


def _line_cells(row: dict[str, Any]) -> list[str]:
    return [
        str(row["games"]),
        _rate(row["win_rate"]),
        _interval(row),
        f"{row['mean_score']:.2f}",
        f"{row['mean_rank']:.2f}",
    ]


def pairs_table(summary: dict[str, Any]) -> Table | None:
    """Head to head: how often each agent finished ahead of each other one (None for a single
    agent)."""
    pairs = summary.get("head_to_head") or []
    if not pairs:
        return None
    table = Table(
        title="Head to head",
        title_justify="left",
        title_style="bold",
        caption="Meetings: games x pairs of seats the two held. Share: ahead + half the levels "
        "(a better final rank is ahead), with its 95% Wilson CI.",
        caption_justify="left",
    )
    table.add_column("Agent", style="bold", overflow="fold")
    table.add_column("vs", overflow="fold")
    for column in ("Meetings", "Ahead", "Level", "Behind", "Share", "95% CI"):
        table.add_column(column, justify="right", no_wrap=True)
    for row in pairs:
        table.add_row(
            row["agent"],
            row["opponent"],
            str(row["meetings"]),
            str(row["ahead"]),
            str(row["level"]),
            str(row["behind"]),
            _rate(row["share"]),
            f"{100 * row['share_low']:.1f}-{100 * row['share_high']:.1f}%",
        )
    return table


def arena_document(spec: ArenaSpec, summary: dict[str, Any], run: dict[str, Any]) -> dict[str, Any]:
    """The arena's JSON results: what decided its games, how they were run, and the summary."""
    return {
        "arena": {
            "game": spec.game,
            "players": spec.players,
            "lineup": list(spec.lineup),
            "games_requested": spec.requested,
            "games": spec.games,
            "deals": spec.deals,
            "seed": spec.seed,
            "options": spec.options,
        },
        "run": run,
        **summary,
    }


# ---------------------------------------------------------------------------------- analyze


def analysis_tables(analysis: dict[str, Any], name: str, top: int | None = None) -> list[Any]:
    """A headline, then by seat (one table per player count), by agent, per game, and per card
    where the game has per-card statistics (its first `top` rows only, if given)."""
    head = Text(f"{name}: {analysis['records']} finished records", style="bold")
    if analysis["unfinished"]:
        head.append(f" ({analysis['unfinished']} unfinished left out)")
    parts: list[Any] = [head]
    for players, rows in analysis["seats"].items():
        parts.append(_seat_table(players, rows, analysis["scores"][players]))
    if analysis["agents"]:
        parts.append(_agent_table(analysis["agents"]))
    parts.append(_per_game_table(analysis))
    per_card = (analysis.get("game_stats") or {}).get("per_card")
    if per_card:
        parts.append(_per_card_table(per_card, top))
    return parts


def _seat_table(players: str, rows: list[dict[str, Any]], scores: dict[str, Any]) -> Table:
    table = Table(
        title=f"{players} players: by seat (fair share {1 / int(players):.1%})",
        title_justify="left",
    )
    for column in ("Seat", "Games", "Win", "95% CI (Wilson)", "Mean score"):
        table.add_column(column, justify="right")
    table.add_column("Score sd / min-median-max", justify="right")
    for row in rows:
        d = scores[str(row["seat"])]
        table.add_row(
            str(row["seat"]),
            str(row["games"]),
            _rate(row["win_rate"]),
            _interval(row),
            f"{row['mean_score']:.2f}",
            f"{d['sd']:.2f} / {d['min']:g}-{d['median']:g}-{d['max']:g}",
        )
    return table


def _agent_table(rows: list[dict[str, Any]]) -> Table:
    table = Table(title="By agent (from the records' meta)", title_justify="left")
    for column in ("Agent", "Games", "Win", "95% CI (Wilson)", "Mean score", "Mean rank"):
        table.add_column(column, justify="left" if column == "Agent" else "right")
    for row in rows:
        table.add_row(row["agent"], *_line_cells(row))
    return table


def _per_game_table(analysis: dict[str, Any]) -> Table:
    table = Table(title="Per game", title_justify="left")
    table.add_column("Statistic")
    table.add_column("Value", justify="right")
    g = analysis["games"]
    table.add_row("actions per game (mean, min-max)", _span(g["length"]))
    table.add_row("winning score (mean, min-max)", _span(g["winning_score"]))
    table.add_row("winning margin over the next seat", _span(g["winning_margin"]))
    table.add_row("shared wins", _rate(g["shared_win_rate"]))
    table.add_row("games without a winner", _rate(g["no_winner_rate"]))
    extra = analysis.get("game_stats") or {}
    for key, value in extra.items():
        if key == "per_card":
            continue
        table.add_row(key.replace("_", " "), _show(value))
    return table


def _per_card_table(per_card: dict[str, Any], top: int | None) -> Table:
    """One row per card: how often taken, what it did, and its takers' win share."""
    rows = per_card["rows"]
    shown = rows if top is None else rows[:top]
    more = f", the first {len(shown)} of {len(rows)}" if len(shown) < len(rows) else ""
    table = Table(
        title=f"{per_card['title']} (by the low end of the win share's 95% CI{more})",
        title_justify="left",
        caption="Games: games in which a player took it (share of all games). Takers: players "
        f"who took it, one per game. {per_card['note']} Win: the takers' win share (a shared "
        "win counts 1/k) with its 95% Wilson CI; Fair: that share if taking it changed "
        "nothing. Agents' skill is mixed in: compare cards within one lineup.",
        caption_justify="left",
    )
    table.add_column(per_card["label"], overflow="fold", min_width=12)
    columns = per_card["columns"]
    headers = ["Games", "Taken", "Takers", *[label for _, label in columns], "Win", "95% CI"]
    for header in [*headers, "Fair"]:
        table.add_column(header, justify="right", no_wrap=True)
    for row in shown:
        table.add_row(*_card_cells(row, columns))
    return table


def _card_cells(row: dict[str, Any], columns: list[list[str]]) -> list[str]:
    share = row["win_share"]
    return [
        row["name"],
        f"{row['games']} ({row['game_rate']:.0%})",
        str(row["taken"]),
        str(row["takers"]),
        *[f"{row[key]:g}" for key, _ in columns],
        "-" if share is None else _rate(share),
        "-"
        if share is None
        else f"{100 * row['win_share_low']:.1f}-{_rate(row['win_share_high'])}",
        "-" if share is None else _rate(row["fair_share"]),
    ]
