"""`eterna arena`, `eterna hint` and `eterna analyze`: measuring agents and games.

Registered on the main Typer app by `register(app)` (called at the end of `eterna.cli.app`).
Bad input prints one line `Error: ...` and exits 2, like every other command.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from eterna.arena.simulate import GameResult, split_specs
from eterna.cli.app import (
    check_table,
    fail,
    get_game,
    load_record,
    make_console,
    pick_seed,
)
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
HINT_HELP = (
    "Suggest a move for a seat of a recorded game, from that seat's point of view only.\n\n"
    "Replays the record (or its first --at actions) and, if it is that seat's turn, runs the "
    "ISMCTS agent through the seat's window (its view, legal moves and determinizations) and "
    "shows every candidate with its visits, estimated win probability (a shared win counts "
    "1/k) and expected final score."
)
ANALYZE_HELP = (
    "Balance statistics over records: seat advantage, scores and per-game statistics.\n\n"
    "Reads records (JSON or JSON Lines, e.g. from `eterna simulate --out` or "
    "`eterna arena --records`): win rate by seat with 95% Wilson intervals, score "
    "distributions, game lengths and margins, per-agent results when the records name their "
    "agents, and the game's own statistics where it has them (Eternity: pledges per round, "
    "rate of trees == tricks). --plot-dir writes PNG plots."
)


def _rate(value: float) -> str:
    return f"{value:.1%}"


def _interval(row: dict[str, Any]) -> str:
    return f"{100 * row['win_rate_low']:.1f}-{_rate(row['win_rate_high'])}"


def arena_table(
    summary: dict[str, Any], title: str, timing: dict[str, dict[str, float]] | None = None
) -> Table:
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
            str(row["games"]),
            _rate(row["win_rate"]),
            _interval(row),
            f"{row['mean_score']:.2f}",
            f"{row['mean_rank']:.2f}",
            f"{rating['mu']:.1f} ± {2 * rating['sigma']:.1f}" if rating else "-",
        ]
        if timing:
            spent = timing.get(row["agent"])
            cells.append(_seconds(spent["seconds_per_decision"]) if spent else "-")
        table.add_row(*cells)
    table.add_section()
    for row in summary["seats"]:
        cells = [
            f"seat {row['seat']}",
            str(row["games"]),
            _rate(row["win_rate"]),
            _interval(row),
            f"{row['mean_score']:.2f}",
            f"{row['mean_rank']:.2f}",
            "",
        ]
        table.add_row(*cells, *([""] if timing else []))
    return table


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


def _seconds(value: float) -> str:
    """Seconds for the s/move column: 1.13, 12 ms, 85 µs."""
    if value >= 0.1:
        return f"{value:.2f}"
    if value >= 0.001:
        return f"{value * 1000:.3g} ms"
    return f"{value * 1e6:.3g} µs"


def _writable(path: Path | None, what: str) -> None:
    if path is None:
        return
    if path.is_dir():
        fail(f"{what} {path} is a directory; give a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")


def arena(
    game: Annotated[str, typer.Argument(help="Game id, e.g. eternity.")],
    agents: Annotated[
        str,
        typer.Option(
            "--agents",
            "-a",
            help="Comma-separated agent specs, the lineup by seat (a spec's own key=value "
            "parameters stay with it: heuristic,ismcts:iterations=200,rollout=random).",
        ),
    ] = "heuristic,random",
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", help="Games in total, rounded up to whole rotation sets.", min=0
        ),
    ] = 100,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Number of players.", show_default="4")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Base seed.", show_default="drawn at random")
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-w", help="Parallel workers.", show_default="CPU count"),
    ] = None,
    backend: Annotated[
        str, typer.Option("--backend", help="process (a local pool) or ray (a Ray cluster).")
    ] = "process",
    address: Annotated[
        str | None,
        typer.Option("--address", help="Ray cluster address (ray backend; default: local Ray)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Write the results as JSON to this file.",
            show_default="arena-results/GAME-Pp-seedS.json",
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            help="Write a PNG plot of the ratings to this file.",
            show_default="the --out file's name with .png",
        ),
    ] = None,
    save: Annotated[
        bool,
        typer.Option(
            "--save/--no-save",
            help="Write the JSON results and the plot where --out and --plot default to "
            "(--no-save: only the files named).",
        ),
    ] = True,
    records: Annotated[
        Path | None,
        typer.Option("--records", help="Write every game's record to this JSON Lines file."),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A game option key=value (repeatable)."),
    ] = None,
) -> None:
    from eterna.arena.runner import BACKENDS, default_workers, prepare, run_arena
    from eterna.arena.stats import aggregate, timing

    chosen = get_game(game)
    players, options = check_table(chosen, players, option)
    seed = pick_seed(seed, limit=1 << 31)
    if backend not in BACKENDS:
        fail(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if workers is not None and workers < 1:
        fail(f"--workers must be 1 or more, not {workers}")
    if address is not None and backend != "ray":
        fail("--address is for --backend ray")
    workers = workers or default_workers()
    try:
        spec = prepare(chosen.id, split_specs(agents), games, players, seed=seed, options=options)
    except EternaError as exc:
        fail(str(exc))
    if save:
        out = out or Path("arena-results") / f"{chosen.id}-{players}p-seed{seed}.json"
        plot = plot or out.with_suffix(".png")
    for path, what in ((out, "--out"), (plot, "--plot"), (records, "--records")):
        _writable(path, what)
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
    progress = Progress(
        TextColumn("[bold]arena"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        auto_refresh=False,  # no refresh thread: worker processes may be forked safely
    )
    started = time.perf_counter()
    try:
        with progress:
            task = progress.add_task("games", total=spec.games)

            def advance(batch: list[GameResult]) -> None:
                progress.advance(task, len(batch))
                progress.refresh()

            results = run_arena(
                spec,
                workers=workers,
                backend=backend,
                address=address,
                on_results=advance,
                keep_records=records is not None,
            )
    except EternaError as exc:
        fail(str(exc))
    elapsed = time.perf_counter() - started
    summary = aggregate(results)
    spent = timing(results)
    console.print(arena_table(summary, f"Arena: {len(results)} games of {chosen.name}", spent))
    pairs = pairs_table(summary)
    if pairs is not None:
        console.print(pairs)
    rate = len(results) / elapsed if elapsed > 0 else 0.0
    console.print(Text(f"{elapsed:.1f} s, {rate:.1f} games/s", style="dim"))
    if out is not None:
        document = {
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
            "run": {
                "backend": backend,
                "workers": workers,
                "seconds": elapsed,
                "games_per_second": rate,
                "agents": spent,  # CPU time per agent: machine-dependent, unlike the rest
            },
            **summary,
        }
        try:
            out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {out}: {exc.strerror or exc}")
        console.print(Text(f"Results written to {out}", style="bold"))
    if plot is not None:
        from eterna.arena.plots import plot_ratings

        plot_ratings(summary, plot, title=f"{chosen.name}, {players} players, {len(results)} games")
        console.print(Text(f"Ratings plot written to {plot}", style="bold"))
    if records is not None:
        with records.open("w", encoding="utf-8") as sink:
            for result in results:
                entry = dict(result.record or {})
                entry["meta"] = {
                    "game_index": result.index,
                    "agents": list(result.agents),
                    "scores": list(result.scores),
                    "winners": list(result.winners),
                }
                sink.write(json.dumps(entry) + "\n")
        console.print(Text(f"{len(results)} records written to {records}", style="bold"))


def hint(
    record: Annotated[Path, typer.Argument(help="A record: a JSON file, or JSON Lines.")],
    seat: Annotated[int, typer.Option("--seat", help="The seat to advise, 0-based.")],
    iterations: Annotated[
        int, typer.Option("--iterations", "-i", help="ISMCTS iterations.", min=1)
    ] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the search.")] = 0,
    at: Annotated[
        int | None,
        typer.Option("--at", help="Advise after only this many of the record's actions.", min=0),
    ] = None,
    game_index: Annotated[
        int, typer.Option("--game-index", help="Which game of a JSON Lines file (0-based).")
    ] = 0,
) -> None:
    from eterna.arena.hints import advise, hint_table
    from eterna.cli.app import start_replay

    entry = load_record(record, game_index)
    state, actions = start_replay(entry)
    if not 0 <= seat < state.players:
        fail(f"--seat must be a seat from 0 to {state.players - 1}, not {seat}")
    if at is not None and at > len(actions):
        fail(f"--at must be from 0 to {len(actions)}: the record holds {len(actions)} actions")
    upto = actions if at is None else actions[:at]
    for number, text in enumerate(upto, 1):
        try:
            state.apply(text)
        except EternaError as exc:
            fail(f"action {number} ({text!r}) is refused: {exc}")
    try:
        candidates = advise(state, seat, iterations=iterations, seed=seed)
    except EternaError as exc:
        fail(str(exc))
    console = make_console()
    console.print(
        Text(
            f"{state.game.name}, after {len(upto)} actions: seat {seat} to move. "
            f"Recommended: {candidates[0].action}",
            style="bold",
        )
    )
    console.print(hint_table(candidates, f"ISMCTS, {iterations} iterations, seed {seed}"))


def analyze(
    game: Annotated[str, typer.Argument(help="Game id, e.g. eternity.")],
    file: Annotated[Path, typer.Argument(help="Records: JSON Lines (or a JSON list).")],
    plot_dir: Annotated[
        Path | None, typer.Option("--plot-dir", help="Write PNG plots to this directory.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the statistics as JSON to this file.")
    ] = None,
) -> None:
    from eterna.arena.analyze import analyze_records, public, write_plots
    from eterna.core.records import read_records

    chosen = get_game(game)
    try:
        entries = list(read_records(file))
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        fail(f"{file} is not a text file")
    except (EternaError, ValueError) as exc:
        fail(f"{file} is not a record file: {exc}")
    if not entries:
        fail(f"{file} holds no record")
    if plot_dir is not None and plot_dir.exists() and not plot_dir.is_dir():
        fail(f"--plot-dir {plot_dir} is a file, not a directory")
    _writable(out, "--out")
    try:
        analysis = analyze_records(chosen.id, entries)
    except EternaError as exc:
        fail(str(exc))
    console = make_console()
    console.print(*analysis_tables(analysis, chosen.name), sep="\n")
    if out is not None:
        out.write_text(json.dumps(public(analysis), indent=1) + "\n", encoding="utf-8")
        console.print(Text(f"Statistics written to {out}", style="bold"))
    if plot_dir is not None:
        try:
            paths = write_plots(analysis, plot_dir)
        except OSError as exc:
            fail(f"cannot write plots to {plot_dir}: {exc.strerror or exc}")
        console.print(Text(f"{len(paths)} plots written to {plot_dir}", style="bold"))


def analysis_tables(analysis: dict[str, Any], name: str) -> list[Any]:
    parts: list[Any] = []
    head = Text(f"{name}: {analysis['records']} finished records", style="bold")
    if analysis["unfinished"]:
        head.append(f" ({analysis['unfinished']} unfinished left out)")
    parts.append(head)
    for players, rows in analysis["seats"].items():
        table = Table(
            title=f"{players} players: by seat (fair share {1 / int(players):.1%})",
            title_justify="left",
        )
        for column in ("Seat", "Games", "Win", "95% CI (Wilson)", "Mean score"):
            table.add_column(column, justify="right")
        table.add_column("Score sd / min-median-max", justify="right")
        for row in rows:
            d = analysis["scores"][players][str(row["seat"])]
            table.add_row(
                str(row["seat"]),
                str(row["games"]),
                _rate(row["win_rate"]),
                _interval(row),
                f"{row['mean_score']:.2f}",
                f"{d['sd']:.2f} / {d['min']:g}-{d['median']:g}-{d['max']:g}",
            )
        parts.append(table)
    if analysis["agents"]:
        table = Table(title="By agent (from the records' meta)", title_justify="left")
        for column in ("Agent", "Games", "Win", "95% CI (Wilson)", "Mean score", "Mean rank"):
            table.add_column(column, justify="left" if column == "Agent" else "right")
        for row in analysis["agents"]:
            table.add_row(
                row["agent"],
                str(row["games"]),
                _rate(row["win_rate"]),
                _interval(row),
                f"{row['mean_score']:.2f}",
                f"{row['mean_rank']:.2f}",
            )
        parts.append(table)
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
        table.add_row(key.replace("_", " "), _show(value))
    parts.append(table)
    return parts


def _span(d: dict[str, float]) -> str:
    return f"{d['mean']:.2f} ({d['min']:g}-{d['max']:g})"


def _show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_show(v)}" for k, v in value.items())
    return str(value)


def register(app: typer.Typer) -> None:
    """Add `arena`, `hint` and `analyze` to the main app."""
    app.command(name="arena", help=ARENA_HELP)(arena)
    app.command(name="hint", help=HINT_HELP)(hint)
    app.command(name="analyze", help=ANALYZE_HELP)(analyze)


__all__ = ["register"]
