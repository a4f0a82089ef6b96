"""The words of a rendered table: English as written in the renderer (`lang` None, the
default the renderers' callers and tests read), or the catalog's in a player's language.

    w = Words("fr")
    w.t("eternity.word.trump_board", "Trump board")   # "Plateau d'atout"
    w.card("eternity", "sky-13")                        # "Ciel 13" (English default: "sky-13")
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eterna.i18n import catalog


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
