"""What a player reads to move: the notation's action words (for prefix completion), the
legal moves grouped by action word (`moves_help`) and the rules in short (`rules`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from eterna.games.vale.cards import CARD_BY_NAME
from eterna.render.vale.cards import ACTIVE, INSTANT, PERMANENT, card_text, join
from eterna.render.words import rules_panel

GAME_ID = "vale"
# The action words of the notation (docs/vale.md), for prefix completion.
VERBS: tuple[str, ...] = (
    "claim",
    "sell",
    "tame",
    "summon",
    "remove",
    "end-turn",
    "resolve",
    "discard-stone",
    "target",
    "discard",
    "recover",
    "take",
    "copy",
    "choose",
    "done",
)
DEFAULT_VERB: str | None = None  # a bare card completes against every legal move's argument

# One entry per paragraph or bullet, so the terminal wraps them at its own width.
RULES: tuple[str, ...] = (
    "[b]The Vale of Eternity[/b]: hunt creature cards, sell them for magic stones or tame them "
    "into your hand, summon them into your area and score with their effects. At most 10 "
    "rounds; the game ends after the round in which someone reaches [b]60 points[/b]. Most "
    "points wins; a tie goes to the tied player with more cards in their area, then the "
    "victory is shared. Players start with 1, 2, 3 (, 4) points from the first player on.",
    "",
    "[b]Cards[/b]: 70 creatures in five families, [red]fire[/red], [blue]water[/blue], "
    "[green]earth[/green], [cyan]wind[/cyan] and [magenta]dragon[/magenta], each with a cost "
    f"and effects: {INSTANT} instant (once, when summoned), {PERMANENT} permanent (while in your "
    f"area), {ACTIVE} active (once in every resolution phase). "
    "[b]Stones[/b]: red 1, blue 3, purple 6. Hold at most 4 (6 with Hestia); over the limit you "
    "discard stones of your choice at once. No change is ever given.",
    "",
    "[b]Each round[/b]:",
    "  1. [b]Hunting[/b]: 2 cards per player are revealed. Players claim one at a time, from the "
    "first player round the table and back again (S0 S1 S2 S2 S1 S0), two cards each.",
    "  2. [b]Actions[/b]: each player in turn, any number of actions in any order:",
    "     • [i]sell[/i] a claimed card for stones: fire 3 red, water 1 blue, earth 4 red, wind "
    "1 red + 1 blue, dragon 1 purple;",
    "     • [i]tame[/i] a claimed card into your hand;",
    "     • [i]summon[/i] a card from your hand, paying stones worth at least its cost; your area "
    "holds as many cards as the round number; its instant effect applies at once (a card whose "
    "instant cannot apply in full cannot be summoned);",
    "     • [i]remove[/i] a card of your area, paying stones worth at least the round number;",
    "     • [i]end-turn[/i], once both claimed cards are sold or tamed.",
    "  3. [b]Resolution[/b]: each player in turn resolves every active effect of their area "
    "once, in the order they choose (mandatory when it can apply).",
    "Then the first player passes to the left and the next round begins.",
    "",
    "[b]Typing moves[/b]: [cyan]claim kappa[/cyan], [cyan]sell kappa[/cyan], [cyan]tame "
    "kappa[/cyan], [cyan]summon ifrit pay blue[/cyan], [cyan]summon imp[/cyan] (cost 0), "
    "[cyan]remove imp pay blue[/cyan], [cyan]end-turn[/cyan], [cyan]resolve salamander[/cyan]; "
    "inside effects [cyan]discard-stone red[/cyan], [cyan]target seat-1[/cyan], "
    "[cyan]discard imp[/cyan], [cyan]choose purple[/cyan], [cyan]done[/cyan]. Unambiguous "
    "prefixes work ([cyan]cla kap[/cyan], [cyan]end[/cyan], [cyan]summon ifrit[/cyan] when one "
    "payment fits), and a bare card completes when only one move names it. "
    "[cyan]card <name>[/cyan] shows a card's full text; help, rules, show, log, quit.",
)


def moves_help(legal: Sequence[str]) -> RenderableType:
    """The legal moves: one-word arguments grouped by action word (`claim: kappa  imp`);
    summons and removals in full, one line per card."""
    lines = [
        Text(
            "Type a move as shown; an unambiguous prefix works ('cla kap', 'end'); "
            "'card <name>' shows a card's full text.",
            style="dim",
        )
    ]
    groups: dict[str, list[str]] = {}
    for move in legal:
        verb, _, rest = move.partition(" ")
        if verb in ("summon", "remove"):
            groups.setdefault(f"{verb} {rest.split()[0]}", []).append(move)
        else:
            groups.setdefault(verb, []).append(rest)
    for key, args in groups.items():
        verb, _, card = key.partition(" ")
        if card:  # full moves, e.g. summon agni pay blue+red · summon agni pay purple
            line = Text()
            for i, move in enumerate(args):
                if i:
                    line.append("  ·  ", style="dim")
                line.append(f"{verb} ", style="bold")
                line.append_text(card_text(card))
                line.append(move[len(key) :])
            lines.append(line)
        elif not any(args):
            lines.append(Text(key, style="bold"))
        else:
            line = Text(f"{key}: ", style="bold")
            parts = [card_text(a) if a in CARD_BY_NAME else Text(a) for a in args]
            line.append_text(join(parts, "  "))
            lines.append(line)
    if not legal:
        lines.append(Text("No move is yours now.", style="dim"))
    return Group(*lines)


RULE_PARTS = ("goal", "cards", "round", "typing")  # vale.rules.<part>


def rules(lang: str | None = None) -> RenderableType:
    """The rules in short: this module's English, or the catalog's in `lang`."""
    return rules_panel(GAME_ID, RULE_PARTS, RULES, "The Vale of Eternity rules in short", lang)
