"""Terminal rendering of views with Rich, one module per game, outside the rules core.

`renderer_for(game_id)` gives the functions the command line needs to show a game: the table as
one seat sees it, what an action did, round and final summaries, the legal moves and the rules.
A game without a renderer of its own gets a plain one that prints the view as data.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.pretty import Pretty
from rich.text import Text

View = dict[str, Any]


@dataclass(frozen=True)
class Renderer:
    """How the terminal shows one game. Every function reads views only, never a state."""

    game_id: str
    verbs: tuple[str, ...]  # the action words of the game's notation, for prefix completion
    default_verb: str | None  # what a bare argument means (`sea-3` -> `play sea-3`)
    table: Callable[[View, Sequence[str], Sequence[Text]], RenderableType]
    events: Callable[[View, View, int, str, Sequence[str]], list[Text]]
    round_finished: Callable[[View, View], int | None]
    round_summary: Callable[[View, int, Sequence[str]], RenderableType]
    final: Callable[[View, Sequence[str]], RenderableType]
    moves_help: Callable[[Sequence[str]], RenderableType]
    rules: Callable[[], RenderableType]
    # a card's full text from its id or an unambiguous prefix (None: no such card); the
    # `card <name>` command of `eterna play` when the game has one
    card_info: Callable[[str], RenderableType | None] | None = None


def _plain_table(view: View, names: Sequence[str], recent: Sequence[Text]) -> RenderableType:
    return Group(*recent, Pretty(view))


def _plain_events(
    before: View, after: View, actor: int, action: str, names: Sequence[str]
) -> list[Text]:
    who = names[actor] if 0 <= actor < len(names) else f"seat {actor}"
    return [Text(f"{who}: {action}")]


def _plain_final(view: View, names: Sequence[str]) -> RenderableType:
    scores = view.get("scores", [])
    winners = view.get("winners", [])
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
        events=_plain_events,
        round_finished=lambda before, after: None,
        round_summary=lambda view, rnd, names: Text(json.dumps(view.get("scores"))),
        final=_plain_final,
        moves_help=lambda legal: Text("  ".join(legal)),
        rules=_plain_rules,
    )


def renderer_for(game_id: str) -> Renderer:
    """The renderer of `game_id` (a plain one for games that have none yet)."""
    if game_id == "eternity":
        from eterna.render import eternity

        return Renderer(
            game_id=game_id,
            verbs=eternity.VERBS,
            default_verb=eternity.DEFAULT_VERB,
            table=eternity.table,
            events=eternity.events,
            round_finished=eternity.round_finished,
            round_summary=eternity.round_summary,
            final=eternity.final,
            moves_help=eternity.moves_help,
            rules=eternity.rules,
        )
    if game_id == "vale":
        from eterna.render import vale

        return Renderer(
            game_id=game_id,
            verbs=vale.VERBS,
            default_verb=vale.DEFAULT_VERB,
            table=vale.table,
            events=vale.events,
            round_finished=vale.round_finished,
            round_summary=vale.round_summary,
            final=vale.final,
            moves_help=vale.moves_help,
            rules=vale.rules,
            card_info=vale.card_info,
        )
    if game_id == "eternitium":
        from eterna.render import eternitium

        return Renderer(
            game_id=game_id,
            verbs=eternitium.VERBS,
            default_verb=eternitium.DEFAULT_VERB,
            table=eternitium.table,
            events=eternitium.events,
            round_finished=eternitium.round_finished,
            round_summary=eternitium.round_summary,
            final=eternitium.final,
            moves_help=eternitium.moves_help,
            rules=eternitium.rules,
            card_info=eternitium.card_info,
        )
    return plain_renderer(game_id)


__all__ = ["Renderer", "plain_renderer", "renderer_for"]
