"""Storage on every database it supports (SQLite always, PostgreSQL when available): the
migrations, tables, seats and actions, the one-row-per-ply rule, history, and a whole game
played through a server, stopped and resumed on the same database."""

from __future__ import annotations

import time
from typing import Any

import pytest
from server_helpers import start_server
from sqlalchemy import inspect, text

import eterna
from eterna.server.migrations import downgrade, upgrade
from eterna.server.storage import PlyConflict, SeatData, Storage, TableData


def table_data(table_id: str, status: str = "playing", created: float | None = None) -> TableData:
    return TableData(
        id=table_id,
        game="eternity",
        players=3,
        seed=(1 << 62) - 1,  # the largest seed fits
        options={"tie_break": "shared"},
        setup=None,
        public=True,
        turn_timer=30.0,
        bot_delay=None,
        status=status,
        created_at=created if created is not None else time.time(),
        seats=[
            SeatData(0, "human", None, "Ada", "a" * 64),
            SeatData(1, "human", None, None, "b" * 64),
            SeatData(2, "bot", "heuristic", "heuristic"),
        ],
    )


def test_migrations_are_idempotent_and_reversible(db_url: str) -> None:
    storage = Storage(db_url)
    names = set(inspect(storage.engine).get_table_names())
    assert {"tables", "seats", "actions", "alembic_version"} <= names
    with storage.engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0007"
    upgrade(storage.engine)  # already at head: nothing happens
    storage.create_table(table_data("keep"))
    storage.close()
    again = Storage(db_url)  # a restart keeps the data
    assert again.load_table("keep") is not None
    downgrade(again.engine, "base")
    assert "tables" not in set(inspect(again.engine).get_table_names())
    upgrade(again.engine)
    assert again.load_table("keep") is None
    again.close()


def test_tables_seats_and_actions_round_trip(db_url: str) -> None:
    storage = Storage(db_url)
    storage.create_table(table_data("t1"))
    storage.add_action("t1", 0, 1, "play sea-3")
    storage.add_action("t1", 1, 2, "pledge sky-11")
    with pytest.raises(PlyConflict):
        storage.add_action("t1", 1, 0, "play earth-1")  # one row per ply
    storage.claim_seat("t1", 1, "Bob", "c" * 64)
    loaded = storage.load_table("t1")
    assert loaded is not None
    assert loaded.seed == (1 << 62) - 1 and loaded.options == {"tie_break": "shared"}
    assert loaded.turn_timer == 30.0 and loaded.bot_delay is None
    assert loaded.actions == [(1, "play sea-3"), (2, "pledge sky-11")]
    assert [(s.kind, s.name, s.claimed) for s in loaded.seats] == [
        ("human", "Ada", False),
        ("human", "Bob", True),
        ("bot", "heuristic", False),
    ]
    assert loaded.seats[1].token_hash == "c" * 64
    assert [t.id for t in storage.load_unfinished()] == ["t1"]
    finished_at = storage.add_action("t1", 2, 0, "play earth-1", ([1, 2, 3], [2]))
    done = storage.load_table("t1")
    assert done is not None and done.status == "over"
    assert done.finished_at == pytest.approx(finished_at)
    assert done.scores == [1, 2, 3] and done.winners == [2]
    assert storage.load_unfinished() == []
    assert storage.load_table("missing") is None
    storage.close()


def test_a_refused_write_leaves_nothing_behind(db_url: str) -> None:
    storage = Storage(db_url)
    storage.create_table(table_data("t2"))
    storage.add_action("t2", 0, 0, "play sea-3")
    with pytest.raises(PlyConflict):
        storage.add_action("t2", 0, 0, "play sea-4", ([0, 0, 0], [0]))
    loaded = storage.load_table("t2")
    assert loaded is not None and loaded.status == "playing"  # the result was rolled back
    assert loaded.actions == [(0, "play sea-3")]
    storage.close()


def test_history_and_rematch_links(db_url: str) -> None:
    storage = Storage(db_url)
    for number in range(3):
        storage.create_table(table_data(f"h{number}"))
        storage.add_action(f"h{number}", 0, 0, "play sea-3")
        storage.add_action(f"h{number}", 1, 1, "play sea-4", ([number, 0, 0], [0]))
        time.sleep(0.01)
    storage.create_table(table_data("live"))
    total, rows = storage.history(limit=2, offset=0)
    assert total == 3
    assert [(data.id, plies) for data, plies in rows] == [("h2", 2), ("h1", 2)]
    _total, rest = storage.history(limit=10, offset=2)
    assert [data.id for data, _ in rest] == ["h0"]
    storage.set_rematch("h0", table_data("r0"))
    old = storage.load_table("h0")
    assert old is not None and old.rematch_id == "r0"
    assert storage.load_table("r0") is not None
    storage.close()


def play_until(server: Any, created: dict[str, Any], plies: int) -> None:
    """Seat 0 plays first-legal moves (bots play the others) until `plies` actions."""
    ws = server.ws(created["table_id"], created["seats"][0]["token"])
    while True:
        update = ws.update()
        if update["ply"] >= plies or update["table"]["status"] == "over":
            return
        if "legal_actions" in update["view"]:
            ws.act(update["view"]["legal_actions"][0], update["ply"])


