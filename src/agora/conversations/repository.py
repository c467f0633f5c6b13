"""All SQL for conversations and their messages."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Conversation, Message


async def add(session: AsyncSession, row: Conversation | Message) -> None:
    session.add(row)
    await session.flush()


def owned(workspace_id: uuid.UUID, user_id: uuid.UUID) -> list[Any]:
    return [Conversation.workspace_id == workspace_id, Conversation.user_id == user_id]


async def get(
    session: AsyncSession,
    workspace_id: uuid.UUID,
    user_id: uuid.UUID,
    conversation_id: uuid.UUID,
    *,
    for_update: bool = False,
) -> Conversation | None:
    query = select(Conversation).where(
        Conversation.id == conversation_id, *owned(workspace_id, user_id)
    )
    if for_update:
        query = query.with_for_update()
    return await session.scalar(query)


async def count(session: AsyncSession, conditions: Sequence[Any]) -> int:
    query = select(func.count()).select_from(Conversation).where(*conditions)
    return int(await session.scalar(query) or 0)


async def page(
    session: AsyncSession, conditions: Sequence[Any], *, offset: int, limit: int
) -> list[Conversation]:
    result = await session.scalars(
        select(Conversation)
        .where(*conditions)
        .order_by(Conversation.updated_at.desc(), Conversation.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return list(result)


async def count_messages(session: AsyncSession, conversation_id: uuid.UUID) -> int:
    query = (
        select(func.count()).select_from(Message).where(Message.conversation_id == conversation_id)
    )
    return int(await session.scalar(query) or 0)


async def messages(
    session: AsyncSession, conversation_id: uuid.UUID, *, offset: int, limit: int
) -> list[Message]:
    result = await session.scalars(
        select(Message)
        .where(Message.conversation_id == conversation_id)
        .order_by(Message.created_at, Message.id)
        .offset(offset)
        .limit(limit)
    )
    return list(result)


def listing_conditions(workspace_id: uuid.UUID, user_id: uuid.UUID, archived: str) -> list[Any]:
    """The caller's conversations; ``archived`` "true", "false", or anything else for both."""
    conditions = owned(workspace_id, user_id)
    if archived == "false":
        conditions.append(Conversation.archived_at.is_(None))
    elif archived == "true":
        conditions.append(Conversation.archived_at.is_not(None))
    return conditions
