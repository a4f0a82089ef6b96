"""Rich rendering of an Eternity view (`state.view(seat)`), for the terminal.

Everything here reads only the view dict (plus the card facts: trees per card), so it shows a
seat exactly what that seat may know. The rules core never imports this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from eterna.games.eternity.cards import CARD_BY_NAME, CARD_TREES, FAMILIES
from eterna.games.eternity.views import EternitySeatedCard, EternityView, as_eternity_view

View = dict[str, Any]  # what the entry points get; each part reads it as the EternityView it is

GAME_ID = "eternity"
VERBS: tuple[str, ...] = ("play", "pledge")
DEFAULT_VERB = "play"  # a bare card id means `play <card>`

FAMILY_STYLE: dict[str, str] = {"earth": "green", "sea": "blue", "sky": "red"}
TREE = "↟"  # one tree symbol printed on a card (rules §2.2)

# One entry per paragraph or bullet, so the terminal wraps them at its own width.
RULES: tuple[str, ...] = (
    "[b]Eternity[/b]: 3 rounds of tricks with 42 cards, earth (green), sea (blue) and sky (red), "
    "values 1-14. Cards show trees: 1-4 none, 5-9 one ↟, 10-14 two ↟↟.",
    "",
    "[b]Trump[/b] is the family with the most cards on the trump board; a tie goes to the "
    "leftmost column. The board starts each round with 2 cards and grows only with pledged "
    "cards, so trump can change between tricks, never during one.",
    "",
    "[b]A trick[/b]: the leader must [i]play[/i] a card (any card; it sets the led family) and "
    "may not pledge. Every other player either:",
    "  • [b]plays[/b] a card: follow the led family if you can; if not, play trump if you can; "
    "otherwise anything; or",
    "  • [b]pledges[/b] any card face up: you take its trees at once; the card does not take "
    "part in the trick and joins the trump board after it. At most one pledge per trick (two "
    "at 5 players).",
    "The highest trump played wins, else the highest card of the led family. The winner leads "
    "the next trick.",
    "",
    "[b]Scoring[/b] each round, with T trees taken and K tricks won: T > K scores 0; "
    "T = K scores T + the harmony bonus; T < K scores T. The harmony bonus is 2, 4 and 7 in "
    "rounds 1, 2 and 3. The highest total after 3 rounds wins.",
    "",
    "[b]Typing moves[/b]: [cyan]play sea-3[/cyan], [cyan]pledge sky-11[/cyan], or just "
    "[cyan]sea-3[/cyan] to play it. Unambiguous prefixes work: [cyan]ple sky-11[/cyan], or "
    "[cyan]pla ea[/cyan] when a single earth card can be played. Other commands: help, rules, "
    "show, log, quit.",
)


# ---------------------------------------------------------------------------------- cards


def split_card(card: str) -> tuple[str, int]:
    family, _, value = card.rpartition("-")
    return family, int(value)


def card_trees(card: str) -> int:
    return CARD_TREES[CARD_BY_NAME[card]]


def tree_marks(count: int) -> str:
    return TREE * count


def card_text(card: str, *, short: bool = False, style: str = "") -> Text:
    """`sea-12↟↟` in its family's colour (`12↟↟` when `short`)."""
    family, value = split_card(card)
    colour = FAMILY_STYLE.get(family, "")
    label = str(value) if short else card
    text = Text(label, style=f"{colour} {style}".strip())
    marks = tree_marks(card_trees(card))
    if marks:
        text.append(marks, style="green")
    return text


def family_text(family: str, *, style: str = "bold") -> Text:
    return Text(family, style=f"{style} {FAMILY_STYLE.get(family, '')}".strip())


def join(parts: Sequence[Text], sep: str = " ") -> Text:
    return Text(sep).join(parts)


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def default_names(players: int, seat: int | None = None) -> list[str]:
    return ["You" if s == seat else f"S{s}" for s in range(players)]


# ---------------------------------------------------------------------------------- actions


def describe_action(action: str, who: str) -> Text:
    """'S2 (random) pledges sky-11↟↟ (+2 trees)' / 'You play sea-3'."""
    verb, _, card = action.partition(" ")
    if card not in CARD_BY_NAME:
        return Text(f"{who}: {action}")
    text = Text(f"{who} ")
    ending = "" if who == "You" else "s"
    if verb == "pledge":
        trees = card_trees(card)
        text.append(f"pledge{ending} ", style="bold magenta")
        text.append_text(card_text(card))
        text.append(f" (+{trees} tree{'s' if trees != 1 else ''})")
    else:
        text.append(f"play{ending} ")
        text.append_text(card_text(card))
    return text


