"""An update's words (docs/web-protocol.md, "Told events and move labels"): the events each seat
was told since the last update and the labels of the moves of the seat to move, rendered once
per (seat, language) of the connections, whatever their number."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from eterna.core.game import GameState
from eterna.i18n import LANGS, catalog, describe_action, negotiate
from eterna.i18n.names import Who, player_names
from eterna.server.live import LiveTable, TimedOut
from eterna.server.protocol import encode, move_items, told_items
from eterna.server.storage import TableData

log = logging.getLogger("eterna.server")


def told_since(table: LiveTable, kept: bool = False) -> int | None:
    """The first event the next update tells: the current count (None when nobody listens,
    unless the move is `kept` for later connections (a timer's move), or when the engine cannot
    tell its story: the update then tells nothing)."""
    if not table.conns and not kept:
        return None
    try:
        return table.state.event_count()
    except Exception:
        log.exception("table %s: no events to tell", table.id)
        return None


def connection_lang(query: str | None, header: str | None) -> str:
    """A connection's language: the `lang` query parameter when it is one we speak, else the
    best of the `Accept-Language` header (English by default)."""
    if query is not None and query in LANGS:
        return query
    return negotiate(header)


def seat_names(table: LiveTable, lang: str) -> list[str]:
    """The players' names by seat as the web client shows them (`seat_labels`)."""
    return seat_labels(table.data, lang)


def seat_labels(data: TableData, lang: str) -> list[str]:
    """The players' names by seat as the web client shows them (`player_names`): a bot by
    its catalog name ("Heuristic bot"), a seat without a name "Seat 1" for seat 0 (counted
    from 1, as on the page) in `lang`; a name two seats share gets its seat number
    ("Heuristic bot 2" for seat 1)."""
    seats = {s.seat: Who(s.name, s.agent if s.kind == "bot" else None) for s in data.seats}
    return list(_labels(lang, tuple(seats.get(seat, Who()) for seat in range(data.players))))


@lru_cache(maxsize=4096)
def _labels(lang: str, seats: tuple[Who, ...]) -> tuple[str, ...]:
    """`player_names`, kept: a table's names are worded again at every update, and change only
    when a seat is taken or given to a bot."""
    return tuple(player_names(lang, seats))


def timeout_item(
    game: str, timed_out: TimedOut, seat: int | None, n: float, lang: str, names: list[str]
) -> dict[str, Any]:
    """The server's own told item before a timed-out move's events: "Time ran out: <label> was
    played for Ada" (`n` just before the move's first event; not an engine event: the record
    is the same)."""
    shown = timed_out.notation if seat == timed_out.seat else timed_out.public
    name = names[timed_out.seat]
    words = catalog(lang)
    if shown is None:
        text = words.text("common.told.timeout_hidden", name=name)
    else:
        try:
            label = describe_action(game, shown, lang, names)
        except Exception:
            log.exception("no label for the %s move %s", game, shown)
            label = shown
        text = words.text("common.told.timeout", label=label, name=name)
    return {"kind": "timeout", "seat": timed_out.seat, "n": n, "text": text}


class Teller:
    """The `told` and `moves` parts of one update (encoded JSON bytes), made on demand and kept
    per (seat, language). `since` is the first event to tell; None tells nothing. `timeouts`:
    the turn timer's moves by their first event index, each told just before that event (from
    `since` on)."""

    def __init__(
        self,
        table: LiveTable,
        state: GameState,
        since: int | None,
        timeouts: Mapping[int, TimedOut] | None = None,
    ) -> None:
        self.table = table
        self.state = state
        self._game_state: Any = state  # its moves: taken now, so later parts say the same
        self._over = table.over
        self.since = since
        self.timeouts = (
            {} if since is None else {n: t for n, t in (timeouts or {}).items() if n >= since}
        )
        self._events: dict[int | None, list[dict[str, Any]]] = {}
        self._parts: dict[tuple[int | None, str], tuple[bytes, bytes]] = {}
        self._names: dict[str, list[str]] = {}
        self._said: dict[tuple[int, str], tuple[dict[str, Any], str]] = {}
        # (lang, events, told, its items)
        self._texts: list[tuple[str, list[dict[str, Any]], bytes, list[dict[str, Any]]]] = []

    def names(self, lang: str) -> list[str]:
        """The seats' names in `lang`, made once per update."""
        names = self._names.get(lang)
        if names is None:
            names = self._names[lang] = seat_names(self.table, lang)
        return names

    def parts(self, seat: int | None, lang: str) -> tuple[bytes, bytes]:
        """`told` and `moves` for `seat` in `lang` (`null` moves when the seat is not to
        move)."""
        key = (seat, lang)
        found = self._parts.get(key)
        if found is None:
            found = self._parts[key] = (self._told(seat, lang), self._moves(seat, lang))
        return found

    def _told(self, seat: int | None, lang: str) -> bytes:
        if self.since is None:
            return b"[]"
        text, items = self._events_told(seat, lang)
        if not self.timeouts:
            return text
        game, names = self.table.game.id, self.names(lang)
        told = list(items)
        for first, timed_out in sorted(self.timeouts.items(), reverse=True):
            item = timeout_item(game, timed_out, seat, first - 0.5, lang, names)
            told.insert(min(first - self.since, len(told)), item)  # just before its events
        return encode(told)

    def _events_told(self, seat: int | None, lang: str) -> tuple[bytes, list[dict[str, Any]]]:
        """The events' items for `seat` in `lang`, encoded and not."""
        assert self.since is not None
        events = self._events.get(seat)
        if events is None:
            try:
                events = self.state.events_since(self.since, seat)
            except Exception:  # an engine's story must not stop the update
                log.exception("table %s: no events to tell", self.table.id)
                events = []
            self._events[seat] = events
        for known_lang, known, text, items in self._texts:  # most seats are told the same
            if known_lang == lang and known == events:
                return text, items
        game = self.table.game.id
        names = self.names(lang)
        items = told_items(game, events, self.since, lang, names, self._said)
        text = encode(items)
        self._texts.append((lang, events, text, items))
        return text, items

    def _moves(self, seat: int | None, lang: str) -> bytes:
        state = self._game_state
        if seat is None or state.is_terminal or self._over or state.current_player != seat:
            return b"null"
        names = self.names(lang)
        return encode(move_items(self.table.game.id, state.legal_actions(), lang, names))
