"""Rich rendering of an Eternitium view (`state.view(seat)`), for the terminal.

Everything here reads only the view dict plus the card facts (tier, cost, text from the card
data), so it shows a seat exactly what that seat may know. The rules core never imports this
module. Notation and rules: docs/eternitium.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from eterna.games.eternitium.cards import DATA
from eterna.i18n import catalog

View = dict[str, Any]

GAME_ID = "eternitium"
# The action words of the notation (docs/eternitium.md, Notation), for prefix completion.
VERBS: tuple[str, ...] = (
    "pick",
    "take",
    "play",
    "end",
    "skip",
    "discard",
    "destroy",
    "done",
    "steal",
    "gift",
    "keep",
    "acquire",
    "pass",
    "era",
)
DEFAULT_VERB: str | None = None  # a bare card completes against every legal move's argument
MAX_RECENT = 18  # lines of "since your last move" shown

SHAPE_STYLE: dict[str, str] = {
    "circle": "bold red",
    "square": "bold blue",
    "triangle": "bold green",
    "diamond": "bold magenta",
}
SHAPE_MARK: dict[str, str] = {"circle": "●", "square": "■", "triangle": "▲", "diamond": "◆"}
HIDDEN_MARK = "?"

_TECH: dict[str, dict[str, Any]] = {t["id"]: t for t in DATA["technologies"]}
TIER_OF: dict[str, int] = {c: 1 if t["tier"] == "basic" else 2 for c, t in _TECH.items()}

# A short effect text per card (the full texts: `card <name>`).
SHORT: dict[str, str] = {
    "droid": "reveal your next hidden Era card (top 3)",
    "temporal-blaster": "swap your top Era card with an opponent's",
    "futuristic-smartphone": "draw 2 (3 per turn)",
    "digital-wallet": "step 4 costs 1 Era card fewer",
    "transporter": "discard 2 cards: discard your top Era card",
    "data-analyser": "discard or destroy cards, draw as many",
    "ultimate-portal": "discard your top Era card, hidden or not",
    "giga-droid": "your top 3 visible; others reveal 1",
    "thieving-robot": "take a card from an opponent's discard",
    "recycler-robot": "a card of your discard back to hand",
    "time-bomb": "opponents hide top 3 and shuffle",
    "quantum-clock": "opponents add a hidden Era card",
    "laboratory": "gain a technology; others gain a Basic",
}
AI_SHORT: dict[str, str] = {
    "temporal-blaster": "your top Era card is replaced by a hidden one",
    "thieving-robot": "destroys your oldest technology in discard",
    "time-bomb": "hides your top 3 and shuffles",
    "quantum-clock": "adds a hidden Era card to your pile",
}

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


# ---------------------------------------------------------------------------------- cards


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def default_names(players: int, seat: int | None = None) -> list[str]:
    return ["You" if s == seat else f"S{s}" for s in range(players)]


def shape_text(shape: str) -> Text:
    if shape == "hidden":
        return Text(HIDDEN_MARK, style="dim")
    return Text(f"{SHAPE_MARK.get(shape, '')}{shape}", style=SHAPE_STYLE.get(shape, ""))


def _shapes_of(card: str) -> list[str]:
    if card.startswith("portal-"):
        return [card.removeprefix("portal-")]
    if card.startswith("double-portal-"):
        return card.removeprefix("double-portal-").split("-")
    return []


def card_text(card: str) -> Text:
    """A card id, coloured: Portals by shape, Advanced cards bold."""
    shapes = _shapes_of(card)
    if len(shapes) == 1:
        return Text(card, style=SHAPE_STYLE[shapes[0]])
    if shapes:
        text = Text("double-portal-")
        for i, shape in enumerate(shapes):
            text.append(("-" if i else "") + shape, style=SHAPE_STYLE[shape])
        return text
    if card.startswith("blind-"):
        return Text(card, style="dim")
    return Text(card, style="bold cyan" if TIER_OF.get(card) == 2 else "cyan")


def short_effect(card: str) -> str:
    shapes = _shapes_of(card)
    if len(shapes) == 1:
        return f"discards a visible {shapes[0]} Era card (or tries its luck)"
    if shapes:
        return f"discards a visible {' or '.join(shapes)} Era card"
    return SHORT.get(card, "")


def join(parts: Sequence[Text], sep: str = " ") -> Text:
    return Text(sep).join(parts)


def cards_line(cards: Sequence[str]) -> Text:
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    parts = []
    for card, count in counts.items():
        text = card_text(card)
        if count > 1:
            text.append(f" ×{count}", style="bold")
        parts.append(text)
    return join(parts, "  ") if parts else Text("—", style="dim")


def card_info(name: str) -> RenderableType | None:
    """A card's full text from its id or an unambiguous prefix (None: no single card)."""
    name = name.strip().lower()
    known = [f"portal-{s}" for s in SHAPE_MARK] + list(_TECH)
    if name not in known:
        found = [c for c in known if c.startswith(name)]
        if len(found) != 1:
            return None
        name = found[0]
    text = Text()
    text.append_text(card_text(name))
    if name.startswith("portal-"):
        text.append(": Portal card. ")
        text.append(
            f"Discards your visible {name.removeprefix('portal-')} top Era card; on a hidden top "
            "card it tries its luck (a match discards it; a miss shuffles your Era pile, ends "
            "your plays, and you draw 4)."
        )
        return text
    tech = _TECH[name]
    tier = TIER_OF[name]
    text.append(f" ({tech['name']}: {'Basic' if tier == 1 else 'Advanced'}, costs {tier} Era ")
    text.append(f"card{'s' if tier > 1 else ''}, worth {tier} point{'s' if tier > 1 else ''})\n")
    text.append(tech.get("text") or short_effect(name))
    if name in AI_SHORT:
        text.append(f"\nAs a solo AI card: {AI_SHORT[name]}.", style="dim")
    return text


