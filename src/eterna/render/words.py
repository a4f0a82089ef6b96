"""The words of a rendered table: English as written in the renderer (`lang` None, the
default the renderers' callers and tests read), or the catalog's in a player's language.

    w = Words("fr")
    w.t("eternity.word.trump_board", "Trump board")   # "Plateau d'atout"
    w.card("eternity", "sky-13")                        # "Ciel 13" (English default: "sky-13")
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.text import Text

from eterna.i18n import catalog
from eterna.i18n.names import seat_number


@dataclass(frozen=True)
class Words:
    """The table's words in `lang`, or the renderer's own English when `lang` is None."""

    lang: str | None = None

    def t(self, key: str, english: str, **params: Any) -> str:
        """Catalog message `key`, or `english` (a `str.format` text) when there is no language."""
        if self.lang is None:
            return english.format(**params)
        return catalog(self.lang).text(key, **params)

    def colon(self, label: str) -> str:
        """'label: ' as the language writes it ('Atout : ' in French)."""
        if self.lang is None:
            return f"{label}: "
        return catalog(self.lang).text("common.colon", label=label) + " "

    def card(self, game: str, card: str) -> str:
        """A card's name (its id when there is no language)."""
        return card if self.lang is None else catalog(self.lang).card_name(game, card)

    def family(self, game: str, family: str) -> str:
        """A family's name (its id when there is no language)."""
        return family if self.lang is None else catalog(self.lang).text(f"{game}.family.{family}")


ENGLISH = Words()


def rules_panel(
    game: str, parts: Sequence[str], english: Sequence[str], title: str, lang: str | None
) -> RenderableType:
    """A game's rules in short: the renderer's `english` lines, or in `lang` the catalog's
    `<game>.rules.<part>` paragraphs and `<game>.rules.title` (`title` in English)."""
    w = Words(lang)
    lines = tuple(english)
    if lang is not None:
        paragraphs = [w.t(f"{game}.rules.{part}", "") for part in parts]
        lines = tuple(line for paragraph in paragraphs for line in (paragraph, ""))[:-1]
    body = Text("\n").join(Text.from_markup(line) for line in lines)
    return Panel(body, title=w.t(f"{game}.rules.title", title), title_align="left")


def seat_name(names: Sequence[str], seat: int) -> str:
    """A seat's name from the table's `names`, else "seat 2" (seats count from 1)."""
    return names[seat] if 0 <= seat < len(names) else f"seat {seat_number(seat)}"


def default_names(players: int, seat: int | None = None) -> list[str]:
    """The English renderers' names when the caller gives none: "You", "Seat 2"..."""
    return ["You" if s == seat else f"Seat {seat_number(s)}" for s in range(players)]
