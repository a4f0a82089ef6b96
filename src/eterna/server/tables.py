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

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.exc import OperationalError

from eterna.core.errors import BadNotation, EternaError, IllegalAction
from eterna.core.game import GameState
from eterna.core.registry import load_game
from eterna.core.rng import RECORD_VERSION
from eterna.server.broadcast import Broadcaster
from eterna.server.cluster import Cluster
from eterna.server.driver import TurnDriver
from eterna.server.limits import Quotas, check_options
from eterna.server.live import Connection, LiveTable, replay_table, summary_of, table_record
from eterna.server.protocol import CreateTable, PlayPosition, Refusal, SeatSpec, rematch_frame
from eterna.server.relay import Relay
from eterna.server.seating import Seating
from eterna.server.security import new_table_id
from eterna.server.settings import CHECKPOINT_EVERY, RequestError, Settings
from eterna.server.storage import (
    LeaseLost,
    PendingAction,
    PlyConflict,
    Storage,
    StorageBusy,
    TableData,
)
from eterna.server.store import TableStore
from eterna.server.told import told_since
from eterna.server.workers import Workers
from eterna.server.writer import ActionWriter

log = logging.getLogger("eterna.server")
T = TypeVar("T")
HEALTH_TIMEOUT = 2.0  # seconds the database may take to answer /api/health
UNREACHABLE = "common.error.unavailable.database"  # a move's refusal while the database is away