def round_summary(
    view: View, rnd: int, names: Sequence[str] | None = None, lang: str | None = None
) -> RenderableType:
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    table = Table(title=f"After round {rnd}", title_justify="left", title_style="bold")
    table.add_column("Player")
    table.add_column("Era cards", justify="right")
    table.add_column("Tech points", justify="right")
    for seat in range(view["players"]):
        table.add_row(
            seat_name(names, seat), str(view["era_counts"][seat]), str(view["scores"][seat])
        )
    return table


# ---------------------------------------------------------------------------------- table


def header(view: View, names: Sequence[str]) -> Text:
    text = Text("Eternitium", style="bold")
    if view["players"] == 1:
        mission = view["mission"]
        text.append(f" — solo{f', mission {mission}' if mission else ''}")
        text.append(f" · turn {view['turn'] + 1} ({view['turns_left']} left)")
        if view["last_turn"]:
            text.append(" · LAST TURN", style="bold red")
    else:
        text.append(f" — round {view['round']} · first player ")
        text.append(seat_name(names, view["first_player"]))
    if view["is_terminal"]:
        text.append(" · game over", style="bold yellow")
    else:
        active = view["active_player"]
        whose = "your" if active == view.get("seat") else f"{seat_name(names, active)}'s"
        text.append(f" · {whose} turn ({view['phase']})")
    return text


def era_row(pile: Sequence[str], shown: int = 6) -> Text:
    """An Era pile, top first: visible shapes, hidden ones as '?'."""
    if not pile:
        return Text("✦ gem found", style="bold yellow")
    parts = [shape_text(card) for card in pile[:shown]]
    row = join(parts, " ")
    if len(pile) > shown:
        row.append(f" …+{len(pile) - shown}", style="dim")
    return row


def markets(view: View) -> RenderableType:
    table = Table(title="Market", title_justify="left", title_style="bold", expand=False)
    table.add_column("Technology")
    table.add_column("Cost", justify="right")
    table.add_column("Effect")
    for key, tier in (("basic_row", 1), ("advanced_row", 2)):
        for card in view[key]:
            table.add_row(card_text(card), f"{tier} Era", short_effect(card))
    table.add_row(
        Text("blind-basic / blind-advanced", style="dim"),
        "1 / 2",
        f"the top card of a deck (Basic {view['basic_deck_size']} left, "
        f"Advanced {view['advanced_deck_size']} left)",
    )
    return table


