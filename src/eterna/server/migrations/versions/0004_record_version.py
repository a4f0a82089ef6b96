"""The record version each table's seed is played under (`version`): tables stored before
record versions existed are version 1, so they replay through the generators they were played
with (eterna.core.legacy); new tables store the current version.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("version")
