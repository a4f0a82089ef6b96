"""Rich rendering of an Eternity view (`state.view(seat)`), for the terminal.

Everything here reads only the view dict (plus the card facts: trees per card), so it shows a
seat exactly what that seat may know. The rules core never imports this module. What happened
is told by the game's events in words (`eterna.cli.words`), not here. `table(..., lang=)`
speaks the player's language (`Words`); without one it keeps this module's English and adds
the "Your move" hint with notation.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from eterna.core.game import View as GameView
from eterna.games.eternity.cards import CARD_BY_NAME, CARD_TREES, FAMILIES
from eterna.games.eternity.views import EternitySeatedCard, EternityView, as_eternity_view
from eterna.i18n.names import seat_number
from eterna.render.words import ENGLISH, Words, default_names, rules_panel, seat_name

# What the entry points get (the contract's view); each part reads it as the EternityView it is.
View = GameView

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


def card_text(card: str, *, short: bool = False, style: str = "", w: Words = ENGLISH) -> Text:
    """`sea-12↟↟` (`Mer 12↟↟` in French) in its family's colour (`12↟↟` when `short`)."""
    family, value = split_card(card)
    colour = FAMILY_STYLE.get(family, "")
    label = str(value) if short else w.card(GAME_ID, card)
    text = Text(label, style=f"{colour} {style}".strip())
    marks = tree_marks(card_trees(card))
    if marks:
        text.append(marks, style="green")
    return text


def family_text(family: str, *, style: str = "bold", w: Words = ENGLISH) -> Text:
    label = w.family(GAME_ID, family)
    return Text(label, style=f"{style} {FAMILY_STYLE.get(family, '')}".strip())


def join(parts: Sequence[Text], sep: str = " ") -> Text:
    return Text(sep).join(parts)


# ---------------------------------------------------------------------------------- parts


def header(view: EternityView, w: Words = ENGLISH) -> Text:
    text = Text("Eternity", style="bold")
    text.append(f"  ·  {w.t('common.round', 'round')} {view['round']}/{view['rounds']}")
    if not view["is_terminal"]:
        trick = w.t("eternity.word.trick", "trick")
        text.append(f"  ·  {trick} {view['trick_number']}/{view['tricks_per_round']}")
    bonus = w.t("eternity.word.harmony_bonus", "harmony bonus")
    text.append(f"  ·  {bonus} {view['harmony_bonus']}")
    text.append("  ·  " + w.colon(w.t("eternity.word.trump", "trump")))
    text.append_text(family_text(view["trump"], style="bold reverse", w=w))
    if view.get("tree_supply") is not None:
        text.append(f"  ·  tree tokens left: {view['tree_supply']}")
    return text


def trump_board(view: EternityView, w: Words = ENGLISH) -> Table:
    """The columns left to right with their cards; the trump column highlighted."""
    english = w.lang is None  # the caption is the rules' (shown by `rules`), in English
    table = Table(
        title=w.t("eternity.word.trump_board", "Trump board"),
        title_justify="left",
        title_style="bold",
        caption="most cards = trump; a tie goes to the leftmost" if english else None,
        caption_justify="left",
    )
    for family in view["columns"]:
        cards = view["board"].get(family, [])
        head = family_text(family, w=w)
        head.append(f" ({len(cards)})")
        if family == view["trump"]:
            head.append(f" ★ {w.t('eternity.word.trump', 'trump').upper()}", style="bold yellow")
        table.add_column(head, min_width=12, overflow="fold")
    row = []
    for family in view["columns"]:
        cards = view["board"].get(family, [])
        cell = join([card_text(c, short=True) for c in cards]) if cards else Text("—", "dim")
        row.append(cell)
    table.add_row(*row)
    return table


def display_line(view: EternityView, w: Words = ENGLISH) -> Text | None:
    """The 3-player face-up display (out of play, public)."""
    display = view.get("display") or []
    if not display:
        return None
    text = Text(w.colon(w.t("eternity.word.display", "Face-up display (out of play)")), "bold")
    parts = []
    for family in FAMILIES:
        cards = [c for c in display if split_card(c)[0] == family]
        if cards:
            part = family_text(family, w=w)
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
    w: Words = ENGLISH,
) -> list[Text]:
    by_seat: dict[int, Text] = {}
    for entry in cards:
        by_seat[entry["seat"]] = card_text(entry["card"], w=w)
    for entry in pledges:
        t = Text(w.t("eternity.word.pledge", "pledged") + " ", style="magenta")
        t.append_text(card_text(entry["card"], w=w))
        by_seat[entry["seat"]] = t
    order = range(players) if leader is None else [(leader + i) % players for i in range(players)]
    out = []
    for seat in order:
        if seat in by_seat:
            part = Text(w.colon(seat_name(names, seat)), style="bold")
            part.append_text(by_seat[seat])
            out.append(part)
    return out


