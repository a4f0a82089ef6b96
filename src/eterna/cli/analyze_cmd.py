"""`eterna analyze`: balance statistics over records (computed by `eterna.arena.analyze`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from eterna.cli.common import fail, get_game, make_console, read_record_file, writable
from eterna.cli.options import GameId
from eterna.cli.reports import analysis_tables
from eterna.core.errors import EternaError

ANALYZE_HELP = (
    "Balance statistics over records: seat advantage, scores and per-game statistics.\n\n"
    "Reads records (JSON or JSON Lines, e.g. from `eterna simulate --out` or "
    "`eterna arena --records`): win rate by seat with 95% Wilson intervals, score "
    "distributions, game lengths and margins, per-agent results when the records name their "
    "agents, and the game's own statistics where it has them (Eternity: pledges per round, "
    "rate of trees == tricks; the Vale: per creature, Eternitium: per technology, how often "
    "it is taken, what it did and the win share of the players who took it). --plot-dir "
    "writes PNG plots."
)

Records = Annotated[Path, typer.Argument(help="Records: JSON Lines (or a JSON list).")]
PlotDir = Annotated[
    Path | None, typer.Option("--plot-dir", help="Write PNG plots to this directory.")
]
Out = Annotated[
    Path | None, typer.Option("--out", help="Write the statistics as JSON to this file.")
]

Top = Annotated[
    int | None,
    typer.Option("--top", min=1, help="Show only the first N rows of a per-card table."),
]


def analyze(
    game: GameId, file: Records, plot_dir: PlotDir = None, out: Out = None, top: Top = None
) -> None:
    from eterna.arena.analyze import analyze_records, public, write_plots

    chosen = get_game(game)
    entries = read_record_file(file)
    if plot_dir is not None and plot_dir.exists() and not plot_dir.is_dir():
        fail(f"--plot-dir {plot_dir} is a file, not a directory")
    writable(out, "--out")
    try:
        analysis = analyze_records(chosen.id, entries)
    except EternaError as exc:
        fail(str(exc))
    console = make_console()
    console.print(*analysis_tables(analysis, chosen.name, top), sep="\n")
    if out is not None:
        out.write_text(json.dumps(public(analysis), indent=1) + "\n", encoding="utf-8")
        console.print(Text(f"Statistics written to {out}", style="bold"))
    if plot_dir is not None:
        try:
            paths = write_plots(analysis, plot_dir)
        except OSError as exc:
            fail(f"cannot write plots to {plot_dir}: {exc.strerror or exc}")
        console.print(Text(f"{len(paths)} plots written to {plot_dir}", style="bold"))


def register(app: typer.Typer) -> None:
    app.command(name="analyze", help=ANALYZE_HELP)(analyze)
