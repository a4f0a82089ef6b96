"""Alembic environment: runs migrations on the engine the server hands over (no alembic.ini)."""

from __future__ import annotations

from alembic import context

from eterna.server.storage import Base

config = context.config
engine = config.attributes.get("engine")
if engine is None:  # run from the alembic command line: the URL comes from the ini file
    from sqlalchemy import create_engine

    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")

with engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
