"""Arguments and options that several commands take with the same help text.

Each is a type for a command's signature (`players: Players = None`); an option that one
command alone takes is declared in that command's module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

GameId = Annotated[str, typer.Argument(help="Game id, e.g. eternity.")]
Players = Annotated[
    int | None, typer.Option("--players", "-p", help="Number of players.", show_default="4")
]
BaseSeed = Annotated[
    int | None, typer.Option("--seed", help="Base seed.", show_default="drawn at random")
]
GameOptions = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option key=value (repeatable)."),
]
RecordFile = Annotated[Path, typer.Argument(help="A record: a JSON file, or JSON Lines.")]
GameIndex = Annotated[
    int, typer.Option("--game-index", help="Which game of a JSON Lines file (0-based).")
]
