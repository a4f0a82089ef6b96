"""An update's frames, built once per audience (docs/web-protocol.md, "Frames per audience").

An *audience* is everyone who is sent the same `update` frame: one seat, or the spectators
(None), in one language, `(seat, lang)`. A seat's frame holds that seat's view, events and
`told` only; the spectators' the public ones. Each audience's frame is built once per update,
as UTF-8 bytes, and then shared by every connection of that audience (two tabs of one player,
hundreds of spectators), and can be handed as they are to another process serving the same
table: `Update.frames(audiences)`.

An `Update` takes what it needs from the table when it is made (the state, summary, ply,
deadline), so frames built from it later still describe that moment; make it before the table
changes again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from eterna.server.live import LiveTable, TimedOut
from eterna.server.protocol import encode, update_frame
from eterna.server.told import Teller

Audience = tuple[int | None, str]  # (seat, or None for the spectators; language)


class Update:
    """One update of a table: every audience's frame, made on demand and kept.

    `public_events` are the `events` of the spectators and of every seat without its own in
    `own_events` (the acting seat sees its own action in full); `told_from` the first event told
    (None: nothing is told); `timeouts` the turn timer's moves to announce, by first event."""

    def __init__(
        self,
        table: LiveTable,
        public_events: bytes,
        own_events: Mapping[int, bytes] | None = None,
        told_from: int | None = None,
        timeouts: Mapping[int, TimedOut] | None = None,
    ) -> None:
        self.state: Any = table.state
        self.ply = table.ply
        self.deadline = table.deadline
        self.summary = encode(table.summary())
        self.public_events = public_events
        self.own_events = dict(own_events or {})
        self.teller = Teller(table, self.state, told_from, timeouts)
        self._views: dict[int | None, bytes] = {}
        self._frames: dict[Audience, bytes] = {}
        self._texts: dict[Audience, str] = {}

    def view(self, seat: int | None) -> bytes:
        """`view(seat)` encoded, once per seat whatever the number of languages."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = encode(self.state.view(seat))
        return view

    def frame(self, audience: Audience) -> bytes:
        """The audience's `update` frame (UTF-8 JSON)."""
        frame = self._frames.get(audience)
        if frame is None:
            seat, lang = audience
            events = self.public_events if seat is None else self.own_events.get(seat)
            told, moves = self.teller.parts(seat, lang)
            frame = self._frames[audience] = update_frame(
                self.ply,
                self.summary,
                self.view(seat),
                self.public_events if events is None else events,
                self.deadline,
                told,
                moves,
            )
        return frame

    def text(self, audience: Audience) -> str:
        """The audience's frame as text, for this process's connections (decoded once)."""
        text = self._texts.get(audience)
        if text is None:
            text = self._texts[audience] = self.frame(audience).decode("utf-8")
        return text

    def frames(self, audiences: Iterable[Audience]) -> dict[Audience, bytes]:
        """Each of `audiences`' frame, built now (for instance every audience connected to
        the table anywhere, to publish to the other processes serving it)."""
        return {audience: self.frame(audience) for audience in audiences}


def action_update(
    table: LiveTable,
    seat: int,
    notation: str,
    public: str | None,
    told_from: int | None,
    timed_out: TimedOut | None = None,
) -> Update:
    """The update after `seat` played `notation`, just applied to `table` (published to the
    others as `public`: None when nothing of it is shown); `timed_out`: the turn timer played
    it, and everyone told is told so first."""
    ply = table.ply
    own = encode([{"ply": ply, "seat": seat, "action": notation}])
    if public == notation:
        shown = own
    elif public is None:
        shown = encode([{"ply": ply, "seat": seat}])
    else:
        shown = encode([{"ply": ply, "seat": seat, "action": public}])
    timeouts = {} if timed_out is None or told_from is None else {told_from: timed_out}
    return Update(table, shown, {seat: own}, told_from, timeouts)


def quiet_update(table: LiveTable) -> Update:
    """An update without a move (the game ended early, or was reloaded): no events, nothing
    told."""
    return Update(table, b"[]")


def first_frame(table: LiveTable, seat: int | None, lang: str) -> bytes:
    """A new connection's first update: the whole game so far (every action as `seat` may see
    it, every event told from the first, the turn timer's moves where they were played)."""
    backlog = encode(table.history_events(seat))
    return Update(table, backlog, None, 0, table.timeouts).frame((seat, lang))
