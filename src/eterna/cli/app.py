"""The `eterna` command line: play, simulate, replay, games.

Bad input from the user (unknown game or agent, bad player count, option, seat or record) prints
one line `Error: ...` on stderr and exits with code 2; nothing the user types shows a traceback.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from eterna import __version__
from eterna.arena.simulate import (
    GameResult,
    check_agent,
    check_seed,
    lineup,
    run_games,
    split_specs,
    summarize,
)
from eterna.cli.play import EndOfInput, PlaySession, make_bots, save_record
from eterna.core.errors import EternaError
from eterna.core.game import Game, GameState
from eterna.core.records import read_records
from eterna.core.registry import game_ids, load_game
from eterna.render import renderer_for

USAGE_ERROR = 2

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
PLAY_HELP = (
    "Play a game in the terminal against bots.\n\n"
    "Type moves in the game's notation, or any unambiguous prefix of one: Eternity 'play "
    "sea-3', 'pledge sky-11' ('ple sky-11', or a bare card to play it); The Vale of Eternity "
    "'claim kappa', 'summon ifrit pay blue', 'end-turn' ('cla kap', 'end'). "
    "'help' lists your legal moves; 'rules', 'show', 'log', 'quit' (and for the Vale "
    "'card <name>') are commands. The record is saved when the game ends, on 'quit' and at "
    "end of input."
)

app = typer.Typer(
    name="eterna",
    help="Play and study Eternity, Eternitium and The Vale of Eternity.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    pretty_exceptions_show_locals=False,
)


def make_console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False)


def fail(message: str) -> NoReturn:
    """A clear one-line error for bad user input; exit code 2."""
    make_console(stderr=True).print(Text(f"Error: {message}", style="bold red"), soft_wrap=True)
    raise typer.Exit(USAGE_ERROR)


# ---------------------------------------------------------------------------------- parsing


def parse_value(text: str) -> Any:
    """An option value: true/false, an integer, a float, or else the text itself."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def parse_options(items: Sequence[str] | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items or ():
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            fail(f"--option takes key=value, not {item!r}")
        options[key.strip()] = parse_value(value)
    return options


def get_game(game_id: str) -> Game:
    try:
        return load_game(game_id.strip().lower())
    except EternaError as exc:
        fail(str(exc))


def check_table(
    game: Game, players: int | None, option: Sequence[str] | None
) -> tuple[int, dict[str, Any]]:
    """The player count (a sensible default when None) and the resolved options."""
    if players is None:
        players = min(max(4, game.min_players), game.max_players)
    try:
        game.check_players(players)
        options = game.resolve_options(parse_options(option))
    except EternaError as exc:
        fail(str(exc))
    return players, options


def pick_seed(seed: int | None, limit: int = 1_000_000) -> int:
    if seed is None:
        return random.SystemRandom().randrange(limit)
    try:
        return check_seed(seed)
    except EternaError as exc:
        fail(str(exc))


# ---------------------------------------------------------------------------------- root


def _version(value: bool) -> None:
    if value:
        typer.echo(f"eterna {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Play and study Eternity, Eternitium and The Vale of Eternity."""


# ---------------------------------------------------------------------------------- games


@app.command()
def games() -> None:
    """List the games, their player counts and their options."""
    console = make_console()
    table = Table(title="Games", title_justify="left", show_lines=True)
    table.add_column("Game id", style="bold")
    table.add_column("Name")
    table.add_column("Players", justify="center")
    table.add_column("Options (--option key=value)")
    for game_id in game_ids():
        game = load_game(game_id)
        lines = Text()
        for name, opt in game.declared_options.items():
            if lines:
                lines.append("\n")
            lines.append(name, style="bold cyan")
            lines.append(f" = {opt.default!r}")
            if opt.choices:
                lines.append(f"  (one of: {', '.join(map(str, opt.choices))})", style="dim")
            lines.append(f"\n  {opt.doc}")
        table.add_row(
            game_id, game.name, f"{game.min_players}-{game.max_players}", lines or Text("none")
        )
    console.print(table)


# ---------------------------------------------------------------------------------- play


@app.command(help=PLAY_HELP)
def play(
    game: Annotated[str, typer.Argument(help="Game id, e.g. eternity (see `eterna games`).")],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Number of players.", show_default="4")
    ] = None,
    seat: Annotated[int, typer.Option("--seat", help="Your seat, 0-based.")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Agent spec for every bot (random, heuristic, ismcts:iterations=400,...), or "
            "a comma-separated list with one spec per bot seat, in seat order (a spec's own "
            "key=value parameters stay with it).",
        ),
    ] = "heuristic",
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", help="Seed of the deal and the bots.", show_default="drawn at random"
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A game option key=value (repeatable)."),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save", help="Where to save the record.", show_default="records/<game>-<seed>.json"
        ),
    ] = None,
) -> None:
    chosen = get_game(game)
    players, options = check_table(chosen, players, option)
    if not 0 <= seat < players:
        fail(f"--seat must be a seat from 0 to {players - 1}, not {seat}")
    seed = pick_seed(seed)
    specs = split_specs(bots)
    try:
        for spec in dict.fromkeys(specs):
            check_agent(chosen, spec)
        agents = make_bots(players, seat, specs, seed)
        state = chosen.new_game(players=players, seed=seed, options=options)
    except EternaError as exc:
        fail(str(exc))
    path = save if save is not None else Path("records") / f"{chosen.id}-{seed}.json"
    if path.is_dir():
        fail(f"--save {path} is a directory; give a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot save records in {path.parent}: {exc.strerror or exc}")

    console = make_console()

    def read_line(prompt: str) -> str:
        try:
            return console.input(prompt)
        except EOFError:
            raise EndOfInput("End of input") from None
        except KeyboardInterrupt:
            raise EndOfInput("Interrupted", interrupted=True) from None

    session = PlaySession(state, seat, agents, console, read_line)
    table_size = "solo" if players == 1 else f"{players} players"
    intro = Text(f"{chosen.name}, {table_size}, seed {seed}. ", style="bold")
    intro.append(f"You are seat {seat}. ")
    if agents:
        intro.append("Bots: " + ", ".join(f"S{s} {agents[s].spec}" for s in sorted(agents)) + ". ")
    intro.append("Type 'help' for commands and moves, 'rules' for the rules.")
    console.print(intro)
    code = 0
    try:
        session.run()
        if session.interrupted:
            code = 130
    except KeyboardInterrupt:  # during a bot's move
        console.print("\nInterrupted.", style="bold")
        code = 130
    except EternaError as exc:  # a bot failed: keep what was played
        console.print(Text(f"Error: a bot failed: {exc}", style="bold red"))
        code = 1
    finally:  # the record is saved however the game ends
        try:
            save_record(state, path, console)
        except OSError as exc:
            fail(f"cannot save the record to {path}: {exc.strerror or exc}")
    if code:
        raise typer.Exit(code)


