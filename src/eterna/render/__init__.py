"""Terminal rendering of views with Rich, one module per game (the Vale's a package), outside
the rules core.

`renderer_for(game_id)` gives the functions the command line needs to show a game: the table as
one seat sees it, round and final summaries, the legal moves and the rules. What an action did
is told by the game's events in words (`eterna.cli.words`), never guessed from two views. A game
without a renderer of its own gets a plain one that prints the view as data.
"""

from __future__ import annotations

import importlib
import inspect
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.pretty import Pretty
from rich.text import Text

from eterna.core.game import View as GameView

View = GameView  # the contract's view: each renderer narrows it to its game's TypedDict


@dataclass(frozen=True)
class Renderer:
    """How the terminal shows one game. Every function reads views only, never a state."""

    game_id: str
    verbs: tuple[str, ...]  # the action words of the game's notation, for prefix completion
    default_verb: str | None  # what a bare argument means (`sea-3` -> `play sea-3`)
    # table(view, names, recent), and `lang=` for a game whose events are told in words
    table: Callable[..., RenderableType]
    # round_summary(view, round, names) and final(view, names), `lang=` as for `table`
    round_summary: Callable[..., RenderableType]
    final: Callable[..., RenderableType]
    moves_help: Callable[[Sequence[str]], RenderableType]
    rules: Callable[..., RenderableType]  # rules(), and `lang=` when the game's speak one
    # a card's full text from its id or an unambiguous prefix (None: no such card), `lang=`
    # when it speaks one; the `card <name>` command of `eterna play` when the game has one
    card_info: Callable[..., RenderableType | None] | None = None

    def card(self, name: str, lang: str | None = None) -> RenderableType | None:
        """`card_info(name)`, in `lang`'s words when given and the game's `card_info` speaks."""
        if self.card_info is None:
            return None
        shown: RenderableType | None = _speaking(self.card_info, lang, name)
        return shown

    def rules_in(self, lang: str | None = None) -> RenderableType:
        """`rules()`, in `lang`'s words when given and the game's rules speak it."""
        shown: RenderableType = _speaking(self.rules, lang)
        return shown


def _speaking(function: Callable[..., Any], lang: str | None, *args: Any) -> Any:
    """`function(*args)`, given `lang=` when there is one and `function` takes it."""
    if lang is not None and "lang" in inspect.signature(function).parameters:
        return function(*args, lang=lang)
    return function(*args)


def _plain_table(view: View, names: Sequence[str], recent: Sequence[Text]) -> RenderableType:
    return Group(*recent, Pretty(view))


def _plain_final(view: View, names: Sequence[str]) -> RenderableType:
    # a game without a renderer of its own: its view read for the contract's two lists only
    scores = view.get("scores")
    winners = view.get("winners")
    scores = scores if isinstance(scores, list) else []
    winners = winners if isinstance(winners, list) else []
    lines = [Text(f"{names[s]}: {score}") for s, score in enumerate(scores)]
    lines.append(Text(f"winners: {', '.join(names[s] for s in winners) or 'none'}"))
    return Group(*lines)


def _plain_rules() -> RenderableType:
    return Text("No rules summary for this game yet; see docs/.")


def plain_renderer(game_id: str) -> Renderer:
    return Renderer(
        game_id=game_id,
        verbs=(),
        default_verb=None,
        table=_plain_table,
        round_summary=lambda view, rnd, names: Text(json.dumps(view.get("scores"))),
        final=_plain_final,
        moves_help=lambda legal: Text("  ".join(legal)),
        rules=_plain_rules,
    )


# Each game's renderer module, listed explicitly; imported only when that game is shown.
RENDERER_MODULES: dict[str, str] = {
    "eternity": "eterna.render.eternity",
    "eternitium": "eterna.render.eternitium",
    "vale": "eterna.render.vale",
}


def renderer_for(game_id: str) -> Renderer:
    """The renderer of `game_id` (a plain one for games that have none yet)."""
    module_name = RENDERER_MODULES.get(game_id)
    if module_name is None:
        return plain_renderer(game_id)
    module = importlib.import_module(module_name)
    return Renderer(
        game_id=game_id,
        verbs=module.VERBS,
        default_verb=module.DEFAULT_VERB,
        table=module.table,
        round_summary=module.round_summary,
        final=module.final,
        moves_help=module.moves_help,
        rules=module.rules,
        card_info=getattr(module, "card_info", None),
    )


__all__ = ["Renderer", "plain_renderer", "renderer_for"]
