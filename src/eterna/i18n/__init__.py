"""The words a player reads, in English, French and German (docs/i18n.md).

from eterna.i18n import catalog, negotiate
fr = catalog(negotiate("fr-CH, fr;q=0.9"))
fr.text("eternity.event.trick_won", player="Alice")   # "Alice remporte le pli"
fr.card_name("vale", "ifrit")                         # "Ifrit"
"""

from eterna.i18n.check import problems
from eterna.i18n.messages import (
    DEFAULT_LANG,
    DOMAINS,
    LANGS,
    Catalog,
    MissingMessage,
    MissingParam,
    catalog,
    negotiate,
    placeholders,
    plural_form,
)

__all__ = [
    "DEFAULT_LANG",
    "DOMAINS",
    "LANGS",
    "Catalog",
    "MissingMessage",
    "MissingParam",
    "catalog",
    "negotiate",
    "placeholders",
    "plural_form",
    "problems",
]
