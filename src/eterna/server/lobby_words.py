"""The lobby's words for a game's options, from the catalogs (docs/i18n.md, `<game>.option.*`):
each declared option's label, help and choice labels in the asked language, and the solo
missions a game offers (`<game>.mission.<n>.title`/`.text`). The declarations' own `doc` strings
are for developers (they cite the rules digest and the docs); players read these."""

from __future__ import annotations

import json
from typing import Any

from eterna.core.game import Game
from eterna.games.eternity.cards import TREE_TOKENS_IN_BOX
from eterna.i18n import Catalog

# The values the help texts name (docs/i18n.md: the only option texts with placeholders).
HELP_PARAMS: dict[str, Any] = {
    "count": TREE_TOKENS_IN_BOX,
    "example": json.dumps({"ultimate-portal": 4, "laboratory": 1}),
}


def option_words(game: Game, words: Catalog) -> dict[str, dict[str, Any]]:
    """Option name -> {"label", "help", "choice_labels": {JSON of a value: label}}; a text the
    catalogs lack is None (the client then leaves the option out)."""
    out: dict[str, dict[str, Any]] = {}
    for name, opt in game.declared_options.items():
        key = f"{game.id}.option.{name}"
        choices = {
            json.dumps(c): words.text(f"{key}.{c}")
            for c in opt.choices or opt.items
            if words.has(f"{key}.{c}")
        }
        out[name] = {
            "label": words.text(key) if words.has(key) else None,
            "help": words.text(f"{key}.help", **HELP_PARAMS) if words.has(f"{key}.help") else None,
            "choice_labels": choices,
        }
    return out


def missions(game: Game, words: Catalog) -> list[dict[str, Any]]:
    """The solo missions with their title and text, in order (0: the base solo game); none for
    a game without a `mission` option."""
    opt = game.declared_options.get("mission")
    if opt is None or opt.minimum is None or opt.maximum is None:
        return []
    return [
        {
            "id": n,
            "title": words.text(f"{game.id}.mission.{n}.title"),
            "text": words.text(f"{game.id}.mission.{n}.text"),
        }
        for n in range(opt.minimum, opt.maximum + 1)
        if words.has(f"{game.id}.mission.{n}.title")
    ]
