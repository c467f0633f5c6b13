"""All SQL of saved inputs (saved_inputs): a person's named inputs for an agent."""

from __future__ import annotations

import uuid

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import SavedInput


async def add(session: AsyncSession, saved: SavedInput) -> None:
    session.add(saved)
    await session.flush()


async def owned(
    session: AsyncSession, saved_id: uuid.UUID, user_id: uuid.UUID, workspace_id: uuid.UUID
) -> SavedInput | None:
    """The saved input if it is the person's, in this workspace (any other: None)."""
    return (
        await session.execute(
            select(SavedInput).where(
                SavedInput.id == saved_id,
                SavedInput.user_id == user_id,
                SavedInput.workspace_id == workspace_id,
            )
        )
    ).scalar_one_or_none()


async def of_agent(
    session: AsyncSession,
    agent_id: uuid.UUID,
    user_id: uuid.UUID,
    workspace_id: uuid.UUID,
    *,
    limit: int,
) -> list[SavedInput]:
    """The person's saved inputs for the agent, in this workspace, newest first."""
    return list(
        (
            await session.execute(
                select(SavedInput)
                .where(
                    SavedInput.agent_id == agent_id,
                    SavedInput.user_id == user_id,
                    SavedInput.workspace_id == workspace_id,
                )
                .order_by(SavedInput.created_at.desc(), SavedInput.id.desc())
                .limit(limit)
            )
        ).scalars()
    )


async def count_of_agent(
    session: AsyncSession, agent_id: uuid.UUID, user_id: uuid.UUID, workspace_id: uuid.UUID
) -> int:
    found = await session.scalar(
        select(func.count()).where(
            SavedInput.agent_id == agent_id,
            SavedInput.user_id == user_id,
            SavedInput.workspace_id == workspace_id,
        )
    )
    return int(found or 0)


async def remove(session: AsyncSession, saved_id: uuid.UUID) -> None:
    await session.execute(delete(SavedInput).where(SavedInput.id == saved_id))
