"""Alembic environment: runs migrations on the engine the server hands over (no alembic.ini)."""

from __future__ import annotations

from alembic import context

from eterna.server.rows import Base

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
        if connection.dialect.name == "postgresql":
            # several cluster nodes starting at once: one migrates, the others then find the
            # schema at its newest revision (the lock ends with the transaction)
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7285301)")
        context.run_migrations()
    connection.commit()
