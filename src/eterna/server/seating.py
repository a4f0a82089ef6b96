"""Seating and tokens: who holds which seat of a table, and with which token.

A new table's seats (a fresh token per human seat, the first one held by the creator from the
start, invite seats reserved), finding the seat a token holds (tokens expire `token_ttl` seconds
after the game ended), the lobby's joins, a connection admitted to its seat under the table's
lock, and a finished table's rematch with its own fresh tokens. The database keeps only the
tokens' hashes (security.py). Telling the table's connections is the broadcaster's job
(broadcast.py), starting a game's bots and timer the turn driver's (driver.py); on a cluster
node the other nodes are told through `peers` (peers.py).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from eterna.core.errors import EternaError
from eterna.core.game import Game
from eterna.core.registry import load_game
from eterna.core.rng import RECORD_VERSION
from eterna.server.broadcast import Broadcaster
from eterna.server.driver import TurnDriver
from eterna.server.live import Connection, LiveTable
from eterna.server.peers import Peers
from eterna.server.protocol import CreateTable
from eterna.server.security import find_seat, hash_token, new_table_id, new_token
from eterna.server.settings import RequestError, Settings
from eterna.server.storage import SeatData, Storage, TableData
from eterna.server.store import TableStore


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


class Seating:
    """Seats and tokens of every table (see the module's doc)."""

    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        db: Callable[..., Awaitable[Any]],
        store: TableStore,
        fanout: Broadcaster,
        driver: TurnDriver,
        peers: Peers | None = None,
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.db = db
        self.store = store
        self.fanout = fanout
        self.driver = driver
        self.peers = peers  # a cluster node: other nodes change seats too

    def _claimed(self, table: LiveTable, was_waiting: bool) -> None:
        """A seat was taken: when it was the last one the game starts (its timer, its bots),
        and everyone connected gets an update that says so."""
        if was_waiting and not table.waiting():
            self.driver.start(table)
            self.fanout.nothing_new(table)

    async def attach(self, table: LiveTable, conn: Connection) -> bool | None:
        """Welcome a connection: claim its seat if open, then welcome and the current update.
        False (nothing sent) when its token no longer holds its seat: checked again under the
        table's lock, so a join that replaced the token first always wins. None (nothing sent)
        when this copy of the table left memory meanwhile: attach to the table loaded again."""
        async with table.lock:
            if not await self.admit(table, conn):
                return False
            if not await self.fanout.welcome(table, conn):
                return None
        if conn.seat is not None:
            self.fanout.seats_here(table, skip=conn)
        return True

    def seats(self, game: Game, body: CreateTable) -> tuple[list[SeatData], dict[int, str]]:
        """A new table's seats, and a fresh token for each human seat."""
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

    def seat_for(self, table: LiveTable, token: str) -> int | None:
        return self.seat_in(table.data, token)

    def seat_in(self, data: TableData, token: str) -> int | None:
        """The seat `token` holds at the table, if any: tokens expire `token_ttl` seconds after
        the game ended (the table is then for spectators alone)."""
        ended = data.finished_at
        if ended is not None and time.time() - ended > self.settings.token_ttl:
            return None
        return find_seat(token, [s.token_hash for s in data.seats])

    async def admit(self, table: LiveTable, conn: Connection) -> bool:
        """With the table's lock held: False when the connection's token no longer holds its
        seat (a join replaced it since it was checked), else its seat is claimed if open."""
        seat = conn.seat
        if conn.token is not None and self.seat_for(table, conn.token) != seat:
            return False
        if seat is not None and conn.token is not None and not table.data.seats[seat].claimed:
            was_waiting = table.waiting()
            data = table.data.seats[seat]
            holder = hash_token(conn.token)
            if not await self.db(self.storage.claim_seat, table.id, seat, data.name, None, holder):
                # claimed first elsewhere (another connection of this token, or a join)
                await self.refresh(table)
                return self.seat_for(table, conn.token) == seat
            data.claimed = True
            self._claimed(table, was_waiting)
            if self.peers is not None:
                self.peers.claimed(table)
        return True

    async def refresh(self, table: LiveTable) -> None:
        """Read the table's seats again (another node changed them); the game starts if that
        took its last open seat."""
        seats = await self.db(self.storage.load_seats, table.id)
        if seats:
            was_waiting = table.waiting()
            table.data.seats = seats
            self._claimed(table, was_waiting)

    async def fresh(self, table_id: str, data: TableData) -> TableData:
        """On a cluster node, a table's seats read again (a join through another node may not
        have reached this node's copy yet); a single server's memory is always current."""
        table = self.store.tables.get(table_id)
        if self.peers is None or table is None or table.over:
            return data
        async with table.lock:
            await self.refresh(table)
        return table.data

    def _told(self, table: LiveTable) -> None:
        """A join or a fill changed the seats: everyone here is told, and the other nodes."""
        self.fanout.presence(table)
        if self.peers is not None:
            self.peers.claimed(table)

    async def join(self, table: LiveTable, name: str | None) -> tuple[int, str]:
        """Claim the first open seat of a public table with a fresh token (the seat's invite
        link, never used, stops working); everyone there is told."""
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
            was_waiting = table.waiting()
            if not await self.db(self.storage.claim_seat, table.id, seat, name, digest):
                await self.refresh(table)  # another node's join took it first
                raise RequestError(409, "claimed", "this seat was just taken: try another")
            data = table.data.seats[seat]
            data.claimed, data.name, data.token_hash = True, name, digest
            self._claimed(table, was_waiting)
        self._told(table)
        return seat, token

    @staticmethod
    def host_seat(data: TableData) -> int | None:
        """The host: the table's first human seat (the creator's, held from creation)."""
        return next((s.seat for s in data.seats if s.kind == "human"), None)

    async def fill(self, table: LiveTable, token: str, seat: int, agent: str) -> None:
        """The host gives an untaken human seat to a bot (`agent`, within the server's
        budget): its invite link stops working, and the game starts if it was the last one;
        everyone there is told."""
        host = self.host_seat(table.data)
        if host is None or self.seat_for(table, token) != host:
            raise RequestError(403, "not_host", "only the table's host can fill a seat")
        try:
            check_agent_spec(table.game, agent, self.settings)
        except EternaError as exc:
            raise RequestError(422, "bad_agent", f"seat {seat}: {exc}") from None
        async with table.lock:
            if table.over:
                raise RequestError(409, "game_over", "the game is over")
            if seat >= len(table.data.seats):
                raise RequestError(422, "bad_request", f"no seat {seat} at this table")
            data = table.data.seats[seat]
            if data.kind != "human" or data.claimed:
                raise RequestError(409, "claimed", "this seat is already taken")
            was_waiting = table.waiting()
            name = agent.partition(":")[0]
            if not await self.db(self.storage.fill_seat, table.id, seat, agent, name):
                await self.refresh(table)  # taken first through another node
                raise RequestError(409, "claimed", "this seat is already taken")
            data.kind, data.agent, data.name = "bot", agent, name
            data.token_hash, data.claimed, data.reserved = None, True, False
            self._claimed(table, was_waiting)
        self._told(table)

    # ----------------------------------------------------------------- rematches
    async def make_rematch(self, table: LiveTable) -> LiveTable | None:
        """With the finished table's lock held: store its rematch (same game, options, seats,
        timer and visibility, a new seed) with a fresh token per human seat, reserved for that
        seat's player (kept in `table.rematch_tokens`); the new table is in the store. None when
        another node stored the table's rematch first (its id and tokens are then taken)."""
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
        if self.peers is not None:  # read by a node whose rematch of this table lost the race
            await self.peers.keep_tokens(data.id, tokens)
        made = await self.db(self.storage.set_rematch, old.id, data)
        old.rematch_id = made
        if made != data.id:  # one rematch per table: another node's came first
            found = await self.peers.find_tokens(made) if self.peers is not None else {}
            table.rematch_tokens = found
            return None
        table.rematch_tokens = tokens
        new = LiveTable(data, state)
        await self.store.add(new)
        return new

    async def rematch_token(self, table: LiveTable, rematch_id: str, seat: int) -> str:
        """`seat`'s token at the rematch: the one made with it, else (the finished table was
        reloaded since) a fresh one, while the seat's player has not come to the rematch yet."""
        token = table.rematch_tokens.get(seat)
        if token is None and self.peers is not None:  # made by another node
            found = await self.peers.find_tokens(rematch_id)
            if found:
                table.rematch_tokens = found
                token = found.get(seat)
        if token is not None:
            return token
        new = await self.store.get(rematch_id)
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
