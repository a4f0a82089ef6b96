"""`eterna games`: the games, their player counts and their options."""

from __future__ import annotations

import typer

from eterna import engines
from eterna.cli.common import make_console
from eterna.cli.options import Lang, pick_lang
from eterna.cli.reports import games_table
from eterna.core.registry import game_ids, load_game


def games(lang: Lang = None) -> None:
    """List the games, their player counts and their options, and which engines run."""
    console = make_console()
    console.print(games_table([load_game(game_id) for game_id in game_ids()], pick_lang(lang)))
    console.print(engines.describe(), style="dim", markup=False)


def register(app: typer.Typer) -> None:
    app.command(name="games")(games)
