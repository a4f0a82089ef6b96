"""The parts of the table: the header, who must answer which effect, the hunting board, one
panel per seat (stones, claims, area), the viewer's hand and what the seat to move may do."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from eterna.games.vale.cards import COLOURS, FAMILIES
from eterna.i18n import stones_words
from eterna.render.vale.artifacts import artifacts_line
from eterna.render.vale.cards import (
    BASE_VALUES,
    STONE_STYLE,
    View,
    card_text,
    cards_line,
    cost_of,
    family_of,
    family_text,
    join,
    plural,
    sale_text,
    short_effect,
    sort_cards,
    stone_text,
)
from eterna.render.words import ENGLISH, Words, seat_name

# The family each Dragon attack makes its victim discard.
ATTACKS: dict[str, str] = {
    "leviathan": "dragon",
    "ember": "water",
    "marina": "fire",
    "boulder": "wind",
    "gust": "earth",
}

# What a pending choice asks, by its kind (an infinitive, after "must"); `name_a_player` is
# worded from the card below.
PENDING: dict[str, str] = {
    "stone_limit": "discard stones down to the stone limit",
    "return_to_hand": "pick a card of {own} area to take back to hand",
    "discard_from_hand": "discard a card from hand",
    "take_from_discard": "take an earth card from the discard pile",
    "discard_from_own_area": "discard up to 3 other cards of {own} area, then say done",
    "steal_points": "name an opponent to steal 1 point from",
    "choose_one": "choose a reward",
    "copy_instant": "pick another card's instant effect to repeat",
    "copy_active": "pick another card's active effect to repeat",
    "activate_others": "resolve the other cards' active effects, one at a time",
    "discard_then_summon_free": "discard a hand card, then summon another one for free",
    "summon_free_in_place": "summon a dragon from hand for free",
}


def header(view: View, names: Sequence[str], w: Words = ENGLISH) -> Group:
    """Two lines: the clock and the piles; then the first player, the area limit, the goal."""
    top = Text("The Vale of Eternity", style="bold")
    top.append(f" · {w.t('common.round', 'round')} {view['round']}/{view['rounds']} · ", "bold")
    if view["is_terminal"]:
        top.append(w.t("common.game_over", "game over"), style="bold reverse")
    else:
        phase = w.t(f"vale.phase.{view['phase']}", view["phase"])
        top.append(w.t("common.phase_named", "{phase} phase", phase=phase), style="bold reverse")
    top.append(f" · {w.t('common.deck', 'deck')} {view['deck_count']}")
    deck_top = view.get("deck_top")
    if deck_top:
        top.append(f" ({w.colon(w.t('common.top_known', 'top known'))}")
        top.append_text(card_text(deck_top, w=w))
        top.append(")")
    discard = view.get("discard") or []
    top.append(f" · {w.t('common.discard_pile', 'discard')} {len(discard)}")
    if discard:
        top.append(f" ({w.colon(w.t('common.top', 'top'))}")
        top.append_text(card_text(discard[-1], w=w))
        top.append(")")
    info = Text()
    if not view["is_terminal"]:
        first = seat_name(names, view["first_player"])
        info.append(w.t("common.first_player", "first player {player}", player=first) + " · ")
    limit = view["area_limit"]
    info.append(w.t("common.area_limit", f"area limit {plural(limit, 'card')}", count=limit))
    goal = view["end_score"]
    ends = w.t("common.goal", "{count} points ends the game", count=goal)
    info.append(f" · {ends}", style="dim")
    return Group(top, info)


def pending_text(view: View, names: Sequence[str], w: Words = ENGLISH) -> Text | None:
    """Who must answer which effect, and what they must do (in a language: who must answer
    which card; what is asked was told as an event)."""
    pending = view.get("pending")
    if not pending:
        return None
    chooser = pending["chooser"]
    card = pending.get("card")
    kind = pending.get("kind", "")
    if w.lang is not None:
        return Text(f"⏳ {pending_words(view, names, w)}", style="bold yellow")
    if kind == "name_a_player" and card in ATTACKS:
        family = ATTACKS[card]
        article = "an" if family[0] in "aeiou" else "a"
        if chooser == pending.get("for_seat"):
            what = f"name a player who must discard {article} {family} card of their area"
        else:
            what = f"discard {article} {family} card of {{own}} area"
    elif kind == "choose_one" and card == "hydra":
        what = "choose two different rewards, one at a time"
    elif kind == "stone_limit":
        held = sum(view["stones"][chooser].values())
        limit = view["stone_limits"][chooser]
        what = (
            f"discard {plural(held - limit, 'stone')} of {{own}} choice "
            f"({held} held, the limit is {limit}; rules §7)"
        )
    else:
        what = PENDING.get(kind, "decide")
    who = seat_name(names, chooser)
    text = Text("⏳ ", style="bold yellow")
    text.append(who, style="bold yellow")
    text.append(" must ")
    text.append(what.replace("{own}", "your" if who == "You" else "their"))
    if card:
        text.append(" (effect of ")
        text.append_text(card_text(card))
        owner = pending.get("for_seat")
        if owner is not None and owner != chooser:
            text.append(f", summoned by {seat_name(names, owner)}")
        text.append(")")
    return text


def pending_words(view: View, names: Sequence[str], w: Words) -> str:
    """In a language: who must answer which card's effect, and what they must do
    (`vale.pending.<kind>`)."""
    pending = view["pending"]
    assert pending is not None  # asked only while a question waits (pending_text)
    chooser, card, kind = pending["chooser"], pending.get("card"), pending.get("kind", "")
    who = seat_name(names, chooser)
    if card:
        named = w.card("vale", card)
        answer = w.t("common.must_answer_card", "", player=who, card=named)
    else:
        answer = w.t("common.must_answer", "", player=who)
    if kind == "name_a_player" and card in ATTACKS:
        family = w.family("vale", ATTACKS[card])
        mine = chooser == pending.get("for_seat")
        what = w.t(f"vale.pending.attack_{'name' if mine else 'discard'}", "", family=family)
    elif kind == "choose_one" and card == "hydra":
        what = w.t("vale.pending.choose_two", "")
    elif kind == "stone_limit":
        held = sum(view["stones"][chooser].values())
        limit = view["stone_limits"][chooser]
        what = w.t("vale.pending.stone_limit", "", count=held - limit, held=held, limit=limit)
    elif kind in PENDING:
        what = w.t(f"vale.pending.{kind}", "")
    else:
        what = w.t("vale.pending.decide", "")
    return w.t("vale.pending.asked", "", answer=answer, what=what)


def claim_order(view: View, names: Sequence[str], w: Words = ENGLISH) -> Text:
    """The snake order of claims this round, the claims made dim and the next one bold."""
    n = view["players"]
    order = [(view["first_player"] + i) % n for i in range(n)]
    picks = order + order[::-1]
    done = sum(len(c) for c in view["claimed"])
    text = Text(w.colon(w.t("common.claim_order", "claim order")), style="dim")
    parts = []
    for i, seat in enumerate(picks):
        label = seat_name(names, seat).split(" ")[0]
        if i < done:
            parts.append(Text(label, style="dim strike"))
        elif i == done:
            parts.append(Text(f"▶{label}", style="bold yellow"))
        else:
            parts.append(Text(label))
    text.append_text(join(parts, " → "))
    return text


def hunting_board(view: View, names: Sequence[str], w: Words = ENGLISH) -> RenderableType:
    """The revealed cards by family, each with its cost, effect, sale and claim marker."""
    claims = {c: s for s, cards in enumerate(view["claimed"]) for c in cards}
    cards = sort_cards([*view["revealed"], *claims])
    table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="dim")
    table.add_column(w.t("common.column.family", "family"), no_wrap=True)
    table.add_column(w.t("common.column.card", "card"), no_wrap=True)
    table.add_column(w.t("common.column.cost", "cost"), justify="right", no_wrap=True)
    table.add_column(w.t("common.column.effect", "effect"), ratio=1)
    table.add_column(w.t("common.column.sells_for", "sells for"), no_wrap=True)
    table.add_column(w.t("common.column.claim", "claim"), no_wrap=True)
    for card in cards:
        family = family_of(card)
        claimed = claims.get(card)
        marker = (
            Text(f"◆ {seat_name(names, claimed)}", style="bold")
            if claimed is not None
            else Text("—", style="dim")
        )
        table.add_row(
            family_text(family, style="", w=w),
            card_text(card, style="bold" if claimed is None else "dim", w=w),
            Text(str(cost_of(card))),
            Text(
                short_effect(card, w),
                style="dim" if claimed is not None else "",
                overflow="fold",
            ),
            sale_text(family, compact=True, w=w),
            marker,
        )
    title = Text(w.t("vale.word.hunting_board", "Hunting board") + "  ", style="bold")
    title.append_text(claim_order(view, names, w))
    if not cards:
        return Group(title, Text(w.t("common.nothing_revealed", "nothing revealed"), "dim"))
    return Group(title, table)


def stones_line(view: View, seat: int, w: Words = ENGLISH) -> Text:
    """'2 red 1 blue (worth 5; 3/4)': the stones held, their value in force and the limit."""
    held = view["stones"][seat]
    values = view["stone_values"][seat]
    count = sum(held[c] for c in COLOURS)
    parts = [stone_text(c, held[c]) for c in COLOURS if held[c]]
    if w.lang is not None:
        parts = [
            Text(stones_words({c: held[c]}, w.lang), STONE_STYLE[c]) for c in COLOURS if held[c]
        ]
    text = join(parts, ", ") if parts else Text(w.t("vale.stones.none", "no stones"), "dim")
    worth = sum(held[c] * values[c] for c in COLOURS)
    said = w.t("common.stones_worth", "worth {worth}", worth=worth)
    text.append(f" ({said}; {count}/{view['stone_limits'][seat]})", style="dim")
    changed = [
        w.t(
            "vale.word.stone_worth",
            "{stone} = {value}",
            stone=w.t(f"vale.stone.{c}", c),
            value=values[c],
        )
        for c in COLOURS
        if values[c] != BASE_VALUES[c]
    ]
    if changed:
        text.append(f" [{', '.join(changed)}]", style="yellow")
    return text


def families_line(cards: Sequence[str], w: Words = ENGLISH) -> Text:
    """'fire 2, earth 1': how many cards of each family (the counting effects use them)."""
    counts: dict[str, int] = {}
    for card in sort_cards(cards):
        family = family_of(card)
        counts[family] = counts.get(family, 0) + 1
    parts = [family_text(f, style="", w=w).append(f" {n}") for f, n in counts.items()]
    return join(parts, ", ")


class CardGrid:
    """Card entries in as many equal columns as the width allows (1 to 3), row by row."""

    def __init__(self, entries: Sequence[Text], column_width: int = 36) -> None:
        self.entries = list(entries)
        self.column_width = column_width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        count = max(1, min(3, options.max_width // self.column_width, len(self.entries)))
        grid = Table.grid(padding=(0, 2), expand=False)
        for _ in range(count):
            grid.add_column(ratio=1)
        for start in range(0, len(self.entries), count):
            row: list[RenderableType] = list(self.entries[start : start + count])
            row += [""] * (count - len(row))
            grid.add_row(*row)
        yield grid


def area_grid(view: View, seat: int, w: Words = ENGLISH) -> RenderableType:
    """A seat's area by family: each card with its cost and short effect."""
    resolved = set(view.get("resolved") or [])
    entries = []
    for card in sort_cards(view["areas"][seat]):
        entry = card_text(card, cost=True, w=w)
        entry.append(f" {short_effect(card, w)}", style="")
        entry.overflow = "fold"
        if card in resolved:
            entry.append(" ✓", style="green")
        entries.append(entry)
    return CardGrid(entries)


