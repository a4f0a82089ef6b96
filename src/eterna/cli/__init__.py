"""The `eterna` command line (Typer + Rich): play, simulate, replay, games.

`eterna.cli:main` is the console entry point; `app` is the Typer application (tests drive it
with `typer.testing.CliRunner`).
"""

from eterna.cli.app import app, main

__all__ = ["app", "main"]