def commons(view: View) -> Text:
    text = Text("Common Era cards: ", style="bold")
    text.append_text(join([shape_text(s) for s in view["era_display"]], " ") or Text("none"))
    text.append(f"  (deck {view['era_deck_size']}; discarded ")
    text.append(", ".join(f"{n} {s}" for s, n in view["era_discard"].items() if n) or "none")
    text.append(")\nPortals: ", style="bold")
    if view["portal_row"] or view["portal_deck_size"]:
        text.append_text(cards_line(view["portal_row"]))
        text.append(f"  (deck {view['portal_deck_size']})")
    else:
        reserve = [(s, n) for s, n in view["portal_reserve"].items() if n]
        text.append_text(
            join([shape_text(s).append(f" {n}", style="") for s, n in reserve], "  ")
            if reserve
            else Text("none left")
        )
    if view["players"] == 1:
        text.append("\nAI deck: ", style="bold")
        text.append(f"{view['ai_deck_size']} cards; revealed: ")
        text.append_text(cards_line(view["ai_cards"]) if view["ai_cards"] else Text("none"))
    return text


def players_table(view: View, names: Sequence[str]) -> RenderableType:
    table = Table(title="Players", title_justify="left", title_style="bold", expand=False)
    table.add_column("Player")
    table.add_column("Era", justify="right")
    table.add_column("Era pile (top first)")
    table.add_column("Hand/deck/discard", justify="center")
    table.add_column("Points", justify="right")
    for seat in range(view["players"]):
        name = Text(seat_name(names, seat))
        if seat == view.get("active_player") and not view["is_terminal"]:
            name.append(" ▶", style="bold yellow")
        if seat in view["winners"]:
            name.append(" ★ winner", style="bold yellow")
        table.add_row(
            name,
            str(view["era_counts"][seat]),
            era_row(view["era"][seat]),
            f"{view['hand_sizes'][seat]}/{view['deck_sizes'][seat]}/{view['discard_sizes'][seat]}",
            str(view["scores"][seat]),
        )
    return table


def hand_panel(view: View) -> RenderableType | None:
    if view.get("hand") is None:
        return None
    lines: list[RenderableType] = []
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column(style="dim")
    for card in sorted(set(view["hand"]), key=view["hand"].index):
        count = view["hand"].count(card)
        line = card_text(card)
        if count > 1:
            line.append(f" ×{count}", style="bold")
        grid.add_row(line, short_effect(card))
    lines.append(grid if view["hand"] else Text("(empty)", style="dim"))
    discard = Text("Your discard pile: ", style="bold")
    discard.append_text(cards_line(view["discard"] or []))
    lines.append(discard)
    return Panel(Group(*lines), title="Your hand", title_align="left", expand=False)


PHASE_PROMPT: dict[str, str] = {
    "pick": "pick your first Basic Technology (it is shuffled into your deck)",
    "destroy": "destroy a card from your hand (mission 6)",
    "portal": "take a Portal card from the reserve",
    "play": "play cards one at a time, then end (or skip before playing)",
    "data-analyser": "Data Analyser: discard or destroy cards, then done",
    "steal": "Thieving Robot: steal a card from the discard pile shown",
    "gift": "Laboratory: take a Basic Technology card",
    "skipped": "you skipped: destroy cards, then keep one (or keep none)",
    "acquire": "acquire a technology, or pass",
    "era": "choose the visible common Era card to take",
}


def pending_text(view: View, names: Sequence[str]) -> Text | None:
    pending = view.get("pending") or {}
    if not pending:
        return None
    text = Text("⏳ ", style="bold yellow")
    if "victim" in pending:
        text.append(f"stealing from {seat_name(names, pending['victim'])}'s discard pile")
        if "victim_discard" in pending:
            text.append(": ")
            text.append_text(cards_line(pending["victim_discard"]))
    elif "gifts_to_come" in pending:
        text.append("Laboratory gifts")
        if pending["gifts_to_come"]:
            others = ", ".join(seat_name(names, s) for s in pending["gifts_to_come"])
            text.append(f" (then {others})")
    elif "mode" in pending:
        text.append(f"Data Analyser: {pending['chosen']} chosen, mode {pending['mode']}")
    elif "era_to_take" in pending:
        text.append(f"{pending['era_to_take']} Era card(s) still to take")
    current = view.get("current_player")
    if current is not None:
        text.append(f" — {seat_name(names, current)} to decide", style="bold")
    return text


