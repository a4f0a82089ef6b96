"""Leases of a cluster's tables, in PostgreSQL (docs/web.md, "Running on several machines").

Exactly one node drives an unfinished table (its bots, its turn timer, its expiry): the holder
of the table's lease, a row of `leases` with the node's id, an expiry and a fencing token. The
holder renews all its leases every `lease_renew` seconds; a lease not renewed for `lease_ttl`
seconds (its node died, or lost the database) is taken over by another node, which bumps the
token. A driven move carries its (node, token) and the database refuses it unless that lease is
still held (storage.py, `fenced_out`): a node that lost its lease can never write a bot's or a
timer's move. Every time is the database's clock, the one clock all nodes share.

Synchronous calls: the server runs them in its storage threads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy import text
from sqlalchemy.engine import Engine

from eterna.server.storage import DB_NOW


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

    def acquire(self, table_id: str, node: str, ttl: float) -> Lease | None:
        """Take the table's lease if nobody holds it (or its holder's expired): a new token.
        None when another node holds it."""
        with self.engine.begin() as conn:
            row = conn.execute(
                text(
                    "INSERT INTO leases (table_id, node, token, expires_at) "
                    f"VALUES (:t, :n, 1, {DB_NOW} + :ttl) "
                    "ON CONFLICT (table_id) DO UPDATE SET node = EXCLUDED.node, "
                    "token = leases.token + 1, expires_at = EXCLUDED.expires_at "
                    f"WHERE leases.expires_at <= {DB_NOW} "
                    "RETURNING token, deadline, deadline_ply"
                ),
                {"t": table_id, "n": node, "ttl": ttl},
            ).first()
        return None if row is None else Lease(int(row[0]), row[1], row[2])

    def renew(self, node: str, ttl: float, table_ids: Sequence[str]) -> dict[str, int]:
        """Extend the node's leases of these tables (the ones it drives) that it still holds;
        returns them (table id: token). A lease the node holds but no longer drives (it gave
        its tables up while Redis was away) is left to expire, and another sweep takes it."""
        if not table_ids:
            self.ping()  # the sweep still learns whether the database answers
            return {}
        with self.engine.begin() as conn:
            rows = conn.execute(
                text(
                    f"UPDATE leases SET expires_at = {DB_NOW} + :ttl WHERE node = :n "
                    f"AND table_id = ANY(:ids) AND expires_at > {DB_NOW} RETURNING table_id, token"
                ),
                {"n": node, "ttl": ttl, "ids": list(table_ids)},
            )
            return {str(r[0]): int(r[1]) for r in rows}

    def release(self, node: str) -> None:
        """Hand every lease of the node over (it is stopping): another node takes them at its
        next sweep, with the turn deadlines armed here."""
        with self.engine.begin() as conn:
            conn.execute(text("UPDATE leases SET expires_at = 0 WHERE node = :n"), {"n": node})

    def forget(self, node: str, table_ids: Sequence[str]) -> None:
        """Delete the node's leases of these tables (they are over)."""
        with self.engine.begin() as conn:
            conn.execute(
                text("DELETE FROM leases WHERE node = :n AND table_id = ANY(:ids)"),
                {"n": node, "ids": list(table_ids)},
            )

    def orphans(self, limit: int) -> list[str]:
        """Unfinished tables nobody drives: no lease, or an expired one."""
        with self.engine.begin() as conn:
            rows = conn.execute(
                text(
                    "SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id "
                    "WHERE t.status = 'playing' "
                    f"AND (l.table_id IS NULL OR l.expires_at <= {DB_NOW}) "
                    "ORDER BY t.created_at LIMIT :limit"
                ),
                {"limit": limit},
            )
            return [str(r[0]) for r in rows]

    def arm(self, table_id: str, node: str, token: int, deadline: float, ply: int) -> None:
        """Store the turn deadline the holder armed at `ply`: a new driver re-arms it."""
        with self.engine.begin() as conn:
            conn.execute(
                text(
                    "UPDATE leases SET deadline = :d, deadline_ply = :p "
                    "WHERE table_id = :t AND node = :n AND token = :k"
                ),
                {"d": deadline, "p": ply, "t": table_id, "n": node, "k": token},
            )

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