def events(before: View, after: View, actor: int, action: str, names: Sequence[str]) -> list[Text]:
    """What one action did, as lines: the action itself, then a finished trick or round."""
    lines = [describe_action(action, seat_name(names, actor))]
    before_v, after_v = as_eternity_view(before), as_eternity_view(after)
    trick = after_v.get("last_trick")
    if trick is not None and trick != before_v.get("last_trick"):
        winner = trick["winner"]
        line = Text("  → trick won by ", style="bold")
        line.append(seat_name(names, winner), style="bold yellow")
        lines.append(line)
    if len(after_v.get("round_results", [])) > len(before_v.get("round_results", [])):
        done = len(after_v["round_results"])
        lines.append(Text(f"  ■ round {done} is over", style="bold"))
    return lines


def round_finished(before: View, after: View) -> int | None:
    """The number of the round that `after` has just finished, if any."""
    done = len(as_eternity_view(after).get("round_results", []))
    return done if done > len(as_eternity_view(before).get("round_results", [])) else None


# ---------------------------------------------------------------------------------- parts


def header(view: EternityView) -> Text:
    text = Text("Eternity", style="bold")
    text.append(f"  ·  round {view['round']}/{view['rounds']}")
    if not view["is_terminal"]:
        text.append(f"  ·  trick {view['trick_number']}/{view['tricks_per_round']}")
    text.append(f"  ·  harmony bonus {view['harmony_bonus']}")
    text.append("  ·  trump: ")
    text.append_text(family_text(view["trump"], style="bold reverse"))
    if view.get("tree_supply") is not None:
        text.append(f"  ·  tree tokens left: {view['tree_supply']}")
    return text


def trump_board(view: EternityView) -> Table:
    """The columns left to right with their cards; the trump column highlighted."""
    table = Table(
        title="Trump board",
        title_justify="left",
        title_style="bold",
        caption="most cards = trump; a tie goes to the leftmost",
        caption_justify="left",
    )
    for family in view["columns"]:
        cards = view["board"].get(family, [])
        head = family_text(family)
        head.append(f" ({len(cards)})")
        if family == view["trump"]:
            head.append(" ★ TRUMP", style="bold yellow")
        table.add_column(head, min_width=12, overflow="fold")
    row = []
    for family in view["columns"]:
        cards = view["board"].get(family, [])
        cell = join([card_text(c, short=True) for c in cards]) if cards else Text("—", "dim")
        row.append(cell)
    table.add_row(*row)
    return table


def display_line(view: EternityView) -> Text | None:
    """The 3-player face-up display (out of play, public)."""
    display = view.get("display") or []
    if not display:
        return None
    text = Text("Face-up display (out of play): ", style="bold")
    parts = []
    for family in FAMILIES:
        cards = [c for c in display if split_card(c)[0] == family]
        if cards:
            part = family_text(family)
            part.append(" ")
            part.append_text(join([card_text(c, short=True) for c in cards]))
            parts.append(part)
    text.append_text(join(parts, "   "))
    return text


def _trick_line(
    names: Sequence[str],
    players: int,
    leader: int | None,
    cards: list[EternitySeatedCard],
    pledges: list[EternitySeatedCard],
) -> list[Text]:
    by_seat: dict[int, Text] = {}
    for entry in cards:
        by_seat[entry["seat"]] = card_text(entry["card"])
    for entry in pledges:
        t = Text("pledged ", style="magenta")
        t.append_text(card_text(entry["card"]))
        by_seat[entry["seat"]] = t
    order = range(players) if leader is None else [(leader + i) % players for i in range(players)]
    out = []
    for seat in order:
        if seat in by_seat:
            part = Text(f"{seat_name(names, seat)}: ", style="bold")
            part.append_text(by_seat[seat])
            out.append(part)
    return out


def current_trick(view: EternityView, names: Sequence[str]) -> Text:
    players = view["players"]
    leader = view.get("leader")
    text = Text("This trick: ", style="bold")
    if view["is_terminal"]:
        return Text("Game over.", style="bold")
    led = view.get("led")
    if led:
        text.append("led ")
        text.append_text(family_text(led))
        text.append("  ")
    parts = _trick_line(names, players, leader, view["trick"], view["pledges"])
    if parts:
        text.append_text(join(parts, "   "))
    else:
        text.append("no card yet", style="dim")
    current = view.get("current_player")
    if current is not None:
        text.append("   ▶ ")
        text.append(f"{seat_name(names, current)} to move", style="bold yellow")
    left = view.get("pledges_left", 0)
    if view.get("led"):
        text.append(f"   (pledges left: {left})", style="dim")
    return text


