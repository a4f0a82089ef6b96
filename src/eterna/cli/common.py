"""What the commands share: the console, the one-line error, and checking what the user typed.

Bad input from the user (unknown game or agent, bad player count, option, seat or record) goes
through `fail`: one line `Error: ...` on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from eterna.arena.simulate import check_seed
from eterna.core.errors import BadPosition, EternaError
from eterna.core.game import Game, GameState, Record
from eterna.core.position import MAX_TEXT, SHARE_PREFIX, parse
from eterna.core.records import read_records
from eterna.core.registry import load_game
from eterna.i18n.names import seat_number

USAGE_ERROR = 2


def make_console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False)


def fail(message: str) -> NoReturn:
    """A clear one-line error for bad user input; exit code 2."""
    make_console(stderr=True).print(Text(f"Error: {message}", style="bold red"), soft_wrap=True)
    raise typer.Exit(USAGE_ERROR)


# ---------------------------------------------------------------------------------- parsing


def parse_value(text: str) -> Any:
    """An option value: true/false, an integer, a float, a JSON list or object (`[...]`,
    `{...}`, e.g. the Vale's `expansions=["artifacts"]`), or else the text itself."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered[:1] in ("[", "{"):
        try:
            return json.loads(text)
        except ValueError:
            fail(f"{text!r} is not a JSON list or object")
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


def check_seat(seat: int, players: int) -> int:
    """The seat `--seat` names, counted from 1 as players count them (`--seat 1` is Seat 1,
    the protocol's and the records' seat 0): its 0-based index, or a failure naming the range."""
    if not 1 <= seat <= players:
        fail(f"--seat must be a seat from 1 to {players}, not {seat}")
    return seat - 1


# ---------------------------------------------------------------------------------- files


def writable(path: Path | None, what: str) -> None:
    """Fail now, before any game is played, if `path` (given as option `what`) cannot be
    written: a directory, or a folder that cannot be made."""
    if path is None:
        return
    if path.is_dir():
        fail(f"{what} {path} is a directory; give a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")


def read_record_file(file: Path) -> list[Record]:
    """Every record of a JSON or JSON Lines file; at least one."""
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
    return records


def load_record(file: Path, game_index: int) -> dict[str, Any]:
    """Record `game_index` of a file (the --game-index of `replay` and `hint`)."""
    records = read_record_file(file)
    if not 0 <= game_index < len(records):
        fail(f"--game-index must be from 0 to {len(records) - 1}: {file} holds {len(records)}")
    record = records[game_index]
    if not isinstance(record, dict) or not isinstance(record.get("game"), str):
        fail(f"{file}: record {game_index} is not a record (a JSON object with a 'game' id)")
    return record


def start_replay(record: dict[str, Any]) -> tuple[GameState, list[str]]:
    """The record's game at its start (its position, for a game played on from one), and its
    actions (in notation) to replay."""
    game = get_game(record["game"])
    actions = record.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        fail("the record's 'actions' must be a list of notation strings")
    try:
        if record.get("position") is not None:
            return game.from_position(record["position"]), actions
        state = game.new_game(
            players=game.check_players(record.get("players")),
            seed=record.get("seed"),
            options=record.get("options") or {},
            setup=record.get("setup"),
        )
    except EternaError as exc:
        fail(f"the record cannot start a game: {exc}")
    return state, actions


def apply_action(state: GameState, number: int, text: str) -> None:
    """Replay action `number` (1-based) of a record; a refused one is the record's fault."""
    try:
        state.apply(text)
    except EternaError as exc:
        fail(f"action {number} ({text!r}) is refused: {exc}")


# ---------------------------------------------------------------------------------- positions


def read_position(source: str) -> str:
    """A position's text: from a file, from stdin (`-`), or a share code given as is. Read up
    to one character past the limit: `parse` refuses more without this reading it all."""
    if source == "-":
        return sys.stdin.read(MAX_TEXT + 1)
    if source.strip().startswith(SHARE_PREFIX):
        return source
    path = Path(source)
    try:
        with path.open(encoding="utf-8") as handle:
            return handle.read(MAX_TEXT + 1)
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        fail(f"{path} is not a text file")


def load_position(source: str) -> tuple[GameState, dict[str, Any]]:
    """The state a position describes (a guess of the unknowns for a seat's position) and the
    position itself; a malformed or impossible one fails naming the field at fault."""
    try:
        position = parse(read_position(source))
    except BadPosition as exc:
        fail(str(exc))
    if not isinstance(position, dict) or not isinstance(position.get("game"), str):
        fail("this is not a position: a JSON object with a 'game' id (docs/positions.md)")
    game = get_game(position["game"])
    try:
        return game.from_position(position), position
    except EternaError as exc:
        fail(str(exc))


def position_seat(position: dict[str, Any], seat: int | None, players: int) -> int | None:
    """The seat a command looks from (0-based): a seat's position's own seat (another is
    refused), else `--seat` (counted from 1; None: nobody's)."""
    own = position.get("seat")
    if own is not None and seat is not None and seat != seat_number(own):
        fail(f"this is seat {seat_number(own)}'s position: it knows nothing of seat {seat}'s cards")
    if own is not None:
        return int(own)
    return None if seat is None else check_seat(seat, players)
