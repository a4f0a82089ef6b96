"""Rich rendering of an Eternitium view (`state.view(seat)`), for the terminal.

Everything here reads only the view dict plus the card facts (tier, cost, text from the card
data), so it shows a seat exactly what that seat may know. The rules core never imports this
package. Notation and rules: docs/eternitium.md.

One module per thing drawn: `cards` (a card, a shape, a short effect; a card's full text),
`board` (the parts of the table and the whole table) and `sheets` (the score sheets, the
notation's action words, the legal moves, the rules). Given a language (`lang=`), the table,
the sheets and `card_info` speak it from the catalogs (docs/i18n.md): card names, shapes,
short effects and headings; without one they keep their English and card ids. What a move did
is told by the game's events in words (`eterna.cli.words`), not guessed here.
"""

from eterna.render.eternitium.board import MAX_RECENT, PHASE_PROMPT, table
from eterna.render.eternitium.cards import (
    AI_SHORT,
    GAME_ID,
    SHORT,
    TIER_OF,
    View,
    card_info,
    card_text,
    short_effect,
)
from eterna.render.eternitium.sheets import (
    DEFAULT_VERB,
    RULES,
    VERBS,
    final,
    moves_help,
    round_summary,
    rules,
)
from eterna.render.words import default_names

__all__ = [
    "AI_SHORT",
    "DEFAULT_VERB",
    "GAME_ID",
    "MAX_RECENT",
    "PHASE_PROMPT",
    "RULES",
    "SHORT",
    "TIER_OF",
    "VERBS",
    "View",
    "card_info",
    "card_text",
    "default_names",
    "final",
    "moves_help",
    "round_summary",
    "rules",
    "short_effect",
    "table",
]