def last_trick(view: EternityView, names: Sequence[str]) -> Text | None:
    trick = view.get("last_trick")
    if not trick:
        return None
    text = Text("Last trick: won by ", style="bold")
    text.append(seat_name(names, trick["winner"]), style="bold yellow")
    text.append(" — ")
    parts = _trick_line(names, view["players"], trick["leader"], trick["cards"], trick["pledges"])
    text.append_text(join(parts, "   "))
    return text


def harmony(trees: int, tricks: int) -> Text:
    """How a seat stands against §7: ✓ when trees equal tricks, else the gap."""
    if trees == tricks:
        return Text("✓", style="green")
    if trees > tricks:
        return Text(f"+{trees - tricks} tree{'s' if trees - tricks > 1 else ''}", style="red")
    return Text(f"{tricks - trees} bare", style="yellow")


def players_table(view: EternityView, names: Sequence[str]) -> Table:
    table = Table(
        caption="Harmony: ✓ trees = tricks · +n too many trees · n bare tricks",
        caption_justify="left",
    )
    table.add_column("Seat", justify="right")
    table.add_column("Player")
    table.add_column("Cards", justify="right")
    table.add_column("Tricks", justify="right")
    table.add_column("Trees", justify="right")
    table.add_column("Harmony")
    results = view.get("round_results", [])
    for rnd in range(len(results)):
        table.add_column(f"R{rnd + 1}", justify="right")
    table.add_column("Score", justify="right", style="bold")
    current = view.get("current_player")
    for seat in range(view["players"]):
        mark = "▶" if seat == current else ("L" if seat == view.get("leader") else "")
        name = Text(seat_name(names, seat), style="bold cyan" if seat == view.get("seat") else "")
        if seat in view.get("winners", []):
            name.append(" ★", style="bold yellow")
        cells: list[Text | str] = [
            f"{mark} {seat}".strip(),
            name,
            str(view["hand_sizes"][seat]),
            str(view["tricks"][seat]),
            str(view["trees"][seat]),
            harmony(view["trees"][seat], view["tricks"][seat]),
        ]
        cells += [str(r[seat]["points"]) for r in results]
        cells.append(str(view["scores"][seat]))
        table.add_row(*cells)
    return table


def hand(view: EternityView) -> RenderableType | None:
    """The seat's hand by family, tree marks per card; playable cards bold when it is its turn."""
    cards = view.get("hand")
    if cards is None or (not cards and view.get("is_terminal")):
        return None
    legal = view.get("legal_actions")
    playable = {a.split(" ", 1)[1] for a in legal or [] if a.startswith("play ")}
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right")
    table.add_column()
    for family in FAMILIES:
        mine = [c for c in cards if split_card(c)[0] == family]
        if legal is None:
            styled = [card_text(c, short=True) for c in mine]
        else:
            styled = [
                card_text(c, short=True, style="bold underline" if c in playable else "dim")
                for c in mine
            ]
        row = join(styled, "  ") if styled else Text("—", style="dim")
        table.add_row(family_text(family), row)
    count = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
    title = Text(f"Your hand ({count}, {TREE} = one tree)", style="bold")
    return Group(title, table)


def your_move(view: EternityView) -> Text | None:
    """What the seat to move may do, in words."""
    legal = view.get("legal_actions")
    if not legal:
        return None
    plays = [a.split(" ", 1)[1] for a in legal if a.startswith("play ")]
    pledges = [a for a in legal if a.startswith("pledge ")]
    text = Text("Your move: ", style="bold yellow")
    if view.get("led") is None:
        text.append("you lead — play any card (the leader may not pledge).")
        return text
    hand_cards = view.get("hand") or []
    if len(plays) == len(hand_cards):
        text.append("play any card")
    else:
        text.append("play ")
        text.append_text(join([card_text(c) for c in plays], ", "))
        families = {split_card(c)[0] for c in plays}
        if view["led"] in families:
            text.append(f" (you must follow {view['led']})")
        else:
            text.append(f" (no {view['led']}: you must play trump {view['trump']})")
    if pledges:
        text.append(", or pledge any card")
    else:
        text.append("; no pledge is left this trick")
    text.append(". Type e.g. ")
    text.append(f"play {plays[0]}", style="cyan")
    if pledges:
        text.append(" or ")
        text.append(pledges[0], style="cyan")
    text.append("; help lists every move.")
    return text


# ---------------------------------------------------------------------------------- wholes


def table(
    view: View, names: Sequence[str] | None = None, recent: Sequence[Text] = ()
) -> RenderableType:
    """The whole table as `view`'s seat sees it."""
    return _table(as_eternity_view(view), names, recent)


