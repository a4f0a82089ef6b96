"""The whole table as a seat sees it (`table`), and the score sheets after a round
(`round_summary`) and at the end (`final`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from eterna.core.game import View as GameView
from eterna.games.vale.cards import COLOURS
from eterna.games.vale.views import as_vale_view
from eterna.i18n import stones_words
from eterna.i18n.names import seat_number
from eterna.render.vale.artifacts import glade
from eterna.render.vale.board import (
    hand,
    header,
    hunting_board,
    pending_text,
    seat_panel,
    your_move,
)
from eterna.render.vale.cards import (
    ACTIVE,
    INSTANT,
    PERMANENT,
    join,
    stone_text,
)
from eterna.render.words import Words, default_names, seat_name

LEGEND = (
    f"kappa 1 = cost 1 · {INSTANT} on summon · {PERMANENT} while in area · {ACTIVE} each round "
    "· +n points"
)
MAX_RECENT = 16  # lines of "since your last move" shown; the log command has them all


def table(
    given: GameView,
    names: Sequence[str] | None = None,
    recent: Sequence[Text] = (),
    lang: str | None = None,
) -> RenderableType:
    """The whole table as `given`'s seat sees it; in `lang`'s words when given (the caller
    then lists the legal moves itself), else in English with a "Your move" hint."""
    view = as_vale_view(given)
    w = Words(lang)
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    parts: list[RenderableType] = [header(view, names, w)]
    if view["phase"] == "hunting":
        parts.append(hunting_board(view, names, w))
    tiles = glade(view, names, w)
    if tiles is not None:
        parts.append(tiles)
    for seat in range(view["players"]):
        parts.append(seat_panel(view, names, seat, w))
    if lang is None:  # the legend explains the English short effects
        parts.append(Text(LEGEND, style="dim"))
    if recent:
        shown: list[RenderableType] = list(recent[-MAX_RECENT:])
        if len(recent) > MAX_RECENT:
            earlier = len(recent) - MAX_RECENT
            english = "… {count} earlier lines ('log' lists the round)"
            said = w.t("common.earlier_lines", english, count=earlier)
            shown.insert(0, Text(said, "dim"))
        title = w.t("common.since_last_move", "Since your last move")
        parts.append(Panel(Group(*shown), title=title, title_align="left", expand=False))
    mine = hand(view, w)
    if mine is not None:
        parts.append(mine)
    waiting = pending_text(view, names, w)
    if waiting is not None:
        parts.append(waiting)
    elif (
        not view["is_terminal"]
        and (current := view["current_player"]) is not None
        and current != view["seat"]
    ):
        turn = Text("▶ ", style="bold yellow")
        who = seat_name(names, current)
        turn.append(w.t("common.turn_of", "{player} to move", player=who), "bold yellow")
        phase = w.t(f"vale.phase.{view['phase']}", view["phase"])
        turn.append(f" ({w.t('common.phase_named', '{phase} phase', phase=phase)})")
        parts.append(turn)
    prompt = your_move(view) if lang is None else None
    if prompt is not None:
        parts.append(prompt)
    return Group(*parts)


def round_summary(
    given: GameView, rnd: int, names: Sequence[str] | None = None, lang: str | None = None
) -> RenderableType:
    """The scores after round `rnd` (`given` is taken just after it), with the race to 60."""
    view = as_vale_view(given)
    w = Words(lang)
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    goal = view["end_score"]
    title = w.t("common.round_results", "Round {round} results", round=rnd)
    title += f" ({w.t('common.race_to', 'race to {count}', count=goal)})"
    table = Table(title=title, title_justify="left", title_style="bold")
    table.add_column(w.t("common.column.seat", "Seat"), justify="right")
    table.add_column(w.t("common.player", "Player"))
    table.add_column(w.t("common.score", "Score"), justify="right", style="bold")
    table.add_column(w.t("vale.word.area", "Area"), justify="right")
    table.add_column(w.t("common.hand", "Hand"), justify="right")
    table.add_column(w.t("common.column.stones", "Stones"))
    for seat in range(view["players"]):
        held = view["stones"][seat]
        stones = join([stone_text(c, held[c]) for c in COLOURS if held[c]], " ") or Text("—")
        if lang is not None and any(held.values()):
            stones = Text(stones_words(held, lang))
        table.add_row(
            str(seat_number(seat)),
            seat_name(names, seat),
            str(view["scores"][seat]),
            str(len(view["areas"][seat])),
            str(view["hand_sizes"][seat]),
            stones,
        )
    return table


def final(
    given: GameView, names: Sequence[str] | None = None, lang: str | None = None
) -> RenderableType:
    """The final score sheet: scores, area sizes (the tie-break), winners and why."""
    view = as_vale_view(given)
    w = Words(lang)
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    scores = view["scores"]
    winners = view.get("winners") or []
    table = Table(
        title=w.t("common.final_scores", "Final scores"),
        title_justify="left",
        title_style="bold",
    )
    table.add_column(w.t("common.column.seat", "Seat"), justify="right")
    table.add_column(w.t("common.player", "Player"))
    table.add_column(w.t("common.score", "Score"), justify="right", style="bold")
    table.add_column(w.t("vale.word.area_cards", "Area cards"), justify="right")
    table.add_column("")
    for seat in sorted(range(view["players"]), key=lambda s: (-scores[s], s)):
        table.add_row(
            str(seat_number(seat)),
            seat_name(names, seat),
            str(scores[seat]),
            str(len(view["areas"][seat])),
            Text(f"★ {w.t('common.winner', 'winner')}", "bold yellow") if seat in winners else "",
        )
    goal, rnd = view["end_score"], view["round"]
    if max(scores) >= goal:
        english = "The game ended after round {round}: {count} points reached."
        ended = w.t("common.ended_goal", english, round=rnd, count=goal)
    else:
        english = "The game ended after round {round} of {rounds}."
        ended = w.t("common.ended_rounds", english, round=rnd, rounds=view["rounds"])
    english = "A tie on points goes to more cards in the area, then the win is shared."
    rule = Text(w.t("common.vale_tie_rule", english), "dim")
    parts: list[RenderableType] = [table, Text(ended), rule]
    best = max(scores)
    tied = [s for s in range(view["players"]) if scores[s] == best]
    if len(tied) > 1:
        areas = ", ".join(f"{seat_name(names, s)} {len(view['areas'][s])}" for s in tied)
        if len(winners) == 1:
            english = "Tie on {count} points, broken by cards in the area ({areas})."
            note = w.t("common.tie_broken", english, count=best, areas=areas)
        else:
            english = "Tie on {count} points and on cards in the area ({areas}): a shared victory."
            note = w.t("common.tie_shared", english, count=best, areas=areas)
        parts.append(Text(note, style="yellow"))
    parts.append(verdict(winners, names, w))
    return Group(*parts)


def verdict(winners: Sequence[int], names: Sequence[str], w: Words) -> Text:
    """'Winner: S1 heuristic' / 'Winners (shared): ...' / 'No winner.'"""
    if not winners:
        return Text(w.t("common.no_winner", "No winner") + ".", style="bold")
    who = ", ".join(seat_name(names, s) for s in winners)
    label = "Winners (shared)" if len(winners) > 1 else "Winner"
    return Text(w.t("common.winners", f"{label}: {{names}}", names=who, count=len(winners)), "bold")