def cuts_text(view: View, seat: int, w: Words = ENGLISH) -> Text:
    """' · summons cost 1 less' or ' · cheaper: wind -2': the seat's cost reductions."""
    cuts = {f: n for f, n in view["cost_reductions"][seat].items() if n}
    if not cuts:
        return Text()
    if len(cuts) == len(FAMILIES) and len(set(cuts.values())) == 1:
        count = next(iter(cuts.values()))
        said = w.t("vale.word.all_cheaper", "summons cost {count} less", count=count)
    else:
        listed = ", ".join(f"{w.family('vale', f)} -{n}" for f, n in cuts.items())
        said = w.t("vale.word.cheaper", "cheaper: {families}", families=listed)
    return Text(f" · {said}", style="yellow")


def seat_panel(view: View, names: Sequence[str], seat: int, w: Words = ENGLISH) -> Panel:
    """One seat: score, stones, hand size, claims, known hand cards and the area."""
    current = view.get("current_player")
    title = Text()
    if seat == current:
        title.append("▶ ", style="bold yellow")
    title.append(seat_name(names, seat), style="bold cyan" if seat == view.get("seat") else "bold")
    score, goal = view["scores"][seat], view["end_score"]
    points = w.t("common.score_of", "{score}/{goal} points", score=score, goal=goal)
    title.append(f" · {points}", style="bold")
    if seat == view["first_player"] and not view["is_terminal"]:
        title.append(f" · {w.t('common.first', 'first player')}", style="dim")
    if seat in (view.get("winners") or []):
        title.append(f" · ★ {w.t('common.winner', 'winner')}", style="bold yellow")
    area = view["areas"][seat]
    status = stones_line(view, seat, w)
    status.append(f" · {w.t('common.hand', 'hand')} {view['hand_sizes'][seat]}")
    arts = view.get("artifacts")
    limit = arts["area_limits"][seat] if arts else view["area_limit"]
    area_size = f"{w.t('vale.word.area', 'area')} {len(area)}/{limit}"
    if area:
        status.append(f" · {w.colon(area_size)}")
        status.append_text(families_line(area, w))
    else:
        status.append(f" · {area_size}")
    status.append_text(cuts_text(view, seat, w))
    lines: list[RenderableType] = [status]
    claimed = view["claimed"][seat]
    if claimed and view["phase"] == "action":
        line = Text(w.colon(w.t("common.claimed", "claimed, to sell or tame")), style="bold")
        line.append_text(cards_line(claimed, cost=True, w=w))
        lines.append(line)
    if seat != view.get("seat"):
        known = view["known_hands"][seat]
        if known:
            line = Text(w.colon(w.t("common.known_in_hand", "known in hand")), style="dim")
            line.append_text(cards_line(sort_cards(known), w=w))
            lines.append(line)
    if arts:
        lines.append(artifacts_line(arts, seat, seat == view.get("seat"), w))
    if area:
        lines.append(area_grid(view, seat, w))
    border = "yellow" if seat == current else ("cyan" if seat == view.get("seat") else "dim")
    return Panel(Group(*lines), title=title, title_align="left", border_style=border)


