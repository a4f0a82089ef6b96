"""`eterna simulate`: many seeded games between agents, tabulated (the loop itself is
`eterna.arena.simulate.run_games`)."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from eterna.arena.simulate import GameResult, check_agent, lineup, run_games, split_specs
from eterna.cli.common import check_table, fail, get_game, make_console, pick_seed
from eterna.cli.options import BaseSeed, GameId, GameOptions, Players
from eterna.cli.reports import record_line, simulation_table
from eterna.core.errors import EternaError
from eterna.core.game import Game

SIMULATE_HELP = (
    "Play many seeded games between agents and tabulate the results.\n\n"
    "Agents (--agents) are assigned to seats in the order given, cycled when there are fewer "
    "than players (an error when there are more): that list is the lineup. "
    "Seats rotate every game for fairness: in game g, seat s gets lineup\\[(s + g) % players]. "
    "Game g is dealt from seed + g and the agent in seat s of game g is seeded from "
    "(seed, g, s), so the same arguments replay the same games.\n\n"
    "The table gives wins, win rate and mean score per agent and per seat; "
    "a shared win counts 1/k to each of its k winners."
)

Games = Annotated[int, typer.Option("--games", "-n", help="Number of games.", min=0)]
Agents = Annotated[
    str,
    typer.Option(
        "--agents",
        "-a",
        help="Comma-separated agent specs, the lineup by seat (a spec's own key=value "
        "parameters stay with it: random,ismcts:iterations=200,rollout=heuristic).",
    ),
]
Out = Annotated[
    Path | None,
    typer.Option("--out", help="Write every game's record to this JSON Lines file."),
]


def simulate(
    game: GameId,
    games: Games = 100,
    players: Players = None,
    agents: Agents = "random",
    seed: BaseSeed = None,
    out: Out = None,
    option: GameOptions = None,
) -> None:
    chosen = get_game(game)
    players, options = check_table(chosen, players, option)
    seed = pick_seed(seed, limit=1 << 31)
    line = _lineup(chosen, agents, players)
    console = make_console()
    sink = _open(out)
    console.print(
        Text(
            f"{chosen.name}: {games} game{'s' if games != 1 else ''}, {players} players, "
            f"seed {seed}, "
            f"lineup {', '.join(line)}",
            style="bold",
        )
    )
    try:
        results = _run(console, sink, chosen, line, games, players, seed, options)
    except EternaError as exc:
        fail(str(exc))
    finally:
        if sink is not None:
            sink.close()
    console.print(simulation_table(results))
    if out is not None:
        console.print(Text(f"{len(results)} records written to {out}", style="bold"))


def _lineup(game: Game, agents: str, players: int) -> list[str]:
    try:
        line = lineup(split_specs(agents), players)
        for spec in dict.fromkeys(line):
            check_agent(game, spec)
    except EternaError as exc:
        fail(str(exc))
    return line


def _open(out: Path | None) -> IO[str] | None:
    if out is None:
        return None
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        return out.open("w", encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")


def _run(
    console: Console,
    sink: IO[str] | None,
    game: Game,
    line: list[str],
    games: int,
    players: int,
    seed: int,
    options: dict[str, Any],
) -> list[GameResult]:
    """Play the games under a progress bar, each record written to `sink` as it ends."""
    progress = Progress(
        TextColumn("[bold]simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )
    with progress:
        task = progress.add_task("games", total=games)

        def done(result: GameResult) -> None:
            if sink is not None and result.record is not None:
                sink.write(record_line(result))
            progress.advance(task)

        return run_games(
            game.id,
            line,
            games,
            players,
            seed=seed,
            options=options,
            on_result=done,
            keep_records=sink is not None,
        )


def register(app: typer.Typer) -> None:
    app.command(name="simulate", help=SIMULATE_HELP)(simulate)
