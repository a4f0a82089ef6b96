"""Durable storage of tables, seats and actions (SQLAlchemy 2, typed ORM).

A table's state is never stored: only what replays it (game, players, seed, options, setup) and
the accepted actions, one row each, committed before anyone hears of them. Restarting replays
every table that is not over. The schema is created and upgraded by the Alembic migrations in
`eterna/server/migrations` (run at startup), so the same code drives SQLite and PostgreSQL.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    create_engine,
    event,
    func,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from eterna.server.rows import ActionRow, SeatRow, TableRow

# ----------------------------------------------------------------------------- plain records


@dataclass
class SeatData:
    seat: int
    kind: str
    agent: str | None = None
    name: str | None = None
    token_hash: str | None = None
    claimed: bool = False
    reserved: bool = False  # for its invite link only: never offered to the lobby


@dataclass
class TableData:
    """A table as the live side needs it, detached from any session."""

    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    setup: dict[str, Any] | None
    public: bool
    turn_timer: float | None
    bot_delay: float | None
    status: str
    created_at: float
    finished_at: float | None = None
    scores: list[int] | None = None
    winners: list[int] | None = None
    rematch_id: str | None = None
    ended: str | None = None  # why it ended before the game did: "abandoned", "ply_limit"
    seed_chosen: bool = False  # the creator chose the seed
    version: int = 1  # the record version its seed is played under (new tables: the current)
    seats: list[SeatData] = field(default_factory=list)
    actions: list[tuple[int, str]] = field(default_factory=list)  # (seat, notation) by ply


def _table_data(row: TableRow, seats: list[SeatRow], actions: list[ActionRow]) -> TableData:
    return TableData(
        id=row.id,
        game=row.game,
        players=row.players,
        seed=row.seed,
        options=dict(row.options or {}),
        setup=row.setup,
        public=row.public,
        turn_timer=row.turn_timer,
        bot_delay=row.bot_delay,
        status=row.status,
        created_at=row.created_at,
        finished_at=row.finished_at,
        scores=list(row.scores) if row.scores is not None else None,
        winners=list(row.winners) if row.winners is not None else None,
        rematch_id=row.rematch_id,
        ended=row.ended,
        seed_chosen=bool(row.seed_chosen),
        version=row.version,
        seats=[
            SeatData(s.seat, s.kind, s.agent, s.name, s.token_hash, s.claimed, bool(s.reserved))
            for s in sorted(seats, key=lambda s: s.seat)
        ],
        actions=[(a.seat, a.notation) for a in sorted(actions, key=lambda a: a.ply)],
    )


@dataclass
class PendingAction:
    """An action to store: ply is its 0-based index; `result` (scores, winners) ends the game."""

    table_id: str
    ply: int
    seat: int
    notation: str
    result: tuple[list[int], list[int]] | None = None
    # a driven move (a bot's, a timer's) on a cluster node: (node, fencing token) of the lease
    # it was decided under; the database refuses it unless that lease is still held (leases.py)
    fence: tuple[str, int] | None = None


class LeaseLost(Exception):
    """A driven move's fencing token is stale: another node drives the table now."""


class PlyConflict(Exception):
    """The action's ply is already stored: another writer got there first."""


class StorageBusy(Exception):
    """Another process holds the database's write lock longer than the caller would wait."""


SQLITE_BUSY_MS = 30_000  # how long storage calls off the loop wait for a write lock


# ----------------------------------------------------------------------------- the store


# a driven move's lease: the table's, under its token, of its node's epoch that still holds; the
# table's lease row locked until the move commits (a takeover, which updates it, waits)
FENCE_SQL = (
    "SELECT 1 FROM table_leases l JOIN node_leases n ON n.node = l.node AND n.epoch = l.epoch "
    "WHERE l.table_id = :t AND l.node = :n AND l.token = :k "
    "AND n.expires_at > extract(epoch from clock_timestamp()) FOR SHARE OF l"
)


def fenced_out(conn: Connection, batch: Sequence[PendingAction]) -> set[int]:
    """The ids of the batch's driven moves whose lease is no longer held by their node under
    their token (checked in the inserting transaction, the lease row locked until it commits, so
    a takeover waits for this write and then sees it)."""
    lost: set[int] = set()
    for item in batch:
        if item.fence is None:
            continue
        node, token = item.fence
        held = conn.execute(
            text(FENCE_SQL),
            {"t": item.table_id, "n": node, "k": token},
        ).first()
        if held is None:
            lost.add(id(item))
    return lost


