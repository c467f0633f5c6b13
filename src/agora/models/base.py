"""Declarative base, naming convention (stable constraint names for Alembic on both databases)
and the column types every table shares."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Integer, MetaData, Uuid
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from agora.kit.ids import uuid7
from agora.kit.timeutil import utcnow

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# JSON everywhere, JSONB on PostgreSQL.
JSONType = JSON().with_variant(JSONB(), "postgresql")
# 64-bit on PostgreSQL; SQLite's INTEGER is already 64-bit.
BigInt = BigInteger().with_variant(Integer(), "sqlite")
Timestamp = DateTime(timezone=True)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: dict[Any, Any] = {
        uuid.UUID: Uuid(),
        datetime: Timestamp,
        dict[str, Any]: JSONType,
        list[Any]: JSONType,
    }


def id_column() -> Mapped[uuid.UUID]:
    return mapped_column(Uuid(), primary_key=True, default=uuid7)


def foreign_key(target: str, on_delete: str, **options: Any) -> Any:
    """A column referring to ``target`` (``"table.column"``), deleted or nulled with it as
    ``on_delete`` says; its type and, unless ``options`` say, its nullability come from the
    annotation (``Mapped[uuid.UUID | None]``: nullable)."""
    return mapped_column(ForeignKey(target, ondelete=on_delete), **options)


def created_at_column() -> Mapped[datetime]:
    return mapped_column(Timestamp, nullable=False, default=utcnow)


def updated_at_column() -> Mapped[datetime]:
    return mapped_column(Timestamp, nullable=False, default=utcnow, onupdate=utcnow)