def test_a_stopped_server_resumes_its_games(db_url: str) -> None:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot"}, {"kind": "bot", "agent": "random"}]
    first = start_server(database_url=db_url)
    try:
        created = first.create(game="eternity", players=3, seed=12, seats=seats)
        play_until(first, created, 20)
        before = first.summary(created["table_id"])
    finally:
        first.stop()
    second = start_server(database_url=db_url)
    try:
        resumed = second.summary(created["table_id"])
        assert resumed["plies"] >= before["plies"] >= 20
        play_until(second, created, 10_000)
        deadline = time.monotonic() + 30
        while second.summary(created["table_id"])["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        record = second.http.get(f"/api/tables/{created['table_id']}/record").json()
        state = eterna.replay(record)
        assert state.is_terminal and state.scores == record["meta"]["scores"]
    finally:
        second.stop()


def test_a_database_from_before_migration_0002_loads(db_url: str) -> None:
    storage = Storage(db_url)
    downgrade(storage.engine, "0001")
    storage.close()
    old = Storage(db_url, migrate=False)
    with old.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO tables (id, game, players, seed, options, public, status, "
                "created_at) VALUES ('old', 'eternity', 3, 1, '{}', true, 'playing', 0)"
            )
        )
    old.close()
    again = Storage(db_url)  # migrates to head
    data = again.load_table("old")
    assert data is not None and data.ended is None and data.seed_chosen is False
    assert data.version == 1  # stored before record versions: the legacy generators
    again.close()


def test_a_table_stored_before_record_versions_replays_its_own_deals(db_url: str) -> None:
    """Migration 0004: a table stored before record version 2 is version 1, and its record,
    its replays and its public history are the version-1 game; new tables are the current
    version."""
    from eterna.core.rng import RECORD_VERSION
    from eterna.server.live import public_history, replay_table, table_record

    storage = Storage(db_url)
    downgrade(storage.engine, "0003")
    storage.close()
    old = Storage(db_url, migrate=False)
    game = eterna.load_game("eternity")
    v1 = game.new_game(3, seed=11, version=1)
    first = str(v1.legal_actions()[0])
    with old.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO tables (id, game, players, seed, options, public, status, "
                "created_at) VALUES ('v1', 'eternity', 3, 11, '{}', true, 'playing', 0)"
            )
        )
    old.close()
    again = Storage(db_url)  # migrates to head
    again.add_action("v1", 0, v1.current_player or 0, first)
    data = again.load_table("v1")
    assert data is not None and data.version == 1
    record = table_record(data)
    assert "version" not in record  # a version-1 record, as written before versions
    v1.apply(first)
    assert replay_table(data).view(None) == v1.view(None)
    assert len(public_history(data)) == 1
    assert game.new_game(3, seed=11).view(None) != game.new_game(3, seed=11, version=1).view(None)
    fresh = table_data("v2")
    fresh.version = RECORD_VERSION
    again.create_table(fresh)
    stored = again.load_table("v2")
    assert stored is not None and table_record(stored)["version"] == RECORD_VERSION == 2
    again.close()


def test_seat_claims_fills_and_rematch_links_are_conditional(db_url: str) -> None:
    """Two servers racing for one seat or one rematch: one write wins, the other is told."""
    storage = Storage(db_url)
    storage.create_table(table_data("c1"))
    assert storage.claim_seat("c1", 1, "Bob", "c" * 64)  # joined from the lobby
    assert not storage.claim_seat("c1", 1, "Eve", "d" * 64)  # too late: nothing written
    assert not storage.fill_seat("c1", 1, "random", "random")
    assert not storage.claim_seat("c1", 2, "Eve", "d" * 64)  # a bot's seat is no one's
    seats = storage.load_seats("c1")
    assert (seats[1].name, seats[1].token_hash, seats[1].kind) == ("Bob", "c" * 64, "human")
    storage.create_table(table_data("c2"))
    assert not storage.claim_seat("c2", 1, None, None, "e" * 64)  # not this seat's token
    assert storage.claim_seat("c2", 1, None, None, "b" * 64)  # its own link's holder
    storage.create_table(table_data("c3"))
    assert storage.fill_seat("c3", 1, "random", "random")
    assert not storage.claim_seat("c3", 1, None, None, "b" * 64)  # its link stopped working
    assert storage.set_rematch("c1", table_data("m1")) == "m1"
    assert storage.set_rematch("c1", table_data("m2")) == "m1"  # one rematch per table
    assert storage.load_table("m2") is None and storage.load_table("m1") is not None
    storage.close()


