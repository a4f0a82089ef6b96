"""The `eterna` Typer application: its root options (`--version`) and `main`.

The commands are added to `app` by `eterna.cli` (see its docstring), each from its own module.
"""

from __future__ import annotations

from typing import Annotated

import typer

from eterna import __version__, engines
from eterna.cli.common import fail

app = typer.Typer(
    name="eterna",
    help="Play and study Eternity, Eternitium and The Vale of Eternity.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    pretty_exceptions_show_locals=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"eterna {__version__}")
        typer.echo(engines.describe())  # compiled or pure engines, and why (docs/compiled.md)
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


def main() -> None:
    app(prog_name="eterna")


# `fail` is re-exported for `serve_cmd`, which imports it from here.
__all__ = ["app", "fail", "main"]
