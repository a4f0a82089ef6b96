"""`eterna arena`: agents measured against each other with paired seating, in parallel.

The games are `eterna.arena`'s (`prepare`, `run_arena`, `aggregate`); this module checks the
command line, shows progress, and prints and writes the reports.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from eterna.arena.runner import BACKENDS, ArenaSpec, default_workers, prepare, run_arena
from eterna.arena.simulate import GameResult, split_specs
from eterna.arena.stats import aggregate, timing
from eterna.cli.common import check_table, fail, get_game, make_console, pick_seed, writable
from eterna.cli.options import BaseSeed, GameId, GameOptions, Players
from eterna.cli.reports import arena_document, arena_table, pairs_table, record_line
from eterna.core.errors import EternaError

ARENA_HELP = (
    "Measure agents against each other with paired seating, ratings and confidence intervals.\n\n"
    "The lineup (--agents) is cycled to one spec per seat. Every deal is played once for each "
    "rotation of the lineup, all with the same game seed, so each agent plays every seat of "
    "every deal and the luck of the deal cancels. --games is rounded up to whole rotation sets "
    "(a multiple of --players).\n\n"
    "Per agent: win rate with a 95% Wilson interval (a shared win counts 1/k), mean score, "
    "mean rank and an openskill (Plackett-Luce) rating mu ± 2 sigma; per seat: the win rate "
    "(seat advantage). Games run in a process pool (--workers, default: every CPU) or on Ray "
    "(--backend ray [--address ...]); results are identical for the same seed."
)

Agents = Annotated[
    str,
    typer.Option(
        "--agents",
        "-a",
        help="Comma-separated agent specs, the lineup by seat (a spec's own key=value "
        "parameters stay with it: heuristic,ismcts:iterations=200,rollout=random).",
    ),
]
Games = Annotated[
    int,
    typer.Option("--games", "-n", help="Games in total, rounded up to whole rotation sets.", min=0),
]
Workers = Annotated[
    int | None,
    typer.Option("--workers", "-w", help="Parallel workers.", show_default="CPU count"),
]
Backend = Annotated[
    str, typer.Option("--backend", help="process (a local pool) or ray (a Ray cluster).")
]
Address = Annotated[
    str | None,
    typer.Option("--address", help="Ray cluster address (ray backend; default: local Ray)."),
]
Out = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Write the results as JSON to this file.",
        show_default="arena-results/GAME-Pp-seedS.json",
    ),
]
Plot = Annotated[
    Path | None,
    typer.Option(
        "--plot",
        help="Write a PNG plot of the ratings to this file.",
        show_default="the --out file's name with .png",
    ),
]
Save = Annotated[
    bool,
    typer.Option(
        "--save/--no-save",
        help="Write the JSON results and the plot where --out and --plot default to "
        "(--no-save: only the files named).",
    ),
]
Records = Annotated[
    Path | None,
    typer.Option("--records", help="Write every game's record to this JSON Lines file."),
]


def arena(
    game: GameId,
    agents: Agents = "heuristic,random",
    games: Games = 100,
    players: Players = None,
    seed: BaseSeed = None,
    workers: Workers = None,
    backend: Backend = "process",
    address: Address = None,
    out: Out = None,
    plot: Plot = None,
    save: Save = True,
    records: Records = None,
    option: GameOptions = None,
) -> None:
    chosen = get_game(game)
    players, options = check_table(chosen, players, option)
    seed = pick_seed(seed, limit=1 << 31)
    workers = _check_backend(backend, workers, address)
    try:
        spec = prepare(chosen.id, split_specs(agents), games, players, seed=seed, options=options)
    except EternaError as exc:
        fail(str(exc))
    writable(out, "--out")  # before a plot name is made from it (`--out .` has no name)
    if save:
        out = out or Path("arena-results") / f"{chosen.id}-{players}p-seed{seed}.json"
        plot = plot or out.with_suffix(".png")
    for path, what in ((out, "--out"), (plot, "--plot"), (records, "--records")):
        writable(path, what)
    console = make_console()
    rounded = f" ({games} asked, rounded up to whole rotation sets)" if spec.games != games else ""
    console.print(
        Text(
            f"{chosen.name}, {players} players: {spec.games} games{rounded} = {spec.deals} "
            f"deals × {players} seat rotations, seed {seed}, lineup {', '.join(spec.lineup)}; "
            f"{backend} backend, {workers} worker{'s' if workers != 1 else ''}",
            style="bold",
        )
    )
    started = time.perf_counter()
    results = _run(console, spec, workers, backend, address, records is not None)
    elapsed = time.perf_counter() - started
    summary = aggregate(results)
    spent = timing(results)
    console.print(arena_table(summary, f"Arena: {len(results)} games of {chosen.name}", spent))
    pairs = pairs_table(summary)
    if pairs is not None:
        console.print(pairs)
    rate = len(results) / elapsed if elapsed > 0 else 0.0
    console.print(Text(f"{elapsed:.1f} s, {rate:.1f} games/s", style="dim"))
    run = {
        "backend": backend,
        "workers": workers,
        "seconds": elapsed,
        "games_per_second": rate,
        "agents": spent,  # CPU time per agent: machine-dependent, unlike the rest
    }
    _write(console, spec, summary, run, out, plot, records, results, chosen.name)


def _check_backend(backend: str, workers: int | None, address: str | None) -> int:
    """The number of workers, once the backend options agree with each other."""
    if backend not in BACKENDS:
        fail(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if workers is not None and workers < 1:
        fail(f"--workers must be 1 or more, not {workers}")
    if address is not None and backend != "ray":
        fail("--address is for --backend ray")
    return workers or default_workers()


def _run(
    console: Console,
    spec: ArenaSpec,
    workers: int,
    backend: str,
    address: str | None,
    keep_records: bool,
) -> list[GameResult]:
    """Play the arena's games under a progress bar (refreshed by hand: no refresh thread, so
    worker processes may be forked safely)."""
    progress = Progress(
        TextColumn("[bold]arena"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        auto_refresh=False,
    )
    try:
        with progress:
            task = progress.add_task("games", total=spec.games)

            def advance(batch: list[GameResult]) -> None:
                progress.advance(task, len(batch))
                progress.refresh()

            return run_arena(
                spec,
                workers=workers,
                backend=backend,
                address=address,
                on_results=advance,
                keep_records=keep_records,
            )
    except EternaError as exc:
        fail(str(exc))


def _write(
    console: Console,
    spec: ArenaSpec,
    summary: dict[str, Any],
    run: dict[str, Any],
    out: Path | None,
    plot: Path | None,
    records: Path | None,
    results: list[GameResult],
    name: str,
) -> None:
    """The files asked for: the JSON results, the ratings plot, the records."""
    if out is not None:
        document = arena_document(spec, summary, run)
        try:
            out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {out}: {exc.strerror or exc}")
        console.print(Text(f"Results written to {out}", style="bold"))
    if plot is not None:
        from eterna.arena.plots import plot_ratings

        title = f"{name}, {spec.players} players, {len(results)} games"
        plot_ratings(summary, plot, title=title)
        console.print(Text(f"Ratings plot written to {plot}", style="bold"))
    if records is not None:
        with records.open("w", encoding="utf-8") as sink:
            for result in results:
                sink.write(record_line(result))
        console.print(Text(f"{len(results)} records written to {records}", style="bold"))


def register(app: typer.Typer) -> None:
    app.command(name="arena", help=ARENA_HELP)(arena)
