"""The `eterna` command line (Typer + Rich): play, simulate, replay, games, arena, hint,
analyze, serve, and the group position (show, hint, write).

`eterna.cli:main` is the console entry point; `app` is the Typer application (tests drive it
with `typer.testing.CliRunner`). Layout:

- `app.py`: the Typer application and its root options;
- `<command>_cmd.py`: one module per command, each adding its command with `register(app)`,
  here, in the order `eterna --help` lists them;
- `common.py`: what the commands share (the console, `fail`, checking games, seats, seeds,
  options and record files); `options.py`: the options several commands take;
- `reports.py`: the tables and JSON documents the commands print and write;
- `play.py` and `moves.py`: the interactive table of `eterna play` and typed moves.

Dependencies point one way: the package imports the command modules and `app`; a command
module imports `common`, `options` and `reports`, never `app` or another command.
"""

from eterna.cli import (
    analyze_cmd,
    arena_cmd,
    games_cmd,
    hint_cmd,
    play_cmd,
    position_cmd,
    replay_cmd,
    serve_cmd,
    simulate_cmd,
    train_cmd,
)
from eterna.cli.app import app, main

COMMANDS = (
    games_cmd,
    play_cmd,
    simulate_cmd,
    replay_cmd,
    arena_cmd,
    train_cmd,
    hint_cmd,
    analyze_cmd,
    serve_cmd,
    position_cmd,  # a group of commands: Typer lists groups after the commands
)
for _command in COMMANDS:
    _command.register(app)

__all__ = ["app", "main"]
