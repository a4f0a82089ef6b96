"""`eterna games`: the games, their player counts and their options."""

from __future__ import annotations

import typer

from eterna.cli.common import make_console
from eterna.cli.reports import games_table
from eterna.core.registry import game_ids, load_game


def games() -> None:
    """List the games, their player counts and their options."""
    make_console().print(games_table([load_game(game_id) for game_id in game_ids()]))


def register(app: typer.Typer) -> None:
    app.command(name="games")(games)
