from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import CheckConstraint, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    BigInt,
    JSONType,
    Timestamp,
    created_at_column,
    foreign_key,
    id_column,
    updated_at_column,
)


class Schedule(Base):
    """A recurring run of an agent (docs/schedules.md): a cron expression in a time zone, or an
    interval, from ``starts_at`` to an optional ``ends_at``. ``next_run_at`` (UTC) is the next
    occurrence not yet recorded; the scheduler claims due schedules with a lease (``lease_owner``,
    ``lease_expires_at``) as the dispatcher claims jobs."""

    __tablename__ = "schedules"
    __table_args__ = (
        CheckConstraint("(cron IS NULL) <> (interval_seconds IS NULL)", name="one_rule"),
        CheckConstraint("interval_seconds IS NULL OR interval_seconds >= 60", name="interval_min"),
        CheckConstraint("consecutive_failures >= 0", name="failures_not_negative"),
        Index("ix_schedules_due", "state", "next_run_at"),
        Index("ix_schedules_owner", "workspace_id", "user_id", "created_at"),
    )

    id: Mapped[uuid.UUID] = id_column()
    workspace_id: Mapped[uuid.UUID] = foreign_key("workspaces.id", "CASCADE", nullable=False)
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False)
    agent_id: Mapped[uuid.UUID] = foreign_key("agents.id", "CASCADE", nullable=False)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    input_data: Mapped[dict[str, Any]] = mapped_column(JSONType, nullable=False, default=dict)
    # A pinned agent version (agent_versions.number), or NULL: the latest compatible version
    # (the newest whose input schema accepts input_data) at each run.
    agent_version: Mapped[int | None] = mapped_column(Integer)
    # The task template: each run creates a task (name, description) and its job.
    task_template: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    cron: Mapped[str | None] = mapped_column(String(200))
    interval_seconds: Mapped[int | None] = mapped_column(Integer)
    timezone: Mapped[str] = mapped_column(String(64), nullable=False, default="UTC")
    starts_at: Mapped[datetime] = mapped_column(Timestamp, nullable=False)
    ends_at: Mapped[datetime | None] = mapped_column(Timestamp)
    max_accepted_credits: Mapped[int | None] = mapped_column(BigInt)
    monthly_budget: Mapped[int | None] = mapped_column(BigInt)
    missed_policy: Mapped[str] = mapped_column(String(20), nullable=False, default="run_once")
    failure_limit: Mapped[int] = mapped_column(Integer, nullable=False, default=5)
    state: Mapped[str] = mapped_column(String(20), nullable=False, default="active")
    state_reason: Mapped[str | None] = mapped_column(Text)
    consecutive_failures: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    next_run_at: Mapped[datetime | None] = mapped_column(Timestamp)
    last_run_at: Mapped[datetime | None] = mapped_column(Timestamp)
    lease_owner: Mapped[str | None] = mapped_column(String(100))
    lease_expires_at: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()


class ScheduleRun(Base):
    """One occurrence of a schedule, recorded once: ``(schedule_id, occurrence_at)`` is unique, so
    however many workers race (or restart), an occurrence makes at most one job. ``status``:
    created (a job was made), completed / failed / cancelled (its job ended so), skipped
    (balance, cap or budget: ``reason``), missed (downtime, the missed-occurrence policy), error
    (the job could not be created: ``reason``). ``period`` (``YYYY-MM`` in the schedule's time
    zone) and ``credits`` (held) count against the monthly budget."""

    __tablename__ = "schedule_runs"
    __table_args__ = (
        UniqueConstraint("schedule_id", "occurrence_at", name="uq_schedule_runs_occurrence"),
        Index("ix_schedule_runs_open", "status", "job_id"),
    )

    id: Mapped[uuid.UUID] = id_column()
    schedule_id: Mapped[uuid.UUID] = foreign_key("schedules.id", "CASCADE", nullable=False)
    occurrence_at: Mapped[datetime] = mapped_column(Timestamp, nullable=False)
    status: Mapped[str] = mapped_column(String(20), nullable=False)
    reason: Mapped[str | None] = mapped_column(Text)
    job_id: Mapped[uuid.UUID | None] = foreign_key("jobs.id", "SET NULL")
    task_id: Mapped[uuid.UUID | None] = foreign_key("tasks.id", "SET NULL")
    period: Mapped[str] = mapped_column(String(7), nullable=False)
    credits: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    missed_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
