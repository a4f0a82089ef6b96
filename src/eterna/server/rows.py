"""The database's tables as SQLAlchemy 2 typed ORM rows: what `Storage` reads and writes, and what
the Alembic migrations (`eterna/server/migrations`) create and upgrade. Split from storage.py,
which keeps the queries."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

TABLE_ID_LENGTH = 16
NOTATION_LENGTH = 200


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """One table: what replays its game, its settings, and its result once over."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(TABLE_ID_LENGTH), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    setup: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    public: Mapped[bool] = mapped_column(Boolean)
    turn_timer: Mapped[float | None] = mapped_column(Float, nullable=True)
    bot_delay: Mapped[float | None] = mapped_column(Float, nullable=True)
    status: Mapped[str] = mapped_column(String(16), index=True)  # "playing" | "over"
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    scores: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    winners: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(TABLE_ID_LENGTH), nullable=True)
    ended: Mapped[str | None] = mapped_column(String(16), nullable=True)  # migration 0002
    seed_chosen: Mapped[bool] = mapped_column(Boolean, default=False)
    # the record version (eterna.core.rng): which generator the seed drives; tables stored
    # before there were versions are version 1 (migration 0004)
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")


class SeatRow(Base):
    """One seat of a table. Human seats keep only the SHA-256 of their token."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        String(TABLE_ID_LENGTH), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" | "bot"
    agent: Mapped[str | None] = mapped_column(String(120), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed: Mapped[bool] = mapped_column(Boolean, default=False)
    reserved: Mapped[bool] = mapped_column(Boolean, default=False)  # migration 0003


class ActionRow(Base):
    """One accepted action: ply is its 0-based index in the record's action list."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(
        String(TABLE_ID_LENGTH), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(NOTATION_LENGTH))
    created_at: Mapped[float] = mapped_column(Float)


class SharedPositionRow(Base):
    """A position shared under a short id (migration 0005): its self-contained share code and
    the players' names shown with it (None: "Seat 1", "Seat 2"...). See shares.py."""

    __tablename__ = "shared_positions"

    id: Mapped[str] = mapped_column(String(TABLE_ID_LENGTH), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    code: Mapped[str] = mapped_column(Text)
    names: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
