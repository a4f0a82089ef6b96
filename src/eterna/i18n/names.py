"""The players' names and seat numbers as players read them, the same on the web, in the log,
in replays and in the terminal (docs/i18n.md, "Names"): one place for every counter a player
reads of a seat.

Seats count from 1 for players ("Seat 1" is the protocol's seat 0). A seat shows its chosen
name; a bot without one its catalog name ("Heuristic bot", never the agent id "heuristic"); any
other seat "Seat 2". A name two seats share gets its seat number: "Heuristic bot 2" (a bot's
catalog name), "Alice #2" (a name a player chose). The web page's `seatName` (page.js) follows
the same rule with the page catalog's `common.botName.<agent>`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from eterna.i18n.messages import Catalog, catalog


class Who(NamedTuple):
    """A seat as its name is made: the name chosen for it (None: none), and for a bot its
    agent spec ("heuristic", "ismcts:iterations=200"; None for a person)."""

    name: str | None = None
    agent: str | None = None


def seat_number(seat: int) -> int:
    """The number players read for a seat: the protocol's seat 0 is seat 1."""
    return seat + 1


def agent_id(spec: str) -> str:
    """An agent spec's agent ("ismcts:iterations=200" -> "ismcts")."""
    return spec.partition(":")[0].strip()


def bot_name(cat: Catalog, spec: str) -> str:
    """A bot's catalog name: "Heuristic bot", "Robot heuristique"; an agent the catalog does
    not name reads "Bot <agent>"."""
    agent = agent_id(spec)
    key = f"common.bot_name.{agent}"
    return cat.text(key) if cat.has(key) else cat.text("common.bot_name", agent=agent)


def _own_name(cat: Catalog, seat: int, who: Who) -> tuple[str, bool]:
    """A seat's name before it is told apart, and whether it is a bot's catalog name."""
    if who.agent is not None and (not who.name or who.name == agent_id(who.agent)):
        return bot_name(cat, who.agent), True  # a bot seated with its agent's id as its name
    if who.name:
        return who.name, False
    return cat.text("common.seat", n=seat_number(seat)), False


def player_names(lang: str, seats: Sequence[Who]) -> list[str]:
    """Each seat's name in `lang`, a name two seats share told apart by its seat number."""
    cat = catalog(lang)
    own = [_own_name(cat, seat, who) for seat, who in enumerate(seats)]
    names = [name for name, _bot in own]
    out = []
    for seat, (name, bot) in enumerate(own):
        if names.count(name) > 1:
            key = "common.bot_numbered" if bot else "common.name_numbered"
            name = cat.text(key, name=name, n=seat_number(seat))
        out.append(name)
    return out
