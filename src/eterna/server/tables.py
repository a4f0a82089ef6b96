"""Live tables: the hub that accepts actions, seats players, broadcasts and drives the turns.

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
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from eterna.core.errors import BadNotation, EternaError, IllegalAction
from eterna.core.game import Game
from eterna.core.registry import load_game
from eterna.core.rng import RECORD_VERSION
from eterna.server.driver import TurnDriver
from eterna.server.limits import CreateQuota, check_options
from eterna.server.live import (
    Connection,
    LiveTable,
    _dumps,
    public_history,
    replay_table,
    seat_summaries,
    summary_of,
    table_record,
)
from eterna.server.protocol import (
    CreateTable,
    Refusal,
    presence_frame,
    rematch_frame,
    update_text,
    welcome_frame,
)
from eterna.server.security import find_seat, hash_token, new_table_id, new_token
from eterna.server.settings import (
    CHECKPOINT_EVERY,
    RequestError,
    Settings,
)
from eterna.server.storage import PendingAction, PlyConflict, SeatData, Storage, TableData
from eterna.server.store import TableStore
from eterna.server.told import Teller, told_since
from eterna.server.workers import Workers
from eterna.server.writer import ActionWriter

log = logging.getLogger("eterna.server")
T = TypeVar("T")


def check_agent_spec(game: Game, spec: str, settings: Settings) -> None:
    """Refuse (EternaError) a spec that cannot play `game` or asks for more than the server's
    budget (every decision is capped at `settings.bot_seconds` anyway: see workers.py)."""
    from eterna.agents.registry import parse_spec
    from eterna.arena.simulate import check_agent

    check_agent(game, spec)
    name, params = parse_spec(spec)
    if name == "ismcts":
        seconds = params.get("seconds")
        iterations = params.get("iterations")
        if seconds is not None and seconds > settings.bot_seconds:
            raise EternaError(f"a bot on this server searches at most {settings.bot_seconds:g} s")
        if iterations is not None and iterations > settings.bot_iterations:
            raise EternaError(
                f"a bot on this server searches at most {settings.bot_iterations} iterations"
            )


class Hub(TurnDriver):
    """Every live table, the storage behind them, and the threads that work for them."""

    def __init__(self, storage: Storage, settings: Settings | None = None) -> None:
        self.storage = storage
        self.settings = settings or Settings()
        writers = 1 if storage.dialect == "sqlite" else 4
        self.db_pool = ThreadPoolExecutor(writers, thread_name_prefix="eterna-db")
        self.store = TableStore(storage, self.db, self.schedule)
        self.tables = self.store.tables
        self.workers = Workers(self.settings.cheap_workers, self.settings.search_workers)
        self.stopping = False
        self.writer = ActionWriter(self)
        self.checkpoints: asyncio.Task[None] | None = None
        self.expiry: asyncio.Task[None] | None = None
        self.quota = CreateQuota(self.settings.tables_per_address, self.settings.address_window)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn, *args)

    # ----------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Start resuming the unfinished tables (in the background: see store.py), the
        checkpoints and the expiry of abandoned tables."""
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

    async def stop(self) -> None:
        self.stopping = True
        if self.checkpoints is not None:
            self.checkpoints.cancel()
        if self.expiry is not None:
            self.expiry.cancel()
        for table in list(self.tables.values()):
            if table.task is not None:
                table.task.cancel()
            for conn in list(table.conns):
                conn.close(1012, "server restarting")
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
        live = sum(1 for t in self.tables.values() if not t.over and t.in_play())
        if live >= self.settings.max_live_tables:
            raise RequestError(503, "busy", "too many games in progress: try again later")
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
        seats, tokens = self._seats(game, body)
        self.quota.take(address)
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
        self.schedule(table)
        return table, tokens

    def _seats(self, game: Game, body: CreateTable) -> tuple[list[SeatData], dict[int, str]]:
        """The new table's seats, and a fresh token for each human seat."""
        tokens: dict[int, str] = {}
        seats: list[SeatData] = []
        for number, spec in enumerate(body.seats):
            if spec.kind == "human":
                token = tokens[number] = new_token()
                creator = len(tokens) == 1  # the first human seat: held from creation
                seats.append(
                    SeatData(
                        number, "human", None, spec.name, hash_token(token), creator, spec.reserved
                    )
                )
                continue
            agent = spec.agent or "heuristic"
            try:
                check_agent_spec(game, agent, self.settings)
            except EternaError as exc:
                raise RequestError(422, "bad_agent", f"seat {number}: {exc}") from None
            seats.append(SeatData(number, "bot", agent, spec.name or agent.partition(":")[0]))
        return seats, tokens

    def lobby(self) -> list[dict[str, Any]]:
        open_tables = [
            t for t in self.tables.values() if t.data.public and not t.over and t.open_seats()
        ]
        open_tables.sort(key=lambda t: -t.data.created_at)
        return [t.summary() for t in open_tables[: self.settings.lobby_limit]]

    async def join(self, table: LiveTable, name: str | None) -> tuple[int, str]:
        """Claim the first open seat of a public table with a fresh token (the seat's invite
        link, never used, stops working)."""
        async with table.lock:
            if not table.data.public:
                raise RequestError(403, "private", "this table is not open to the lobby")
            if table.over:
                raise RequestError(409, "game_over", "the game is over")
            open_seats = table.open_seats()
            if not open_seats:
                raise RequestError(409, "full", "no open seat at this table")
            seat = open_seats[0]
            token = new_token()
            digest = hash_token(token)
            await self.db(self.storage.claim_seat, table.id, seat, name, digest)
            data = table.data.seats[seat]
            data.claimed, data.name, data.token_hash = True, name, digest
        self.broadcast_presence(table)
        return seat, token

    def seat_for(self, table: LiveTable, token: str) -> int | None:
        return self.seat_in(table.data, token)

    def seat_in(self, data: TableData, token: str) -> int | None:
        """The seat `token` holds at the table, if any: tokens expire `token_ttl` seconds after
        the game ended (the table is then for spectators alone)."""
        ended = data.finished_at
        if ended is not None and time.time() - ended > self.settings.token_ttl:
            return None
        return find_seat(token, [s.token_hash for s in data.seats])

    async def rematch(self, table: LiveTable, token: str) -> tuple[str, str]:
        """The rematch of a finished table (created once; later calls return it): same game,
        options, seats, timer and visibility, a new seed. Tokens never carry over: each human
        seat of the rematch has a fresh token, reserved for that seat's player, who gets it on
        their own connection (a `rematch` frame) or as this call's answer. Returns the rematch's
        id and the caller's seat's token there."""
        seat = self.seat_for(table, token)
        if seat is None:
            raise RequestError(403, "bad_token", "this token holds no seat of this table")
        async with table.lock:
            if not table.over:
                raise RequestError(409, "not_over", "the game is not over yet")
            if table.data.rematch_id is None:
                await self._make_rematch(table)
        rematch_id = table.data.rematch_id or ""
        return rematch_id, await self._rematch_token(table, rematch_id, seat)

    async def _make_rematch(self, table: LiveTable) -> None:
        old = table.data
        game = load_game(old.game)
        tokens = {s.seat: new_token() for s in old.seats if s.kind == "human"}
        data = TableData(
            id=new_table_id(),
            game=old.game,
            players=old.players,
            seed=game.check_seed(None),
            options=dict(old.options),
            setup=None,
            public=old.public,
            turn_timer=old.turn_timer,
            bot_delay=old.bot_delay,
            status="playing",
            created_at=time.time(),
            version=RECORD_VERSION,
            seats=[
                SeatData(s.seat, s.kind, s.agent, s.name)
                if s.kind == "bot"
                else SeatData(s.seat, s.kind, None, s.name, hash_token(tokens[s.seat]), False, True)
                for s in old.seats
            ],
        )
        state = game.new_game(
            players=data.players, seed=data.seed, options=data.options, version=data.version
        )
        await self.db(self.storage.set_rematch, old.id, data)
        old.rematch_id = data.id
        table.rematch_tokens = tokens
        new = LiveTable(data, state)
        self.tables[data.id] = new
        self.schedule(new)
        for conn in list(table.conns):
            token = tokens.get(conn.seat) if conn.seat is not None else None
            conn.send_json(rematch_frame(data.id, token))

    async def _rematch_token(self, table: LiveTable, rematch_id: str, seat: int) -> str:
        """`seat`'s token at the rematch: the one made with it, else (the finished table was
        reloaded since) a fresh one, while the seat's player has not come to the rematch yet."""
        token = table.rematch_tokens.get(seat)
        if token is not None:
            return token
        new = await self.get(rematch_id)
        if new is None:
            raise RequestError(404, "not_found", "the rematch is gone")
        async with new.lock:
            data = new.data.seats[seat]
            if data.claimed:
                raise RequestError(409, "claimed", "your seat at the rematch is already taken")
            token = table.rematch_tokens[seat] = new_token()
            await self.db(self.storage.set_token, new.id, seat, hash_token(token))
            data.token_hash = hash_token(token)
        return token

    # ----------------------------------------------------------------- connections
    async def attach(self, table: LiveTable, conn: Connection) -> bool:
        """Welcome a connection: claim its seat if open, then welcome and the current update.
        False (nothing sent) when its token no longer holds its seat: checked again under the
        table's lock, so a join that replaced the token first always wins."""
        seat = conn.seat
        async with table.lock:
            if conn.token is not None and self.seat_for(table, conn.token) != seat:
                return False
            table.visited = table.visited or seat is not None
            if seat is not None and not table.data.seats[seat].claimed:
                data = table.data.seats[seat]
                await self.db(self.storage.claim_seat, table.id, seat, data.name)
                data.claimed = True
            if table._shown is None:  # the public history, replayed off the loop (once)
                table._shown = await self.store.replay(public_history, table.data)
            table.conns.add(conn)
            table.last_active = time.monotonic()
            conn.send_json(welcome_frame(seat, table.summary()))
            summary = _dumps(table.summary())
            backlog = _dumps(table.history_events(seat))  # the moves before this client came
            view = self._view_text(table, seat)
            told = Teller(table, table.state, 0)  # and every event so far, in its language
            conn.send(self._update_text(table, summary, backlog, view, told.parts(seat, conn.lang)))
            if table.data.rematch_id is not None:
                token = table.rematch_tokens.get(seat) if seat is not None else None
                conn.send_json(rematch_frame(table.data.rematch_id, token))
        if seat is not None:
            self.broadcast_presence(table, skip=conn)
        return True

    def detach(self, table: LiveTable, conn: Connection) -> None:
        table.conns.discard(conn)
        table.last_active = time.monotonic()
        if conn.seat is not None:
            self.broadcast_presence(table)
        self.forget_if_idle(table)

    def broadcast_presence(self, table: LiveTable, skip: Connection | None = None) -> None:
        """A seat was claimed, connected or left: everyone gets a small `presence` frame (the
        seats of the summary), encoded once, not a full update."""
        if not table.conns:
            return
        text = _dumps(presence_frame(seat_summaries(table.data, table.connected())))
        for conn in list(table.conns):
            if conn is not skip and not conn.closed:
                conn.send(text)

    # ----------------------------------------------------------------- frames
    def _view_text(self, table: LiveTable, seat: int | None) -> str:
        return _dumps(table.state.view(seat))

    def _update_text(
        self, table: LiveTable, summary: str, events: str, view: str, words: tuple[str, str]
    ) -> str:
        told, moves = words
        return update_text(table.ply, summary, view, events, table.deadline, told, moves)

    def _broadcast(
        self,
        table: LiveTable,
        public_events: str,
        events_for: Callable[[int], str],
        told_from: int | None = None,
    ) -> None:
        """One update to every connection: each seat's own view, encoded once per seat, and
        its events told since `told_from` (None: none) once per seat and language."""
        summary = _dumps(table.summary())
        teller = Teller(table, table.state, told_from)
        views: dict[int | None, str] = {}
        texts: dict[tuple[int | None, str], str] = {}
        for conn in list(table.conns):
            if conn.closed:
                continue
            key = (conn.seat, conn.lang)
            text = texts.get(key)
            if text is None:
                events = public_events if conn.seat is None else events_for(conn.seat)
                view = views.get(conn.seat)
                if view is None:
                    view = views[conn.seat] = self._view_text(table, conn.seat)
                words = teller.parts(conn.seat, conn.lang)
                text = texts[key] = self._update_text(table, summary, events, view, words)
            conn.send(text)

    # ----------------------------------------------------------------- actions
    async def submit(
        self, table: LiveTable, seat: int, text: str, ply: int | None = None
    ) -> Refusal | None:
        """Play `text` for `seat`. None when accepted (the update is the answer), else the
        refusal (the error frame's code and message, the rule's words). A refusal leaves the
        table exactly as it was.

        The work runs shielded: a submitter cancelled mid-way (a bot whose turn a human took, a
        closing connection) never leaves an action stored but not applied."""
        return await asyncio.shield(asyncio.ensure_future(self._submit(table, seat, text, ply)))

    async def _submit(
        self, table: LiveTable, seat: int, text: str, ply: int | None
    ) -> Refusal | None:
        async with table.lock:
            if table.over:
                return Refusal("game_over", "the game is over")
            if ply is not None and ply != table.ply:
                return Refusal("stale", f"the game is at ply {table.ply}, not {ply}")
            state = table.state
            if state.current_player != seat:
                return Refusal("not_your_turn", f"it is seat {state.current_player}'s turn")
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
                    PendingAction(table.id, number, seat, notation, result)
                )
            except PlyConflict:
                log.error("table %s: ply %d already stored: reloading it", table.id, number)
                await self._resync(table)
                return Refusal("stale", "the game moved on: here is where it stands")
            except Exception:
                log.exception("table %s: cannot store ply %d", table.id, number)
                return Refusal("server_error", "the action could not be stored; try again")
            # Stored: from here on the action is part of the game.
            await self._accepted(table, seat, notation, public, following, result, finished_at)
        return None

    async def _accepted(
        self,
        table: LiveTable,
        seat: int,
        notation: str,
        public: str | None,
        following: Any,
        result: tuple[list[int], list[int]] | None,
        finished_at: float,
    ) -> None:
        """A stored action becomes the table's state; everyone is told (with the table's lock
        held)."""
        told_from = told_since(table)
        table.state = following
        table.data.actions.append((seat, notation))
        table.shown(public)
        if result is not None:
            table.data.status = "over"
            table.data.finished_at = finished_at
            table.data.scores, table.data.winners = result
        self._cancel_pending(table)
        self._set_deadline(table)
        count = table.ply
        own = _dumps([{"ply": count, "seat": seat, "action": notation}])
        shown = (
            own
            if public == notation
            else _dumps(
                [{"ply": count, "seat": seat}]
                if public is None
                else [{"ply": count, "seat": seat, "action": public}]
            )
        )
        self._broadcast(table, shown, lambda s: own if s == seat else shown, told_from)
        if not table.over and table.ply >= self.settings.max_plies:
            await self._end_early(table, "ply_limit")
        self.schedule(table)
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
        self._cancel_pending(table)
        table.deadline = None
        self._broadcast(table, "[]", lambda _seat: "[]")
        log.info("table %s ended: %s", table.id, ended)

    async def _expire(self) -> None:
        """Every `expiry_sweep` seconds, end (as abandoned) the tables nobody has been connected
        to for `idle_expiry` seconds. Tables of bots alone play on: they end by themselves."""
        while True:
            await asyncio.sleep(self.settings.expiry_sweep)
            now = time.monotonic()
            for table in list(self.tables.values()):
                if table.over or table.conns or not table.has_humans():
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
        self._cancel_pending(table)
        self._set_deadline(table)
        self._broadcast(table, "[]", lambda _seat: "[]")
        self.schedule(table)


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
