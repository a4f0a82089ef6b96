"""`eterna play`: one human seat against seeded bots, in the terminal (the game itself is
`play.PlaySession`; this module checks the command line and saves the record)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from eterna.arena.simulate import check_agent, split_specs
from eterna.cli.common import (
    check_seat,
    check_table,
    fail,
    get_game,
    load_position,
    make_console,
    pick_seed,
    position_seat,
)
from eterna.cli.options import GameOptions, Lang, Players, pick_lang
from eterna.cli.play import EndOfInput, PlaySession, make_bots, save_record
from eterna.cli.words import say, seat_names
from eterna.core.agent import Agent
from eterna.core.errors import EternaError
from eterna.core.game import Game, GameState
from eterna.i18n import catalog
from eterna.i18n.names import agent_id, seat_number

PLAY_HELP = (
    "Play a game in the terminal against bots.\n\n"
    "Eternity and The Vale of Eternity are told in words in the --lang language: what "
    "happens, and your legal moves, numbered, each with its notation. Type a move's number, "
    "its notation or any unambiguous prefix of it: Eternity 'play "
    "sea-3', 'pledge sky-11' ('ple sky-11', or a bare card to play it); The Vale of Eternity "
    "'claim kappa', 'summon ifrit pay blue', 'end-turn' ('cla kap', 'end'). "
    "'help' lists your legal moves; 'rules', 'show', 'log', 'quit' (and for the Vale "
    "'card <name>') are commands. The record is saved when the game ends, on 'quit' and at "
    "end of input."
)

PlayGame = Annotated[str, typer.Argument(help="Game id, e.g. eternity (see `eterna games`).")]
Seat = Annotated[
    int | None,
    typer.Option(
        "--seat",
        help="Your seat, counted from 1 as on the web (--seat 1 is Seat 1).",
        show_default="1, or the position's seat",
    ),
]
FromPosition = Annotated[
    str | None,
    typer.Option(
        "--position",
        help="Play on from a position (docs/positions.md): a file, '-' for stdin, or a share "
        "code. A seat's position seats you there; the cards it cannot see are a guess.",
    ),
]
Bots = Annotated[
    str,
    typer.Option(
        "--bots",
        help="Agent spec for every bot (random, heuristic, ismcts:iterations=400,...), or "
        "a comma-separated list with one spec per bot seat, in seat order (a spec's own "
        "key=value parameters stay with it).",
    ),
]
Seed = Annotated[
    int | None,
    typer.Option("--seed", help="Seed of the deal and the bots.", show_default="drawn at random"),
]
Save = Annotated[
    Path | None,
    typer.Option(
        "--save", help="Where to save the record.", show_default="records/<game>-<seed>.json"
    ),
]


def play(
    game: PlayGame,
    players: Players = None,
    seat: Seat = None,
    bots: Bots = "heuristic",
    seed: Seed = None,
    option: GameOptions = None,
    save: Save = None,
    lang: Lang = None,
    position: FromPosition = None,
) -> None:
    language = pick_lang(lang)
    chosen = get_game(game)
    seed = pick_seed(seed)
    if position is not None:
        if players is not None or option:
            fail("--position gives the players and options: leave out --players and --option")
        state, seat, guessed = _from_position(chosen, position, seat)
        players = state.players
        options: dict[str, Any] = {}  # a position: its table shows what its options do
    else:
        players, options = check_table(chosen, players, option)
        seat = check_seat(1 if seat is None else seat, players)
        guessed = False
    try:
        agents = _bots(chosen, players, seat, bots, seed)
        if position is None:
            state = chosen.new_game(players=players, seed=seed, options=options)
    except EternaError as exc:
        fail(str(exc))
    path = _record_path(save, chosen, seed)
    console = make_console()
    console.print(_intro(language, chosen, players, seed, seat, agents))
    for line in option_lines(language, chosen, options):
        console.print(line, markup=False)
    if guessed:
        guess = say(language, "common.position_guess", seat=seat_number(seat))
        console.print(Text(guess, style="bold"))
    session = PlaySession(state, seat, agents, console, _reader(console, language), language)
    code = _play_out(session, state, path, console)
    if code:
        raise typer.Exit(code)


def _from_position(game: Game, source: str, seat: int | None) -> tuple[GameState, int, bool]:
    """The game a position starts, your seat, and whether its hidden cards are a guess. A
    seat's position loads as a guess, which has no record: the game is played on from the
    guess's whole position, so the record keeps what was played."""
    state, position = load_position(source)
    if state.game.id != game.id:
        fail(f"the position is of {state.game.name}, not {game.name}")
    chosen = position_seat(position, seat, state.players)
    guessed = position.get("seat") is not None
    if guessed:
        try:
            state = game.from_position(state.to_position())
        except EternaError as exc:
            fail(str(exc))
    if state.is_terminal:
        fail("the game of this position is over: there is nothing to play")
    return state, 0 if chosen is None else chosen, guessed