def test_leases_fence_driven_moves(pg_url: str) -> None:
    """A node writes a bot's move only while it holds the table's lease, under its token: the
    lease of a node that stopped renewing its own (one row a node) lapses with it, is taken
    over, and refuses the old holder's write; a node that lost its lease holds none of its
    tables under its next epoch; a table just made is left to its maker (leases.py)."""
    from sqlalchemy import text

    from eterna.server.leases import LeaseStore
    from eterna.server.storage import LeaseLost, PendingAction

    storage = Storage(pg_url)
    leases = LeaseStore(storage.engine)
    for table_id in ("f1", "f2"):
        storage.create_table(table_data(table_id, created=time.time() - 60))
    a = leases.register("a", 0.3)
    first = leases.acquire("f1", "a", a)
    assert first is not None and leases.acquire("f2", "a", a) is not None
    b = leases.register("b", 5.0)
    assert leases.acquire("f1", "b", b) is None  # held by a
    assert leases.orphans(10) == []
    done = storage.add_actions([PendingAction("f1", 0, 1, "play sea-3", None, ("a", first.token))])
    assert isinstance(done[0], float)
    with storage.engine.begin() as conn:  # the view of the tables' leases, for the tools
        row = conn.execute(text("SELECT node, token FROM leases WHERE table_id = 'f1'")).first()
    assert row is not None and tuple(row) == ("a", first.token)
    time.sleep(0.4)  # a stops renewing: both its tables lapse with its one row
    assert sorted(leases.orphans(10)) == ["f1", "f2"] and not leases.renew("a", a, 5.0)
    second = leases.acquire("f1", "b", b)
    assert second is not None and second.token == first.token + 1
    assert leases.renew("b", b, 5.0)
    stale = PendingAction("f1", 1, 2, "pledge sky-11", None, ("a", first.token))
    assert isinstance(storage.add_actions([stale])[0], LeaseLost)
    again = leases.register("a", 5.0)  # a comes back under a new epoch: f2 is not its own
    assert again == a + 1 and leases.orphans(10) == ["f2"]
    old_epoch = PendingAction("f2", 0, 1, "play sea-3", None, ("a", 1))
    assert isinstance(storage.add_actions([old_epoch])[0], LeaseLost)
    assert leases.acquire("f2", "a", a) is None  # not under its lapsed epoch
    assert leases.acquire("f2", "a", again) is not None
    leases.arm("f1", "b", second.token, 123.5, 1)
    assert leases.progress(["f1"]) == {"f1": ("playing", 1)}
    leases.release("b")  # b stops: c takes over at once, with the deadline b armed
    assert not leases.renew("b", b, 5.0)
    third = leases.acquire("f1", "c", leases.register("c", 5.0))
    assert third is not None and (third.deadline, third.deadline_ply) == (123.5, 1)
    leases.forget("c", ["f1"])
    assert leases.progress(["f1"]) == {"f1": ("playing", 1)} and leases.orphans(10) == ["f1"]
    storage.create_table(table_data("new"))  # just made: its maker's for NEW_TABLE_GRACE
    assert leases.orphans(10) == ["f1"] and leases.orphans(10, grace=0.0) == ["f1", "new"]
    storage.close()


def test_loop_commits_store_as_the_storage_does(pg_url: str) -> None:
    """PostgreSQL's group commits from the event loop (loop_commits.py) give each action what
    `Storage.add_actions` gives: its time, `PlyConflict` for a ply already stored (the rest of
    its batch still stored), `LeaseLost` for a driven move under a stale token; a connection
    that broke is opened again, and a database out of reach raises SQLAlchemy's
    OperationalError (the `unavailable` refusal)."""
    import asyncio

    from sqlalchemy.exc import OperationalError

    from eterna.server.leases import LeaseStore
    from eterna.server.loop_commits import LoopCommits
    from eterna.server.storage import LeaseLost, PendingAction

    storage = Storage(pg_url)
    leases = LeaseStore(storage.engine)
    storage.create_table(table_data("l1"))
    lease = leases.acquire("l1", "a", leases.register("a", 5.0))
    assert lease is not None

    async def main() -> None:
        commits = LoopCommits(pg_url)
        first = await commits.add_actions([PendingAction("l1", 0, 1, "play sea-3")])
        assert isinstance(first[0], float)
        again = await commits.add_actions(
            [PendingAction("l1", 0, 1, "play sea-3"), PendingAction("l1", 1, 2, "pledge sky-11")]
        )
        assert isinstance(again[0], PlyConflict) and isinstance(again[1], float)
        assert commits.conn is not None
        await commits.conn.close()  # broken meanwhile: opened again
        driven = await commits.add_actions(
            [
                PendingAction("l1", 2, 0, "pass", None, ("a", lease.token + 1)),  # stale
                PendingAction("l1", 2, 0, "pledge sea-4", None, ("a", lease.token)),
            ]
        )
        assert isinstance(driven[0], LeaseLost) and isinstance(driven[1], float)
        await commits.close()
        gone = LoopCommits("postgresql+psycopg://eterna@127.0.0.1:1/nowhere")
        with pytest.raises(OperationalError):
            await gone.add_actions([PendingAction("l1", 3, 1, "pass")])

    asyncio.run(main())
    loaded = storage.load_table("l1")
    assert loaded is not None
    assert loaded.actions == [(1, "play sea-3"), (2, "pledge sky-11"), (0, "pledge sea-4")]
    storage.close()
