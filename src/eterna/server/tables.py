"""The table part: tables coming into play. A new table from a lobby's request or from a posted
position, and a finished table's rematch (once, however many press it), each stored and then
started (its bots, its timer; on a cluster node, its lease); the live-table cap that refuses new
games while too many are in play; and the lobby's list of open tables.

The server's other parts, each with one job, are wired together in app.py: the database and its
threads (database.py), tables in memory (store.py), seats and tokens (seating.py), broadcasting
(broadcast.py), moves (moves.py), turn driving (driver.py: bots, turn timers and hints in worker
processes on a budget, workers.py), expiry (expiry.py), quotas (limits.py), the node's life and
health (node.py) and, on a cluster node, its links to the others (cluster.py, relay.py).
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

from eterna.core.errors import EternaError
from eterna.core.game import GameState
from eterna.core.registry import load_game
from eterna.core.rng import RECORD_VERSION
from eterna.server.broadcast import Broadcaster
from eterna.server.cluster import Cluster
from eterna.server.database import Database
from eterna.server.driver import TurnDriver
from eterna.server.limits import Quotas, check_options
from eterna.server.live import Connection, LiveTable, summary_of, table_record
from eterna.server.peers import Peers
from eterna.server.protocol import CreateTable, PlayPosition, SeatSpec, rematch_frame
from eterna.server.seating import Seating
from eterna.server.security import new_table_id
from eterna.server.settings import RequestError, Settings
from eterna.server.storage import TableData
from eterna.server.store import TableStore

log = logging.getLogger("eterna.server")


class TableService:
    """New tables, rematches, the live-table cap and the lobby (see the module's doc)."""

    def __init__(
        self,
        settings: Settings,
        database: Database,
        store: TableStore,
        seating: Seating,
        driver: TurnDriver,
        fanout: Broadcaster,
        quotas: Quotas,
        cluster: Cluster | None = None,
        peers: Peers | None = None,
    ) -> None:
        self.settings = settings
        self.database = database
        self.store = store
        self.seating = seating
        self.driver = driver
        self.fanout = fanout
        self.quotas = quotas
        self.cluster = cluster
        self.peers = peers

    async def create(
        self, body: CreateTable, address: str = "?"
    ) -> tuple[LiveTable, dict[int, str]]:
        """A new table from a validated request by `address`; returns it and the human seats'
        tokens."""
        await self.check_room()
        try:
            game = load_game(body.game)
            players = game.check_players(body.players)
            options = game.resolve_options(body.options)
            seed = game.check_seed(body.seed)
        except EternaError as exc:
            raise RequestError(422, "bad_request", str(exc)) from None
        check_options(game.id, options)
        if len(body.seats) != players:
            raise RequestError(
                422, "bad_request", f"seats must have one entry per player ({players})"
            )
        seats, tokens = self.seating.seats(game, body)
        await self.quotas.tables.check(address)
        data = TableData(
            id=new_table_id(),
            game=game.id,
            players=players,
            seed=seed,
            options=options,
            setup=None,
            public=body.public,
            turn_timer=body.turn_timer,
            bot_delay=body.bot_delay,
            status="playing",
            created_at=time.time(),
            seed_chosen=body.seed is not None,
            version=RECORD_VERSION,
            seats=seats,
        )
        try:
            state = game.new_game(players=players, seed=seed, options=options, version=data.version)
        except EternaError as exc:
            raise RequestError(422, "bad_request", str(exc)) from None
        return await self._open(data, state), tokens

    async def check_room(self) -> None:
        """Refuse a new table (503 `busy`) while `max_live_tables` games are in play: this
        server's, or on a cluster node every node's (counted in Redis: shared_limits.py)."""
        live = sum(1 for t in self.store.tables.values() if not t.over and t.in_play())
        if self.cluster is not None and self.cluster.limits.available:
            with contextlib.suppress(Exception):  # else this node counts alone
                live = await self.cluster.limits.count_live()
        if live >= self.settings.max_live_tables:
            raise RequestError(503, "busy", "too many games in progress: try again later")

    async def _open(self, data: TableData, state: GameState) -> LiveTable:
        """Store a new table and start it (its bots, its timer)."""
        if state.is_terminal:  # nothing to play: not a table
            raise RequestError(422, "bad_request", "this game would be over before it starts")
        try:
            await self.database.run(self.database.storage.create_table, data)
        except Exception:
            log.exception("cannot store the new table %s", data.id)
            raise RequestError(
                503, "storage_unavailable", "the table could not be stored; try again later"
            ) from None
        if self.cluster is not None:  # its lease at once (else the lease sweep takes it soon)
            await self.cluster.acquire(data.id)
        table = LiveTable(data, state)
        await self.store.add(table)
        if self.cluster is not None and self.peers is not None:
            await self.peers.mark_new(table)
        self.driver.schedule(table)
        return table

    async def create_from_position(
        self,
        state: GameState,
        position: dict[str, Any],
        seat: int,
        body: PlayPosition,
    ) -> tuple[LiveTable, str]:
        """A private table that plays on from a whole `position` (its loaded `state`): the
        caller takes `seat`, bots the others. Returns it and the caller's token (the route
        took the table quota, before loading the position)."""
        await self.check_room()
        game = state.game
        specs = [
            SeatSpec(kind="human", name=body.name)
            if s == seat
            else SeatSpec(kind="bot", agent=body.agent)
            for s in range(state.players)
        ]
        table_body = CreateTable(game=game.id, players=state.players, seats=specs, public=False)
        seats, tokens = self.seating.seats(game, table_body)
        data = TableData(
            id=new_table_id(),
            game=game.id,
            players=state.players,
            seed=game.check_seed(None),  # the bots' seeds (the deal is the position's)
            options=dict(position.get("options") or {}),
            setup={"position": position},
            public=False,
            turn_timer=None,
            bot_delay=body.bot_delay,
            status="playing",
            created_at=time.time(),
            version=RECORD_VERSION,
            seats=seats,
        )
        return await self._open(data, state), tokens[seat]

    async def lobby(self) -> list[dict[str, Any]]:
        """The lobby: the open public tables, latest first (on a cluster node every node's,
        from the database)."""
        if self.cluster is not None:
            return await self._shared_lobby()
        open_tables = [
            t for t in self.store.tables.values() if t.data.public and not t.over and t.open_seats()
        ]
        open_tables.sort(key=lambda t: -t.data.created_at)
        return [t.summary() for t in open_tables[: self.settings.lobby_limit]]

    async def _shared_lobby(self) -> list[dict[str, Any]]:
        """A cluster node's lobby: the open public tables of every node, from the database
        (the tables this node has in memory as it sees them)."""
        rows = await self.database.run(self.database.storage.open_tables, self.settings.lobby_limit)
        out = []
        for data in rows:
            table = self.store.tables.get(data.id)
            if table is not None:
                if table.data.public and not table.over and table.open_seats():
                    out.append(table.summary())
                continue
            out.append(summary_of(data, len(data.actions), None, set()))
        return out

    async def rematch(self, table: LiveTable, token: str) -> tuple[str, str]:
        """The rematch of a finished table (created once; later calls return it): same game,
        options, seats, timer and visibility, a new seed. Tokens never carry over: each human
        seat of the rematch has a fresh token, reserved for that seat's player, who gets it on
        their own connection (a `rematch` frame) or as this call's answer. Returns the rematch's
        id and the caller's seat's token there."""
        seat = self.seating.seat_for(table, token)
        if seat is None:
            raise RequestError(403, "bad_token", "this token holds no seat of this table")
        async with table.lock:
            if not table.over:
                raise RequestError(409, "not_over", "the game is not over yet")
            if table.data.rematch_id is None:
                new = await self.seating.make_rematch(table)
                if new is not None:  # made here, not first by another node
                    if self.cluster is not None:
                        await self.cluster.acquire(new.id)
                    self.driver.schedule(new)
                    if self.cluster is not None:
                        tokens = table.rematch_tokens
                        message = {"k": "rematch", "t": table.id, "r": new.id, "tok": tokens}
                        self.cluster.publish(message)
                self.fanout.rematch(table, table.data.rematch_id or "")
        rematch_id = table.data.rematch_id or ""
        return rematch_id, await self.seating.rematch_token(table, rematch_id, seat)


__all__ = [
    "Connection",
    "LiveTable",
    "RequestError",
    "Settings",
    "TableService",
    "rematch_frame",
    "summary_of",
    "table_record",
]