def hand(view: View, w: Words = ENGLISH) -> RenderableType | None:
    """The viewer's own hand, each card with family, cost (reduced) and effect; the cards that
    may be summoned now stand out."""
    cards = view.get("hand")
    if cards is None:
        return None
    seat = view["seat"]
    assert seat is not None  # a spectator has no hand (above)
    legal = view.get("legal_actions") or []
    summonable = {a.split()[1] for a in legal if a.startswith("summon ")}
    cuts = view["cost_reductions"][seat]
    count = len(cards)
    english = f"Your hand ({plural(count, 'card')})"
    title = Text(w.t("common.your_hand_count", english, count=count), style="bold")
    if not cards:
        return Group(title, Text("  " + w.t("common.empty", "empty"), style="dim"))
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    table.add_column(ratio=1)
    for card in sort_cards(cards):
        family = family_of(card)
        cost = cost_of(card)
        now = max(0, cost - cuts.get(family, 0))
        cost_cell = Text(str(cost) if now == cost else f"{cost}→{now}")
        can = card in summonable
        mark = Text("▸", style="bold green") if can else Text(" ")
        table.add_row(
            mark,
            family_text(family, style="", w=w),
            card_text(card, style="bold" if can else "", w=w),
            cost_cell,
            Text(short_effect(card, w)),
        )
    if summonable:
        title.append("  " + w.t("common.summonable", "▸ = can be summoned now"), style="dim")
    return Group(title, table)


