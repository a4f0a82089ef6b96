"""Broadcasting: a table's connections, and what they are sent.

A connection admitted to its seat under the table's lock (seating.py's `attach`) gets its
welcome and the full update, and later every update: each audience's frame (a seat or the
spectators, in one language: its own view, events and sentences) is built once (frames.py) and
shared by all its connections, so an update to hundreds of spectators costs a few encodings.
Seats coming and going send a small `presence` frame, never a full update. Frames are built by
protocol.py; sending never waits on a client (each `Connection` has its own queue: live.py).
"""

from __future__ import annotations

import time

from eterna.server.frames import Update, action_update, first_frame, quiet_update
from eterna.server.live import (
    Connection,
    LiveTable,
    TimedOut,
    _dumps,
    public_history,
    seat_summaries,
)
from eterna.server.peers import Peers
from eterna.server.protocol import presence_frame, rematch_frame, welcome_frame
from eterna.server.store import TableStore


class Broadcaster:
    """The fan-out of every table's updates to its connections (see the module's doc)."""

    def __init__(self, store: TableStore, peers: Peers | None = None) -> None:
        self.store = store
        self.peers = peers  # a cluster node tells the others which seats are connected here

    async def welcome(self, table: LiveTable, conn: Connection) -> bool:
        """With the table's lock held, the connection admitted to its seat: the welcome and
        the current update, and every update from now on. False (nothing sent) when this copy
        of the table left memory meanwhile (nothing would keep it in step): load it again."""
        seat = conn.seat
        if table._shown is None:  # the public history, replayed off the loop (once)
            table._shown = await self.store.replay(public_history, table.data)
        if self.store.tables.get(table.id) is not table:
            return False
        table.visited = table.visited or seat is not None
        table.conns.add(conn)
        table.last_active = time.monotonic()
        conn.send_json(welcome_frame(seat, table.summary()))
        # the moves before this client came, and every event so far in its language, with
        # the turn timer's moves announced
        conn.send(first_frame(table, seat, conn.lang).decode("utf-8"))
        if table.data.rematch_id is not None:
            token = table.rematch_tokens.get(seat) if seat is not None else None
            conn.send_json(rematch_frame(table.data.rematch_id, token))
        return True

    def detach(self, table: LiveTable, conn: Connection) -> None:
        table.conns.discard(conn)
        table.last_active = time.monotonic()
        if conn.seat is not None:
            self.seats_here(table)
        self.store.forget_if_idle(table)

    def seats_here(self, table: LiveTable, skip: Connection | None = None) -> None:
        """A seat connected or left here: everyone is told (but `skip`), and the other nodes."""
        self.presence(table, skip)
        if self.peers is not None:
            self.peers.presence(table)

    def presence(self, table: LiveTable, skip: Connection | None = None) -> None:
        """A seat was claimed, connected or left: everyone gets a small `presence` frame (the
        seats of the summary), encoded once, not a full update."""
        if not table.conns:
            return
        text = _dumps(presence_frame(seat_summaries(table.data, table.connected())))
        for conn in list(table.conns):
            if conn is not skip and not conn.closed:
                conn.send(text)

    def rematch(self, table: LiveTable, rematch_id: str) -> None:
        """Tell everyone at a finished table its rematch: each seat with its own new token."""
        tokens = table.rematch_tokens
        for conn in list(table.conns):
            token = tokens.get(conn.seat) if conn.seat is not None else None
            conn.send_json(rematch_frame(rematch_id, token))

    # ----------------------------------------------------------------- updates
    def action(
        self,
        table: LiveTable,
        seat: int,
        notation: str,
        public: str | None,
        told_from: int | None,
        timed_out: bool = False,
    ) -> None:
        """The update after `seat` played `notation` (published to the others as `public`:
        None when nothing of it is shown; `timed_out`: the turn timer played it)."""
        timeout = TimedOut(seat, notation, public) if timed_out else None
        if timeout is not None and told_from is not None:
            table.timeouts[told_from] = timeout  # told again to whoever connects later
        self.send(table, action_update(table, seat, notation, public, told_from, timeout))

    def send(self, table: LiveTable, update: Update) -> None:
        """One update to every connection: its audience's frame, built once per audience."""
        for conn in list(table.conns):
            if not conn.closed:
                conn.send(update.text((conn.seat, conn.lang)))

    def nothing_new(self, table: LiveTable) -> None:
        """An update with no events (the game ended early, or was reloaded)."""
        self.send(table, quiet_update(table))