DB_NOW = "extract(epoch from clock_timestamp())"  # PostgreSQL's clock: one for every node


def sqlite_url(data_dir: Path) -> str:
    return f"sqlite:///{(data_dir / 'eterna.sqlite3').resolve()}"


def make_engine(url: str) -> Engine:
    """An engine for `url`. SQLite runs in WAL mode with synchronous=NORMAL: a commit survives
    the process being killed (the WAL is written before COMMIT returns); only a power loss can
    drop the last transactions. Foreign keys are switched on so cascades work as on PostgreSQL."""
    if url.startswith("sqlite"):
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_MS / 1000},
            pool_size=4,
            max_overflow=4,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            # No checkpoint inside a commit (it would fsync on the event loop): the server runs
            # them from a worker thread every few seconds (`Storage.checkpoint`).
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=8, max_overflow=4)


class Storage:
    """Synchronous storage calls; the server runs them in a worker thread, never on the loop."""

    def __init__(self, url: str, migrate: bool = True) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._inline: Connection | None = None  # SQLite: the event loop's own (`_short`)
        self._inline_busy: int | None = None
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        self._insert_sql = (
            "INSERT INTO actions (table_id, ply, seat, notation, created_at) "
            f"VALUES ({mark}, {mark}, {mark}, {mark}, {mark})"
        )
        if migrate:
            from eterna.server.migrations import upgrade

            upgrade(self.engine)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def ping(self) -> None:
        """One round trip to the database (/api/health)."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")

    def close(self) -> None:
        if self._inline is not None:
            self._inline.close()
            self._inline = None
        self.checkpoint(final=True)
        self.engine.dispose()

    def checkpoint(self, final: bool = False) -> None:
        """SQLite: copy the write-ahead log into the database (PASSIVE: never blocks a writer;
        TRUNCATE at shutdown, leaving an empty log). Nothing to do elsewhere."""
        if self.dialect != "sqlite":
            return
        mode = "TRUNCATE" if final else "PASSIVE"
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
        except Exception:  # a busy database: the next checkpoint will do
            if final:
                raise

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self.sessions() as session, session.begin():
            yield session

    # --------------------------------------------------------------------- writes
    def create_table(self, table: TableData) -> None:
        with self.session() as s:
            self._add_table(s, table)

    @staticmethod
    def _add_table(s: Session, table: TableData) -> None:
        s.add(
            TableRow(
                id=table.id,
                game=table.game,
                players=table.players,
                seed=table.seed,
                options=table.options,
                setup=table.setup,
                public=table.public,
                turn_timer=table.turn_timer,
                bot_delay=table.bot_delay,
                status=table.status,
                created_at=table.created_at,
                seed_chosen=table.seed_chosen,
                version=table.version,
            )
        )
        s.flush()  # the table row first: seats reference it
        for seat in table.seats:
            s.add(
                SeatRow(
                    table_id=table.id,
                    seat=seat.seat,
                    kind=seat.kind,
                    agent=seat.agent,
                    name=seat.name,
                    token_hash=seat.token_hash,
                    claimed=seat.claimed,
                    reserved=seat.reserved,
                )
            )

    def add_action(
        self,
        table_id: str,
        ply: int,
        seat: int,
        notation: str,
        result: tuple[list[int], list[int]] | None = None,
    ) -> float:
        """Insert one action and commit; `result` (scores, winners) also marks the game over, in
        the same transaction. Returns the time it recorded. PlyConflict if the ply is taken."""
        outcome = self.add_actions([PendingAction(table_id, ply, seat, notation, result)])[0]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def add_actions(
        self, batch: Sequence[PendingAction], busy_ms: int | None = None
    ) -> list[float | Exception]:
        """Insert many actions (of different tables) in one transaction: one commit for all, the
        cost that dominates. Each gets its recorded time, or PlyConflict (the batch is then
        retried one action per transaction, so the others still go in). `busy_ms` (SQLite):
        wait at most this long for another process's write lock, then `StorageBusy`."""
        now = time.time()
        try:
            short = busy_ms is not None and self.dialect == "sqlite"
            opened = nullcontext(self._short(busy_ms)) if short else self.engine.connect()
            with opened as conn, conn.begin():
                lost = fenced_out(conn, batch)
                self._insert(conn, [b for b in batch if id(b) not in lost], now)
            return [
                LeaseLost(f"table {b.table_id}: lease lost") if id(b) in lost else now
                for b in batch
            ]
        except IntegrityError:
            if len(batch) == 1:
                item = batch[0]
                return [PlyConflict(f"table {item.table_id} already has ply {item.ply}")]
        except OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            return [StorageBusy("the database is locked by another writer")] * len(batch)
        out: list[float | Exception] = []
        for item in batch:
            out.extend(self.add_actions([item], busy_ms))
        return out

    def _short(self, busy_ms: int | None) -> Connection:
        """SQLite's connection for the commits made on the event loop, kept open with its
        short wait for a write lock (`busy_ms`) set once: setting it and restoring the pool's
        default around every commit took two more statements and commits a batch."""
        conn = self._inline
        if conn is None or conn.closed or conn.invalidated:
            if conn is not None:
                conn.close()
            conn = self._inline = self.engine.connect()
            self._inline_busy = None
        if self._inline_busy != busy_ms:
            self._busy_timeout(conn, int(busy_ms or 0))
            self._inline_busy = busy_ms
        return conn

    @staticmethod
    def _busy_timeout(conn: Connection, ms: int) -> None:
        """Set SQLite's wait for a lock on this connection (outside any transaction)."""
        conn.exec_driver_sql(f"PRAGMA busy_timeout={ms}")
        conn.commit()

    def _insert(self, conn: Connection, batch: Sequence[PendingAction], now: float) -> None:
        # The hot path of the server (one call per commit): driver SQL skips SQLAlchemy's
        # statement compilation, which costs more than SQLite's own insert.
        if not batch:
            return
        conn.exec_driver_sql(
            self._insert_sql,
            [(item.table_id, item.ply, item.seat, item.notation, now) for item in batch],
        )
        for item in batch:
            if item.result is not None:
                conn.execute(
                    update(TableRow)
                    .where(TableRow.id == item.table_id)
                    .values(
                        status="over",
                        finished_at=now,
                        scores=item.result[0],
                        winners=item.result[1],
                    )
                )

    def end_table(self, table_id: str, ended: str, scores: list[int]) -> float:
        """End a table that is not over without a result ("abandoned": nobody came back;
        "ply_limit": it reached the server's ply cap); it stays in history. Returns the time."""
        now = time.time()
        with self.session() as s:
            s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.status != "over")
                .values(status="over", finished_at=now, scores=scores, winners=[], ended=ended)
            )
        return now

    def claim_seat(
        self,
        table_id: str,
        seat: int,
        name: str | None,
        token_hash: str | None = None,
        holder: str | None = None,
    ) -> bool:
        """Mark an unclaimed human seat claimed, with a new token hash when joined from the
        lobby (then only if not reserved), or by the holder of the token hashed `holder`.
        Conditional: False (nothing written) when another request or node claimed it first."""
        values: dict[str, Any] = {"claimed": True, "name": name}
        where = [
            SeatRow.table_id == table_id,
            SeatRow.seat == seat,
            SeatRow.kind == "human",
            SeatRow.claimed.is_(False),
        ]
        if token_hash is not None:
            values["token_hash"] = token_hash
            where.append(SeatRow.reserved.is_(False))
        if holder is not None:
            where.append(SeatRow.token_hash == holder)
        with self.session() as s:
            done = s.execute(update(SeatRow).where(*where).values(**values))
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def fill_seat(self, table_id: str, seat: int, agent: str, name: str | None) -> bool:
        """Turn an unclaimed human seat into a bot (the host filled it): its link stops working.
        Conditional: False (nothing written) when the seat was taken first."""
        values: dict[str, Any] = {"kind": "bot", "agent": agent, "name": name}
        with self.session() as s:
            done = s.execute(
                update(SeatRow)
                .where(
                    SeatRow.table_id == table_id,
                    SeatRow.seat == seat,
                    SeatRow.kind == "human",
                    SeatRow.claimed.is_(False),
                )
                .values(**values, token_hash=None, claimed=True)
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def load_seats(self, table_id: str) -> list[SeatData]:
        """A table's seats as stored now (another node may have claimed or filled one)."""
        with self.session() as s:
            rows = s.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            )
            return [
                SeatData(r.seat, r.kind, r.agent, r.name, r.token_hash, r.claimed, bool(r.reserved))
                for r in rows
            ]

    def set_token(self, table_id: str, seat: int, token_hash: str) -> None:
        """Give an unclaimed seat a new token hash (a rematch seat's link made again)."""
        with self.session() as s:
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(token_hash=token_hash)
            )

    def set_rematch(self, table_id: str, rematch: TableData) -> str:
        """Link the finished table to its rematch and create it, in one transaction, unless it
        already has one (made first by another request or node): returns the rematch's id,
        `rematch.id` only when this call made it."""
        with self.session() as s:
            done = s.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.rematch_id.is_(None))
                .values(rematch_id=rematch.id)
            )
            if not done.rowcount:  # type: ignore[attr-defined]
                return str(s.scalar(select(TableRow.rematch_id).where(TableRow.id == table_id)))
            self._add_table(s, rematch)
        return rematch.id

    # --------------------------------------------------------------------- reads
    def _load(self, s: Session, rows: list[TableRow]) -> list[TableData]:
        if not rows:
            return []
        ids = [r.id for r in rows]
        seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
        actions: dict[str, list[ActionRow]] = {i: [] for i in ids}
        for seat in s.scalars(select(SeatRow).where(SeatRow.table_id.in_(ids))):
            seats[seat.table_id].append(seat)
        for action in s.scalars(select(ActionRow).where(ActionRow.table_id.in_(ids))):
            actions[action.table_id].append(action)
        return [_table_data(r, seats[r.id], actions[r.id]) for r in rows]

    def load_table(self, table_id: str) -> TableData | None:
        with self.session() as s:
            row = s.get(TableRow, table_id)
            return self._load(s, [row])[0] if row is not None else None

    def open_tables(self, limit: int) -> list[TableData]:
        """Public tables not over with a human seat nobody holds nor has reserved, newest
        first (a cluster's lobby)."""
        open_seat = (
            select(SeatRow.table_id)
            .where(SeatRow.kind == "human", SeatRow.claimed.is_(False), SeatRow.reserved.is_(False))
            .scalar_subquery()
        )
        with self.session() as s:
            rows = list(
                s.scalars(
                    select(TableRow)
                    .where(
                        TableRow.status == "playing",
                        TableRow.public.is_(True),
                        TableRow.id.in_(open_seat),
                    )
                    .order_by(TableRow.created_at.desc())
                    .limit(limit)
                )
            )
            return self._load(s, rows)

    def load_unfinished(self) -> list[TableData]:
        with self.session() as s:
            rows = list(s.scalars(select(TableRow).where(TableRow.status != "over")))
            return self._load(s, rows)

    def history(self, limit: int, offset: int) -> tuple[int, list[tuple[TableData, int]]]:
        """Finished public tables, newest first, each without its actions but with their count,
        and how many finished public tables there are in all (private ones are never listed)."""
        listed = (TableRow.status == "over") & TableRow.public.is_(True)
        with self.session() as s:
            total = s.scalar(select(func.count()).where(listed)) or 0
            rows = list(
                s.scalars(
                    select(TableRow)
                    .where(listed)
                    .order_by(TableRow.finished_at.desc(), TableRow.id)
                    .limit(limit)
                    .offset(offset)
                )
            )
            ids = [r.id for r in rows]
            seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
            plies: dict[str, int] = dict.fromkeys(ids, 0)
            if ids:
                for seat in s.scalars(select(SeatRow).where(SeatRow.table_id.in_(ids))):
                    seats[seat.table_id].append(seat)
                counted = s.execute(
                    select(ActionRow.table_id, func.count())
                    .where(ActionRow.table_id.in_(ids))
                    .group_by(ActionRow.table_id)
                )
                for table_id, count in counted:
                    plies[table_id] = count
            return int(total), [(_table_data(r, seats[r.id], []), plies[r.id]) for r in rows]
