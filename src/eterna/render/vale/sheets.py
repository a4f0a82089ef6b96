"""The whole table as a seat sees it (`table`), and the score sheets after a round
(`round_summary`) and at the end (`final`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from eterna.games.vale.cards import COLOURS
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
    View,
    default_names,
    join,
    seat_name,
    stone_text,
)

LEGEND = (
    f"kappa 1 = cost 1 · {INSTANT} on summon · {PERMANENT} while in area · {ACTIVE} each round "
    "· +n points"
)
MAX_RECENT = 16  # lines of "since your last move" shown; the log command has them all


def table(
    view: View, names: Sequence[str] | None = None, recent: Sequence[Text] = ()
) -> RenderableType:
    """The whole table as `view`'s seat sees it."""
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    parts: list[RenderableType] = [header(view, names)]
    if view["phase"] == "hunting":
        parts.append(hunting_board(view, names))
    for seat in range(view["players"]):
        parts.append(seat_panel(view, names, seat))
    parts.append(Text(LEGEND, style="dim"))
    if recent:
        shown: list[RenderableType] = list(recent[-MAX_RECENT:])
        if len(recent) > MAX_RECENT:
            earlier = len(recent) - MAX_RECENT
            shown.insert(0, Text(f"… {earlier} earlier lines ('log' lists the round)", "dim"))
        parts.append(
            Panel(Group(*shown), title="Since your last move", title_align="left", expand=False)
        )
    mine = hand(view)
    if mine is not None:
        parts.append(mine)
    waiting = pending_text(view, names)
    if waiting is not None:
        parts.append(waiting)
    elif not view["is_terminal"] and view.get("current_player") is not None:
        current = view["current_player"]
        if current != view.get("seat"):
            turn = Text("▶ ", style="bold yellow")
            turn.append(f"{seat_name(names, current)} to move", style="bold yellow")
            turn.append(f" ({view['phase']} phase)")
            parts.append(turn)
    prompt = your_move(view)
    if prompt is not None:
        parts.append(prompt)
    return Group(*parts)


def round_summary(view: View, rnd: int, names: Sequence[str] | None = None) -> RenderableType:
    """The scores after round `rnd` (`view` is taken just after it), with the race to 60."""
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    goal = view["end_score"]
    table = Table(
        title=f"Round {rnd} results (race to {goal})", title_justify="left", title_style="bold"
    )
    table.add_column("Seat", justify="right")
    table.add_column("Player")
    table.add_column("Score", justify="right", style="bold")
    table.add_column("Area", justify="right")
    table.add_column("Hand", justify="right")
    table.add_column("Stones")
    for seat in range(view["players"]):
        held = view["stones"][seat]
        table.add_row(
            str(seat),
            seat_name(names, seat),
            str(view["scores"][seat]),
            str(len(view["areas"][seat])),
            str(view["hand_sizes"][seat]),
            join([stone_text(c, held[c]) for c in COLOURS if held[c]], " ") or Text("—"),
        )
    return table


def final(view: View, names: Sequence[str] | None = None) -> RenderableType:
    """The final score sheet: scores, area sizes (the tie-break), winners and why."""
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    scores = view["scores"]
    winners = view.get("winners") or []
    table = Table(
        title="Final scores",
        title_justify="left",
        title_style="bold",
    )
    table.add_column("Seat", justify="right")
    table.add_column("Player")
    table.add_column("Score", justify="right", style="bold")
    table.add_column("Area cards", justify="right")
    table.add_column("")
    for seat in sorted(range(view["players"]), key=lambda s: (-scores[s], s)):
        table.add_row(
            str(seat),
            seat_name(names, seat),
            str(scores[seat]),
            str(len(view["areas"][seat])),
            Text("★ winner", style="bold yellow") if seat in winners else "",
        )
    goal = view["end_score"]
    if max(scores) >= goal:
        ended = Text(f"The game ended after round {view['round']}: {goal} points reached.")
    else:
        ended = Text(f"The game ended after round {view['round']} of {view['rounds']}.")
    rule = Text("A tie on points goes to more cards in the area, then the win is shared.", "dim")
    parts: list[RenderableType] = [table, ended, rule]
    best = max(scores)
    tied = [s for s in range(view["players"]) if scores[s] == best]
    if len(tied) > 1:
        areas = ", ".join(f"{seat_name(names, s)} {len(view['areas'][s])}" for s in tied)
        if len(winners) == 1:
            note = f"Tie on {best} points, broken by cards in the area ({areas})."
        else:
            note = f"Tie on {best} points and on cards in the area ({areas}): a shared victory."
        parts.append(Text(note, style="yellow"))
    if winners:
        who = ", ".join(seat_name(names, s) for s in winners)
        label = "Winners (shared)" if len(winners) > 1 else "Winner"
        parts.append(Text(f"{label}: {who}", style="bold"))
    else:
        parts.append(Text("No winner.", style="bold"))
    return Group(*parts)
