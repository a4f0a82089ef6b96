"""Rich rendering of a Vale of Eternity view (`state.view(seat)`), for the terminal.

Everything here reads only the view dict plus the card facts (family, written cost, which
timings a card has), so it shows a seat exactly what that seat may know. The rules core never
imports this package. Card effects are summarised in `SHORT` (the full texts are in the card
data; `card_info` shows them).

One module per thing drawn: `cards` (a card, a family, stones; a card's full text), `board`
(the parts of the table: header, hunting board, seat panels, hand, prompts), `sheets` (the
whole table, the round and final results) and `guide` (the notation's action words, the legal
moves, the rules). This package gives `eterna.render` what it reads
from every game's renderer. What a move did is told by the game's events in words
(`eterna.cli.words`), not guessed here.
"""

from eterna.render.vale.cards import FAMILY_STYLE, SHORT, View, card_info
from eterna.render.vale.guide import DEFAULT_VERB, GAME_ID, VERBS, moves_help, rules
from eterna.render.vale.sheets import final, round_summary, table
from eterna.render.words import default_names

__all__ = [
    "DEFAULT_VERB",
    "FAMILY_STYLE",
    "GAME_ID",
    "SHORT",
    "VERBS",
    "View",
    "card_info",
    "default_names",
    "final",
    "moves_help",
    "round_summary",
    "rules",
    "table",
]