def your_move(view: View) -> Text | None:
    legal = view.get("legal_actions")
    if not legal:
        return None
    text = Text("Your move: ", style="bold green")
    text.append(PHASE_PROMPT.get(view["phase"]) or str(view["phase"]))
    text.append(". E.g. ")
    text.append(legal[0], style="cyan")
    text.append("; 'help' lists every move.")
    return text


def table(
    view: View,
    names: Sequence[str] | None = None,
    recent: Sequence[Text] = (),
    lang: str | None = None,
) -> RenderableType:
    """The whole table as `view`'s seat sees it; `recent`, the events told since the seat's
    last move (in `lang`'s words: the panel's title too)."""
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    parts: list[RenderableType] = [header(view, names), markets(view), commons(view)]
    parts.append(players_table(view, names))
    if recent:
        shown: list[RenderableType] = list(recent[-MAX_RECENT:])
        if len(recent) > MAX_RECENT:
            shown.insert(0, Text(f"… {len(recent) - MAX_RECENT} earlier lines", "dim"))
        title = (
            "Since your last move" if lang is None else catalog(lang).text("common.since_last_move")
        )
        parts.append(Panel(Group(*shown), title=title, title_align="left", expand=False))
    mine = hand_panel(view)
    if mine is not None:
        parts.append(mine)
    waiting = pending_text(view, names)
    if waiting is not None:
        parts.append(waiting)
    current = view.get("current_player")
    if not view["is_terminal"] and current is not None and current != view.get("seat"):
        turn = Text(f"▶ {seat_name(names, current)} to move ({view['phase']})", "bold yellow")
        parts.append(turn)
    prompt = your_move(view)
    if prompt is not None:
        parts.append(prompt)
    return Group(*parts)


def final(
    view: View, names: Sequence[str] | None = None, lang: str | None = None
) -> RenderableType:
    """The ranking: gem finders first, then technology points, then Advanced cards."""
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    winners = view.get("winners") or []
    if view["players"] == 1:
        if winners:
            return Text(f"✦ You found the gem after {view['turn']} turns: you win!", "bold yellow")
        return Text(
            f"The gem is still {view['era_counts'][0]} Era card(s) away: you lose.", "bold red"
        )
    gem = view["gem"]
    scores = view["scores"]
    adv = view.get("advanced_counts") or [0] * view["players"]

    def key(s: int) -> tuple[int, int, int, int]:
        return (s not in gem, -scores[s], -adv[s], s)

    table = Table(title="Final ranking", title_justify="left", title_style="bold")
    table.add_column("#", justify="right")
    table.add_column("Player")
    table.add_column("Gem")
    table.add_column("Era left", justify="right")
    table.add_column("Tech points", justify="right", style="bold")
    table.add_column("Advanced", justify="right")
    table.add_column("")
    for rank, seat in enumerate(sorted(range(view["players"]), key=key), 1):
        table.add_row(
            str(rank),
            seat_name(names, seat),
            "✦" if seat in gem else "",
            str(view["era_counts"][seat]),
            str(scores[seat]),
            str(adv[seat]),
            Text("★ winner", style="bold yellow") if seat in winners else "",
        )
    rule = Text(
        "Among the players who found the gem: most technology points (Basic 1, Advanced 2), "
        "then most Advanced cards, then a shared win.",
        style="dim",
    )
    parts: list[RenderableType] = [table, rule]
    if not gem:
        parts.append(Text("Nobody found the gem (round limit): everyone ranked by points."))
    if winners:
        label = "Winners (shared)" if len(winners) > 1 else "Winner"
        parts.append(Text(f"{label}: {', '.join(seat_name(names, s) for s in winners)}", "bold"))
    return Group(*parts)


def moves_help(legal: Sequence[str]) -> RenderableType:
    """The legal moves grouped by action word."""
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


def rules() -> RenderableType:
    body = Text("\n").join(Text.from_markup(line) for line in RULES)
    return Panel(body, title="Eternitium rules in short", title_align="left")
