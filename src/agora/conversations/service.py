"""Conversation rules. A conversation is owned by one user in one workspace: anyone else,
including other members of the workspace, gets 404. Archive/unarchive are idempotent; an
archived conversation takes no new messages (400) until unarchived. Appending a message bumps
the conversation's ``updated_at`` in the same transaction (the history feed orders by it).
Services flush; the caller owns the transaction."""

from __future__ import annotations

from typing import Literal

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal
from agora.conversations import repository as repo
from agora.conversations.schemas import ConversationCreate, ConversationUpdate, MessageCreate
from agora.kit.errors import BadRequest
from agora.kit.fields import patch_fields, trimmed
from agora.kit.ids import fetch_by_id
from agora.kit.pagination import Page, PageParams
from agora.kit.timeutil import utcnow
from agora.models import Conversation, Message

Archived = Literal["false", "true", "all"]


def _clean_title(title: str) -> str:
    return trimmed("title", title, 500)


async def create_conversation(
    session: AsyncSession, principal: Principal, body: ConversationCreate
) -> Conversation:
    conversation = Conversation(
        workspace_id=principal.workspace_id,
        user_id=principal.user_id,
        title=_clean_title(body.title),
        description=body.description,
    )
    await repo.add(session, conversation)
    return conversation


async def list_conversations(
    session: AsyncSession, principal: Principal, archived: Archived, paging: PageParams
) -> Page[Conversation]:
    conditions = repo.listing_conditions(principal.workspace_id, principal.user_id, archived)
    total = await repo.count(session, conditions)
    items = await repo.page(session, conditions, offset=paging.offset, limit=paging.limit)
    return Page(items, total)


async def get_conversation(
    session: AsyncSession, principal: Principal, conversation_id: str, *, for_update: bool = False
) -> Conversation:
    """One of the caller's conversations (anyone else's, or a malformed id: 404)."""
    workspace_id, user_id = principal.workspace_id, principal.user_id
    return await fetch_by_id(
        conversation_id,
        "Conversation",
        lambda parsed: repo.get(session, workspace_id, user_id, parsed, for_update=for_update),
    )


async def update_conversation(
    session: AsyncSession, principal: Principal, conversation_id: str, body: ConversationUpdate
) -> Conversation:
    given = patch_fields(body)
    conversation = await get_conversation(session, principal, conversation_id, for_update=True)
    if "title" in given:
        conversation.title = _clean_title(given["title"])
    if "description" in given:
        conversation.description = given["description"]
    conversation.updated_at = utcnow()
    await session.flush()
    return conversation


async def set_archived(
    session: AsyncSession, principal: Principal, conversation_id: str, *, archived: bool
) -> Conversation:
    conversation = await get_conversation(session, principal, conversation_id, for_update=True)
    if (conversation.archived_at is not None) == archived:
        return conversation
    now = utcnow()
    conversation.archived_at = now if archived else None
    conversation.updated_at = now
    await session.flush()
    return conversation


async def append_message(
    session: AsyncSession, principal: Principal, conversation_id: str, body: MessageCreate
) -> Message:
    conversation = await get_conversation(session, principal, conversation_id, for_update=True)
    if conversation.archived_at is not None:
        raise BadRequest("The conversation is archived; unarchive it to add messages")
    now = utcnow()
    message = Message(
        conversation_id=conversation.id,
        role=body.role,
        content=body.content,
        author_id=principal.user_id if body.role == "user" else None,
        created_at=now,
    )
    conversation.updated_at = now
    await repo.add(session, message)
    return message


async def list_messages(
    session: AsyncSession, principal: Principal, conversation_id: str, paging: PageParams
) -> Page[Message]:
    conversation = await get_conversation(session, principal, conversation_id)
    total = await repo.count_messages(session, conversation.id)
    items = await repo.messages(session, conversation.id, offset=paging.offset, limit=paging.limit)
    return Page(items, total)
