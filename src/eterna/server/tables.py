"""Live tables: the hub that creates tables, accepts actions and ends games, composed of parts
with one job each: the table store (store.py: tables in memory, loaded and resumed off the loop),
seating and tokens (seating.py), broadcasting to connections (broadcast.py) and turn driving
(driver.py: bots, turn timers and hints).

The state of a table is always its stored record replayed, plus nothing: an action is checked on a
clone of the state, committed to storage, and only then does the clone become the table's state
and the update go out. So a refused action changes nothing, and a server killed at any moment
restarts with every game where its last broadcast left it (resumed lazily: see store.py).

Everything here runs on the event loop except storage calls (a storage thread; the per-move
commits of SQLite run on the loop, grouped: see writer.py), replays (store.py) and decisions: bot
moves, timed-out turns and hints run in worker processes on a budget (workers.py), each on its
own clone of the state. Limits and quotas are in limits.py, defaults in settings.py.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from eterna.core.errors import EternaError
from eterna.core.game import GameState
from eterna.core.registry import load_game
from eterna.core.rng import RECORD_VERSION
from eterna.server.broadcast import Broadcaster
from eterna.server.cluster import Cluster
from eterna.server.database import Database
from eterna.server.driver import TurnDriver
from eterna.server.expiry import Expiry
from eterna.server.limits import Quotas, check_options
from eterna.server.live import Connection, LiveTable, summary_of, table_record
from eterna.server.moves import Moves
from eterna.server.node import Health, Lifecycle
from eterna.server.protocol import CreateTable, PlayPosition, SeatSpec, rematch_frame
from eterna.server.relay import Relay
from eterna.server.seating import Seating
from eterna.server.security import new_table_id
from eterna.server.settings import RequestError, Settings
from eterna.server.storage import Storage, TableData
from eterna.server.store import TableStore
from eterna.server.workers import Workers

log = logging.getLogger("eterna.server")
T = TypeVar("T")


class Hub:
    """Every live table, the storage behind them, and the threads that work for them; the
    database (`database`), the store (`store`), seats and tokens (`seating`), broadcasting
    (`fanout`), turn driving (`driver`: bots, timers, hints), moves (`moves`), expiry, the
    node's life (`lifecycle`) and health are its parts."""

    def __init__(
        self, storage: Storage, settings: Settings | None = None, cluster: Cluster | None = None
    ) -> None:
        self.storage = storage
        self.cluster = cluster
        self.settings = settings or Settings()
        self.database = Database(storage)
        if cluster is not None:
            cluster.db = self.database.run
        self.workers = Workers(
            self.settings.cheap_workers,
            self.settings.search_workers,
            self.settings.position_workers,
            self.settings.position_memory,
        )
        self.driver = TurnDriver(self.settings, self.workers, cluster)
        self.store = TableStore(
            storage, self.database.run, self.driver.schedule, self.settings.finished_cache
        )
        self.tables = self.store.tables
        self.quotas = Quotas(self.settings)
        self.seating = Seating(self.settings, storage, self.database.run, self.store)
        self.fanout = Broadcaster(self.store, self.seating)
        self.moves = Moves(
            self.settings, self.database, self.store, self.driver, self.fanout, cluster
        )
        self.driver.submit = self.moves.submit
        self.seating.on_start = self.moves.start_game
        self.relay: Relay | None = None
        if cluster is not None:
            self.relay = Relay(
                cluster,
                self.database,
                self.store,
                self.seating,
                self.fanout,
                self.driver,
                self.moves,
                self.quotas,
                self.workers,
            )
        self.expiry = Expiry(self.settings, self.store, self.driver, self.moves)
        self.lifecycle = Lifecycle(
            self.database, self.store, self.driver, self.workers, self.expiry, cluster, self.relay
        )
        self.health_part = Health(self.database, self.settings, cluster)
        self.submit = self.moves.submit
        self.announce = self.moves.announce
        self.start = self.lifecycle.start
        self.drain = self.lifecycle.drain
        self.stop = self.lifecycle.stop
        self.health = self.health_part.check

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.database.run(fn, *args)

    @property
    def node(self) -> str:
        return self.health_part.node

    # ----------------------------------------------------------------- tables
    async def get(self, table_id: str) -> LiveTable | None:
        """A table by id: live ones from memory, others loaded (and replayed off the loop)."""
        return await self.store.get(table_id)

    def forget_if_idle(self, table: LiveTable) -> None:
        self.store.forget_if_idle(table)

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
        live = sum(1 for t in self.tables.values() if not t.over and t.in_play())
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
            await self.db(self.storage.create_table, data)
        except Exception:
            log.exception("cannot store the new table %s", data.id)
            raise RequestError(
                503, "storage_unavailable", "the table could not be stored; try again later"
            ) from None
        table = LiveTable(data, state)
        self.tables[data.id] = table
        if self.cluster is not None and self.relay is not None:
            await self.cluster.acquire(data.id)  # else the lease sweep takes it soon
            self.relay.mark_live(table)
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

    async def fresh_seats(self, table_id: str, data: TableData) -> TableData:
        """On a cluster node, a table's seats read again (a join through another node may not
        have reached this node's copy yet); a single server's memory is always current."""
        table = self.tables.get(table_id)
        if self.cluster is None or table is None or table.over:
            return data
        async with table.lock:
            await self.seating.refresh(table)
        return table.data

    def lobby(self) -> list[dict[str, Any]]:
        open_tables = [
            t for t in self.tables.values() if t.data.public and not t.over and t.open_seats()
        ]
        open_tables.sort(key=lambda t: -t.data.created_at)
        return [t.summary() for t in open_tables[: self.settings.lobby_limit]]

    async def shared_lobby(self) -> list[dict[str, Any]]:
        """A cluster node's lobby: the open public tables of every node, from the database
        (the tables this node has in memory as it sees them)."""
        rows = await self.db(self.storage.open_tables, self.settings.lobby_limit)
        out = []
        for data in rows:
            table = self.tables.get(data.id)
            if table is not None:
                if table.data.public and not table.over and table.open_seats():
                    out.append(table.summary())
                continue
            out.append(summary_of(data, len(data.actions), None, set()))
        return out

    async def join(self, table: LiveTable, name: str | None) -> tuple[int, str]:
        """Claim the first open seat of a public table (seating.py); everyone there is told."""
        seat, token = await self.seating.join(table, name)
        self.fanout.presence(table)
        self.announce({"k": "seats", "t": table.id})
        return seat, token

    async def fill(self, table: LiveTable, token: str, seat: int, agent: str) -> None:
        """The host fills an untaken human seat with a bot (seating.py); everyone is told."""
        await self.seating.fill(table, token, seat, agent)
        self.fanout.presence(table)
        self.announce({"k": "seats", "t": table.id})

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
                    self.announce(
                        {"k": "rematch", "t": table.id, "r": new.id, "tok": table.rematch_tokens}
                    )
                self.fanout.rematch(table, table.data.rematch_id or "")
        rematch_id = table.data.rematch_id or ""
        return rematch_id, await self.seating.rematch_token(table, rematch_id, seat)


__all__ = [
    "Connection",
    "Hub",
    "LiveTable",
    "RequestError",
    "Settings",
    "rematch_frame",
    "summary_of",
    "table_record",
]