def your_move(view: View) -> Text | None:
    """What the seat to move may do, in words."""
    legal = view.get("legal_actions")
    if not legal:
        return None
    text = Text("Your move: ", style="bold yellow")
    pending = view.get("pending")
    if pending:
        options = legal
        text.append("one of ")
        text.append_text(join([Text(o, style="cyan") for o in options[:8]], " · "))
        if len(options) > 8:
            text.append(f" · … ({len(options)} in all; help lists them)")
        return text
    phase = view["phase"]
    if phase == "hunting":
        text.append("claim one revealed card (")
        text.append("claim <card>", style="cyan")
        text.append("), e.g. ")
        text.append(legal[0], style="cyan")
        text.append(".")
        return text
    if phase == "resolution":
        text.append("resolve your active effects, in the order you choose: ")
        text.append_text(join([Text(a, style="cyan") for a in legal], " · "))
        text.append(".")
        return text
    seat = view["seat"]
    assert seat is not None  # legal_actions is only in the view of the seat to move
    claimed = view["claimed"][seat]
    verbs = {a.split()[0] for a in legal}
    summons = dict.fromkeys(a.split()[1] for a in legal if a.startswith("summon "))
    if claimed:
        text.append("sell (for stones) or tame (into your hand) ")
        text.append_text(cards_line(claimed))
        text.append("; ")
    if summons:
        text.append("you may summon ")
        text.append_text(cards_line(list(summons)))
        text.append("; ")
    else:
        text.append("nothing can be summoned now; ", style="dim")
    if "remove" in verbs:
        text.append("remove a card of your area; ")
    if "end-turn" in verbs:
        text.append("end-turn", style="cyan")
        text.append(" when done")
    else:
        text.append("then end-turn")
    example = next(
        (a for verb in ("sell", "tame", "summon", "end-turn") for a in legal if a.startswith(verb)),
        legal[0],
    )
    text.append(". E.g. ")
    text.append(example, style="cyan")
    text.append("; help lists every move.")
    return text
