"""Leases of a cluster's tables, in PostgreSQL (docs/web.md, "Running on several machines").

Exactly one node drives an unfinished table (its bots, its turn timer, its expiry): the holder
of the table's lease. A node holds one lease of its own, a row of `node_leases` (its id, an
epoch and an expiry), which it renews every `lease_renew` seconds: one row a node, however many
tables it drives. A table's lease, a row of `table_leases`, names its node, that node's epoch
when it took the table, and a fencing token, and holds while that epoch of its node holds: a
node lease not renewed for `lease_ttl` seconds (its node died, or lost the database), or handed
over, lets go of every table of that node at once, and another node takes each over, bumping
its token; a node that lost its lease registers again under a new epoch, so that none of the
tables it held comes back to it by itself. A driven move carries its (node, token) and the
database refuses it unless that table lease is still held (storage.py, `fenced_out`): a node
that lost its lease can never write a bot's or a timer's move. Every time is the database's
clock, the one clock all nodes share.

Synchronous calls: the server runs them in its storage threads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy import text
from sqlalchemy.engine import Engine

from eterna.server.storage import DB_NOW

# seconds a new table is its maker's alone: no other node's sweep takes it up before then
# (created_at is the maker's clock, compared with PostgreSQL's: a few ms apart on NTP)
NEW_TABLE_GRACE = 2.0


class Lease(NamedTuple):
    """A lease just taken: its fencing token, and the turn deadline its last holder armed (at
    ply `deadline_ply`), if any."""

    token: int
    deadline: float | None
    deadline_ply: int | None


class LeaseStore:
    """The `leases` table (see the module's doc)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def register(self, node: str, ttl: float) -> int:
        """The node's lease, taken (again) under a new epoch: the tables of its earlier epochs
        are no longer its own."""
        with self.engine.begin() as conn:
            epoch = conn.execute(
                text(
                    "INSERT INTO node_leases (node, epoch, expires_at) "
                    f"VALUES (:n, 1, {DB_NOW} + :ttl) ON CONFLICT (node) DO UPDATE SET "
                    "epoch = node_leases.epoch + 1, expires_at = EXCLUDED.expires_at "
                    "RETURNING epoch"
                ),
                {"n": node, "ttl": ttl},
            ).scalar_one()
        return int(epoch)

    def renew(self, node: str, epoch: int, ttl: float) -> bool:
        """Extend the node's lease (and so every table lease of this epoch); False when it had
        lapsed or was handed over: its tables are no longer its own."""
        with self.engine.begin() as conn:
            row = conn.execute(
                text(
                    f"UPDATE node_leases SET expires_at = {DB_NOW} + :ttl WHERE node = :n "
                    f"AND epoch = :e AND expires_at > {DB_NOW} RETURNING epoch"
                ),
                {"n": node, "e": epoch, "ttl": ttl},
            ).first()
        return row is not None

    def acquire(self, table_id: str, node: str, epoch: int) -> Lease | None:
        """Take the table's lease if nobody holds it (no lease, or its node's epoch lapsed),
        while this node's own lease holds: a new token. None when another node holds it."""
        return self.acquire_all([table_id], node, epoch).get(table_id)

    def acquire_all(self, table_ids: Sequence[str], node: str, epoch: int) -> dict[str, Lease]:
        """`acquire` of every table at once, in one statement (a dead node's tables taken over
        in one round trip): the leases taken, by table, each with its new token and the turn
        deadline its last holder stored; a table another node holds is left out. The rows are
        written in the order of their ids, so that two nodes taking overlapping sets lock them
        in the same order (no deadlock) and one of them wins each table: the other's update
        waits for the winner's commit, then finds the table held."""
        ids = sorted(set(table_ids))
        if not ids:
            return {}
        with self.engine.begin() as conn:
            rows = conn.execute(
                text(
                    "INSERT INTO table_leases (table_id, node, epoch, token) "
                    "SELECT o.id, CAST(:n AS VARCHAR), CAST(:e AS BIGINT), 1 "
                    "FROM unnest(CAST(:ids AS VARCHAR[])) AS o(id) "
                    "WHERE EXISTS (SELECT 1 FROM node_leases "
                    f"WHERE node = :n AND epoch = :e AND expires_at > {DB_NOW}) "
                    "ORDER BY o.id "
                    "ON CONFLICT (table_id) DO UPDATE SET node = EXCLUDED.node, "
                    "epoch = EXCLUDED.epoch, token = table_leases.token + 1 "
                    "WHERE NOT EXISTS (SELECT 1 FROM node_leases h WHERE "
                    "h.node = table_leases.node AND h.epoch = table_leases.epoch "
                    f"AND h.expires_at > {DB_NOW}) "
                    "RETURNING table_id, token, deadline, deadline_ply"
                ),
                {"ids": ids, "n": node, "e": epoch},
            )
            return {str(r[0]): Lease(int(r[1]), r[2], r[3]) for r in rows}

    def release(self, node: str) -> None:
        """Hand every lease of the node over (it is stopping, or lost Redis): another node
        takes them at its next sweep, with the turn deadlines armed here."""
        with self.engine.begin() as conn:
            conn.execute(text("UPDATE node_leases SET expires_at = 0 WHERE node = :n"), {"n": node})

    def forget(self, node: str, table_ids: Sequence[str]) -> None:
        """Delete the node's leases of these tables (they are over)."""
        with self.engine.begin() as conn:
            conn.execute(
                text("DELETE FROM table_leases WHERE node = :n AND table_id = ANY(:ids)"),
                {"n": node, "ids": list(table_ids)},
            )

    def next_lapse(self, node: str) -> float | None:
        """Seconds until the first of the other nodes' leases lapses unless renewed (by the
        database's clock), None when no other node holds one: a live node renews long before,
        a dead one's lapses then, and its tables can be taken over from that instant."""
        with self.engine.begin() as conn:
            left = conn.execute(
                text(
                    f"SELECT min(expires_at) - {DB_NOW} FROM node_leases "
                    f"WHERE node <> :n AND expires_at > {DB_NOW}"
                ),
                {"n": node},
            ).scalar()
        return None if left is None else float(left)

    def orphans(self, limit: int, grace: float = NEW_TABLE_GRACE) -> list[str]:
        """Unfinished tables nobody drives: no lease, or its node's epoch lapsed. A table
        stored less than `grace` seconds ago is left to the node that made it, which takes its
        lease right after storing it (else two nodes race for every new table)."""
        with self.engine.begin() as conn:
            rows = conn.execute(
                text(
                    "SELECT t.id FROM tables t LEFT JOIN table_leases l ON l.table_id = t.id "
                    "LEFT JOIN node_leases n ON n.node = l.node AND n.epoch = l.epoch "
                    "WHERE t.status = 'playing' "
                    f"AND (n.node IS NULL OR n.expires_at <= {DB_NOW}) "
                    f"AND t.created_at <= {DB_NOW} - :grace "
                    "ORDER BY t.created_at LIMIT :limit"
                ),
                {"limit": limit, "grace": grace},
            )
            return [str(r[0]) for r in rows]

    def arm(self, table_id: str, node: str, token: int, deadline: float, ply: int) -> None:
        """Store the turn deadline the holder armed at `ply`: a new driver re-arms it."""
        with self.engine.begin() as conn:
            conn.execute(
                text(
                    "UPDATE table_leases SET deadline = :d, deadline_ply = :p "
                    "WHERE table_id = :t AND node = :n AND token = :k"
                ),
                {"d": deadline, "p": ply, "t": table_id, "n": node, "k": token},
            )

    def armed(self, table_id: str) -> tuple[float, int] | None:
        """The turn deadline the table's driver armed, and at which ply, if any: a node that
        loads a copy it does not drive shows its players the driver's countdown."""
        with self.engine.begin() as conn:
            row = conn.execute(
                text(
                    "SELECT deadline, deadline_ply FROM table_leases "
                    "WHERE table_id = :t AND deadline IS NOT NULL AND deadline_ply IS NOT NULL"
                ),
                {"t": table_id},
            ).first()
        return None if row is None else (float(row[0]), int(row[1]))

    def progress(self, table_ids: Sequence[str]) -> dict[str, tuple[str, int]]:
        """Each table's status and stored action count: a node checks its copies are current."""
        if not table_ids:
            return {}
        with self.engine.begin() as conn:
            rows = conn.execute(
                text(
                    "SELECT t.id, t.status, (SELECT count(*) FROM actions a "
                    "WHERE a.table_id = t.id) FROM tables t WHERE t.id = ANY(:ids)"
                ),
                {"ids": list(table_ids)},
            )
            return {str(r[0]): (str(r[1]), int(r[2])) for r in rows}

    def ping(self) -> None:
        with self.engine.begin() as conn:
            conn.execute(text("SELECT 1"))


__all__ = ["Lease", "LeaseStore"]