def current_trick(view: EternityView, names: Sequence[str], w: Words = ENGLISH) -> Text:
    players = view["players"]
    leader = view.get("leader")
    text = Text(w.colon(w.t("common.this_trick", "This trick")), style="bold")
    if view["is_terminal"]:
        return Text(w.t("common.game_over", "Game over") + ".", style="bold")
    led = view.get("led")
    if led:
        text.append(w.t("eternity.word.led", "led {family}", family=w.family(GAME_ID, led)))
        text.append("  ")
    parts = _trick_line(names, players, leader, view["trick"], view["pledges"], w)
    if parts:
        text.append_text(join(parts, "   "))
    else:
        text.append(w.t("common.no_card_yet", "no card yet"), style="dim")
    current = view.get("current_player")
    if current is not None:
        text.append("   ▶ ")
        who = seat_name(names, current)
        text.append(w.t("common.turn_of", "{player} to move", player=who), style="bold yellow")
    left = view.get("pledges_left", 0)
    if view.get("led"):
        told = w.t("eternity.word.pledges_left", "pledges left: {count}", count=left)
        text.append(f"   ({told})", style="dim")
    return text


def last_trick(view: EternityView, names: Sequence[str], w: Words = ENGLISH) -> Text | None:
    trick = view.get("last_trick")
    if not trick:
        return None
    winner = seat_name(names, trick["winner"])
    text = Text(w.t("common.last_trick", "Last trick: won by {player}", player=winner), "bold")
    text.append(" — ")
    seated = (trick["cards"], trick["pledges"])
    parts = _trick_line(names, view["players"], trick["leader"], *seated, w)
    text.append_text(join(parts, "   "))
    return text


def harmony(trees: int, tricks: int, w: Words = ENGLISH) -> Text:
    """How a seat stands against §7: ✓ when trees equal tricks, else the gap."""
    if trees == tricks:
        return Text("✓", style="green")
    if trees > tricks:
        over = trees - tricks
        english = f"+{over} tree{'s' if over > 1 else ''}"
        return Text(w.t("common.harmony.over", english, count=over), style="red")
    under = tricks - trees
    return Text(w.t("common.harmony.under", f"{under} bare", count=under), style="yellow")


def players_table(view: EternityView, names: Sequence[str], w: Words = ENGLISH) -> Table:
    table = Table(
        caption=w.t(
            "common.harmony_legend",
            "Harmony: ✓ trees = tricks · +n too many trees · n bare tricks",
        ),
        caption_justify="left",
    )
    table.add_column(w.t("common.column.seat", "Seat"), justify="right")
    table.add_column(w.t("common.player", "Player"))
    table.add_column(w.t("common.column.cards", "Cards"), justify="right")
    table.add_column(w.t("common.column.tricks", "Tricks"), justify="right")
    table.add_column(w.t("common.column.trees", "Trees"), justify="right")
    table.add_column(w.t("common.column.harmony", "Harmony"))
    results = view.get("round_results", [])
    for rnd in range(len(results)):
        table.add_column(f"R{rnd + 1}", justify="right")
    table.add_column(w.t("common.score", "Score"), justify="right", style="bold")
    current = view.get("current_player")
    for seat in range(view["players"]):
        mark = "▶" if seat == current else ("L" if seat == view.get("leader") else "")
        name = Text(seat_name(names, seat), style="bold cyan" if seat == view.get("seat") else "")
        if seat in view.get("winners", []):
            name.append(" ★", style="bold yellow")
        cells: list[Text | str] = [
            f"{mark} {seat_number(seat)}".strip(),
            name,
            str(view["hand_sizes"][seat]),
            str(view["tricks"][seat]),
            str(view["trees"][seat]),
            harmony(view["trees"][seat], view["tricks"][seat], w),
        ]
        cells += [str(r[seat]["points"]) for r in results]
        cells.append(str(view["scores"][seat]))
        table.add_row(*cells)
    return table


def hand(view: EternityView, w: Words = ENGLISH) -> RenderableType | None:
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
        table.add_row(family_text(family, w=w), row)
    count = len(cards)
    english = f"Your hand ({count} card{'s' if count != 1 else ''}, {{tree}} = one tree)"
    title = Text(w.t("common.your_hand_trees", english, count=count, tree=TREE), style="bold")
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
    view: View,
    names: Sequence[str] | None = None,
    recent: Sequence[Text] = (),
    lang: str | None = None,
) -> RenderableType:
    """The whole table as `view`'s seat sees it; in `lang`'s words when given (the caller
    then lists the legal moves itself), else in English with a "Your move" hint."""
    return _table(as_eternity_view(view), names, recent, Words(lang))


