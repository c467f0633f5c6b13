from __future__ import annotations

import uuid
from datetime import date, datetime

from sqlalchemy import CheckConstraint, Date, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    Timestamp,
    created_at_column,
    foreign_key,
    id_column,
    updated_at_column,
)


class Rating(Base):
    """A hirer's rating (1-5 stars) of the agent that ran one of their jobs, with an optional
    review and the agent developer's one reply. One per person per agent
    (``uq_ratings_user_agent``), rating their latest hire it was given from (``job_id``, unique);
    the agent's aggregate columns (``agents.rating_*``) change in the same transaction
    (ratings/service.py)."""

    __tablename__ = "ratings"
    __table_args__ = (
        CheckConstraint("stars BETWEEN 1 AND 5", name="stars_range"),
        Index("ix_ratings_agent", "agent_id", "created_at", "id"),
        Index("ix_ratings_user", "user_id"),
        Index("uq_ratings_user_agent", "user_id", "agent_id", unique=True),
    )

    id: Mapped[uuid.UUID] = id_column()
    job_id: Mapped[uuid.UUID] = foreign_key("jobs.id", "CASCADE", nullable=False, unique=True)
    agent_id: Mapped[uuid.UUID] = foreign_key("agents.id", "CASCADE", nullable=False)
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False)
    workspace_id: Mapped[uuid.UUID] = foreign_key("workspaces.id", "CASCADE", nullable=False)
    stars: Mapped[int] = mapped_column(Integer, nullable=False)
    review: Mapped[str | None] = mapped_column(Text)
    reply: Mapped[str | None] = mapped_column(Text)
    reply_user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    replied_at: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()


class RatingReport(Base):
    """Someone's report that a review is abusive: the operator lists them (admin API)."""

    __tablename__ = "rating_reports"
    __table_args__ = (
        Index("ix_rating_reports_open", "resolved_at", "created_at"),
        Index("uq_rating_reports_once", "rating_id", "user_id", unique=True),
    )

    id: Mapped[uuid.UUID] = id_column()
    rating_id: Mapped[uuid.UUID] = foreign_key("ratings.id", "CASCADE", nullable=False)
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False)
    reason: Mapped[str] = mapped_column(String(1000), nullable=False)
    resolved_at: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = created_at_column()


class Favourite(Base):
    """A person's favourite agent."""

    __tablename__ = "favourites"

    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", primary_key=True)
    agent_id: Mapped[uuid.UUID] = foreign_key("agents.id", "CASCADE", primary_key=True, index=True)
    created_at: Mapped[datetime] = created_at_column()


class AgentDailyCompletions(Base):
    """How many of an agent's jobs reached COMPLETED on one UTC day, every workspace's: the
    popularity sort sums the last 30 days (docs/agents.md, "Sorting"). jobs/lifecycle.py adds one
    (an atomic upsert) in the transaction that completes the job."""

    __tablename__ = "agent_daily_completions"

    agent_id: Mapped[uuid.UUID] = foreign_key("agents.id", "CASCADE", primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    count: Mapped[int] = mapped_column(Integer, nullable=False)