def _table(
    view: EternityView, names: Sequence[str] | None, recent: Sequence[Text]
) -> RenderableType:
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    parts: list[RenderableType] = [header(view), trump_board(view)]
    shown = display_line(view)
    if shown is not None:
        parts.append(shown)
    parts.append(players_table(view, names))
    previous = last_trick(view, names)
    if previous is not None:
        parts.append(previous)
    if recent:
        parts.append(
            Panel(Group(*recent), title="Since your last move", title_align="left", expand=False)
        )
    parts.append(current_trick(view, names))
    mine = hand(view)
    if mine is not None:
        parts.append(mine)
    prompt = your_move(view)
    if prompt is not None:
        parts.append(prompt)
    return Group(*parts)


def round_summary(view: View, rnd: int, names: Sequence[str] | None = None) -> RenderableType:
    """Round `rnd`'s results (trees, tricks, points per seat) and the totals so far."""
    return _round_summary(as_eternity_view(view), rnd, names)


def _round_summary(view: EternityView, rnd: int, names: Sequence[str] | None) -> RenderableType:
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    results = view["round_results"][rnd - 1]
    bonus = (2, 4, 7)[rnd - 1] if rnd <= 3 else None
    title = f"Round {rnd} results" + (f" (harmony bonus {bonus})" if bonus is not None else "")
    table = Table(title=title, title_justify="left", title_style="bold")
    table.add_column("Seat", justify="right")
    table.add_column("Player")
    table.add_column("Trees", justify="right")
    table.add_column("Tricks", justify="right")
    table.add_column("Result")
    table.add_column("Points", justify="right", style="bold")
    table.add_column("Total", justify="right")
    totals = [sum(r[s]["points"] for r in view["round_results"][:rnd]) for s in range(len(names))]
    for seat, res in enumerate(results):
        table.add_row(
            str(seat),
            seat_name(names, seat),
            str(res["trees"]),
            str(res["tricks"]),
            _case(res["trees"], res["tricks"]),
            str(res["points"]),
            str(totals[seat]),
        )
    return table


def _case(trees: int, tricks: int) -> Text:
    if trees > tricks:
        return Text("too many trees: 0", style="red")
    if trees == tricks:
        return Text("harmony: trees + bonus", style="green")
    return Text("bare tricks: trees only", style="yellow")


def final(view: View, names: Sequence[str] | None = None) -> RenderableType:
    """The final score sheet: per round trees/tricks/points, totals and winners."""
    return _final(as_eternity_view(view), names)


def _final(view: EternityView, names: Sequence[str] | None) -> RenderableType:
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    results = view["round_results"]
    table = Table(
        title="Final scores",
        title_justify="left",
        title_style="bold",
        caption="each round: trees/tricks → points",
        caption_justify="left",
    )
    table.add_column("Seat", justify="right")
    table.add_column("Player")
    for rnd in range(len(results)):
        table.add_column(f"Round {rnd + 1}", justify="right")
    table.add_column("Total", justify="right", style="bold")
    table.add_column("")
    winners = view.get("winners", [])
    for seat in range(view["players"]):
        cells: list[Text | str] = [str(seat), seat_name(names, seat)]
        for rnd_results in results:
            res = rnd_results[seat]
            cells.append(f"{res['trees']}/{res['tricks']} → {res['points']}")
        cells.append(str(view["scores"][seat]))
        cells.append(Text("★ winner", style="bold yellow") if seat in winners else "")
        table.add_row(*cells)
    if winners:
        who = ", ".join(seat_name(names, s) for s in winners)
        verdict = Text(f"{'Winners (shared)' if len(winners) > 1 else 'Winner'}: {who}", "bold")
    else:
        verdict = Text("No winner.", style="bold")
    return Group(table, verdict)


def moves_help(legal: Sequence[str]) -> RenderableType:
    """The legal moves, grouped by kind."""
    plays = [a.split(" ", 1)[1] for a in legal if a.startswith("play ")]
    pledges = [a.split(" ", 1)[1] for a in legal if a.startswith("pledge ")]
    lines = [
        Text(
            "Type 'play <card>' or 'pledge <card>'; a bare card plays it; any unambiguous "
            "prefix works (e.g. 'ple sky-11').",
            style="dim",
        )
    ]
    if plays:
        line = Text("play:   ", style="bold")
        line.append_text(join([card_text(c) for c in plays], "  "))
        lines.append(line)
    if pledges:
        line = Text("pledge: ", style="bold")
        line.append_text(join([card_text(c) for c in pledges], "  "))
        lines.append(line)
    return Group(*lines)


def rules() -> RenderableType:
    body = Text("\n").join(Text.from_markup(line) for line in RULES)
    return Panel(body, title="Eternity rules in short", title_align="left")
