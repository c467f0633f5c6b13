"""Schedule bodies and responses (key family: Envelope A, Simple errors)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Credits, Schema, UtcDateTime

MissedPolicy = Literal["run_once", "skip"]


class TaskTemplate(ApiModel):
    """Each run creates a task with this name (the occurrence's local time appended) and the
    run's job belongs to it."""

    name: str = Field(min_length=1, max_length=400)
    description: str = Field(default="", max_length=10_000)


class ScheduleRule(ApiModel):
    """When a schedule runs: exactly one of ``cron`` (five fields, in ``timezone``) and
    ``intervalSeconds`` (at least 60, counted from ``startsAt``)."""

    cron: str | None = Field(default=None, max_length=200, examples=["0 9 * * MON"])
    intervalSeconds: int | None = Field(default=None, ge=1)
    timezone: str = Field(default="UTC", max_length=64, examples=["Europe/Berlin"])
    startsAt: datetime | None = Field(default=None, description="Default: now.")
    endsAt: datetime | None = None


class ScheduleCreate(ScheduleRule):
    agentId: str | None = Field(
        default=None, min_length=1, max_length=100, description="Required without savedInputId."
    )
    name: str | None = Field(default=None, max_length=200)
    inputData: dict[str, Any] | None = None
    agentVersion: int | None = Field(
        default=None,
        ge=1,
        description="Run this version of the agent at every occurrence; left out: the latest "
        "compatible version (the newest whose input schema accepts inputData).",
    )
    savedInputId: str | None = Field(
        default=None,
        max_length=100,
        description="One of your saved inputs: its agent, input and pinned version (instead of "
        "agentId, inputData and agentVersion).",
    )
    task: TaskTemplate | None = None
    maxAcceptedCredits: float | None = Field(default=None, ge=0)
    monthlyBudget: float | None = Field(
        default=None, ge=0, description="Credits the runs may hold per calendar month."
    )
    missedPolicy: MissedPolicy = "run_once"
    failureLimit: int = Field(default=5, ge=1, le=100)


class ScheduleUpdate(ApiModel):
    """Any of the creation fields but the agent; a changed rule restarts the occurrences from
    now. ``null`` clears ``endsAt``, ``task``, ``maxAcceptedCredits`` and ``monthlyBudget``."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    inputData: dict[str, Any] | None = None
    agentVersion: int | None = Field(
        default=None, ge=1, description="Pin a version; null: follow the latest compatible one."
    )
    task: TaskTemplate | None = None
    cron: str | None = Field(default=None, max_length=200)
    intervalSeconds: int | None = Field(default=None, ge=1)
    timezone: str | None = Field(default=None, max_length=64)
    startsAt: datetime | None = None
    endsAt: datetime | None = None
    maxAcceptedCredits: float | None = Field(default=None, ge=0)
    monthlyBudget: float | None = Field(default=None, ge=0)
    missedPolicy: MissedPolicy | None = None
    failureLimit: int | None = Field(default=None, ge=1, le=100)


class ScheduleOut(Schema):
    id: uuid.UUID
    name: str
    agent_id: uuid.UUID
    workspace_id: uuid.UUID
    user_id: uuid.UUID
    input_data: dict[str, Any]
    agent_version: int | None = Field(
        default=None, description="The pinned version; null: follows the latest compatible one."
    )
    task: dict[str, Any] | None = Field(default=None, validation_alias="task_template")
    cron: str | None
    interval_seconds: int | None
    timezone: str
    starts_at: UtcDateTime
    ends_at: UtcDateTime | None
    max_accepted_credits: Credits | None
    monthly_budget: Credits | None
    missed_policy: str
    failure_limit: int
    state: str = Field(description="active, paused or ended")
    state_reason: str | None
    consecutive_failures: int
    next_run_at: UtcDateTime | None
    last_run_at: UtcDateTime | None
    created_at: UtcDateTime
    updated_at: UtcDateTime


class ScheduleRunOut(Schema):
    id: uuid.UUID
    schedule_id: uuid.UUID
    occurrence_at: UtcDateTime
    status: str = Field(
        description="created, completed, failed, cancelled, skipped, missed or error"
    )
    reason: str | None
    job_id: uuid.UUID | None
    task_id: uuid.UUID | None
    credits: Credits
    missed_count: int
    created_at: UtcDateTime


class OccurrencesOut(BaseModel):
    occurrences: list[UtcDateTime]
    timezone: str
    local: list[str] = Field(description="The same times in the schedule's time zone (ISO 8601).")


class SchedulePage(BaseModel):
    success: bool = True
    data: list[ScheduleOut]
    nextCursor: str | None = None


class RunPage(BaseModel):
    success: bool = True
    data: list[ScheduleRunOut]
    nextCursor: str | None = None
