"""A lease per node: each node renews one row of `node_leases` (its epoch and expiry) instead
of one lease row per table it drives; a table's lease (`table_leases`) names its node, the
node's epoch when it took the table, and the table's fencing token, and holds while that epoch
of its node does (see leases.py). `leases` stays as a view with the same columns as before
(a table's expiry is its node's), for the tools that ask which node drives a table.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

VIEW = (
    "CREATE VIEW leases AS SELECT l.table_id, l.node, l.token, "
    "COALESCE(n.expires_at, 0) AS expires_at, l.deadline, l.deadline_ply "
    "FROM table_leases l LEFT JOIN node_leases n ON n.node = l.node AND n.epoch = l.epoch"
)


def upgrade() -> None:
    op.create_table(
        "node_leases",
        sa.Column("node", sa.String(64), primary_key=True),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("node", sa.String(64), nullable=False, index=True),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("deadline_ply", sa.Integer, nullable=True),
    )
    # the tables' tokens carry on (epoch 0 is no node's: every lease is taken again, token + 1)
    op.execute(
        "INSERT INTO table_leases (table_id, node, epoch, token, deadline, deadline_ply) "
        "SELECT table_id, node, 0, token, deadline, deadline_ply FROM leases"
    )
    op.drop_table("leases")
    op.execute(VIEW)


def downgrade() -> None:
    op.execute("DROP VIEW leases")
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("node", sa.String(64), nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False, index=True),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("deadline_ply", sa.Integer, nullable=True),
    )
    op.execute(
        "INSERT INTO leases (table_id, node, token, expires_at, deadline, deadline_ply) "
        "SELECT table_id, node, token, 0, deadline, deadline_ply FROM table_leases"
    )
    op.drop_table("table_leases")
    op.drop_table("node_leases")
