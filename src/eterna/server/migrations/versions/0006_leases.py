"""Cluster leases: which node drives each unfinished table (its bots, turn timer and expiry),
until when, under which fencing token, and the turn deadline it armed (see leases.py).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("node", sa.String(64), nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False, index=True),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("deadline_ply", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("leases")
