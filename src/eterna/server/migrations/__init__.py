"""Alembic migrations of the server's schema, shipped inside the package and run at startup.

`upgrade(engine)` brings any database (SQLite or PostgreSQL) to the newest revision, so a new
release upgrades an old data folder on its first start. New revisions go in `versions/` (an
`alembic.ini` with `script_location = <this folder>` lets `alembic revision` write one from
`script.py.mako`).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

HERE = Path(__file__).resolve().parent


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", str(HERE))
    config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Run every migration up to `revision` (an up-to-date database is left alone)."""
    command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    command.downgrade(alembic_config(engine), revision)