def _table(
    view: EternityView, names: Sequence[str] | None, recent: Sequence[Text], w: Words
) -> RenderableType:
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    parts: list[RenderableType] = [header(view, w), trump_board(view, w)]
    shown = display_line(view, w)
    if shown is not None:
        parts.append(shown)
    parts.append(players_table(view, names, w))
    previous = last_trick(view, names, w)
    if previous is not None:
        parts.append(previous)
    if recent:
        title = w.t("common.since_last_move", "Since your last move")
        parts.append(Panel(Group(*recent), title=title, title_align="left", expand=False))
    parts.append(current_trick(view, names, w))
    mine = hand(view, w)
    if mine is not None:
        parts.append(mine)
    prompt = your_move(view) if w.lang is None else None
    if prompt is not None:
        parts.append(prompt)
    return Group(*parts)


def round_summary(
    view: View, rnd: int, names: Sequence[str] | None = None, lang: str | None = None
) -> RenderableType:
    """Round `rnd`'s results (trees, tricks, points per seat) and the totals so far."""
    return _round_summary(as_eternity_view(view), rnd, names, Words(lang))


def _round_summary(
    view: EternityView, rnd: int, names: Sequence[str] | None, w: Words
) -> RenderableType:
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    results = view["round_results"][rnd - 1]
    bonus = (2, 4, 7)[rnd - 1] if rnd <= 3 else None
    title = w.t("common.round_results", "Round {round} results", round=rnd)
    if bonus is not None:
        title += f" ({w.t('eternity.word.harmony_bonus', 'harmony bonus')} {bonus})"
    table = Table(title=title, title_justify="left", title_style="bold")
    table.add_column(w.t("common.column.seat", "Seat"), justify="right")
    table.add_column(w.t("common.player", "Player"))
    table.add_column(w.t("common.column.trees", "Trees"), justify="right")
    table.add_column(w.t("common.column.tricks", "Tricks"), justify="right")
    table.add_column(w.t("common.column.result", "Result"))
    table.add_column(w.t("common.column.points", "Points"), justify="right", style="bold")
    table.add_column(w.t("common.column.total", "Total"), justify="right")
    totals = [sum(r[s]["points"] for r in view["round_results"][:rnd]) for s in range(len(names))]
    for seat, res in enumerate(results):
        table.add_row(
            str(seat_number(seat)),
            seat_name(names, seat),
            str(res["trees"]),
            str(res["tricks"]),
            _case(res["trees"], res["tricks"], w),
            str(res["points"]),
            str(totals[seat]),
        )
    return table


def _case(trees: int, tricks: int, w: Words = ENGLISH) -> Text:
    if trees > tricks:
        return Text(w.t("common.case.over", "too many trees: 0"), style="red")
    if trees == tricks:
        return Text(w.t("common.case.harmony", "harmony: trees + bonus"), style="green")
    return Text(w.t("common.case.under", "bare tricks: trees only"), style="yellow")


def final(
    view: View, names: Sequence[str] | None = None, lang: str | None = None
) -> RenderableType:
    """The final score sheet: per round trees/tricks/points, totals and winners."""
    return _final(as_eternity_view(view), names, Words(lang))


def _final(view: EternityView, names: Sequence[str] | None, w: Words) -> RenderableType:
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    results = view["round_results"]
    table = Table(
        title=w.t("common.final_scores", "Final scores"),
        title_justify="left",
        title_style="bold",
        caption=w.t("common.final_caption", "each round: trees/tricks → points"),
        caption_justify="left",
    )
    table.add_column(w.t("common.column.seat", "Seat"), justify="right")
    table.add_column(w.t("common.player", "Player"))
    for rnd in range(len(results)):
        round_name = w.t("common.round_number", "Round {round}", round=rnd + 1)
        table.add_column(round_name, justify="right")
    table.add_column(w.t("common.column.total", "Total"), justify="right", style="bold")
    table.add_column("")
    winners = view.get("winners", [])
    for seat in range(view["players"]):
        cells: list[Text | str] = [str(seat_number(seat)), seat_name(names, seat)]
        for rnd_results in results:
            res = rnd_results[seat]
            cells.append(f"{res['trees']}/{res['tricks']} → {res['points']}")
        cells.append(str(view["scores"][seat]))
        star = Text(f"★ {w.t('common.winner', 'winner')}", "bold yellow")
        cells.append(star if seat in winners else "")
        table.add_row(*cells)
    if winners:
        who = ", ".join(seat_name(names, s) for s in winners)
        label = "Winners (shared)" if len(winners) > 1 else "Winner"
        english = f"{label}: {{names}}"
        said = w.t("common.winners", english, names=who, count=len(winners))
        return Group(table, Text(said, "bold"))
    return Group(table, Text(w.t("common.no_winner", "No winner") + ".", style="bold"))


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


RULE_PARTS = ("cards", "trump", "trick", "scoring", "typing")  # eternity.rules.<part>


def rules(lang: str | None = None) -> RenderableType:
    """The rules in short: this module's English, or the catalog's in `lang`."""
    return rules_panel("eternity", RULE_PARTS, RULES, "Eternity rules in short", lang)