# ---------------------------------------------------------------------------------- simulate


@app.command(help=SIMULATE_HELP)
def simulate(
    game: Annotated[str, typer.Argument(help="Game id, e.g. eternity.")],
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.", min=0)] = 100,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Number of players.", show_default="4")
    ] = None,
    agents: Annotated[
        str,
        typer.Option(
            "--agents",
            "-a",
            help="Comma-separated agent specs, the lineup by seat (a spec's own key=value "
            "parameters stay with it: random,ismcts:iterations=200,rollout=heuristic).",
        ),
    ] = "random",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Base seed.", show_default="drawn at random")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write every game's record to this JSON Lines file."),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A game option key=value (repeatable)."),
    ] = None,
) -> None:
    chosen = get_game(game)
    players, options = check_table(chosen, players, option)
    seed = pick_seed(seed, limit=1 << 31)
    specs = split_specs(agents)
    try:
        line = lineup(specs, players)
        for spec in dict.fromkeys(line):
            check_agent(chosen, spec)
    except EternaError as exc:
        fail(str(exc))
    console = make_console()
    sink = None
    if out is not None:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            sink = out.open("w", encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {out}: {exc.strerror or exc}")
    console.print(
        Text(
            f"{chosen.name}: {games} game{'s' if games != 1 else ''}, {players} players, "
            f"seed {seed}, "
            f"lineup {', '.join(line)}",
            style="bold",
        )
    )
    progress = Progress(
        TextColumn("[bold]simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )
    try:
        with progress:
            task = progress.add_task("games", total=games)

            def done(result: GameResult) -> None:
                if sink is not None and result.record is not None:
                    entry = dict(result.record)
                    entry["meta"] = {
                        "game_index": result.index,
                        "agents": list(result.agents),
                        "scores": list(result.scores),
                        "winners": list(result.winners),
                    }
                    sink.write(json.dumps(entry) + "\n")
                progress.advance(task)

            results = run_games(
                chosen.id,
                line,
                games,
                players,
                seed=seed,
                options=options,
                on_result=done,
                keep_records=sink is not None,
            )
    except EternaError as exc:
        fail(str(exc))
    finally:
        if sink is not None:
            sink.close()
    console.print(simulation_tables(results))
    if out is not None:
        console.print(Text(f"{len(results)} records written to {out}", style="bold"))


def simulation_tables(results: Sequence[GameResult]) -> Table:
    by_agent, by_seat = summarize(results)
    table = Table(
        title=f"Results of {len(results)} game{'s' if len(results) != 1 else ''}",
        title_justify="left",
        title_style="bold",
        caption="Wins: a shared win counts 1/k to each of its k winners.",
        caption_justify="left",
    )
    table.add_column("Agent / seat", style="bold")
    table.add_column("Games", justify="right")
    table.add_column("Wins", justify="right")
    table.add_column("Win rate", justify="right")
    table.add_column("Mean score", justify="right")
    for spec, tally in by_agent.items():
        table.add_row(
            spec,
            str(tally.games),
            f"{tally.wins:.2f}",
            f"{tally.win_rate:.1%}",
            f"{tally.mean_score:.2f}",
        )
    table.add_section()
    for seat, seat_tally in sorted(by_seat.items()):
        table.add_row(
            f"seat {seat}",
            str(seat_tally.games),
            f"{seat_tally.wins:.2f}",
            f"{seat_tally.win_rate:.1%}",
            f"{seat_tally.mean_score:.2f}",
        )
    return table


# ---------------------------------------------------------------------------------- replay


def load_record(file: Path, game_index: int) -> dict[str, Any]:
    try:
        records = list(read_records(file))
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        fail(f"{file} is not a text file")
    except (EternaError, ValueError) as exc:
        fail(f"{file} is not a record file: {exc}")
    if not records:
        fail(f"{file} holds no record")
    if not 0 <= game_index < len(records):
        fail(f"--game-index must be from 0 to {len(records) - 1}: {file} holds {len(records)}")
    record = records[game_index]
    if not isinstance(record, dict) or not isinstance(record.get("game"), str):
        fail(f"{file}: record {game_index} is not a record (a JSON object with a 'game' id)")
    return record


def start_replay(record: dict[str, Any]) -> tuple[GameState, list[str]]:
    game = get_game(record["game"])
    actions = record.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        fail("the record's 'actions' must be a list of notation strings")
    try:
        state = game.new_game(
            players=record.get("players"),  # type: ignore[arg-type]
            seed=record.get("seed"),
            options=record.get("options") or {},
            setup=record.get("setup"),
        )
    except EternaError as exc:
        fail(f"the record cannot start a game: {exc}")
    return state, actions


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A record: a JSON file, or JSON Lines.")],
    seat: Annotated[
        int | None, typer.Option("--seat", help="Show this seat's view (its hand included).")
    ] = None,
    spectator: Annotated[
        bool, typer.Option("--spectator", help="Show the spectator's view (the default).")
    ] = False,
    step: Annotated[
        bool,
        typer.Option(
            "--step/--no-step",
            help="Wait for Enter between actions ('c' then Enter: run to the end; 'q': stop).",
        ),
    ] = True,
    game_index: Annotated[
        int, typer.Option("--game-index", help="Which game of a JSON Lines file (0-based).")
    ] = 0,
) -> None:
    """Replay a recorded game action by action, showing one seat's view (or a spectator's)."""
    if seat is not None and spectator:
        fail("give either --seat or --spectator, not both")
    record = load_record(file, game_index)
    state, actions = start_replay(record)
    if seat is not None and not 0 <= seat < state.players:
        fail(f"--seat must be a seat from 0 to {state.players - 1}, not {seat}")
    renderer = renderer_for(state.game.id)
    given = record.get("meta")
    meta: dict[str, Any] = given if isinstance(given, dict) else {}
    specs = meta.get("agents") if isinstance(meta.get("agents"), list) else None
    names = [
        f"S{s} {specs[s]}" if specs and s < len(specs) else f"S{s}" for s in range(state.players)
    ]
    console = make_console()
    who = "spectator" if seat is None else f"seat {seat}"
    console.print(
        Text(
            f"Replaying {file} ({state.game.name}, {state.players} players, seed "
            f"{record.get('seed')}, {len(actions)} actions) as {who}.",
            style="bold",
        )
    )
    console.print(renderer.table(state.view(seat), names, []))
    played = 0
    for number, text in enumerate(actions, 1):
        actor = state.current_player
        before = state.view(seat)
        try:
            state.apply(text)
        except EternaError as exc:
            fail(f"action {number} ({text!r}) is refused: {exc}")
        played = number
        after = state.view(seat)
        lines = renderer.events(before, after, -1 if actor is None else actor, text, names)
        console.print(Rule(f"action {number}/{len(actions)}"))
        console.print(*lines, sep="\n")
        finished = renderer.round_finished(before, after)
        if finished is not None:
            console.print(renderer.round_summary(after, finished, names))
        console.print(renderer.table(after, names, []))
        if step and number < len(actions):
            try:
                answer = console.input("[dim]Enter: next · c: to the end · q: stop[/dim] ")
            except (EOFError, KeyboardInterrupt):
                step = False
                continue
            answer = answer.strip().lower()
            if answer.startswith("q"):
                break
            if answer.startswith("c"):
                step = False
    console.print(Rule("Result"))
    if state.is_terminal:
        console.print(renderer.final(state.view(seat), names))
    else:
        console.print(
            Text(f"The game is not over (stopped after {played} of {len(actions)} actions).")
        )
        console.print(Text("Scores so far: " + ", ".join(map(str, state.scores))))
    recorded = meta.get("scores")
    if state.is_terminal and isinstance(recorded, list) and recorded != state.scores:
        console.print(Text(f"Warning: the record says the scores were {recorded}", "bold red"))


def main() -> None:
    app(prog_name="eterna")


from eterna.cli.arena_cmd import register  # noqa: E402  (arena, hint, analyze)

register(app)

from eterna.cli.serve_cmd import register as register_serve  # noqa: E402  (serve)

register_serve(app)
