from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Index, Integer, String, Text, UniqueConstraint
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
from agora.models.statuses import JobStatus, JobType


class Job(Base):
    """A job run by an agent. The jobs table is also the dispatch queue.

    Money columns are integers in credit base units. Dispatch columns (``next_attempt_at``,
    ``lease_*``, ``attempts``) are owned by the dispatcher; status changes go through one module.
    """

    __tablename__ = "jobs"
    __table_args__ = (
        Index("ix_jobs_feed_workspace", "workspace_id", "updated_at", "id"),
        Index("ix_jobs_feed_creator", "workspace_id", "user_id", "updated_at", "id"),
        Index("ix_jobs_user_created", "user_id", "created_at", "id"),
        Index("ix_jobs_dispatch", "dispatch_state", "next_attempt_at"),
        Index("ix_jobs_project", "project_id"),
        # The feed filtered by project (or unassigned): keyset order within the project.
        Index("ix_jobs_feed_project", "workspace_id", "project_id", "updated_at", "id"),
        Index("ix_jobs_task", "task_id"),
        Index("ix_jobs_agent", "agent_id", "created_at"),
        UniqueConstraint("user_id", "idempotency_key", name="uq_jobs_user_idempotency_key"),
    )

    id: Mapped[uuid.UUID] = id_column()
    workspace_id: Mapped[uuid.UUID] = foreign_key("workspaces.id", "CASCADE", nullable=False)
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False)
    organization_id: Mapped[uuid.UUID | None] = foreign_key("organizations.id", "SET NULL")
    agent_id: Mapped[uuid.UUID] = foreign_key("agents.id", "RESTRICT", nullable=False)
    # The agent's version that runs it (agent_versions.number), set at admission; NULL for jobs
    # created before versions (they run against the agent's current base URL).
    agent_version: Mapped[int | None] = mapped_column(Integer)
    task_id: Mapped[uuid.UUID | None] = foreign_key("tasks.id", "SET NULL")
    project_id: Mapped[uuid.UUID | None] = foreign_key("projects.id", "SET NULL")
    name: Mapped[str] = mapped_column(String(500), nullable=False)
    status: Mapped[str] = mapped_column(String(40), nullable=False, default=JobStatus.PENDING)
    job_type: Mapped[str] = mapped_column(String(20), nullable=False, default=JobType.FREE)
    input_data: Mapped[dict[str, Any]] = mapped_column(JSONType, nullable=False, default=dict)
    result: Mapped[str | None] = mapped_column(Text)
    error: Mapped[str | None] = mapped_column(Text)

    # The agent's side (MIP-003)
    identifier_from_purchaser: Mapped[str] = mapped_column(String(64), nullable=False)
    agent_job_id: Mapped[str | None] = mapped_column(String(500))
    agent_job_status: Mapped[str | None] = mapped_column(String(40))
    on_chain_status: Mapped[str | None] = mapped_column(String(40))
    input_hash: Mapped[str | None] = mapped_column(String(64))
    # An open input request from the agent: {"statusId": ..., "inputSchema": {...}}
    input_request: Mapped[dict[str, Any] | None] = mapped_column(JSONType)

    # Payment through a Masumi payment node (payments/; null for the credits backend)
    payment_backend: Mapped[str | None] = mapped_column(String(20))
    blockchain_identifier: Mapped[str | None] = mapped_column(Text)
    # The contract's times (Unix ms), agentIdentifier, sellerVKey, purchase and refund state
    payment: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    result_hash: Mapped[str | None] = mapped_column(String(64))
    verified: Mapped[bool | None] = mapped_column(Boolean)
    # The buyer asked for a refund (POST /v1/jobs/{id}/refund); the dispatcher asks the node
    refund_requested_at: Mapped[datetime | None] = mapped_column(Timestamp)

    # Money, in base units. price = what the user pays (fee included).
    price: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    fee: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    refund: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    refund_fee: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    max_accepted_credits: Mapped[int | None] = mapped_column(BigInt)
    settled: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)

    # Idempotent creation
    idempotency_key: Mapped[str | None] = mapped_column(String(200))
    request_hash: Mapped[str | None] = mapped_column(String(64))

    # Share
    share_token: Mapped[str | None] = mapped_column(String(64), unique=True)
    share_public: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    share_recipient_organization_id: Mapped[uuid.UUID | None] = foreign_key(
        "organizations.id", "SET NULL"
    )
    share_user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    share_created_at: Mapped[datetime | None] = mapped_column(Timestamp)
    share_updated_at: Mapped[datetime | None] = mapped_column(Timestamp)

    # Dispatch (queue) state: queued | leased | waiting_input | done
    dispatch_state: Mapped[str] = mapped_column(String(20), nullable=False, default="queued")
    next_attempt_at: Mapped[datetime | None] = mapped_column(Timestamp)
    lease_owner: Mapped[str | None] = mapped_column(String(100))
    lease_expires_at: Mapped[datetime | None] = mapped_column(Timestamp)
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    poll_interval: Mapped[float | None] = mapped_column()
    deadline_at: Mapped[datetime | None] = mapped_column(Timestamp)

    started_at: Mapped[datetime | None] = mapped_column(Timestamp)
    completed_at: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()


class JobEvent(Base):
    """Every state change of a job, in order."""

    __tablename__ = "job_events"
    __table_args__ = (Index("ix_job_events_job", "job_id", "created_at", "id"),)

    id: Mapped[uuid.UUID] = id_column()
    job_id: Mapped[uuid.UUID] = foreign_key("jobs.id", "CASCADE", nullable=False)
    type: Mapped[str] = mapped_column(String(40), nullable=False)
    from_status: Mapped[str | None] = mapped_column(String(40))
    to_status: Mapped[str | None] = mapped_column(String(40))
    detail: Mapped[dict[str, Any]] = mapped_column(JSONType, nullable=False, default=dict)
    created_at: Mapped[datetime] = created_at_column()
