"""Arguments and options that several commands take with the same help text.

Each is a type for a command's signature (`players: Players = None`); an option that one
command alone takes is declared in that command's module.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer

from eterna.cli.common import fail
from eterna.i18n import DEFAULT_LANG, LANGS

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
Lang = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help="Language of the table's words: en, fr or de.",
        show_default="$ETERNA_LANG, else $LC_ALL / $LC_MESSAGES / $LANG, else en",
    ),
]


def pick_lang(given: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: `--lang`, else ETERNA_LANG, else the locale (LC_ALL, LC_MESSAGES,
    LANG: `fr_FR.UTF-8` is French), else English. A `--lang` outside en/fr/de is a usage
    error; an environment variable naming another language falls through to the next."""
    if given is not None:
        lang = given.strip().lower()
        if lang not in LANGS:
            fail(f"--lang must be one of {', '.join(LANGS)}, not {given!r}")
        return lang
    env = os.environ if environ is None else environ
    for name in ("ETERNA_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "").strip()
        if not value:
            continue
        lang = value.split(".")[0].split("@")[0].replace("_", "-").split("-")[0].lower()
        if lang in LANGS:
            return lang
        if name != "ETERNA_LANG" and lang not in ("c", "posix"):
            # the locale names a language we do not speak: English, not a lower variable's
            return DEFAULT_LANG
    return DEFAULT_LANG