def _bots(game: Game, players: int, seat: int, bots: str, seed: int) -> dict[int, Agent]:
    specs = split_specs(bots)
    for spec in dict.fromkeys(specs):
        check_agent(game, spec)
    return make_bots(players, seat, specs, seed)


def _record_path(save: Path | None, game: Game, seed: int) -> Path:
    """Where the record goes, its folder made now: a game must not be lost at its end."""
    path = save if save is not None else Path("records") / f"{game.id}-{seed}.json"
    if path.is_dir():
        fail(f"--save {path} is a directory; give a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot save records in {path.parent}: {exc.strerror or exc}")
    return path


def _reader(console: Console, lang: str = "en") -> Callable[[str], str]:
    """The player's input, line by line; its end (EOF or Ctrl-C) ends the game."""

    def read_line(prompt: str) -> str:
        try:
            return console.input(prompt)
        except EOFError:
            raise EndOfInput(say(lang, "common.end_of_input")) from None
        except KeyboardInterrupt:
            raise EndOfInput(say(lang, "common.interrupted"), interrupted=True) from None

    return read_line


def _intro(
    lang: str, game: Game, players: int, seed: int, seat: int, agents: dict[int, Agent]
) -> Text:
    table_size = say(lang, "common.table_size", count=players)
    intro = Text(
        say(
            lang,
            "common.play_intro",
            game=game.name,
            table=table_size,
            seed=seed,
            seat=seat_number(seat),
        ),
        style="bold",
    )
    if agents:
        specs = {s: agents[s].spec for s in agents}
        names = seat_names(lang, players, seat, specs, game.id)
        bots = ", ".join(
            names[s] if agent_id(specs[s]) == specs[s] else f"{names[s]} ({specs[s]})"
            for s in sorted(agents)
        )
        intro.append(" " + say(lang, "common.bots", bots=bots))
    intro.append(" " + say(lang, "common.type_help"))
    return intro


def option_lines(lang: str, game: Game, options: Mapping[str, Any]) -> list[str]:
    """The options a new game changes from their defaults, each in words with its help (the
    lobby's words, so the Artifacts' creatures without tiles are explained as in the browser)."""
    from eterna.server.lobby_words import option_words

    words = option_words(game, catalog(lang))
    lines = []
    for name, opt in game.declared_options.items():
        value = options.get(name, opt.default)
        said = words.get(name)
        if value == opt.default or said is None or said["label"] is None:
            continue
        labels = said["choice_labels"]
        values = value if isinstance(value, list) else [value]
        shown = ", ".join(labels.get(json.dumps(v), str(v)) for v in values)
        line = say(lang, "common.play_option", option=said["label"], value=shown)
        lines.append(f"{line} {said['help']}" if said["help"] else line)
    return lines


def _play_out(session: PlaySession, state: GameState, path: Path, console: Console) -> int:
    """Play the game to its end (or the player's leaving) and save its record in every case;
    the exit code: 0, 130 when interrupted, 1 when a bot failed."""
    code = 0
    try:
        session.run()
        if session.interrupted:
            code = 130
    except KeyboardInterrupt:  # during a bot's move
        console.print("\n" + say(session.lang, "common.interrupted") + ".", style="bold")
        code = 130
    except EternaError as exc:  # a bot failed: keep what was played
        console.print(Text(say(session.lang, "common.bot_failed", error=exc), style="bold red"))
        code = 1
    finally:  # the record is saved however the game ends
        try:
            save_record(state, path, console, session.lang)
        except OSError as exc:
            fail(f"cannot save the record to {path}: {exc.strerror or exc}")
    return code


def register(app: typer.Typer) -> None:
    app.command(name="play", help=PLAY_HELP)(play)
