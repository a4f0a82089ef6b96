"""The parts of Eternitium's table: the header, the market, the common Era cards and Portals,
the players, the viewer's hand, who must decide what, and the whole table (`table`).

Every part speaks `w` (`Words`): the renderer's English with card ids (no language), or the
catalog's words and card names in a player's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from eterna.games.eternitium.views import EternitiumView, as_eternitium_view
from eterna.render.eternitium.cards import (
    GAME_ID,
    View,
    card_text,
    cards_line,
    join,
    shape_text,
    shape_word,
    short_effect,
)
from eterna.render.words import ENGLISH, Words, default_names, seat_name

MAX_RECENT = 18  # lines of "since your last move" shown


def _phase(view: EternitiumView, w: Words) -> str:
    return w.t(f"{GAME_ID}.phase.{view['phase']}", str(view["phase"]))


def header(view: EternitiumView, names: Sequence[str], w: Words = ENGLISH) -> Text:
    text = Text("Eternitium", style="bold")
    if view["players"] == 1:
        mission = view["mission"]
        if mission:
            text.append(
                " — "
                + w.t(f"{GAME_ID}.table.solo_mission", "solo, mission {mission}", mission=mission)
            )
        else:
            text.append(" — " + w.t(f"{GAME_ID}.table.solo", "solo"))
        turn = w.t(
            f"{GAME_ID}.table.turn_left",
            "turn {turn} ({left} left)",
            turn=view["turn"] + 1,
            left=view["turns_left"],
        )
        text.append(f" · {turn}")
        if view["last_turn"]:
            text.append(" · " + w.t(f"{GAME_ID}.table.last_turn", "LAST TURN"), style="bold red")
    else:
        first = seat_name(names, view["first_player"])
        text.append(f" — {w.t('common.round_number', 'round {round}', round=view['round'])} · ")
        text.append(w.t("common.first_player", "first player {player}", player=first))
    if view["is_terminal"]:
        text.append(" · " + w.t("common.game_over", "game over"), style="bold yellow")
        return text
    active = view["active_player"]
    assert active is not None  # None only once the game is over
    phase = _phase(view, w)
    if active == view["seat"]:
        text.append(" · " + w.t(f"{GAME_ID}.table.your_turn", "your turn ({phase})", phase=phase))
    else:
        who = seat_name(names, active)
        said = w.t(f"{GAME_ID}.table.turn_of", "{player}'s turn ({phase})", player=who, phase=phase)
        text.append(" · " + said)
    return text


def era_row(pile: Sequence[str], shown: int = 6, w: Words = ENGLISH) -> Text:
    """An Era pile, top first: visible shapes, hidden ones as '?'."""
    if not pile:
        return Text("✦ " + w.t(f"{GAME_ID}.table.gem_found", "gem found"), style="bold yellow")
    row = join([shape_text(card, w) for card in pile[:shown]], " ")
    if len(pile) > shown:
        row.append(f" …+{len(pile) - shown}", style="dim")
    return row


def markets(view: EternitiumView, w: Words = ENGLISH) -> RenderableType:
    title = w.t(f"{GAME_ID}.table.market", "Market")
    table = Table(title=title, title_justify="left", title_style="bold", expand=False)
    table.add_column(w.t(f"{GAME_ID}.table.technology", "Technology"))
    table.add_column(w.t(f"{GAME_ID}.table.cost", "Cost"), justify="right")
    table.add_column(w.t(f"{GAME_ID}.table.effect", "Effect"))
    for row, tier in ((view["basic_row"], 1), (view["advanced_row"], 2)):
        for card in row:
            cost = w.t(f"{GAME_ID}.word.era_cards", "{count} Era", count=tier)
            table.add_row(card_text(card, w), cost, short_effect(card, w))
    blind = Text(" / ").join([card_text("blind-basic", w), card_text("blind-advanced", w)])
    english = "the top card of a deck (Basic {basic} left, Advanced {advanced} left)"
    sizes = {"basic": view["basic_deck_size"], "advanced": view["advanced_deck_size"]}
    table.add_row(blind, "1 / 2", w.t(f"{GAME_ID}.table.blind_effect", english, **sizes))
    return table


def commons(view: EternitiumView, w: Words = ENGLISH) -> Text:
    none = w.t(f"{GAME_ID}.word.none", "none")
    label = w.t(f"{GAME_ID}.table.common_era", "Common Era cards")
    text = Text(w.colon(label), style="bold")
    shown = join([shape_text(s, w) for s in view["era_display"]], " ")
    text.append_text(shown or Text(none))
    discarded = [f"{n} {shape_word(s, w)}" for s, n in view["era_discard"].items() if n]
    english = "deck {count}; discarded {discarded}"
    deck = view["era_deck_size"]
    said = w.t(
        f"{GAME_ID}.table.era_deck", english, count=deck, discarded=", ".join(discarded) or none
    )
    text.append(f"  ({said})\n")
    text.append(w.colon(w.t(f"{GAME_ID}.table.portals", "Portals")), style="bold")
    if view["portal_row"] or view["portal_deck_size"]:
        text.append_text(cards_line(view["portal_row"], w))
        size = view["portal_deck_size"]
        text.append(f"  ({w.t(f'{GAME_ID}.table.deck_size', 'deck {count}', count=size)})")
    else:
        reserve = [(s, n) for s, n in view["portal_reserve"].items() if n]
        text.append_text(
            join([shape_text(s, w).append(f" {n}", style="") for s, n in reserve], "  ")
            if reserve
            else Text(w.t(f"{GAME_ID}.table.none_left", "none left"))
        )
    if view["players"] == 1:
        text.append("\n" + w.colon(w.t(f"{GAME_ID}.word.ai_deck", "AI deck")), style="bold")
        size = view["ai_deck_size"]
        english = f"{size} card{'s' if size != 1 else ''}; revealed"
        text.append(w.colon(w.t(f"{GAME_ID}.table.ai_deck", english, count=size)))
        text.append_text(cards_line(view["ai_cards"], w) if view["ai_cards"] else Text(none))
    return text


def players_table(view: EternitiumView, names: Sequence[str], w: Words = ENGLISH) -> RenderableType:
    title = w.t("common.players", "Players")
    table = Table(title=title, title_justify="left", title_style="bold", expand=False)
    table.add_column(w.t("common.player", "Player"))
    table.add_column(w.t(f"{GAME_ID}.table.era", "Era"), justify="right")
    table.add_column(w.t(f"{GAME_ID}.table.era_pile", "Era pile (top first)"))
    table.add_column(
        w.t(f"{GAME_ID}.table.hand_deck_discard", "Hand/deck/discard"), justify="center"
    )
    table.add_column(w.t("common.column.points", "Points"), justify="right")
    for seat in range(view["players"]):
        name = Text(seat_name(names, seat))
        if seat == view.get("active_player") and not view["is_terminal"]:
            name.append(" ▶", style="bold yellow")
        if seat in view["winners"]:
            name.append(f" ★ {w.t('common.winner', 'winner')}", style="bold yellow")
        table.add_row(
            name,
            str(view["era_counts"][seat]),
            era_row(view["era"][seat], w=w),
            f"{view['hand_sizes'][seat]}/{view['deck_sizes'][seat]}/{view['discard_sizes'][seat]}",
            str(view["scores"][seat]),
        )
    return table


def hand_panel(view: EternitiumView, w: Words = ENGLISH) -> RenderableType | None:
    hand = view["hand"]
    if hand is None:
        return None
    lines: list[RenderableType] = []
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column(style="dim")
    for card in sorted(set(hand), key=hand.index):
        count = hand.count(card)
        line = card_text(card, w)
        if count > 1:
            line.append(f" ×{count}", style="bold")
        grid.add_row(line, short_effect(card, w))
    empty = Text(f"({w.t('common.empty', 'empty')})", style="dim")
    lines.append(grid if hand else empty)
    discard = Text(w.colon(w.t(f"{GAME_ID}.table.your_discard", "Your discard pile")), "bold")
    discard.append_text(cards_line(view["discard"] or [], w))
    lines.append(discard)
    title = w.t("common.your_hand", "Your hand")
    return Panel(Group(*lines), title=title, title_align="left", expand=False)


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


def _pending_words(view: EternitiumView, names: Sequence[str], w: Words) -> Text:
    pending = view["pending"]
    text = Text()
    if "victim" in pending:
        victim = seat_name(names, pending["victim"])
        english = "stealing from {player}'s discard pile"
        text.append(w.t(f"{GAME_ID}.table.stealing", english, player=victim))
        if "victim_discard" in pending:
            text.append(": ")
            text.append_text(cards_line(pending["victim_discard"], w))
    elif "gifts_to_come" in pending:
        text.append(w.t(f"{GAME_ID}.table.gifts", "Laboratory gifts"))
        if pending["gifts_to_come"]:
            others = ", ".join(seat_name(names, s) for s in pending["gifts_to_come"])
            text.append(
                f" ({w.t(f'{GAME_ID}.table.gifts_then', 'then {players}', players=others)})"
            )
    elif "mode" in pending:
        english = f"Data Analyser: {pending['chosen']} chosen, mode {pending['mode']}"
        key = f"{GAME_ID}.table.analyser.{pending['mode']}"
        text.append(w.t(key, english.replace("{", "{{"), count=pending["chosen"]))
    elif "era_to_take" in pending:
        english = "{count} Era card(s) still to take"
        text.append(w.t(f"{GAME_ID}.table.era_to_take", english, count=pending["era_to_take"]))
    return text


def pending_text(view: EternitiumView, names: Sequence[str], w: Words = ENGLISH) -> Text | None:
    if not view.get("pending"):
        return None
    text = Text("⏳ ", style="bold yellow")
    text.append_text(_pending_words(view, names, w))
    current = view.get("current_player")
    if current is not None:
        who = seat_name(names, current)
        said = w.t(f"{GAME_ID}.table.to_decide", "{player} to decide", player=who)
        text.append(f" — {said}", style="bold")
    return text


def your_move(view: EternitiumView) -> Text | None:
    """What the seat to move may do, with an example in notation (English only: in a
    language, the caller lists the legal moves in words)."""
    legal = view.get("legal_actions")
    if not legal:
        return None
    text = Text("Your move: ", style="bold green")
    text.append(PHASE_PROMPT.get(view["phase"]) or str(view["phase"]))
    text.append(". E.g. ")
    text.append(legal[0], style="cyan")
    text.append("; 'help' lists every move.")
    return text


def recent_panel(recent: Sequence[Text], w: Words) -> Panel:
    shown: list[RenderableType] = list(recent[-MAX_RECENT:])
    if len(recent) > MAX_RECENT:
        earlier = len(recent) - MAX_RECENT
        said = w.t("common.earlier_lines", "… {count} earlier lines", count=earlier)
        shown.insert(0, Text(said, "dim"))
    title = w.t("common.since_last_move", "Since your last move")
    return Panel(Group(*shown), title=title, title_align="left", expand=False)


def table(
    view: View,
    names: Sequence[str] | None = None,
    recent: Sequence[Text] = (),
    lang: str | None = None,
) -> RenderableType:
    """The whole table as `view`'s seat sees it; `recent`, the events told since the seat's
    last move. In `lang`'s words when given (the caller then lists the legal moves itself),
    else in English with a "Your move" hint in notation."""
    return _table(as_eternitium_view(view), names, recent, lang)


def _table(
    view: EternitiumView, names: Sequence[str] | None, recent: Sequence[Text], lang: str | None
) -> RenderableType:
    w = Words(lang)
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    parts: list[RenderableType] = [header(view, names, w), markets(view, w), commons(view, w)]
    parts.append(players_table(view, names, w))
    if recent:
        parts.append(recent_panel(recent, w))
    mine = hand_panel(view, w)
    if mine is not None:
        parts.append(mine)
    waiting = pending_text(view, names, w)
    if waiting is not None:
        parts.append(waiting)
    current = view.get("current_player")
    if not view["is_terminal"] and current is not None and current != view.get("seat"):
        who = seat_name(names, current)
        english = "{player} to move ({phase})"
        said = w.t(f"{GAME_ID}.table.turn_of", english, player=who, phase=_phase(view, w))
        parts.append(Text(f"▶ {said}", "bold yellow"))
    prompt = your_move(view) if lang is None else None
    if prompt is not None:
        parts.append(prompt)
    return Group(*parts)
