"""The words a player reads, in English, French and German (docs/i18n.md).

Example::

    fr = catalog(negotiate("fr-CH, fr;q=0.9"))
    fr.text("eternity.event.card_played", player="Alice", card=fr.card_name("eternity", "sky-13"))
    # "Alice joue Ciel 13"
"""

from eterna.i18n.check import problems
from eterna.i18n.messages import (
    DEFAULT_LANG,
    DOMAINS,
    LANGS,
    BadParam,
    Catalog,
    MissingMessage,
    MissingParam,
    catalog,
    negotiate,
    placeholders,
    plural_form,
)
from eterna.i18n.words import (
    describe_action,
    describe_event,
    describe_refusal,
    event_lines,
    fill,
    stones_words,
)

__all__ = [
    "DEFAULT_LANG",
    "DOMAINS",
    "LANGS",
    "BadParam",
    "Catalog",
    "MissingMessage",
    "MissingParam",
    "catalog",
    "describe_action",
    "describe_event",
    "describe_refusal",
    "event_lines",
    "fill",
    "negotiate",
    "placeholders",
    "plural_form",
    "problems",
    "stones_words",
]
