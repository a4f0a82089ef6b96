"""Eternitium's score sheets (after a round, the final ranking), the notation's action words,
the legal moves grouped (English, no language) and the rules in short."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from eterna.games.eternitium.cards import VERBS as ACTION_VERBS
from eterna.games.eternitium.views import EternitiumView, as_eternitium_view
from eterna.render.eternitium.cards import GAME_ID, View, join
from eterna.render.words import Words, default_names, rules_panel, seat_name

# The action words of the notation (docs/eternitium.md, Notation), for prefix completion.
VERBS: tuple[str, ...] = ACTION_VERBS
DEFAULT_VERB: str | None = None  # a bare card completes against every legal move's argument

RULES: tuple[str, ...] = (
    "[b]Eternitium[/b]: a deck-building race. Discard all your Era cards to find the gem. Each "
    "Era card has a shape (● circle, ■ square, ▲ triangle, ◆ diamond); the top card of your "
    "pile is face up, the rest are hidden (?).",
    "",
    "[b]Your turn[/b]: 1. [cyan]take portal-<shape>[/cyan] from the reserve (while any is "
    "left). 2. [cyan]play <card>[/cyan] one card at a time, then [cyan]end[/cyan] (or "
    "[cyan]skip[/cyan] before playing: destroy cards, keep one, draw up to 6). 3. The rest of "
    "your hand is discarded. 4. [cyan]acquire <technology>[/cyan] or [cyan]pass[/cyan]: a "
    "Basic card costs one of the two visible common Era cards, an Advanced both; they go face "
    "up on top of your pile. 5. Draw 5.",
    "",
    "[b]Portals[/b]: a Portal discards your visible top Era card of its shape. On a hidden top "
    "card it [i]tries its luck[/i]: a match discards it, a miss shuffles your pile, ends your "
    "plays and you draw only 4.",
    "",
    "[b]The end[/b]: when someone has no Era card left, the round is finished. Among the gem "
    "finders, most technology points win (Basic 1, Advanced 2), then most Advanced cards.",
    "",
    "[b]Solo[/b]: find the gem within 8 turns; after each turn an AI card strikes you. "
    "Missions 1-10: [cyan]--option mission=N[/cyan].",
    "",
    "[b]Typing moves[/b]: a prefix will do ([cyan]pl dro[/cyan], [cyan]acq blind-b[/cyan]); "
    "[cyan]card <name>[/cyan] shows a card's text; help, rules, show, quit.",
)


def round_summary(
    view: View, rnd: int, names: Sequence[str] | None = None, lang: str | None = None
) -> RenderableType:
    return _round_summary(as_eternitium_view(view), rnd, names, lang)


def _round_summary(
    view: EternitiumView, rnd: int, names: Sequence[str] | None, lang: str | None
) -> RenderableType:
    w = Words(lang)
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    title = w.t(f"{GAME_ID}.table.after_round", "After round {round}", round=rnd)
    table = Table(title=title, title_justify="left", title_style="bold")
    table.add_column(w.t("common.player", "Player"))
    table.add_column(w.t(f"{GAME_ID}.table.era_cards", "Era cards"), justify="right")
    table.add_column(w.t(f"{GAME_ID}.table.tech_points", "Tech points"), justify="right")
    for seat in range(view["players"]):
        table.add_row(
            seat_name(names, seat), str(view["era_counts"][seat]), str(view["scores"][seat])
        )
    return table


def _solo_final(view: EternitiumView, w: Words) -> RenderableType:
    if view.get("winners"):
        turns = view["turn"]
        english = "✦ You found the gem after {count} turns: you win!"
        return Text(w.t(f"{GAME_ID}.table.solo_won", english, count=turns), "bold yellow")
    left = view["era_counts"][0]
    english = "The gem is still {count} Era card(s) away: you lose."
    return Text(w.t(f"{GAME_ID}.table.solo_lost", english, count=left), "bold red")


def final(
    view: View, names: Sequence[str] | None = None, lang: str | None = None
) -> RenderableType:
    """The ranking: gem finders first, then technology points, then Advanced cards."""
    return _final(as_eternitium_view(view), names, lang)


def _final(view: EternitiumView, names: Sequence[str] | None, lang: str | None) -> RenderableType:
    w = Words(lang)
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    if view["players"] == 1:
        return _solo_final(view, w)
    winners = view.get("winners") or []
    gem = view["gem"]
    scores = view["scores"]
    adv = view.get("advanced_counts") or [0] * view["players"]

    def key(s: int) -> tuple[int, int, int, int]:
        return (s not in gem, -scores[s], -adv[s], s)

    title = w.t(f"{GAME_ID}.table.final_ranking", "Final ranking")
    table = Table(title=title, title_justify="left", title_style="bold")
    table.add_column("#", justify="right")
    table.add_column(w.t("common.player", "Player"))
    table.add_column(w.t(f"{GAME_ID}.table.gem", "Gem"))
    table.add_column(w.t(f"{GAME_ID}.table.era_left", "Era left"), justify="right")
    table.add_column(
        w.t(f"{GAME_ID}.table.tech_points", "Tech points"), justify="right", style="bold"
    )
    table.add_column(w.t(f"{GAME_ID}.table.advanced", "Advanced"), justify="right")
    table.add_column("")
    star = Text(f"★ {w.t('common.winner', 'winner')}", style="bold yellow")
    for rank, seat in enumerate(sorted(range(view["players"]), key=key), 1):
        table.add_row(
            str(rank),
            seat_name(names, seat),
            "✦" if seat in gem else "",
            str(view["era_counts"][seat]),
            str(scores[seat]),
            str(adv[seat]),
            star if seat in winners else "",
        )
    english = (
        "Among the players who found the gem: most technology points (Basic 1, Advanced 2), "
        "then most Advanced cards, then a shared win."
    )
    parts: list[RenderableType] = [
        table,
        Text(w.t(f"{GAME_ID}.table.ranking_rule", english), style="dim"),
    ]
    if not gem:
        english = "Nobody found the gem (round limit): everyone ranked by points."
        parts.append(Text(w.t(f"{GAME_ID}.table.no_gem", english)))
    if winners:
        label = "Winners (shared)" if len(winners) > 1 else "Winner"
        who = ", ".join(seat_name(names, s) for s in winners)
        said = w.t("common.winners", f"{label}: {{names}}", names=who, count=len(winners))
        parts.append(Text(said, "bold"))
    return Group(*parts)


def moves_help(legal: Sequence[str]) -> RenderableType:
    """The legal moves grouped by action word (in notation: a game without a language)."""
    lines = [
        Text(
            "Type a move as shown; an unambiguous prefix works ('pl dro', 'acq blind-b'); "
            "'card <name>' shows a card's full text.",
            style="dim",
        )
    ]
    groups: dict[str, list[str]] = {}
    for move in legal:
        verb, _, rest = move.partition(" ")
        groups.setdefault(verb, []).append(rest)
    for verb, args in groups.items():
        if not any(args):
            lines.append(Text(verb, style="bold"))
            continue
        line = Text(f"{verb}: ", style="bold")
        line.append_text(join([Text(a) for a in args], "  ·  "))
        lines.append(line)
    if not legal:
        lines.append(Text("No move is yours now.", style="dim"))
    return Group(*lines)


RULE_PARTS = ("goal", "turn", "portals", "end", "solo", "typing")  # eternitium.rules.<part>


def rules(lang: str | None = None) -> RenderableType:
    """The rules in short: this module's English, or the catalog's in `lang`."""
    return rules_panel(GAME_ID, RULE_PARTS, RULES, "Eternitium rules in short", lang)
