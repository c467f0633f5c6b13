from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, Timestamp, created_at_column, foreign_key, id_column


class ConformanceRun(Base):
    """One run of the conformance suite over a listed or submitted agent (submission, review,
    the certification round). ``certified_on`` is the date of the badge the listing holds after
    this run (the latest passing run's time), NULL when it holds none."""

    __tablename__ = "conformance_runs"
    __table_args__ = (Index("ix_conformance_runs_agent", "agent_id", "ran_at", "id"),)

    id: Mapped[uuid.UUID] = id_column()
    agent_id: Mapped[uuid.UUID] = foreign_key("agents.id", "CASCADE", nullable=False)
    kind: Mapped[str] = mapped_column(String(20), nullable=False)  # submit | review | periodic
    suite_version: Mapped[str] = mapped_column(String(20), nullable=False)
    passed: Mapped[bool] = mapped_column(Boolean, nullable=False)
    # [{name, title, outcome, reason, rule}], in the suite's order
    checks: Mapped[list[Any]] = mapped_column(nullable=False)
    certified_on: Mapped[datetime | None] = mapped_column(Timestamp)
    ran_at: Mapped[datetime] = created_at_column()
