"""All SQL of agent versions (agent_versions) and of what follows them: the schedules and
saved inputs of an agent, read when a new version is checked for breaking changes."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import AgentVersion, SavedInput, Schedule
from agora.models.statuses import ScheduleState

# Schedules that still run (docs/schedules.md): an ended one is never warned.
_LIVE_SCHEDULES = (ScheduleState.ACTIVE, ScheduleState.PAUSED)
# How many schedules and saved inputs a breaking-change check reads per agent (each warned).
USERS_LIMIT = 1000


async def latest(session: AsyncSession, agent_id: uuid.UUID) -> AgentVersion | None:
    return (
        await session.execute(
            select(AgentVersion)
            .where(AgentVersion.agent_id == agent_id)
            .order_by(AgentVersion.number.desc())
            .limit(1)
        )
    ).scalar_one_or_none()


async def get(session: AsyncSession, agent_id: uuid.UUID, number: int) -> AgentVersion | None:
    return (
        await session.execute(
            select(AgentVersion).where(
                AgentVersion.agent_id == agent_id, AgentVersion.number == number
            )
        )
    ).scalar_one_or_none()


async def newest_first(
    session: AsyncSession, agent_id: uuid.UUID, *, limit: int, offset: int = 0
) -> list[AgentVersion]:
    return list(
        (
            await session.execute(
                select(AgentVersion)
                .where(AgentVersion.agent_id == agent_id)
                .order_by(AgentVersion.number.desc())
                .offset(offset)
                .limit(limit)
            )
        ).scalars()
    )


def add(session: AsyncSession, version: AgentVersion) -> None:
    session.add(version)


@dataclass(frozen=True)
class InputUser:
    """A schedule or saved input of an agent: whose, its stored input, its pinned version."""

    kind: str  # schedule | saved_input
    id: uuid.UUID
    name: str
    user_id: uuid.UUID
    input_data: dict[str, Any]
    agent_version: int | None


async def input_users(session: AsyncSession, agent_id: uuid.UUID) -> list[InputUser]:
    """The live schedules and the saved inputs of ``agent_id`` (at most ``USERS_LIMIT`` each)."""
    schedules = (
        await session.execute(
            select(
                Schedule.id,
                Schedule.name,
                Schedule.user_id,
                Schedule.input_data,
                Schedule.agent_version,
            )
            .where(Schedule.agent_id == agent_id, Schedule.state.in_(_LIVE_SCHEDULES))
            .order_by(Schedule.created_at, Schedule.id)
            .limit(USERS_LIMIT)
        )
    ).all()
    saved = (
        await session.execute(
            select(
                SavedInput.id,
                SavedInput.name,
                SavedInput.user_id,
                SavedInput.input_data,
                SavedInput.agent_version,
            )
            .where(SavedInput.agent_id == agent_id)
            .order_by(SavedInput.created_at, SavedInput.id)
            .limit(USERS_LIMIT)
        )
    ).all()
    return [InputUser("schedule", *row) for row in schedules] + [
        InputUser("saved_input", *row) for row in saved
    ]