class Hub:
    """Every live table, the storage behind them, and the threads that work for them; the
    store (`store`), seats and tokens (`seating`), broadcasting (`fanout`) and turn driving
    (`driver`: bots, timers, hints) are its parts."""

    def __init__(
        self, storage: Storage, settings: Settings | None = None, cluster: Cluster | None = None
    ) -> None:
        self.storage = storage
        self.cluster = cluster
        if cluster is not None:
            cluster.db = self.db
        self.settings = settings or Settings()
        writers = 1 if storage.dialect == "sqlite" else 4
        self.db_pool = ThreadPoolExecutor(writers, thread_name_prefix="eterna-db")
        self.workers = Workers(
            self.settings.cheap_workers,
            self.settings.search_workers,
            self.settings.position_workers,
            self.settings.position_memory,
        )
        self.driver = TurnDriver(self.settings, self.workers, cluster, self.submit)
        self.store = TableStore(
            storage, self.db, self.driver.schedule, self.settings.finished_cache
        )
        self.tables = self.store.tables
        self.writer = ActionWriter(self)
        self.checkpoints: asyncio.Task[None] | None = None
        self.expiry: asyncio.Task[None] | None = None
        self.quotas = Quotas(self.settings)
        self.seating = Seating(self.settings, storage, self.db, self.store)
        self.fanout = Broadcaster(self.store, self.seating)
        self.seating.on_start = self._start
        self.relay: Relay | None = None
        if cluster is not None:
            self.relay = Relay(self, cluster)

    def _start(self, table: LiveTable) -> None:
        """Every human seat is taken: the game starts (its timer, its bots), and everyone
        connected gets an update that says so."""
        self.driver.set_deadline(table)
        self.driver.schedule(table)
        self.fanout.nothing_new(table)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn, *args)

    # ----------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Start resuming the unfinished tables (in the background: see store.py), the
        checkpoints and the expiry of abandoned tables."""
        if self.relay is not None:
            self.relay.start()  # the lease sweep takes the tables nobody drives
        else:
            self.store.start()
        loop = asyncio.get_running_loop()
        self.checkpoints = loop.create_task(self._checkpoints())
        self.expiry = loop.create_task(self._expire())

    async def _checkpoints(self, every: float = CHECKPOINT_EVERY) -> None:
        """Keep SQLite's write-ahead log short, from the storage thread (see Storage)."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.db(self.storage.checkpoint)
            except Exception:
                log.exception("checkpoint failed")

    async def drain(self) -> None:
        """Stop driving tables, hand them over (a cluster node releases its leases: another
        node drives them at its next sweep) and close every socket with 1012, which a client
        answers by reconnecting (to another node behind the same address)."""
        if self.driver.stopping:
            return
        self.driver.stop(list(self.tables.values()))
        if self.cluster is not None:
            await self.cluster.stop()
        for table in list(self.tables.values()):
            for conn in list(table.conns):
                conn.close(1012, "server restarting: reconnect")

    async def stop(self) -> None:
        await self.drain()
        if self.checkpoints is not None:
            self.checkpoints.cancel()
        if self.expiry is not None:
            self.expiry.cancel()
        self.workers.stop()
        self.store.stop()
        self.db_pool.shutdown(wait=True)
        self.storage.close()

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

    # ----------------------------------------------------------------- actions
    async def submit(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        ply: int | None = None,
        timed_out: bool = False,
        driven: bool = False,
    ) -> Refusal | None:
        """Play `text` for `seat`. None when accepted (the update is the answer), else the
        refusal (the error frame's code and message, the rule's words). A refusal leaves the
        table exactly as it was.

        The work runs shielded: a submitter cancelled mid-way (a bot whose turn a human took, a
        closing connection) never leaves an action stored but not applied. `timed_out`: the
        turn timer plays for the seat (everyone is told so). `driven`: a bot's or the timer's
        move, which a cluster node writes only while it holds the table's lease (fencing)."""
        work = self._submit(table, seat, text, ply, timed_out, driven)
        return await asyncio.shield(asyncio.ensure_future(work))

    async def _submit(
        self, table: LiveTable, seat: int, text: str, ply: int | None, timed_out: bool, driven: bool
    ) -> Refusal | None:
        async with table.lock:
            fence = None
            if self.cluster is not None:
                if not self.cluster.redis_ok:  # a move this node could not announce
                    return Refusal("unavailable", "the server is reconnecting to its cluster")
                fence = self.cluster.fence(table.id) if driven else None
                if driven and (fence is None or not self.cluster.holds(table.id)):
                    return Refusal("stale", "another node drives this table now")
            if table.over:
                return Refusal("game_over", "the game is over")
            if ply is not None and ply != table.ply:
                return Refusal("stale", f"the game is at ply {table.ply}, not {ply}")
            state = table.state
            if state.current_player != seat:
                return Refusal("not_your_turn", f"it is seat {state.current_player}'s turn")
            if table.waiting():
                return Refusal("waiting", "the game starts when every seat is taken")
            try:
                action = table.game.parse_action(text)
                following = state.clone()
                following.apply(action)
                public = state.public_notation(action)
            except IllegalAction as exc:
                return Refusal("illegal_action", str(exc), exc.key, exc.params, exc.rule)
            except BadNotation as exc:
                return Refusal("bad_notation", str(exc))
            except EternaError as exc:
                return Refusal("illegal_action", str(exc))
            except Exception:  # an engine bug must not take the server down
                log.exception("table %s: engine failed on %r", table.id, text)
                return Refusal("server_error", "the server could not check this action")
            notation = str(action)
            number = table.ply
            result = (
                (list(following.scores), list(following.winners)) if following.is_terminal else None
            )
            try:
                finished_at = await self.writer.write(
                    PendingAction(table.id, number, seat, notation, result, fence)
                )
            except LeaseLost:
                log.warning("table %s: ply %d refused: the lease moved on", table.id, number)
                return Refusal("stale", "another node drives this table now")
            except PlyConflict:
                log.error("table %s: ply %d already stored: reloading it", table.id, number)
                await self._resync(table)
                return Refusal("stale", "the game moved on: here is where it stands")
            except StorageBusy:
                log.warning("table %s: ply %d not stored: the database is locked", table.id, number)
                return Refusal("server_busy", "the game store is busy; try again in a moment")
            except OperationalError:  # the database cannot be reached (logged by the writer)
                return Refusal("unavailable", "the database cannot be reached", UNREACHABLE)
            except Exception:
                log.exception("table %s: cannot store ply %d", table.id, number)
                return Refusal("server_error", "the action could not be stored; try again")
            # Stored: from here on the action is part of the game.
            timing = (finished_at, timed_out)
            await self._accepted(table, seat, notation, public, following, result, timing)
            self.announce(
                {
                    "k": "act",
                    "t": table.id,
                    "p": table.ply,
                    "s": seat,
                    "n": notation,
                    "x": timed_out,
                    "f": finished_at,
                    "d": table.deadline,
                }
            )
        return None

    @property
    def node(self) -> str:
        if self.cluster is not None:
            return self.cluster.node
        return self.settings.node_id or "single"

    async def health(self) -> dict[str, str]:
        """ "ok" or "down" for the database, and for Redis ("off": no cluster)."""
        try:
            await asyncio.wait_for(self.db(self.storage.ping), HEALTH_TIMEOUT)
            database = "ok"
        except Exception:
            database = "down"
        redis = "off"
        if self.cluster is not None:
            up = self.cluster.redis_ok and await self.cluster.check_redis()
            redis = "ok" if up else "down"
        return {"database": database, "redis": redis}

    def announce(self, message: dict[str, Any]) -> None:
        """Tell the other nodes of a cluster (nothing without one)."""
        if self.cluster is not None:
            self.cluster.publish(message)

    async def _accepted(
        self,
        table: LiveTable,
        seat: int,
        notation: str,
        public: str | None,
        following: Any,
        result: tuple[list[int], list[int]] | None,
        timing: tuple[float, bool],
        deadline: float | None = None,
        remote: bool = False,
    ) -> None:
        """A stored action becomes the table's state; everyone is told (with the table's lock
        held). `timing`: when it was stored, and whether the turn timer played it. `remote`:
        another node stored it (its turn `deadline`, if any, is the one everyone sees)."""
        finished_at, timed_out = timing
        told_from = told_since(table, kept=timed_out)
        table.state = following
        table.data.actions.append((seat, notation))
        table.shown(public)
        if result is not None:
            table.data.status = "over"
            table.data.finished_at = finished_at
            table.data.scores, table.data.winners = result
        self.driver.cancel(table)
        self.driver.set_deadline(table)
        if remote and deadline is not None and table.deadline is not None:
            table.deadline = deadline
        self.fanout.action(table, seat, notation, public, told_from, timed_out)
        if not remote and not table.over and table.ply >= self.settings.max_plies:
            await self._end_early(table, "ply_limit")
        self.driver.schedule(table)
        if table.over:
            self.forget_if_idle(table)

    async def _end_early(self, table: LiveTable, ended: str) -> None:
        """End a table that is not over, without winners (`ended`: "abandoned", "ply_limit"),
        with the table's lock held; it stays in history, and everyone connected is told."""
        scores = list(table.state.scores)
        try:
            finished_at = await self.db(self.storage.end_table, table.id, ended, scores)
        except Exception:
            log.exception("table %s: cannot end it (%s)", table.id, ended)
            return
        data = table.data
        data.status, data.ended, data.finished_at = "over", ended, finished_at
        data.scores, data.winners = scores, []
        self.driver.cancel(table)
        table.deadline = None
        self.fanout.nothing_new(table)
        self.announce({"k": "ended", "t": table.id})
        log.info("table %s ended: %s", table.id, ended)

    async def _expire(self) -> None:
        """Every `expiry_sweep` seconds, end (as abandoned) the tables nobody has been connected
        to for `idle_expiry` seconds, and let finished tables nobody watches leave memory.
        Tables of bots alone play on: they end by themselves."""
        while True:
            await asyncio.sleep(self.settings.expiry_sweep)
            now = time.monotonic()
            for table in list(self.tables.values()):
                if table.over:
                    self.forget_if_idle(table)
                    continue
                if table.conns or not table.has_humans() or not self.driver.drives(table):
                    continue
                if self.relay is not None and self.relay.watched(table):
                    continue
                limit = self.settings.idle_expiry
                if not table.visited and table.ply == 0:
                    limit = self.settings.unclaimed_expiry
                if now - table.last_active < limit:
                    continue
                async with table.lock:
                    if not table.over and not table.conns:
                        await self._end_early(table, "abandoned")
                self.forget_if_idle(table)

    async def _resync(self, table: LiveTable) -> None:
        if self.relay is not None:  # the actions it missed, each told in turn
            await self.relay.catch_up(table)
            return
        await self._reload(table)

    async def _reload(self, table: LiveTable) -> None:
        """Reload a table from storage (it holds an action this process did not apply: another
        server on the same database?) and show everyone where the game stands."""
        data = await self.db(self.storage.load_table, table.id)
        if data is None:
            return
        try:
            state = replay_table(data)
        except EternaError:
            log.exception("table %s cannot be replayed", table.id)
            return
        table.data, table.state = data, state
        table._shown = None  # rebuilt from the reloaded actions on the next connection
        self.driver.restart(table)
        self.fanout.nothing_new(table)


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
