"""The Artifacts expansion on the terminal table: the glade of artifact tiles (who holds each,
whom it is blocked for, what it does) and each seat's tile and shelter. Nothing of it is drawn
in a base game (a view without `artifacts`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from eterna.games.vale.cards import TILES
from eterna.games.vale.views import ValeArtifacts
from eterna.render.vale.cards import View, cards_line, sort_cards
from eterna.render.words import ENGLISH, Words, seat_name

TILE_TEXT = {t["id"]: f"{t['timing'].capitalize()}: {t['text']}" for t in TILES}


def _who(names: Sequence[str], seats: Sequence[int]) -> str:
    return ", ".join(seat_name(names, s) for s in seats)


def tile_state(arts: ValeArtifacts, tile: str, names: Sequence[str], w: Words) -> Text:
    """Who holds `tile` this round (or nobody), and whom it is blocked for."""
    seats = range(len(arts["held"]))
    holders = [s for s in seats if arts["held"][s] == tile]
    blocked = [s for s in seats if arts["blocked"][s] == tile]
    state = Text()
    if holders:
        state.append(w.t("vale.word.held_by", "held by {names}", names=_who(names, holders)))
    else:
        state.append(w.t("vale.word.tile_free", "free"), style="green")
    if blocked:
        not_for = w.t("vale.word.blocked_for", "not for {names}", names=_who(names, blocked))
        state.append(f" · {not_for}", style="dim")
    return state


def glade(view: View, names: Sequence[str], w: Words = ENGLISH) -> RenderableType | None:
    """The glade: in the hunting phase, when the tiles are picked, every tile with its state and
    its whole text; in the other phases one line of the tiles and their holders."""
    arts = view.get("artifacts")
    if not arts:
        return None
    if view["phase"] != "hunting":
        title = Text(w.colon(w.t("vale.word.glade", "Glade")), style="bold")
        for i, tile in enumerate(arts["glade"]):
            title.append(", " if i else "")
            title.append(w.card("vale", tile), style="magenta")
            held = [s for s, h in enumerate(arts["held"]) if h == tile]
            if held:
                title.append(f" ({_who(names, held)})", style="dim")
        return title
    table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="dim")
    table.add_column(w.t("vale.word.artifact_column", "artifact"), no_wrap=True)
    table.add_column(w.t("vale.word.tile_state", "this round"), ratio=1)
    table.add_column(w.t("common.column.effect", "effect"), ratio=2)
    for tile in arts["glade"]:
        text = w.t(f"vale.card.{tile}.text", TILE_TEXT.get(tile, ""))
        table.add_row(
            Text(w.card("vale", tile), style="bold magenta"),
            tile_state(arts, tile, names, w),
            Text(text, overflow="fold"),
        )
    return Group(Text(w.t("vale.word.glade", "Glade"), style="bold"), table)


def artifacts_line(arts: ValeArtifacts, seat: int, mine: bool, w: Words = ENGLISH) -> Text:
    """The Artifacts: the tile a seat holds (and the one it may not pick this round), its
    shelter's size and the cards of it this seat knows."""
    line = Text()
    held, blocked = arts["held"][seat], arts["blocked"][seat]
    line.append(w.colon(w.t("vale.word.artifact", "artifact")), style="bold")
    if held:
        line.append(w.card("vale", held), style="magenta")
    else:
        line.append(w.t("vale.word.no_tile", "none"), style="dim")
    if blocked:
        not_again = w.t(
            "vale.word.blocked", "blocked this round: {tile}", tile=w.card("vale", blocked)
        )
        line.append(f" ({not_again})", style="dim")
    cards = arts["shelter"] if mine else arts["known_shelters"][seat]
    size = arts["shelter_sizes"][seat]
    english = f"shelter: {size} card" + ("" if size == 1 else "s")
    line.append(" · " + w.t("vale.word.shelter_count", english, count=size))
    if cards:
        line.append(" (")
        line.append_text(cards_line(sort_cards(cards), w=w))
        line.append(")")
    return line
